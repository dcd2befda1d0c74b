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

/// A size given to a dimension by name: what `M(4096)` returns.
struct size_binding {
  name_t dim;
  std::int64_t size = 0;
};

struct dim_base {};

/// A named dimension, optionally with a static size. Derive a tag from it (see the file comment).
template <fixed_string Name, std::int64_t StaticSize = dynamic_size>
struct dim : dim_base {
  static_assert(Name.view().size() > 0 && Name.view().size() < name_capacity,
                "rooflint: dim: a dimension name must have 1 to 31 characters");
  static_assert(StaticSize == dynamic_size || StaticSize > 0,
                "rooflint: dim: a static size must be positive");

  static constexpr fixed_string name = Name;
  static constexpr std::int64_t static_size = StaticSize;

  /// @return The binding of this dimension to @p size (elements, > 0).
  constexpr size_binding operator()(std::int64_t size) const { return {name_t(Name.view()), size}; }

  /// @return This dimension read from a launch: `N(arg<0>)`, `N(4 * arg<2>)`, `R(grid_dim.x)` (launch.h).
  template <LaunchSource S>
  constexpr launch_size_of<dim, S> operator()(S source) const { return {source.size_of(name_t(Name.view()))}; }
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

}  // namespace rooflint::dsl
