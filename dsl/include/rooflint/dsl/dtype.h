#pragma once
/// @file dtype.h
/// dtype tags for specs (`rooflint::dsl::f32`) and the C++ element types each dtype may be stored as.
///
/// The DSL knows nothing of CUDA, so CUDA's vector and half types are only forward-declared here
/// (the same names the toolkit defines in vector_types.h, cuda_fp16.h, cuda_bf16.h, cuda_fp8.h).
/// Map your own storage type by specializing rooflint::dsl::storage_dtypes.

#include <cstdint>
#include <type_traits>

#include "rooflint/model/dtype.h"

struct float2;
struct float4;
struct double2;
struct __half;
struct __half2;
struct __nv_bfloat16;
struct __nv_bfloat162;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;

namespace rooflint::dsl {

using model::dtype;

/// A dtype as a type, so a tensor's dtype can be checked against the kernel's parameter types.
template <dtype D>
struct dtype_tag {
  static constexpr dtype value = D;
};

inline constexpr dtype_tag<dtype::f64> f64{};
inline constexpr dtype_tag<dtype::f32> f32{};
inline constexpr dtype_tag<dtype::tf32> tf32{};
inline constexpr dtype_tag<dtype::f16> f16{};
inline constexpr dtype_tag<dtype::bf16> bf16{};
inline constexpr dtype_tag<dtype::fp8_e4m3> fp8_e4m3{};
inline constexpr dtype_tag<dtype::fp8_e5m2> fp8_e5m2{};
inline constexpr dtype_tag<dtype::i8> i8{};
inline constexpr dtype_tag<dtype::i32> i32{};
inline constexpr dtype_tag<dtype::i64> i64{};

constexpr unsigned dtype_bit(dtype d) { return 1u << static_cast<unsigned>(d); }

/// The dtypes a C++ element type may hold, as a bit set of dtype_bit(d). 0: none (not a tensor element).
/// Vector types (float4) hold their lane's dtype; raw bytes (std::uint8_t) may hold fp8 data.
template <class T>
struct storage_dtypes : std::integral_constant<unsigned, 0> {};

// clang-format off
template <> struct storage_dtypes<double> : std::integral_constant<unsigned, dtype_bit(dtype::f64)> {};
template <> struct storage_dtypes<double2> : std::integral_constant<unsigned, dtype_bit(dtype::f64)> {};
template <> struct storage_dtypes<float> : std::integral_constant<unsigned, dtype_bit(dtype::f32) | dtype_bit(dtype::tf32)> {};
template <> struct storage_dtypes<float2> : storage_dtypes<float> {};
template <> struct storage_dtypes<float4> : storage_dtypes<float> {};
template <> struct storage_dtypes<__half> : std::integral_constant<unsigned, dtype_bit(dtype::f16)> {};
template <> struct storage_dtypes<__half2> : storage_dtypes<__half> {};
template <> struct storage_dtypes<__nv_bfloat16> : std::integral_constant<unsigned, dtype_bit(dtype::bf16)> {};
template <> struct storage_dtypes<__nv_bfloat162> : storage_dtypes<__nv_bfloat16> {};
template <> struct storage_dtypes<__nv_fp8_e4m3> : std::integral_constant<unsigned, dtype_bit(dtype::fp8_e4m3)> {};
template <> struct storage_dtypes<__nv_fp8_e5m2> : std::integral_constant<unsigned, dtype_bit(dtype::fp8_e5m2)> {};
template <> struct storage_dtypes<std::int8_t> : std::integral_constant<unsigned, dtype_bit(dtype::i8)> {};
template <> struct storage_dtypes<std::uint8_t> : std::integral_constant<unsigned, dtype_bit(dtype::fp8_e4m3) | dtype_bit(dtype::fp8_e5m2)> {};
template <> struct storage_dtypes<std::int32_t> : std::integral_constant<unsigned, dtype_bit(dtype::i32)> {};
template <> struct storage_dtypes<std::int64_t> : std::integral_constant<unsigned, dtype_bit(dtype::i64)> {};
// clang-format on

/// Element type T can hold dtype D.
template <class T, dtype D>
concept StoresDtype = (storage_dtypes<std::remove_cv_t<T>>::value & dtype_bit(D)) != 0;

}  // namespace rooflint::dsl
