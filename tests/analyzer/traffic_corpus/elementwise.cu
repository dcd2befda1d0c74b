// Elementwise accesses: unit, constant and runtime strides, reversed, broadcast, narrow and wide types.
#include "corpus.h"

// 32 lanes x 4 contiguous bytes = 128 bytes = 4 sectors, 4 needed: 1x both.
__global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];  // truth: load 1x, store 1x
}

// x[2i]: a 256-byte span, every sector touched (8-byte gaps): 8 sectors for 128 bytes (4): 2x.
__global__ void stride2(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i];  // truth: load 2x, store 1x
}

// x[33i]: 132-byte gaps, a sector per lane: 32 sectors for 4: 8x.
__global__ void stride33(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[33 * i];  // truth: load 8x, store 1x
}

// x[i * stride], stride = 4096 at the test's size: a sector per lane: 8x (1x only when stride == 1).
__global__ void runtime_stride(const float* x, float* y, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * stride];  // truth: load 8x, store 1x
}

// A strided store: y[4i], 16-byte gaps: a 512-byte span = 16 sectors for 4: 4x.
__global__ void strided_store(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[4 * i] = x[i];  // truth: load 1x, store 4x
}

// Reversed unit stride: the same 4 sectors, in the other order: 1x.
__global__ void reversed(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[n - 1 - i];  // truth: load 1x, store 1x
}

// x[blockIdx.x]: one address for the warp: 1 sector for 4 useful bytes (1 needed): 1x.
__global__ void broadcast(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[blockIdx.x];  // truth: load 1x, store 1x
}

// Doubles at stride 2: 16-byte gaps, a 512-byte span = 16 sectors for 256 bytes (8): 2x.
__global__ void double_stride2(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i];  // truth: load 2x, store 1x
}

// Bytes at stride 64: a sector per lane, 32 sectors for 32 useful bytes (1 sector): 32x.
__global__ void bytes_stride64(const char* x, char* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[64 * i];  // truth: load 32x, store 1x
}

struct Particle { float x, y, z, w; };

// One field of an array of 16-byte structs: 16-byte gaps, 16 sectors for 128 bytes (4): 4x.
__global__ void aos_field(const Particle* p, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = p[i].x;  // truth: load 4x, store 1x
}

// float4 loads and stores: 32 x 16 contiguous bytes = 512 bytes = 16 sectors, 16 needed: 1x.
__global__ void vec4_copy(const float4* x, float4* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];  // truth: load 1x, store 1x
}

// &p[4 * threadIdx.x] read as a float4 (once reported as 4x): 16 contiguous bytes per
// lane, lanes 16 bytes apart: 1x. The scalar store y[i]: 1x.
__global__ void vec4_cast(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = *reinterpret_cast<const float4*>(&x[4 * i]);  // truth: load 1x
  y[i] = v.x + v.y + v.z + v.w;  // truth: store 1x
}

// float2 at every other float2: 8 bytes per lane, lanes 16 bytes apart: 512-byte span = 16 sectors
// for 256 useful bytes (8): 2x.
__global__ void vec2_stride2(const float2* x, float2* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i];  // truth: load 2x, store 1x
}

// A grid-stride loop: i advances by blockDim.x * gridDim.x, uniform: 1x.
__global__ void grid_stride_copy(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i];  // truth: load 1x, store 1x
}

// A grid-stride loop with a strided load (stride large): 8x.
__global__ void grid_stride_strided(const float* x, float* y, int n, int stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i * stride];  // truth: load 8x, store 1x
}

// A gather: x[idx[i]] depends on loaded data (?); idx[i] itself is unit-stride: 1x.
__global__ void gather(const float* x, const int* idx, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];  // truth: load 1x
  y[i] = x[j];  // truth: load ?, store 1x
}
