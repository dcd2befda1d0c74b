#pragma once
/// @file dtype.h
/// dtype tags for specs (`rooflint::dsl::f32`) and the C++ element types each dtype may be stored as.
///
/// The DSL knows nothing of CUDA, so CUDA's vector and half types are only forward-declared here
/// (the same names the toolkit defines in vector_types.h, cuda_fp16.h, cuda_bf16.h, cuda_fp8.h).
/// Map your own storage type by specializing rooflint::dsl::storage_dtypes.
///
/// Integer types hold the integer dtype of their width and signedness (`unsigned int` u32,
/// `std::uint8_t` u8); fp8 data is held only by CUDA's fp8 types, so a byte buffer is never taken for
/// fp8. Character types (`char`, `char8_t`, ...) and `bool` hold no dtype.

#include <cstdint>
#include <type_traits>

#include "rooflint/model/dtype.h"

struct float2;
struct float3;
struct float4;
struct double2;
struct double3;
struct __half;
struct __half2;
struct __nv_bfloat16;
struct __nv_bfloat162;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8x2_e4m3;
struct __nv_fp8x4_e4m3;
struct __nv_fp8x2_e5m2;
struct __nv_fp8x4_e5m2;
struct char2;
struct char4;
struct uchar2;
struct uchar4;
struct int2;
struct int3;
struct int4;
struct uint2;
struct uint3;
struct uint4;
struct longlong2;
struct ulonglong2;

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
inline constexpr dtype_tag<dtype::u8> u8{};
inline constexpr dtype_tag<dtype::u16> u16{};
inline constexpr dtype_tag<dtype::u32> u32{};
inline constexpr dtype_tag<dtype::u64> u64{};

constexpr unsigned dtype_bit(dtype d) { return 1u << static_cast<unsigned>(d); }

namespace detail {
/// The integer dtype of a C++ integer type of that width and signedness; 0 for bool, the character
/// types and widths without a dtype (16-bit signed).
template <class T>
constexpr unsigned integer_dtypes() {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, char> || std::is_same_v<T, wchar_t> ||
                std::is_same_v<T, char8_t> || std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>) {
    return 0;
  } else if constexpr (std::is_signed_v<T>) {
    return sizeof(T) == 1 ? dtype_bit(dtype::i8) : sizeof(T) == 4 ? dtype_bit(dtype::i32) : sizeof(T) == 8 ? dtype_bit(dtype::i64) : 0;
  } else {
    return sizeof(T) == 1 ? dtype_bit(dtype::u8) : sizeof(T) == 2 ? dtype_bit(dtype::u16)
         : sizeof(T) == 4 ? dtype_bit(dtype::u32) : sizeof(T) == 8 ? dtype_bit(dtype::u64) : 0;
  }
}
}  // namespace detail

/// The dtypes a C++ element type may hold, as a bit set of dtype_bit(d). 0: none (not a tensor element).
/// Vector types (float4, uint4) hold their lane's dtype.
template <class T>
struct storage_dtypes : std::integral_constant<unsigned, 0> {};

/// Integer types: std::int8_t i8, std::uint8_t u8, std::uint16_t u16, int i32, unsigned u32,
/// long long and std::int64_t i64, unsigned long long and std::uint64_t u64.
template <class T>
  requires std::is_integral_v<T>
struct storage_dtypes<T> : std::integral_constant<unsigned, detail::integer_dtypes<T>()> {};

// clang-format off
template <> struct storage_dtypes<double> : std::integral_constant<unsigned, dtype_bit(dtype::f64)> {};
template <> struct storage_dtypes<double2> : std::integral_constant<unsigned, dtype_bit(dtype::f64)> {};
template <> struct storage_dtypes<double3> : storage_dtypes<double> {};
template <> struct storage_dtypes<float> : std::integral_constant<unsigned, dtype_bit(dtype::f32) | dtype_bit(dtype::tf32)> {};
template <> struct storage_dtypes<float2> : storage_dtypes<float> {};
template <> struct storage_dtypes<float3> : storage_dtypes<float> {};
template <> struct storage_dtypes<float4> : storage_dtypes<float> {};
template <> struct storage_dtypes<__half> : std::integral_constant<unsigned, dtype_bit(dtype::f16)> {};
template <> struct storage_dtypes<__half2> : storage_dtypes<__half> {};
template <> struct storage_dtypes<__nv_bfloat16> : std::integral_constant<unsigned, dtype_bit(dtype::bf16)> {};
template <> struct storage_dtypes<__nv_bfloat162> : storage_dtypes<__nv_bfloat16> {};
template <> struct storage_dtypes<__nv_fp8_e4m3> : std::integral_constant<unsigned, dtype_bit(dtype::fp8_e4m3)> {};
template <> struct storage_dtypes<__nv_fp8x2_e4m3> : storage_dtypes<__nv_fp8_e4m3> {};
template <> struct storage_dtypes<__nv_fp8x4_e4m3> : storage_dtypes<__nv_fp8_e4m3> {};
template <> struct storage_dtypes<__nv_fp8_e5m2> : std::integral_constant<unsigned, dtype_bit(dtype::fp8_e5m2)> {};
template <> struct storage_dtypes<__nv_fp8x2_e5m2> : storage_dtypes<__nv_fp8_e5m2> {};
template <> struct storage_dtypes<__nv_fp8x4_e5m2> : storage_dtypes<__nv_fp8_e5m2> {};
template <> struct storage_dtypes<char2> : storage_dtypes<signed char> {};
template <> struct storage_dtypes<char4> : storage_dtypes<signed char> {};
template <> struct storage_dtypes<uchar2> : storage_dtypes<unsigned char> {};
template <> struct storage_dtypes<uchar4> : storage_dtypes<unsigned char> {};
template <> struct storage_dtypes<int2> : storage_dtypes<int> {};
template <> struct storage_dtypes<int3> : storage_dtypes<int> {};
template <> struct storage_dtypes<int4> : storage_dtypes<int> {};
template <> struct storage_dtypes<uint2> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<uint3> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<uint4> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<longlong2> : storage_dtypes<long long> {};
template <> struct storage_dtypes<ulonglong2> : storage_dtypes<unsigned long long> {};
// clang-format on

/// Element type T can hold dtype D.
template <class T, dtype D>
concept StoresDtype = (storage_dtypes<std::remove_cv_t<T>>::value & dtype_bit(D)) != 0;

namespace detail {
/// The first dtype (in the enum's order) of a non-empty bit set of dtype_bit(d).
constexpr dtype first_dtype(unsigned bits) {
  unsigned i = 0;
  while (i < model::dtype_count && (bits & (1u << i)) == 0) ++i;
  return static_cast<dtype>(i);
}
}  // namespace detail

/// The dtype tag of element type T, the first dtype it holds (float: f32, __half: f16, unsigned int:
/// u32): one spec written for every instantiation of a kernel template,
/// `template <class T> constexpr auto spec = kernel<scale<T>>("scale", unary(1, in<0>("x", dtype_of<T>, N), ...))`.
template <class T>
  requires(storage_dtypes<std::remove_cv_t<T>>::value != 0)
inline constexpr dtype_tag<detail::first_dtype(storage_dtypes<std::remove_cv_t<T>>::value)> dtype_of{};

}  // namespace rooflint::dsl
