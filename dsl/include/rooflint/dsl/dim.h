#pragma once
/// @file dim.h
/// Named dimensions. A dimension's identity is its type, so operations can check at compile time
/// that, say, a matmul contracts the same dimension K on both sides:
///
///     inline constexpr struct M final : rooflint::dsl::dim<"M"> {} M;
///     inline constexpr struct Kh final : rooflint::dsl::dim<"Kh", 3> {} Kh;   // static size 3
///
/// Sizes are bound later: `spec.at(M(4096))` for the analyzer's build-time verdict, or
/// `spec.bind(M(n))` at launch, or read from a launch: `spec.sizes(M(arg<3>))` (launch.h).
/// Dimensions multiply into polynomials: `2 * M * N * K`.

#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "rooflint/dsl/launch.h"
#include "rooflint/dsl/name.h"
#include "rooflint/dsl/poly.h"

namespace rooflint::dsl {

/// The static size of a dimension that has none.
inline constexpr std::int64_t dynamic_size = std::numeric_limits<std::int64_t>::min();

/// A size given to a dimension by name (elements).
struct size_binding {
  name_t dim;
  std::int64_t size = 0;
};

/// The largest size a dimension may have: sizes are held as doubles, which are exact integers up to
/// 2^53 (IEEE 754 binary64: a 53-bit significand). No GPU holds a dimension near it.
inline constexpr std::int64_t max_size = std::int64_t{1} << 53;

/// What `M(4096)` returns: a size_binding that keeps its dimension's name in its type, so that `.at()`
/// and `bind()` reject the same dimension given twice at compile time. Converts to size_binding.
template <fixed_string Name>
struct named_size : size_binding {};

struct dim_base {};

struct size_expr;

/// A dimension whose size is defined by an expression of others: what `HS(C / NH)` and `N(B * T)`
/// return, an entry of `.sizes(...)` (kernel.h). DimType is the dimension's dim<Name, Size> base.
template <class DimType>
struct defined_size;

/// A named dimension, optionally with a static size. Derive a tag from it (see the file comment).
template <fixed_string Name, std::int64_t StaticSize = dynamic_size>
struct dim : dim_base {
  static_assert(Name.view().size() > 0 && Name.view().size() < name_capacity,
                "rooflint: dim: a dimension name must have 1 to 31 characters");
  static_assert(StaticSize == dynamic_size || StaticSize > 0,
                "rooflint: dim: a static size must be positive");

  static constexpr fixed_string name = Name;
  static constexpr std::int64_t static_size = StaticSize;

  /// @return The binding of this dimension to @p size (elements, 1 to max_size).
  constexpr named_size<Name> operator()(std::int64_t size) const { return {{name_t(Name.view()), size}}; }

  /// @return This dimension read from a launch: `N(arg<0>)`, `N(4 * arg<2>)`, `R(grid_dim.x)` (launch.h).
  template <LaunchSource S>
  constexpr launch_size_of<dim, S> operator()(S source) const { return {source.size_of(name_t(Name.view()))}; }

