#pragma once
/// @file tensor.h
/// Tensors of a spec: a dtype, a shape of named dimensions, a role (read, written, both) and the
/// kernel parameter (by index) that points at the data.
///
///     rooflint::dsl::in<0>("A", f32, M, K)      // A: (M,K), read through parameter 0
///     rooflint::dsl::out<2>("C", f32, M, N)     // C: (M,N), written through parameter 2
///     rooflint::dsl::inout<3>("y", f32, N)      // y: (N), read and written
///     rooflint::dsl::in<1>("table", f32, V, D).touches(B * T * D)   // only B*T rows are compulsory
///     rooflint::dsl::in<2>("tokens", i32, B, T).indices(uniform(V))  // token ids drawn from [0, V)
///     rooflint::dsl::uncounted<4>("workspace")  // a pointer parameter that is not a tensor of the op

#include <array>
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

/// How the values of an index tensor are distributed, as its spec states (tensor_ref::indices). The
/// analyzer evaluates the accesses they index (a gather, an embedding lookup, a histogram's atomics)
/// with values drawn so; without a statement their traffic is not predicted.
enum class index_distribution : std::uint8_t {
  unstated,
  uniform,   ///< independent, uniformly distributed over [0, size of a dimension)
  distinct,  ///< no value twice, in no order: a shuffle of [0, size of a dimension) or a part of one
};

/// @return The distribution's name in manifests: "unstated", "uniform", "distinct".
constexpr std::string_view name(index_distribution d) {
  switch (d) {
    case index_distribution::unstated: return "unstated";
    case index_distribution::uniform: return "uniform";
    case index_distribution::distinct: return "distinct";
  }
  return "unknown";
}

/// A statement of an index tensor's values: its distribution and the dimension that bounds them.
struct index_values {
  index_distribution distribution = index_distribution::unstated;
  name_t below;  ///< the values lie in [0, size of this dimension)
};

/// Indices drawn independently and uniformly from [0, D): token ids of a vocabulary of V,
/// `in<1>("tokens", i32, B, T).indices(uniform(V))`.
template <Dim D>
constexpr index_values uniform(D) {
  return {index_distribution::uniform, dim_name<D>()};
}

/// Indices that are all different, drawn from [0, D) in an order with no pattern: a permutation of D
/// rows, or each token of a batch a row of its own, `in<2>("idx", i32, N).indices(distinct(N))`.
template <Dim D>
constexpr index_values distinct(D) {
  return {index_distribution::distinct, dim_name<D>()};
}

template <class... Ts>
struct type_list {};

namespace detail {
template <class... Lists> struct concat { using type = type_list<>; };
template <class... As> struct concat<type_list<As...>> { using type = type_list<As...>; };
template <class... As, class... Bs, class... Rest>
struct concat<type_list<As...>, type_list<Bs...>, Rest...> { using type = typename concat<type_list<As..., Bs...>, Rest...>::type; };

/// Probing a polynomial whose sizes are not known yet, over the dimensions Ds: at point 0 every size
/// is 1, at point 1 every size is 2^20, at point 2 + j only the j-th of Ds is 2^20; a dimension with a
/// static size keeps it. Every size >= 1 is a valid size, so a polynomial that is negative (or larger
/// than another) at one of these points is so at real sizes: that is a compile-time error, not a guess.
template <class List> struct probe;
template <class... Ds>
struct probe<type_list<Ds...>> {
  static constexpr int points = 2 + static_cast<int>(sizeof...(Ds));
  static constexpr double large = 1 << 20;

  /// @return The size of the dimension named @p n at point @p k (1 for a name not among Ds).
  static constexpr double size(int k, name_t n) {
    double s = 1;
    int j = 0;
    bool found = false;
    ([&] {
      if (!found && dim_name<Ds>() == n) {
        found = true;
        s = Ds::static_size > 0 ? static_cast<double>(Ds::static_size) : (k == 1 || k == 2 + j) ? large : 1;
      }
      ++j;
    }(), ...);
    return s;
  }

