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

/// Every dimension of Sub is a dimension of Super (a reduction keeps some of its input's dimensions).
template <class Sub, class Super>
concept DimsSubsetOf = Tensor<Sub> && Tensor<Super> && detail::all_dims_in<typename Sub::shape, typename Super::shape>::value;

}  // namespace rooflint::dsl
