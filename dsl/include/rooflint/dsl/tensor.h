#pragma once
/// @file tensor.h
/// Tensors of a spec: a dtype, a shape of named dimensions, a role (read, written, both) and the
/// kernel parameter (by index) that points at the data.
///
///     rooflint::dsl::in<0>("A", f32, M, K)      // A: (M,K), read through parameter 0
///     rooflint::dsl::out<2>("C", f32, M, N)     // C: (M,N), written through parameter 2
///     rooflint::dsl::inout<3>("y", f32, N)      // y: (N), read and written
///     rooflint::dsl::in<1>("table", f32, V, D).touches(B * T * D)   // only B*T rows are compulsory
///     rooflint::dsl::uncounted<4>("workspace")  // a pointer parameter that is not a tensor of the op

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rooflint/dsl/detail/report.h"
#include "rooflint/dsl/dim.h"
#include "rooflint/dsl/dtype.h"

namespace rooflint::dsl {

/// How a kernel uses a tensor. Compulsory bytes: read once, written once, read_write both.
enum class role : std::uint8_t { read, write, read_write, not_counted };

/// @return The role's name in the analyzer's manifests: "read", "write", "read_write", "not_counted".
constexpr std::string_view name(role r) {
  switch (r) {
    case role::read: return "read";
    case role::write: return "write";
    case role::read_write: return "read_write";
    case role::not_counted: return "not_counted";
  }
  return "unknown";
}

inline constexpr std::size_t max_rank = 6;

template <class... Ts>
struct type_list {};

/// A tensor bound to kernel parameter Arg. Its shape lives in the type, so operations check it.
template <int Arg, dtype D, role R, class... Dims>
struct tensor_ref {
  static_assert(Arg >= 0, "rooflint: tensor: the kernel argument index must not be negative");
  static_assert(sizeof...(Dims) <= max_rank, "rooflint: tensor: a tensor has at most 6 dimensions");
  static_assert((Dim<Dims> && ...), "rooflint: tensor: every shape entry must be a dimension tag (dim<\"N\">)");

  static constexpr int arg = Arg;
  static constexpr dtype element = D;
  static constexpr role access = R;
  static constexpr std::size_t rank = sizeof...(Dims);
  using shape = type_list<Dims...>;

  name_t name;
  poly touched = elements();  ///< elements the kernel must touch (all, unless touches() says a part)
  bool partial = false;

  /// @return Number of elements, the product of the shape's dimensions.
  static constexpr poly elements() { return (poly(1.0) * ... * to_poly(Dims{})); }

  /// States that the kernel must touch only @p part elements of this tensor (an embedding lookup
  /// reads B*T rows of V, a strided gather one element in S): compulsory bytes count only those.
  template <PolyLike P>
  consteval tensor_ref touches(const P& part) const {
    tensor_ref t = *this;
    t.touched = to_poly(part);
    detail::require(!t.touched.is_zero(), "rooflint: touches: the touched part must not be empty");
    t.partial = true;
    return t;
  }
};

/// A pointer parameter that is deliberately not counted (scratch space, flags).
template <int Arg>
struct uncounted_ref {
  static_assert(Arg >= 0, "rooflint: tensor: the kernel argument index must not be negative");
  static constexpr int arg = Arg;
  static constexpr role access = role::not_counted;
  name_t name;
};

namespace detail {
template <std::size_t N>
consteval void check_tensor_name() {
  static_assert(N > 1 && N <= name_capacity, "rooflint: tensor: a tensor name must have 1 to 31 characters");
}
}  // namespace detail

/// A tensor the kernel reads (each element once, for compulsory bytes).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
consteval tensor_ref<Arg, D, role::read, std::remove_cvref_t<Ds>...> in(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the kernel writes (each element once).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
consteval tensor_ref<Arg, D, role::write, std::remove_cvref_t<Ds>...> out(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the kernel reads and writes in place (counted twice).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
consteval tensor_ref<Arg, D, role::read_write, std::remove_cvref_t<Ds>...> inout(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A pointer parameter that is not part of the operation's traffic.
template <int Arg, std::size_t N>
consteval uncounted_ref<Arg> uncounted(const char (&name)[N]) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

}  // namespace rooflint::dsl