  /// @return This dimension defined by an expression of other dimensions, for `.sizes(...)`:
  /// `N(B * T)`, `HS(C / NH)` (exact division), `Nt(ceil_div(N, 128))`.
  template <class E>
    requires(!std::is_arithmetic_v<std::remove_cvref_t<E>> && !LaunchSource<std::remove_cvref_t<E>> &&
             requires(const E& e) { to_expr(e); })
  constexpr defined_size<dim> operator()(const E& e) const;
};

/// A kernel parameter that is no tensor's size but that the kernel's addresses or loops depend on (a
/// filter's radius, a window, a stride), declared as a dimension of its own:
///
///     inline constexpr struct R final : rooflint::dsl::param<"R"> {} R;
///
/// `.sizes(R(arg<4>))` reads it from its argument as it is (kernel.h) and `.at(R(14))` after it gives the
/// value the analyzer evaluates the kernel with. A plain dim<...> that no tensor has stays an error there
/// (a typo), so that a size meant for a tensor is not taken for a parameter.
template <fixed_string Name>
struct param : dim<Name> {
  static constexpr bool parameter = true;
  using dim<Name>::operator();
  template <LaunchSource S>
  constexpr launch_size_of<param, S> operator()(S source) const { return {source.size_of(name_t(Name.view()))}; }
};

/// A dimension tag: a type derived from dim<...>.
template <class T>
concept Dim = std::derived_from<std::remove_cvref_t<T>, dim_base> && requires {
  std::remove_cvref_t<T>::name;
  std::remove_cvref_t<T>::static_size;
};

/// Two dimension tags are the same dimension when they are the same type.
template <class A, class B>
concept SameDim = Dim<A> && Dim<B> && std::same_as<std::remove_cvref_t<A>, std::remove_cvref_t<B>>;

template <Dim D>
constexpr name_t dim_name() { return name_t(std::remove_cvref_t<D>::name.view()); }

namespace detail {
template <class B> struct is_named_size : std::false_type {};
template <fixed_string Name> struct is_named_size<named_size<Name>> : std::true_type {};

/// How often type A appears among Bs (a dimension among a call's dimensions, a binding among its bindings).
template <class A, class... Bs>
constexpr int count_of() { return (0 + ... + static_cast<int>(std::is_same_v<A, Bs>)); }

/// No two of the bindings Bs name the same dimension (bindings built by hand, plain size_binding,
/// carry no name in their type and are checked when bound instead).
template <class... Bs>
constexpr bool distinct_dimensions() { return ((!is_named_size<Bs>::value || count_of<Bs, Bs...>() == 1) && ...); }
}  // namespace detail

/// Anything that converts to a polynomial: a dimension, a number or a polynomial.
template <class T>
concept PolyLike = Dim<T> || std::same_as<std::remove_cvref_t<T>, poly> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

template <PolyLike T>
constexpr poly to_poly(const T& value) {
  if constexpr (Dim<T>) return poly::variable(dim_name<T>());
  else if constexpr (std::is_arithmetic_v<std::remove_cvref_t<T>>) return poly(static_cast<double>(value));
  else return value;
}

/// At least one side is a dimension: `2 * N`, `M * K`. (poly's own operators cover poly with poly.)
template <class A, class B>
concept DimExpression = PolyLike<A> && PolyLike<B> && (Dim<A> || Dim<B>);

template <class A, class B> requires DimExpression<A, B>
constexpr poly operator*(const A& a, const B& b) { return to_poly(a) * to_poly(b); }
template <class A, class B> requires DimExpression<A, B>
constexpr poly operator+(const A& a, const B& b) { return to_poly(a) + to_poly(b); }
template <class A, class B> requires DimExpression<A, B>
constexpr poly operator-(const A& a, const B& b) { return to_poly(a) - to_poly(b); }

// ---------------------------------------------------------------------------------------------
// Size expressions with min, max and ceil-division

/// A size expression: a polynomial whose variables may include min, max and ceil_div terms, and the
/// definitions of those terms. What `min(B * T, V)` returns; `min(B * T, V) * D` is one too.
/// touches() and custom() take it; the terms become dimensions of the spec, derived when sizes are bound.
struct size_expr {
  poly value;
  size_table sizes;
};

/// Anything a size can be written as: a dimension, a number, a polynomial or a size expression.
template <class T>
concept SizeLike = PolyLike<T> || std::same_as<std::remove_cvref_t<T>, size_expr>;

template <SizeLike T>
constexpr size_expr to_expr(const T& value) {
  if constexpr (std::same_as<std::remove_cvref_t<T>, size_expr>) return value;
  else return {to_poly(value), {}};
}

namespace detail {
template <class A, class B>
concept SizeExpression = SizeLike<A> && SizeLike<B> &&
                         (std::same_as<std::remove_cvref_t<A>, size_expr> || std::same_as<std::remove_cvref_t<B>, size_expr>);

constexpr size_expr combined(const size_expr& a, const size_expr& b, poly value) {
  size_expr out{value, a.sizes};
  out.sizes.merge(b.sizes);
  return out;
}

constexpr size_expr size_term_of(size_op op, const size_expr& a, const size_expr& b) {
  const size_term t = make_size_term(op, a.value, b.value);
  size_expr out = combined(a, b, poly::variable(t.name));
  out.sizes.add(t);
  return out;
}
}  // namespace detail

template <class A, class B> requires detail::SizeExpression<A, B>
constexpr size_expr operator*(const A& a, const B& b) {
  const size_expr x = to_expr(a), y = to_expr(b);
  return detail::combined(x, y, x.value * y.value);
}
template <class A, class B> requires detail::SizeExpression<A, B>
constexpr size_expr operator+(const A& a, const B& b) {
  const size_expr x = to_expr(a), y = to_expr(b);
  return detail::combined(x, y, x.value + y.value);
}
template <class A, class B> requires detail::SizeExpression<A, B>
constexpr size_expr operator-(const A& a, const B& b) {
  const size_expr x = to_expr(a), y = to_expr(b);
  return detail::combined(x, y, x.value - y.value);
}

/// The smaller of two sizes: `min(B * T, V)`, the rows an embedding lookup of B*T tokens touches in a
/// V-row table. Prints as "min(B*T, V)"; evaluated when sizes are bound.
template <SizeLike A, SizeLike B>
constexpr size_expr min(const A& a, const B& b) { return detail::size_term_of(size_op::min, to_expr(a), to_expr(b)); }

/// The larger of two sizes: `max(N, 128)`.
template <SizeLike A, SizeLike B>
constexpr size_expr max(const A& a, const B& b) { return detail::size_term_of(size_op::max, to_expr(a), to_expr(b)); }

/// ceil(a / b), b > 0: the number of tiles, `ceil_div(N, 128)`.
template <SizeLike A, SizeLike B>
constexpr size_expr ceil_div(const A& a, const B& b) { return detail::size_term_of(size_op::ceil_div, to_expr(a), to_expr(b)); }

/// a / b exactly, b a dimension or an expression of them, b > 0: a head size `C / NH`, rows per head
/// `(B * T) / NH`. Sizes where b does not divide a do not bind (the dimension is `violated`). Prints as
/// "div(C, NH)" inside other expressions. A division by a number scales instead, as poly's does
/// (`N / 2` is `0.5 * N`).
template <SizeLike A, SizeLike B>
  requires(!std::is_arithmetic_v<std::remove_cvref_t<B>>)
constexpr size_expr operator/(const A& a, const B& b) { return detail::size_term_of(size_op::div, to_expr(a), to_expr(b)); }

/// A dimension or size expression divided by a number: scaled, `N / 2` is `0.5 * N`.
template <class A, class B>
  requires((Dim<A> || std::same_as<std::remove_cvref_t<A>, size_expr>) && std::is_arithmetic_v<std::remove_cvref_t<B>>)
constexpr auto operator/(const A& a, const B& b) {
  if constexpr (Dim<A>) return to_poly(a) / static_cast<double>(b);
  else return size_expr{a.value / static_cast<double>(b), a.sizes};
}

template <class DimType>
struct defined_size {
  using dim_type = DimType;
  size_expr value;
};

template <fixed_string Name, std::int64_t StaticSize>
template <class E>
  requires(!std::is_arithmetic_v<std::remove_cvref_t<E>> && !LaunchSource<std::remove_cvref_t<E>> &&
           requires(const E& e) { to_expr(e); })
constexpr defined_size<dim<Name, StaticSize>> dim<Name, StaticSize>::operator()(const E& e) const {
  return {to_expr(e)};
}

template <class T> struct is_defined_size : std::false_type {};
template <class D> struct is_defined_size<defined_size<D>> : std::true_type {};

/// An entry of `.sizes(...)` that defines a dimension by an expression: `N(B * T)`, `HS(C / NH)`.
template <class T>
concept DefinedSize = is_defined_size<T>::value;

}  // namespace rooflint::dsl
