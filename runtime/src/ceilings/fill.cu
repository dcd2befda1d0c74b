/// @file fill.cu
/// Random operands for the GEMM probes, generated on the device (a hash of the index: reproducible).

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "fill.h"
#include "support/cuda_check.h"

namespace rooflint::runtime::detail {

namespace {

__device__ __forceinline__ std::uint32_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

/// Fills @p out with values uniform in [-1, 1) (integers in [-64, 64)); a zero can occur, as in any
/// random data, but the operands are not zeros.
template <class T>
__global__ void fill_random(T* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t r = mix(seed * 0x9e3779b97f4a7c15ull + i);
    if constexpr (std::is_same_v<T, std::int8_t>) {
      out[i] = static_cast<std::int8_t>(static_cast<int>(r % 128u) - 64);
    } else {
      const float u = static_cast<float>(r >> 8) * (2.0f / 16777216.0f) - 1.0f;
      out[i] = T(u);
    }
  }
}

}  // namespace

result<void> fill_random_values(void* ptr, cudaDataType_t type, std::size_t n, std::uint64_t seed) {
  const int grid = 1024, block = 256;
  switch (type) {
    case CUDA_R_64F: fill_random<<<grid, block>>>(static_cast<double*>(ptr), n, seed); break;
    case CUDA_R_32F: fill_random<<<grid, block>>>(static_cast<float*>(ptr), n, seed); break;
    case CUDA_R_16F: fill_random<<<grid, block>>>(static_cast<__half*>(ptr), n, seed); break;
    case CUDA_R_16BF: fill_random<<<grid, block>>>(static_cast<__nv_bfloat16*>(ptr), n, seed); break;
    case CUDA_R_8F_E4M3: fill_random<<<grid, block>>>(static_cast<__nv_fp8_e4m3*>(ptr), n, seed); break;
    case CUDA_R_8F_E5M2: fill_random<<<grid, block>>>(static_cast<__nv_fp8_e5m2*>(ptr), n, seed); break;
    case CUDA_R_8I: fill_random<<<grid, block>>>(static_cast<std::int8_t*>(ptr), n, seed); break;
    default: return error{error_code::internal, "fill: unexpected data type"};
  }
  ROOFLINT_TRY_CUDA(cudaGetLastError());
  return success();
}


}  // namespace rooflint::runtime::detail
