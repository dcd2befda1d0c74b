// How the chip counts wmma fragments loaded from and stored to global memory (wmma-global.sh): the
// requests and sectors per fragment of each kind, layout and type (16 x 16 x 16 f16 and bf16, 16 x 16 x 8
// tf32, accumulators loaded and stored), at a row pitch (ldm) of 4096 elements, so that every row of a
// fragment lies in its own 128-byte line. Each warp walks 64 tiles of a 4096 x 4096 matrix along its
// row; 1024 warps: 65,536 fragments per kernel. Every element loaded is used, so that no load is dropped.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int Ld = 4096, Tiles = 64;

/// The tile (warp w, step s): 16 rows of warp w's band, 16 * s columns in.
template <int Rows, int Cols, class T>
__device__ const T* tile(const T* p, int s) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  return p + static_cast<long>(w % 256) * Rows * Ld + static_cast<long>(w / 256) * Tiles * Cols + s * Cols;
}

template <class Frag, class T, int K, int Cols = 16>
__device__ void sum_into(float* out, const T* m) {
  Frag f;
  wmma::fragment<wmma::accumulator, 16, 16, K, float> acc;
  wmma::fill_fragment(acc, 0.f);
  for (int s = 0; s < Tiles; ++s) {
    wmma::load_matrix_sync(f, tile<16, Cols>(m, s), Ld);
    for (int i = 0; i < f.num_elements; ++i) acc.x[0] += float(f.x[i]);
  }
  if (acc.x[0] == 12345.f) out[threadIdx.x] = acc.x[0];  // never: keeps the loads
}

__global__ void a_f16_row(float* o, const __half* m) { sum_into<wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>, __half, 16>(o, m); }
__global__ void a_f16_col(float* o, const __half* m) { sum_into<wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major>, __half, 16>(o, m); }
__global__ void b_f16_row(float* o, const __half* m) { sum_into<wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major>, __half, 16>(o, m); }
__global__ void b_f16_col(float* o, const __half* m) { sum_into<wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major>, __half, 16>(o, m); }
__global__ void a_bf16_row(float* o, const __nv_bfloat16* m) { sum_into<wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major>, __nv_bfloat16, 16>(o, m); }
__global__ void b_bf16_row(float* o, const __nv_bfloat16* m) { sum_into<wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major>, __nv_bfloat16, 16>(o, m); }

template <class T, wmma::layout_t L>
__device__ void load_tiles(float* o, const T* m) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  float sum = 0.f;
  for (int s = 0; s < Tiles; ++s) {
    wmma::load_matrix_sync(f, tile<16, 16>(m, s), Ld, L);
    for (int i = 0; i < f.num_elements; ++i) sum += float(f.x[i]);  // every element used: every load kept
  }
  if (sum == 12345.f) o[threadIdx.x] = sum;
}// tf32 (m16n16k8): A is 16 x 8 floats, B 8 x 16.
__global__ void a_tf32_row(float* o, const float* m) { sum_into<wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>, float, 8, 8>(o, m); }
__global__ void b_tf32_row(float* o, const float* m) { sum_into<wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>, float, 8>(o, m); }

__global__ void c_f32_load_row(float* o, const float* m) { load_tiles<float, wmma::mem_row_major>(o, m); }
__global__ void c_f32_load_col(float* o, const float* m) { load_tiles<float, wmma::mem_col_major>(o, m); }
__global__ void c_f16_load_row(float* o, const __half* m) { load_tiles<__half, wmma::mem_row_major>(o, m); }

template <class T, wmma::layout_t L>
__device__ void store_tiles(T* m) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  wmma::fill_fragment(f, T(1.f));
  for (int s = 0; s < Tiles; ++s) wmma::store_matrix_sync(const_cast<T*>(tile<16, 16>(static_cast<const T*>(m), s)), f, Ld, L);
}
__global__ void c_f32_store_row(float* m) { store_tiles<float, wmma::mem_row_major>(m); }
__global__ void c_f32_store_col(float* m) { store_tiles<float, wmma::mem_col_major>(m); }
__global__ void c_f16_store_row(__half* m) { store_tiles<__half, wmma::mem_row_major>(m); }

int main() {
  void *m = nullptr, *o = nullptr;
  cudaMalloc(&m, sizeof(float) * Ld * Ld);
  cudaMalloc(&o, 4096);
  cudaMemset(m, 0, sizeof(float) * Ld * Ld);
  const dim3 grid(256), block(128);  // 1024 warps
  auto* h = static_cast<const __half*>(m);
  auto* b = static_cast<const __nv_bfloat16*>(m);
  auto* f = static_cast<float*>(m);
  auto* out = static_cast<float*>(o);
  a_f16_row<<<grid, block>>>(out, h);
  a_f16_col<<<grid, block>>>(out, h);
  b_f16_row<<<grid, block>>>(out, h);
  b_f16_col<<<grid, block>>>(out, h);
  a_bf16_row<<<grid, block>>>(out, b);
  b_bf16_row<<<grid, block>>>(out, b);
  a_tf32_row<<<grid, block>>>(out, f);
  b_tf32_row<<<grid, block>>>(out, f);
  c_f32_load_row<<<grid, block>>>(out, f);
  c_f32_load_col<<<grid, block>>>(out, f);
  c_f16_load_row<<<grid, block>>>(out, h);
  c_f32_store_row<<<grid, block>>>(f);
  c_f32_store_col<<<grid, block>>>(f);
  c_f16_store_row<<<grid, block>>>(static_cast<__half*>(m));
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("wmma_global: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
