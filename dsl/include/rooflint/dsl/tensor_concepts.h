#pragma once
/// @file tensor_concepts.h
/// Named predicates on tensors, so failed checks read as "because 'X' does not satisfy 'Written'".

#include <cstddef>
#include <type_traits>

#include "rooflint/dsl/tensor.h"

namespace rooflint::dsl {

namespace detail {
template <class T> struct is_tensor_ref : std::false_type {};
template <int A, dtype D, role R, class... Ds> struct is_tensor_ref<tensor_ref<A, D, R, Ds...>> : std::true_type {};
template <class T> struct is_uncounted_ref : std::false_type {};
template <int A> struct is_uncounted_ref<uncounted_ref<A>> : std::true_type {};

/// The I-th dimension of a type_list, or void when out of range (so a rank error stays one error).
template <std::size_t I, class List> struct nth { using type = void; };
template <class First, class... Rest> struct nth<0, type_list<First, Rest...>> { using type = First; };
template <std::size_t I, class First, class... Rest> requires (I > 0)
struct nth<I, type_list<First, Rest...>> { using type = typename nth<I - 1, type_list<Rest...>>::type; };

template <class D, class List> struct contains_dim : std::false_type {};
template <class D, class... Ds> struct contains_dim<D, type_list<Ds...>> : std::bool_constant<(std::is_same_v<D, Ds> || ...)> {};
template <class Sub, class Super> struct all_dims_in : std::false_type {};
template <class... Ds, class Super> struct all_dims_in<type_list<Ds...>, Super> : std::bool_constant<(contains_dim<Ds, Super>::value && ...)> {};

// Broadcasting by PyTorch's rules, on dimension tags: shapes are aligned from their last dimension;
// at each position the two dimensions are the same tag, or one of them is missing (the shorter shape)
// or has the static size 1 (dim<"One", 1>), and the result has the other.

/// What a failed broadcast gives: no shape.
struct no_broadcast {};

template <class List> struct reversed { using type = List; };  // no_broadcast stays no_broadcast
template <> struct reversed<type_list<>> { using type = type_list<>; };
template <class First, class... Rest>
struct reversed<type_list<First, Rest...>> { using type = typename concat<typename reversed<type_list<Rest...>>::type, type_list<First>>::type; };

template <class D> constexpr bool is_unit_dim() { return D::static_size == 1; }

/// One aligned position: the same tag, or the other one when a side has the static size 1.
template <class A, class B> struct broadcast_dim {
  using type = std::conditional_t<std::is_same_v<A, B>, A,
                                  std::conditional_t<is_unit_dim<A>(), B, std::conditional_t<is_unit_dim<B>(), A, no_broadcast>>>;
};

template <class T, class List> struct prepended { using type = no_broadcast; };
template <class T, class... Ds>
struct prepended<T, type_list<Ds...>> { using type = std::conditional_t<std::is_same_v<T, no_broadcast>, no_broadcast, type_list<T, Ds...>>; };

/// Two shapes, both reversed (last dimension first).
template <class A, class B> struct broadcast_reversed { using type = no_broadcast; };
template <> struct broadcast_reversed<type_list<>, type_list<>> { using type = type_list<>; };
template <class A, class... As> struct broadcast_reversed<type_list<A, As...>, type_list<>> { using type = type_list<A, As...>; };
template <class B, class... Bs> struct broadcast_reversed<type_list<>, type_list<B, Bs...>> { using type = type_list<B, Bs...>; };
template <class A, class... As, class B, class... Bs>
struct broadcast_reversed<type_list<A, As...>, type_list<B, Bs...>> {
  using type = typename prepended<typename broadcast_dim<A, B>::type,
                                  typename broadcast_reversed<type_list<As...>, type_list<Bs...>>::type>::type;
};

template <class A, class B> struct broadcast2 {
  using type = typename reversed<typename broadcast_reversed<typename reversed<A>::type, typename reversed<B>::type>::type>::type;
};
template <class B> struct broadcast2<no_broadcast, B> { using type = no_broadcast; };

template <class... Shapes> struct broadcast_all { using type = type_list<>; };
template <class S> struct broadcast_all<S> { using type = S; };
template <class S, class T, class... Rest>
struct broadcast_all<S, T, Rest...> { using type = typename broadcast_all<typename broadcast2<S, T>::type, Rest...>::type; };

/// The number of elements of a shape (0 for no_broadcast).
template <class Shape> struct shape_elements { static constexpr poly value() { return poly{}; } };
template <class... Ds> struct shape_elements<type_list<Ds...>> {
  static constexpr poly value() { return (poly(1.0) * ... * to_poly(Ds{})); }
};
}  // namespace detail

/// A tensor of a spec (in, out, inout).
template <class T>
concept Tensor = detail::is_tensor_ref<std::remove_cvref_t<T>>::value;

/// A tensor or a pointer parameter marked uncounted: anything a kernel spec binds to a parameter.
template <class T>
concept Binding = Tensor<T> || detail::is_uncounted_ref<std::remove_cvref_t<T>>::value;

template <class T>
concept Read = Tensor<T> && (T::access == role::read || T::access == role::read_write);

template <class T>
concept Written = Tensor<T> && (T::access == role::write || T::access == role::read_write);

template <class T, std::size_t R>
concept HasRank = Tensor<T> && T::rank == R;

/// The I-th dimension tag of tensor T (void when T has fewer dimensions).
template <Tensor T, std::size_t I>
using dim_at = typename detail::nth<I, typename T::shape>::type;

/// Tensors A and B have the same shape (the same dimensions in the same order).
template <class A, class B>
concept SameShape = Tensor<A> && Tensor<B> && std::is_same_v<typename A::shape, typename B::shape>;

/// The I-th dimension of A is the J-th of B.
template <class A, std::size_t I, class B, std::size_t J>
concept SameDimAt = Tensor<A> && Tensor<B> && !std::is_void_v<dim_at<A, I>> && std::is_same_v<dim_at<A, I>, dim_at<B, J>>;

/// The shape that tensors Ts broadcast to by PyTorch's rules (detail::no_broadcast when they do not).
template <Tensor... Ts>
using broadcast_shape = typename detail::broadcast_all<typename Ts::shape...>::type;

/// Tensors Ts broadcast together: aligned from the last dimension, each pair of dimensions is the same
/// tag, or one of them is missing or has the static size 1.
template <class... Ts>
concept Broadcastable = (Tensor<Ts> && ...) && !std::is_same_v<broadcast_shape<Ts...>, detail::no_broadcast>;

/// Tensor T has the shape Ts broadcast to (an elementwise operation's output).
template <class T, class... Ts>
concept HasBroadcastShape = Tensor<T> && Broadcastable<Ts...> && std::is_same_v<typename T::shape, broadcast_shape<Ts...>>;

/// Every dimension of Sub is a dimension of Super (a reduction keeps some of its input's dimensions).
template <class Sub, class Super>
concept DimsSubsetOf = Tensor<Sub> && Tensor<Super> && detail::all_dims_in<typename Sub::shape, typename Super::shape>::value;

}  // namespace rooflint::dsl
