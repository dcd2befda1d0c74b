#pragma once
/// @file dtype.h
/// Element types (dtypes) and the math modes that pick a compute roof.
///
/// The dtype says how a tensor is stored (its size in bytes counts towards compulsory bytes);
/// the math mode says which hardware unit does the arithmetic (its peak is the compute roof).
/// f32 data may run on the FP32 SIMT roof or, with TF32 tensor math, on the TF32 roof.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rooflint::model {

/// Storage element type of a tensor. Signed integers are i8..i64, unsigned ones u8..u64 (bytes, bins,
/// counters); new dtypes are added at the end, so the values of the others never change.
enum class dtype : std::uint8_t { f64, f32, tf32, f16, bf16, fp8_e4m3, fp8_e5m2, i8, i32, i64, u8, u16, u32, u64 };

inline constexpr std::size_t dtype_count = 14;

/// @return Size of one element in bytes. tf32 is stored in 4 bytes (a float with a 10-bit mantissa).
constexpr std::size_t size_bytes(dtype t) {
  switch (t) {
    case dtype::f64: case dtype::i64: case dtype::u64: return 8;
    case dtype::f32: case dtype::tf32: case dtype::i32: case dtype::u32: return 4;
    case dtype::f16: case dtype::bf16: case dtype::u16: return 2;
    case dtype::fp8_e4m3: case dtype::fp8_e5m2: case dtype::i8: case dtype::u8: return 1;
  }
  return 0;
}

/// @return The dtype's short name as written in specs and reports ("f32", "bf16", "fp8_e4m3", "u8").
constexpr std::string_view name(dtype t) {
  constexpr std::array<std::string_view, dtype_count> names{
      "f64", "f32", "tf32", "f16", "bf16", "fp8_e4m3", "fp8_e5m2", "i8", "i32", "i64", "u8", "u16", "u32", "u64"};
  return names[static_cast<std::size_t>(t)];
}

/// @return Whether @p t holds integers (i8, i32, i64, u8, u16, u32, u64).
constexpr bool is_integer(dtype t) {
  switch (t) {
    case dtype::i8: case dtype::i32: case dtype::i64: case dtype::u8: case dtype::u16: case dtype::u32: case dtype::u64:
      return true;
    default: return false;
  }
}

/// @return The dtype with that short name, or nullopt.
constexpr std::optional<dtype> parse_dtype(std::string_view text) {
  for (std::size_t i = 0; i < dtype_count; ++i)
    if (name(static_cast<dtype>(i)) == text) return static_cast<dtype>(i);
  return std::nullopt;
}

/// The hardware path that does a kernel's arithmetic; each has its own compute roof.
enum class math_mode : std::uint8_t {
  fp64,         ///< FP64 (DFMA; on Hopper the FP64 tensor path is a separate, faster roof)
  fp64_tensor,  ///< FP64 on tensor cores (DMMA)
  fp32_simt,    ///< FP32 on CUDA cores (FFMA), no tensor cores
  tf32_tensor,  ///< f32 data, TF32 tensor-core math
  fp16_tensor,  ///< f16 inputs on tensor cores (f32 accumulate)
  bf16_tensor,  ///< bf16 inputs on tensor cores (f32 accumulate)
  fp8_tensor,   ///< fp8 (e4m3/e5m2) inputs on tensor cores
  int8_tensor,  ///< int8 inputs on tensor cores (int32 accumulate); rates are OP/s
};

inline constexpr std::size_t math_mode_count = 8;

/// @return The math mode's name as used in ceilings files and reports ("fp32_simt", "bf16_tensor").
constexpr std::string_view name(math_mode m) {
  constexpr std::array<std::string_view, math_mode_count> names{
      "fp64", "fp64_tensor", "fp32_simt", "tf32_tensor",
      "fp16_tensor", "bf16_tensor", "fp8_tensor", "int8_tensor"};
  return names[static_cast<std::size_t>(m)];
}

/// @return The short label used in sentences ("FP32", "TF32", "BF16").
constexpr std::string_view label(math_mode m) {
  constexpr std::array<std::string_view, math_mode_count> labels{
      "FP64", "FP64 tensor", "FP32", "TF32", "FP16", "BF16", "FP8", "INT8"};
  return labels[static_cast<std::size_t>(m)];
}

/// @return The math mode with that name, or nullopt.
constexpr std::optional<math_mode> parse_math_mode(std::string_view text) {
  for (std::size_t i = 0; i < math_mode_count; ++i)
    if (name(static_cast<math_mode>(i)) == text) return static_cast<math_mode>(i);
  return std::nullopt;
}

/// The math mode a dtype runs on when the spec does not say otherwise.
/// Convention: plain f32 is FP32 SIMT (the compiler emits FFMA); TF32 must be asked for.
/// 8-bit integers (i8 and u8: IMMA takes both) run on the INT8 tensor roof; wider integer types have no
/// tensor path, and their arithmetic is counted on the FP32 SIMT roof.
constexpr math_mode default_math_mode(dtype t) {
  switch (t) {
    case dtype::f64: return math_mode::fp64;
    case dtype::f32: return math_mode::fp32_simt;
    case dtype::tf32: return math_mode::tf32_tensor;
    case dtype::f16: return math_mode::fp16_tensor;
    case dtype::bf16: return math_mode::bf16_tensor;
    case dtype::fp8_e4m3: case dtype::fp8_e5m2: return math_mode::fp8_tensor;
    case dtype::i8: case dtype::u8: return math_mode::int8_tensor;
    case dtype::i32: case dtype::i64: case dtype::u16: case dtype::u32: case dtype::u64: return math_mode::fp32_simt;
  }
  return math_mode::fp32_simt;
}

/// @return The SIMT (CUDA-core) math mode whose roof bounds arithmetic on @p t done outside tensor cores:
/// FP64 for f64, FP32 SIMT for everything else (f16, bf16 and fp8 data are converted to f32 for
/// elementwise arithmetic, reductions, softmax and normalisation, which have no tensor-core path).
constexpr math_mode simt_math_mode(dtype t) { return t == dtype::f64 ? math_mode::fp64 : math_mode::fp32_simt; }

/// The math mode by operation: contractions (matmul, bmm, linear, conv, attention) on tensor-core dtypes
/// run on the tensor roof of the dtype (default_math_mode); every other operation (elementwise,
/// reduction, softmax, normalisation) runs on the SIMT roof of the arithmetic it really does
/// (simt_math_mode): a bf16 layernorm is FP32 SIMT work, not BF16 tensor work. A spec can still choose.
constexpr math_mode math_mode_by_operation(dtype t, bool contraction) {
  return contraction ? default_math_mode(t) : simt_math_mode(t);
}

/// A value per math mode (peak FLOP/s, say), indexed by the enum.
template <class T>
struct per_math_mode {
  std::array<T, math_mode_count> values{};
  constexpr T& operator[](math_mode m) { return values[static_cast<std::size_t>(m)]; }
  constexpr const T& operator[](math_mode m) const { return values[static_cast<std::size_t>(m)]; }
};

}  // namespace rooflint::model