  /// @return Whether @p p uses only dimensions among Ds (and terms of @p terms whose operands do).
  static constexpr bool covers(const poly& p, const size_table& terms = {}) {
    for (int d = 0; d < p.dim_count; ++d)
      if (p.uses(d) && !((dim_name<Ds>() == p.dims[d]) || ...) && terms.index_of(p.dims[d]) < 0) return false;
    for (int i = 0; i < terms.count; ++i)
      if (!covers_with_earlier(terms, i, terms.terms[i].lhs) || !covers_with_earlier(terms, i, terms.terms[i].rhs)) return false;
    return true;
  }
  static constexpr bool covers(const size_expr& e) { return covers(e.value, e.sizes); }

  /// @return Whether @p p is below 0 at some point (points where it overflows are skipped: the
  /// size checks of at() and bind() see those).
  static constexpr bool negative_somewhere(const poly& p, const size_table& terms = {}) {
    for (int k = 0; k < points; ++k)
      if (value(p, k, terms) < 0) return true;
    return false;
  }

  /// @return Whether @p a exceeds @p b at some point.
  static constexpr bool exceeds_somewhere(const poly& a, const poly& b, const size_table& terms = {}) {
    for (int k = 0; k < points; ++k)
      if (value(a, k, terms) > value(b, k)) return true;
    return false;
  }

 private:
  /// An operand of term @p i may use the terms defined before it.
  static constexpr bool covers_with_earlier(const size_table& terms, int i, const poly& p) {
    for (int d = 0; d < p.dim_count; ++d) {
      if (!p.uses(d) || ((dim_name<Ds>() == p.dims[d]) || ...)) continue;
      const int j = terms.index_of(p.dims[d]);
      if (j < 0 || j >= i) return false;
    }
    return true;
  }

  static constexpr double value(const poly& p, int k, const size_table& terms = {}) {
    if (terms.count > 0) return terms.evaluate(p, [k](name_t n) { return size(k, n); });
    std::array<double, max_dims> values{};
    for (int d = 0; d < p.dim_count; ++d) values[d] = size(k, p.dims[d]);
    return p.evaluates_finite(values) ? p.evaluate(values) : 0;
  }
};
}  // namespace detail

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
  size_table sizes{};  ///< the min, max and ceil_div terms the touched part uses
  bool partial = false;
  bool extra = false;  ///< added to an operation by operation::with() (a layernorm's mean and rstd)
  poly offset{};       ///< elements from the parameter's first element to this tensor's (slice())
  size_table offset_sizes{};  ///< the min, max and ceil_div terms the offset uses
  bool sliced = false;  ///< part of its parameter's buffer, which other tensors share (slice())
  index_values values{};  ///< how its values are distributed, when it holds indices (indices())

  /// @return Number of elements, the product of the shape's dimensions.
  static constexpr poly elements() { return (poly(1.0) * ... * to_poly(Dims{})); }

  /// States that the kernel must touch only @p part elements of this tensor (an embedding lookup of
  /// B*T tokens reads min(B*T, V) rows of V, a strided gather one element in S): compulsory bytes
  /// count only those. The part may use min, max and ceil_div (dim.h).
  template <SizeLike P>
  constexpr tensor_ref touches(const P& part) const {
    tensor_ref t = *this;
    const size_expr e = to_expr(part);
    t.touched = e.value;
    t.sizes = e.sizes;
    detail::require(!t.touched.is_zero(), "rooflint: touches: the touched part must not be empty");
    // Over the tensor's own dimensions the comparison is decided here; a part over other tensors'
    // dimensions (B*T rows of a (V,D) table) is compared with the tensor at the sizes of .at() and bind().
    using own = detail::probe<shape>;
    detail::require(!own::covers(e) || !own::exceeds_somewhere(t.touched, elements(), t.sizes), "rooflint: touches: the touched part is larger than the tensor");
    t.partial = true;
    return t;
  }

  /// States how the values of this tensor, an index array, are distributed: `.indices(uniform(V))`,
  /// `.indices(distinct(N))`.
  /// The analyzer evaluates the accesses they index with values drawn so (docs/dsl.md, "Index
  /// tensors"); the verifier measures whatever the program's data is.
  constexpr tensor_ref indices(index_values v) const {
    detail::require(is_integer(D), "rooflint: indices: an index tensor has an integer dtype");
    detail::require(R != role::write, "rooflint: indices: the kernel must read an index tensor");
    detail::require(values.distribution == index_distribution::unstated, "rooflint: indices: the tensor already states its values");
    tensor_ref t = *this;
    t.values = v;
    return t;
  }

  /// States that this tensor is a part of its parameter's buffer, starting @p offset elements after
  /// the parameter's first element, so that other tensors may be parts of the same parameter: Q, K and
  /// V packed in one (B,T,3,NH,HS) buffer are three tensors (B,T,NH,HS) at offsets 0, NH * HS and
  /// 2 * NH * HS. Each counts its own elements in the compulsory bytes.
  template <SizeLike P>
  constexpr tensor_ref slice(const P& offset) const {
    tensor_ref t = *this;
    const size_expr e = to_expr(offset);
    detail::require(!detail::probe<shape>::negative_somewhere(e.value, e.sizes), "rooflint: slice: the offset must not be negative");
    detail::require(!sliced, "rooflint: slice: the tensor already states its offset");
    t.offset = e.value;
    t.offset_sizes = e.sizes;
    t.sliced = true;
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
constexpr void check_tensor_name() {
  require(N > 1 && N <= name_capacity, "rooflint: tensor: a tensor name must have 1 to 31 characters");
}
}  // namespace detail

