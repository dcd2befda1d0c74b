// GEMMs and transposes: naive (both mappings), tiled through shared memory.
#include "corpus.h"

// C = A B, N x N, row from threadIdx.y, col from threadIdx.x: A[row * N + k] is one address per warp
// (1x), B[k * N + col] unit-stride (1x), the store unit-stride (1x).
__global__ void gemm_naive(const float* A, const float* B, float* C, int N) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < N; ++k) {
    const float a = A[row * N + k];  // truth: load 1x
    acc += a * B[k * N + col];  // truth: load 1x
  }
  C[row * N + col] = acc;  // truth: store 1x
}

// The other mapping, row from threadIdx.x: A[row * N + k] has lanes N floats apart (a sector per
// lane; the lane's walk spans N * 4 bytes, over a line): 8x; B[k * N + col] one address: 1x; the
// store C[row * N + col] lanes N floats apart: 8x.
__global__ void gemm_naive_rows(const float* A, const float* B, float* C, int N) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.f;
  for (int k = 0; k < N; ++k) {
    const float a = A[row * N + k];  // truth: load 8x
    acc += a * B[k * N + col];  // truth: load 1x
  }
  C[row * N + col] = acc;  // truth: store 8x
}

// Tiled through shared memory (32 x 32 tiles, blockDim 32 x 32): the global loads have threadIdx.x
// along rows: 1x; the shared-memory accesses are not global traffic; the store 1x.
__global__ void gemm_tiled(const float* A, const float* B, float* C, int N) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < N / 32; ++t) {
    As[ty][tx] = A[row * N + t * 32 + tx];  // truth: load 1x
    Bs[ty][tx] = B[(t * 32 + ty) * N + col];  // truth: load 1x
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;  // truth: store 1x
}

// Tiled with pointers advanced per tile (A += 32; B += 32 * N): 1x for both loads.
__global__ void gemm_tiled_advancing(const float* A, const float* B, float* C, int N) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  A += blockIdx.y * 32 * N;
  B += blockIdx.x * 32;
  float acc = 0.f;
  for (int t = 0; t < N; t += 32) {
    As[ty][tx] = A[ty * N + tx];  // truth: load 1x
    Bs[ty][tx] = B[ty * N + tx];  // truth: load 1x
    __syncthreads();
    A += 32;
    B += 32 * N;
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(blockIdx.y * 32 + ty) * N + blockIdx.x * 32 + tx] = acc;  // truth: store 1x
}

// Naive transpose: the read is unit-stride (1x), the write has lanes `rows` floats apart: 8x.
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) {
    const float v = in[r * cols + c];  // truth: load 1x
    out[c * rows + r] = v;  // truth: store 8x
  }
}

// Transpose through a shared tile: both global accesses have threadIdx.x along a row: 1x.
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];  // truth: load 1x
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * rows + tx] = tile[threadIdx.x][threadIdx.y];  // truth: store 1x
}

// Shared-memory tree reduction: the global load x[i] 1x; the block's result written by one lane: 1x.
__global__ void block_sum(const float* x, float* partial, int n) {
  __shared__ float s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.f;  // truth: load 1x
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];  // truth: store 1x
}
