#pragma once
/// @file block_reduce.cuh
/// Block-wide sum and max for the examples' reductions (blockDim.x a multiple of 32, at most 1024):
/// a warp reduces with shuffles, warp results meet in shared memory, and every thread gets the result.

#include <cuda_runtime.h>

namespace rooflint::examples {

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/// @return The sum of @p v over the block, in every thread. Contains __syncthreads: call from all threads.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_results[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  __syncthreads();  // warp_results may still be read by a previous call
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  v = lane < warps ? warp_results[lane] : 0.f;
  return warp_sum(v);
}

/// @return The maximum of @p v over the block, in every thread. Contains __syncthreads.
__device__ __forceinline__ float block_max(float v) {
  __shared__ float warp_results[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_max(v);
  __syncthreads();
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  v = lane < warps ? warp_results[lane] : -INFINITY;
  return warp_max(v);
}

}  // namespace rooflint::examples
