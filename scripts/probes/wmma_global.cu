// How the chip counts wmma fragments loaded from and stored to global memory (wmma-global.sh): the
// requests and sectors per fragment of each kind, layout and type (16 x 16 x 16 f16 and bf16, 16 x 16 x 8
// tf32, accumulators loaded and stored), at a row pitch (ldm) of 4096 elements, so that every row of a
// fragment lies in its own 128-byte line. Each kind twice: the pitch a compile-time constant, and a
// kernel parameter ("_rt": ptxas cannot prove the rows' alignment); two at a pitch that is a multiple
// of 16 bytes but not of 32. Each warp walks 64 tiles of a
// 4096 x 4096 matrix along its row; 1024 warps: 65,536 fragments per kernel. Every element loaded is
// used, so that no load is dropped.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int Ld = 4096, Tiles = 64;

/// The tile (warp w, step s): 16 rows of warp w's band, Cols * s columns in, at pitch @p ld.
template <int Cols, class T>
__device__ T* tile(T* p, int s, int ld) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  return p + static_cast<long>(w % 256) * 16 * ld + static_cast<long>(w / 256) * Tiles * Cols + s * Cols;
}

/// Loads 64 fragments of kind Frag (Cols columns a tile) at pitch @p ld and keeps every element.
template <class Frag, int Cols, class T>
__device__ void load_fragments(float* out, const T* m, int ld) {
  Frag f;
  float sum = 0.f;
  for (int s = 0; s < Tiles; ++s) {
    wmma::load_matrix_sync(f, tile<Cols>(m, s, ld), ld);
    for (int i = 0; i < f.num_elements; ++i) sum += float(f.x[i]);
  }
  if (sum == 12345.f) out[threadIdx.x] = sum;  // never: keeps the loads
}
template <class T, wmma::layout_t L>
__device__ void load_accumulators(float* out, const T* m, int ld) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  float sum = 0.f;
  for (int s = 0; s < Tiles; ++s) {
    wmma::load_matrix_sync(f, tile<16>(m, s, ld), ld, L);
    for (int i = 0; i < f.num_elements; ++i) sum += float(f.x[i]);
  }
  if (sum == 12345.f) out[threadIdx.x] = sum;
}
template <class T, wmma::layout_t L>
__device__ void store_accumulators(T* m, int ld) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;
  wmma::fill_fragment(f, T(1.f));
  for (int s = 0; s < Tiles; ++s) wmma::store_matrix_sync(tile<16>(m, s, ld), f, ld, L);
}

template <class U, class T, class L> using F16 = wmma::fragment<U, 16, 16, 16, T, L>;
template <class U, class L> using Tf32 = wmma::fragment<U, 16, 16, 8, wmma::precision::tf32, L>;

// Each kind as two kernels: NAME with the pitch a constant, NAME_rt with it a parameter.
#define LOADS(NAME, T, ...)                                                                                   \
  __global__ void NAME(float* o, const T* m, int) { __VA_ARGS__(o, m, Ld); }                                  \
  __global__ void NAME##_rt(float* o, const T* m, int ld) { __VA_ARGS__(o, m, ld); }
#define STORES(NAME, T, ...)                                                                                  \
  __global__ void NAME(float*, T* m, int) { __VA_ARGS__(m, Ld); }                                             \
  __global__ void NAME##_rt(float*, T* m, int ld) { __VA_ARGS__(m, ld); }

LOADS(a_f16_row, __half, load_fragments<F16<wmma::matrix_a, __half, wmma::row_major>, 16>)
LOADS(a_f16_col, __half, load_fragments<F16<wmma::matrix_a, __half, wmma::col_major>, 16>)
LOADS(b_f16_row, __half, load_fragments<F16<wmma::matrix_b, __half, wmma::row_major>, 16>)
LOADS(b_f16_col, __half, load_fragments<F16<wmma::matrix_b, __half, wmma::col_major>, 16>)
LOADS(a_bf16_row, __nv_bfloat16, load_fragments<F16<wmma::matrix_a, __nv_bfloat16, wmma::row_major>, 16>)
LOADS(b_bf16_row, __nv_bfloat16, load_fragments<F16<wmma::matrix_b, __nv_bfloat16, wmma::row_major>, 16>)
LOADS(a_tf32_row, float, load_fragments<Tf32<wmma::matrix_a, wmma::row_major>, 8>)  // 16 x 8 floats
LOADS(b_tf32_row, float, load_fragments<Tf32<wmma::matrix_b, wmma::row_major>, 16>) // 8 x 16 floats
LOADS(c_f32_load_row, float, load_accumulators<float, wmma::mem_row_major>)
LOADS(c_f32_load_col, float, load_accumulators<float, wmma::mem_col_major>)
LOADS(c_f16_load_row, __half, load_accumulators<__half, wmma::mem_row_major>)
STORES(c_f32_store_row, float, store_accumulators<float, wmma::mem_row_major>)
STORES(c_f32_store_col, float, store_accumulators<float, wmma::mem_col_major>)
STORES(c_f16_store_row, __half, store_accumulators<__half, wmma::mem_row_major>)

// A pitch that is a multiple of 16 bytes (what wmma requires) but not of 32: every other line starts
// half-way into a sector.
__global__ void a_f16_row_pitch4104(float* o, const __half* m, int ld) { load_fragments<F16<wmma::matrix_a, __half, wmma::row_major>, 16>(o, m, ld); }
__global__ void c_f32_store_row_pitch4100(float*, float* m, int ld) { store_accumulators<float, wmma::mem_row_major>(m, ld); }

template <class T>
void both(void (*constant)(float*, T*, int), void (*runtime)(float*, T*, int), float* o, void* m) {
  constant<<<256, 128>>>(o, static_cast<T*>(m), Ld);  // 1024 warps
  runtime<<<256, 128>>>(o, static_cast<T*>(m), Ld);
}

int main() {
  void *m = nullptr, *o = nullptr;
  cudaMalloc(&m, sizeof(float) * Ld * Ld);
  cudaMalloc(&o, 4096);
  cudaMemset(m, 0, sizeof(float) * Ld * Ld);
  auto* out = static_cast<float*>(o);
  both(a_f16_row, a_f16_row_rt, out, m);
  both(a_f16_col, a_f16_col_rt, out, m);
  both(b_f16_row, b_f16_row_rt, out, m);
  both(b_f16_col, b_f16_col_rt, out, m);
  both(a_bf16_row, a_bf16_row_rt, out, m);
  both(b_bf16_row, b_bf16_row_rt, out, m);
  both(a_tf32_row, a_tf32_row_rt, out, m);
  both(b_tf32_row, b_tf32_row_rt, out, m);
  both(c_f32_load_row, c_f32_load_row_rt, out, m);
  both(c_f32_load_col, c_f32_load_col_rt, out, m);
  both(c_f16_load_row, c_f16_load_row_rt, out, m);
  both(c_f32_store_row, c_f32_store_row_rt, out, m);
  both(c_f32_store_col, c_f32_store_col_rt, out, m);
  both(c_f16_store_row, c_f16_store_row_rt, out, m);
  a_f16_row_pitch4104<<<256, 128>>>(out, static_cast<const __half*>(m), 4104);
  c_f32_store_row_pitch4100<<<256, 128>>>(out, static_cast<float*>(m), 4100);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("wmma_global: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