/// A tensor the kernel reads (each element once, for compulsory bytes).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<Arg, D, role::read, std::remove_cvref_t<Ds>...> in(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the kernel writes (each element once).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<Arg, D, role::write, std::remove_cvref_t<Ds>...> out(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the kernel reads and writes in place (counted twice).
template <int Arg, dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<Arg, D, role::read_write, std::remove_cvref_t<Ds>...> inout(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

// Misuses that are not candidates of the builders above (a number or an expression as a shape entry,
// a C++ type or model::dtype for the dtype) meet these instead, whose only work is a rooflint message
// (the compiler's own "no matching function" would name neither). They return a type that is no
// Tensor, so nothing downstream accepts it.
namespace detail {
template <class T> struct is_dtype_tag : std::false_type {};
template <dtype D> struct is_dtype_tag<dtype_tag<D>> : std::true_type {};

/// What a misused builder returns: not a Tensor.
struct not_a_tensor {};

template <class D, class... Ds>
concept MisusedTensor = !(is_dtype_tag<std::remove_cvref_t<D>>::value && (Dim<Ds> && ...));

template <class D, class... Ds>
constexpr not_a_tensor misused_tensor() {
  static_assert(is_dtype_tag<std::remove_cvref_t<D>>::value, "rooflint: tensor: the dtype must be a dtype tag (f32, bf16, i32, ...), not a C++ type (float) or a model::dtype value");
  static_assert(!is_dtype_tag<std::remove_cvref_t<D>>::value || (Dim<Ds> && ...), "rooflint: tensor: every shape entry must be a dimension tag (N, S), not a number or an expression (N*S): give the product a dimension of its own");
  return {};
}
}  // namespace detail

template <int Arg, class D, std::size_t N, class... Ds> requires detail::MisusedTensor<D, Ds...>
constexpr detail::not_a_tensor in(const char (&)[N], D, Ds...) { return detail::misused_tensor<D, Ds...>(); }
template <int Arg, class D, std::size_t N, class... Ds> requires detail::MisusedTensor<D, Ds...>
constexpr detail::not_a_tensor out(const char (&)[N], D, Ds...) { return detail::misused_tensor<D, Ds...>(); }
template <int Arg, class D, std::size_t N, class... Ds> requires detail::MisusedTensor<D, Ds...>
constexpr detail::not_a_tensor inout(const char (&)[N], D, Ds...) { return detail::misused_tensor<D, Ds...>(); }

/// in<0, float>("x", N): a C++ type where the dtype tag belongs.
template <int Arg, class T, std::size_t N, class... Ds>
constexpr detail::not_a_tensor in(const char (&)[N], Ds...) { return detail::misused_tensor<T, Ds...>(); }
template <int Arg, class T, std::size_t N, class... Ds>
constexpr detail::not_a_tensor out(const char (&)[N], Ds...) { return detail::misused_tensor<T, Ds...>(); }
template <int Arg, class T, std::size_t N, class... Ds>
constexpr detail::not_a_tensor inout(const char (&)[N], Ds...) { return detail::misused_tensor<T, Ds...>(); }

/// A pointer parameter that is not part of the operation's traffic.
template <int Arg, std::size_t N>
constexpr uncounted_ref<Arg> uncounted(const char (&name)[N]) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

}  // namespace rooflint::dsl
