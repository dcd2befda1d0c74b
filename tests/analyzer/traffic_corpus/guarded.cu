// Guarded accesses: conditions that leave fewer lanes of a warp running an access (a scalar tail that
// only the last thread runs, `threadIdx.x == 0`, `threadIdx.x < 4`), and guards that do not narrow the
// warp. The truth is the request of the lanes that run it: sectors over the sectors their useful
// bytes need.
#include "corpus.h"

// The examples' shape (saxpy, vector_add): a float4 per thread (1x: 16 contiguous bytes per lane), and
// for the last elements a scalar loop from i = 4 * (thread) to n. It runs where i + 3 >= n and i < n,
// so 4 * thread lies in [n - 3, n - 1]: a window of 3, one thread of the grid (lanes are 4 apart).
// One lane: 1 sector for 4 useful bytes (1 needed): 1x for the loads and the store.
__global__ void vector_body_scalar_tail(int n, float a, const float* x, float* y) {
  const int i4 = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = 4 * i4;
  if (i + 3 < n) {
    const float4 xv = reinterpret_cast<const float4*>(x)[i4];  // truth: load 1x
    float4 yv = reinterpret_cast<float4*>(y)[i4];  // truth: load 1x
    yv.x += a * xv.x;
    yv.y += a * xv.y;
    yv.z += a * xv.z;
    yv.w += a * xv.w;
    reinterpret_cast<float4*>(y)[i4] = yv;  // truth: store 1x
  } else {
    for (int j = i; j < n; ++j) y[j] = a * x[j] + y[j];  // truth: load 1x, load 1x, store 1x
  }
}

// The tail written as an equality: only the thread i == n / 4 runs the loop (one lane): 1x. The body
// copies a float4 per thread: 1x.
__global__ void remainder_by_one_thread(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i];  // truth: load 1x, store 1x
  } else if (i == n / 4) {
    for (int j = 4 * i; j < n; ++j) y[j] = x[j];  // truth: load 1x, store 1x
  }
}

// One lane per block writes at a stride of 33 floats: a single lane, 1 sector for 4 bytes: 1x (all
// 32 lanes would be 8x). The load x[i] is unit-stride: 1x.
__global__ void first_lane_strided(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) y[33 * i] = x[i];  // truth: load 1x, store 1x
}

// Four lanes, 32 floats (128 bytes) apart: 4 sectors for 16 useful bytes (1 needed): 4x. The load
// x[threadIdx.x] of the same four lanes: 16 contiguous bytes, 1 sector: 1x.
__global__ void four_lanes_strided(const float* x, float* y) {
  if (threadIdx.x < 4) y[32 * threadIdx.x] = x[threadIdx.x];  // truth: load 1x, store 4x
}

// A guard that leaves a whole warp: the upper half of the range, i in [n / 2, n) (n / 2 wide): every
// lane runs the strided store, 33 floats apart: 32 sectors for 4: 8x.
__global__ void upper_half_strided(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / 2 && i < n) y[33 * (i - n / 2)] = x[i];  // truth: load 1x, store 8x
}

// Two guards on different values (i < n and threadIdx.x < 16): 16 lanes, a float each at 2-float
// gaps: 128 bytes = 4 sectors for 64 useful bytes (2): 2x.
__global__ void half_warp_stride2(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && threadIdx.x < 16) y[i] = x[2 * i];  // truth: load 2x, store 1x
}
