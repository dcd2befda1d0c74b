// held_out_setup.h: what the held-out programs (held_out_kernels.cu, held_out_kernels2.cu) share: their
// buffers, filled with hashed values, and the check of each launch.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

namespace held_out {

__host__ __device__ inline std::uint32_t mix32(std::uint64_t v) {
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdULL;
  v ^= v >> 33;
  v *= 0xc4ceb9fe1a85ec53ULL;
  v ^= v >> 33;
  return static_cast<std::uint32_t>(v);
}

// Random bytes (4 a word) or values uniform in [0, mod) (mod > 0), from a hash of the position.
__global__ void init_hash_u32(std::uint32_t* p, size_t n, std::uint32_t mod, std::uint64_t seed) {
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const std::uint32_t h = mix32(i * 0x9e3779b97f4a7c15ULL + seed);
    p[i] = mod ? h % mod : h;
  }
}

// Small finite floats in [-1, 1).
__global__ void init_hash_f32(float* p, size_t n, std::uint64_t seed) {
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<float>(mix32(i * 0x9e3779b97f4a7c15ULL + seed) >> 8) * (2.f / 16777216.f) - 1.f;
}

inline int failures = 0;

inline bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "held-out: %s: %s\n", what, cudaGetErrorString(e));
  ++failures;
  return false;
}

template <class P>
P* alloc(size_t count, const char* what) {
  P* p = nullptr;
  if (!check(cudaMalloc(&p, count * sizeof(P)), what)) std::exit(1);
  return p;
}

inline void fill_f32(float* p, size_t n, std::uint64_t seed) { init_hash_f32<<<2048, 256>>>(p, n, seed); }

inline void done(const char* name) {
  check(cudaGetLastError(), name);
  if (check(cudaDeviceSynchronize(), name)) std::printf("held-out: %s ok\n", name);
}

}  // namespace held_out
