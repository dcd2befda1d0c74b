// Indices through '/', '%', threadIdx.y, device functions, templates and loops.
#include "corpus.h"

// (i / C) * C + i % C is i: 1x.
__global__ void divmod_identity(const float* x, float* y, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[(i / C) * C + i % C];  // truth: load 1x, store 1x
}

// (i % 32) * 32 + i / 32: within a warp lane l reads x[32 l + w]: 128-byte gaps, a sector per lane: 8x.
__global__ void modulo_transpose(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[(i % 32) * 32 + i / 32];  // truth: load 8x, store 1x
}

// x[i / 2]: lane pairs share an element: 16 floats = 64 contiguous bytes, 2 sectors for 2: 1x.
__global__ void halve(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i / 2];  // truth: load 1x, store 1x
}

// x[i % n] with n = 4096: lanes contiguous within a warp (the wrap falls between warps): 1x.
__global__ void modulo_runtime(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i % n];  // truth: load 1x, store 1x
}

// x[(i * 3) % 96]: lanes 0..31 read 0, 3, ..., 93: 12-byte gaps, 372-byte span: 12 sectors for 4: 3x.
__global__ void modulo_scatter(const float* x, float* y) {
  int i = threadIdx.x;
  y[i] = x[(i * 3) % 96];  // truth: load 3x, store 1x
}

// 2D blocks: threadIdx.x along the row is unit-stride (1x); threadIdx.x down a column of width W
// (large): a sector per lane: 8x.
__global__ void two_d(const float* x, float* y, float* z, int W) {
  y[threadIdx.y * W + threadIdx.x] = x[threadIdx.y * W + threadIdx.x];  // truth: load 1x, store 1x
  z[threadIdx.x * W + threadIdx.y] = 0.f;  // truth: store 8x
}

// Through an inlined device function: p[i * s] with s = 16: 64-byte gaps: 8x.
__device__ float load_strided(const float* p, int i, int s) { return p[i * s]; }  // truth: load 8x
__global__ void via_device_function(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = load_strided(x, i, 16);  // truth: store 1x
}

// A template instantiated with S = 8: 32-byte gaps, a sector per lane: 8x.
template <int S> __global__ void templated_stride(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i * S];  // truth: load 8x, store 1x
}
template __global__ void templated_stride<8>(const float*, float*);

// A template over the element type, instantiated for double: unit stride, 1x.
template <typename T> __global__ void templated_copy(const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];  // truth: load 1x, store 1x
}
template __global__ void templated_copy<double>(const double*, double*);

// A vectorised kernel's scalar tail: each lane walks its own 4 floats (16 bytes). The load is reused
// through L1 (1x); the store is not: 16-byte gaps, 16 sectors for 4 per request: 4x.
__global__ void scalar_tail(const float* x, float* y, int n) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int j = i; j < i + 4 && j < n; ++j)
    y[j] = 2.f * x[j];  // truth: load 1x, store 4x
}

// A variable changed through a reference argument: the index is then i * 2: 2x.
__device__ void twice(int& k) { k *= 2; }
__global__ void through_reference(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = i;
  twice(k);
  y[i] = x[k];  // truth: load 2x, store 1x
}

// Row pointer taken first, r from threadIdx.x: lanes C floats apart (C large): a sector per lane, and
// each lane's walk covers C * 4 bytes (over a line): 8x per request.
__global__ void row_pointer_per_lane(const float* x, float* y, int C) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float* row = x + r * C;
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += row[c];  // truth: load 8x
  y[r] = s;  // truth: store 1x
}

// Row pointer per block, the block's threads across the row: 1x.
__global__ void row_pointer_per_block(const float* x, float* y, int C) {
  const float* row = x + blockIdx.x * C;
  float* out = y + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) out[c] = row[c] * 2.f;  // truth: load 1x, store 1x
}

// A pointer advanced in a loop, lanes across a row: 1x.
__global__ void advancing_pointer(const float* A, float* y, int ld, int rows) {
  float s = 0.f;
  for (int r = 0; r < rows; ++r) {
    s += A[threadIdx.x];  // truth: load 1x
    A += ld;
  }
  y[threadIdx.x] = s;  // truth: store 1x
}

// A pointer advanced along the row while lanes go down a column (ld large): 8x.
__global__ void advancing_pointer_column(const float* A, float* y, int ld, int cols) {
  float s = 0.f;
  for (int c = 0; c < cols; ++c) {
    s += A[threadIdx.x * ld];  // truth: load 8x
    A += 1;
  }
  y[threadIdx.x] = s;  // truth: store 1x
}
