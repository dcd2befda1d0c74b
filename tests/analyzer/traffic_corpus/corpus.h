#pragma once
// The traffic corpus's CUDA declarations. The analyzer's tests parse the corpus with their mock header
// and the vector types (aligned as CUDA's vector_types.h aligns them); the GPU program (program.cu,
// built by nvcc) defines ROOFLINT_CORPUS_REAL_CUDA and takes them from the toolkit. See README.md for
// what "truth" means here.
//
// The mock's device functions that touch memory are what clang 19 sees with the toolkit: atomicAdd an
// atomicrmw (__nvvm_atom_add_gen_*), __ldg an ld.global.nc (__nvvm_ldg_*), __ldcs and __stcs declared
// only. The math and warp functions touch no memory: declared only.
#ifdef ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>
#else
#include "cuda_mock.h"
#define __constant__ __attribute__((constant))

struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
__device__ void __syncthreads();
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ float __shfl_xor_sync(unsigned mask, float value, int lane_mask, int width = 32);
__device__ float __shfl_down_sync(unsigned mask, float value, unsigned delta, int width = 32);
__device__ float expf(float);
__device__ float logf(float);
__device__ float sqrtf(float);
__device__ float rsqrtf(float);
__device__ float tanhf(float);
__device__ float coshf(float);
__device__ float fmaxf(float, float);
__device__ float fminf(float, float);
__device__ float fabsf(float);
__device__ float powf(float, float);

__device__ float atomicAdd(float* address, float value) { return __nvvm_atom_add_gen_f(address, value); }
__device__ int atomicAdd(int* address, int value) { return __nvvm_atom_add_gen_i(address, value); }
__device__ unsigned atomicAdd(unsigned* address, unsigned value) {
  return static_cast<unsigned>(__nvvm_atom_add_gen_i(reinterpret_cast<int*>(address), static_cast<int>(value)));
}
__device__ float __ldg(const float* p) { return __nvvm_ldg_f(p); }
__device__ int __ldg(const int* p) { return __nvvm_ldg_i(p); }
// The cache-hint loads and stores as the analyzer's CUDA setup declares them for clang 19 (CUDA defines
// them in sm_32_intrinsics.hpp, which clang's wrapper does not include): declarations only.
template <class T> __device__ T __ldcs(const T* p);
template <class T> __device__ void __stcs(T* p, T v);
#endif
