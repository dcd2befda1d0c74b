#pragma once
/// @file kernels.h
/// The example kernels as an ordinary program sees them: declarations of the __global__ functions
/// defined in examples/<name>/<name>.cu, the launch shapes those files use, and a device-side fill.
/// Nothing here uses rooflint; the specs live beside the kernels' definitions.

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// examples/saxpy, vector_add, reduction, gather
__global__ void saxpy(int n, float a, const float* x, float* y);
__global__ void vector_add(int n, const float* a, const float* b, float* c);
__global__ void reduce_sum(const float* x, float* partials, unsigned* done, float* sum, int n);
__global__ void gather_strided(int n, const float* x, float* y);
__global__ void embedding_gather(const float* table, const int* ids, float* out, int rows, int d);
// examples/layernorm, softmax, transpose
__global__ void layernorm_mean(const float* x, float* mean, int cols);
__global__ void layernorm_rstd(const float* x, const float* mean, float* rstd, int cols, float eps);
__global__ void layernorm_naive(const float* x, const float* mean, const float* rstd, const float* gamma,
                                const float* beta, float* y, int cols);
__global__ void layernorm_single_pass(const float* x, const float* gamma, const float* beta, float* y, int cols, float eps);
__global__ void softmax_row_max(const float* x, float* row_max, int cols);
__global__ void softmax_row_sum(const float* x, const float* row_max, float* row_sum, int cols);
__global__ void softmax_naive(const float* x, const float* row_max, const float* row_sum, float* y, int cols);
__global__ void softmax_online(const float* x, float* y, int cols);
__global__ void transpose_naive(const float* in, float* out, int rows, int cols);
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols);
// examples/sgemm, hgemm
__global__ void sgemm_naive(const float* A, const float* B, float* C, int n);
__global__ void sgemm_tiled(const float* A, const float* B, float* C, int n);
__global__ void sgemm_register_blocked_128(const float* A, const float* B, float* C, int n);
__global__ void sgemm_register_blocked_64(const float* A, const float* B, float* C, int n);
__global__ void hgemm_wmma(const __half* A, const __half* B, float* C, int n);

namespace program {

// Launch shapes, as the examples' own files define them (examples/<name>/<name>.cu).
inline constexpr int row_threads = 256;         // layernorm_threads, softmax_threads
inline constexpr int reduction_threads = 256;
inline constexpr int reduction_max_blocks = 4096;
inline constexpr int gather_stride = 33;
inline constexpr int transpose_tile = 32, transpose_block_rows = 8;
inline constexpr int sgemm_naive_block = 16, sgemm_tile = 32;
inline constexpr int hgemm_bm = 128, hgemm_bn = 128;
inline constexpr float layernorm_eps = 1e-5f;

inline unsigned float4_blocks(int n) { return static_cast<unsigned>(((n + 3) / 4 + 255) / 256); }

inline void check(cudaError_t s, const char* what) {
  if (s != cudaSuccess) {
    std::fprintf(stderr, "program: %s: %s\n", what, cudaGetErrorString(s));
    std::exit(1);
  }
}

/// Uniform values in [lo, hi) from a counter hash, filled on the device (a kernel of the program).
__global__ void fill_uniform(float* x, std::size_t n, unsigned seed, float lo, float hi) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u ^ static_cast<unsigned>(i >> 32);
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
    x[i] = lo + (hi - lo) * (static_cast<float>(h >> 8) * (1.0f / 16777216.0f));
  }
}

__global__ void fill_half(__half* x, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
    x[i] = __float2half(static_cast<float>(h >> 8) * (1.0f / 16777216.0f) - 0.5f);
  }
}

/// n distinct ids below `below`, a power of two: i -> (i * odd + seed) mod below is a bijection, as the
/// gather's spec states (`.indices(distinct(V))`) and gather.cu's harness draws them.
__global__ void fill_distinct_ids(int* ids, std::size_t n, int below, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    ids[i] = static_cast<int>((static_cast<unsigned>(i) * 2654435761u + seed) & static_cast<unsigned>(below - 1));
}

/// A device buffer of n elements, freed at scope end.
template <class T>
struct buffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit buffer(std::size_t count) : n(count) { check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc"); }
  ~buffer() { cudaFree(p); }
  buffer(buffer&& o) noexcept : p(o.p), n(o.n) { o.p = nullptr; }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  operator T*() const { return p; }
};

inline buffer<float> random_floats(std::size_t n, unsigned seed, float lo = -1.f, float hi = 1.f, cudaStream_t s = 0) {
  buffer<float> b(n);
  fill_uniform<<<1024, 256, 0, s>>>(b, n, seed, lo, hi);
  return b;
}

}  // namespace program
