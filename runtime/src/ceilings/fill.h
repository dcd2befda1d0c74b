#pragma once
/// @file fill.h
/// Random GEMM operands on the device.

#include <library_types.h>

#include <cstddef>
#include <cstdint>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime::detail {

/// Fills @p n elements of @p type at @p ptr with values uniform in [-1, 1) (CUDA_R_8I: integers in
/// [-64, 64)); types: CUDA_R_64F, CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF, CUDA_R_8F_E4M3, CUDA_R_8I.
result<void> fill_random_values(void* ptr, cudaDataType_t type, std::size_t n, std::uint64_t seed);

}  // namespace rooflint::runtime::detail
