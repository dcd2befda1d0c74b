// Do store instructions that write complementary halves of the same sectors reach L2 once or twice?
// (store-merge.sh). y has 2^25 floats; each kernel writes all of it: 2^22 sectors, 4 bytes a lane a store.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void adjacent(float* y, const float* x, int pairs) {          // rope's pattern
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const float a = x[2 * i], b = x[2 * i + 1];
  y[2 * i] = a * 2.f;
  y[2 * i + 1] = b * 3.f;
}
__global__ void separated(float* y, const float* x, int pairs) {        // other work between the two
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  const float a = x[2 * i];
  y[2 * i] = a * 2.f;
  float b = x[2 * i + 1];
  for (int k = 0; k < 200; ++k) b = b * 1.0001f + 0.5f;
  y[2 * i + 1] = b;
}
__global__ void after_barrier(float* y, const float* x, int pairs) {    // a __syncthreads between
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool in = i < pairs;
  if (in) y[2 * i] = x[2 * i] * 2.f;
  __syncthreads();
  if (in) y[2 * i + 1] = x[2 * i + 1] * 3.f;
}
__global__ void two_warps(float* y, const float* x, int pairs) {        // even by warp w, odd by warp w+1
  const int t = threadIdx.x, lane = t % 32, w = t / 32;
  const int pair = blockIdx.x * (blockDim.x / 2) + (w / 2) * 32 + lane;
  if (pair >= pairs) return;
  const int j = 2 * pair + (w % 2);
  y[j] = x[j] * 2.f;
}
__global__ void half_only(float* y, const float* x, int pairs) {        // one half: the reference
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) y[2 * i] = x[2 * i] * 2.f;
}
int main() {
  const int pairs = 1 << 24;  // y: 2^25 floats, 128 MiB
  float *x, *y;
  cudaMalloc(&x, sizeof(float) * 2 * pairs);
  cudaMalloc(&y, sizeof(float) * 2 * pairs);
  cudaMemset(x, 0, sizeof(float) * 2 * pairs);
  const int b = 256, g = pairs / b;
  adjacent<<<g, b>>>(y, x, pairs);
  separated<<<g, b>>>(y, x, pairs);
  after_barrier<<<g, b>>>(y, x, pairs);
  two_warps<<<2 * g, b>>>(y, x, pairs);
  half_only<<<g, b>>>(y, x, pairs);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
