// A lane's own chunk of 8 consecutive floats, stored (eight_per_lane) or loaded (eight_loads) one by one:
// each warp request touches 32 sectors for 4 sectors' bytes (lane-chunks.sh). Do the 8 stores reach L2
// joined, as two back to back do (store_merge.cu), and what do the loads cost past L1? chunk_store<C>:
// the same store of C floats a lane (C = 2, 4, 8, 16: 8 to 32 sectors a request, 16 to 512 in a row),
// y 64 MiB each time: where do stores back to back stop joining?
#include <cstdio>
#include <cuda_runtime.h>
__global__ void eight_per_lane(const float* x, float* y, int m, int e) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float v = x[i];
#pragma unroll
  for (int j = 0; j < 8; ++j) y[i * 8 + j] = v + j;
}
__global__ void eight_loads(const float* x, float* y, int m, int e) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += x[i * 8 + j];
  y[i] = s;
}
template <int C>
__global__ void chunk_store(const float* x, float* y, int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float v = x[i];
#pragma unroll
  for (int j = 0; j < C; ++j) y[i * C + j] = v + j;
}
template <int C>
void launch_chunk_store(const float* x, float* y) {
  const int m = (1 << 24) / C;  // y: 2^24 floats, 64 MiB
  chunk_store<C><<<m / 256, 256>>>(x, y, m);
}
int main() {
  const int m = 1 << 21;  // 2^21 lanes: x and y of 8 floats a lane are 64 MiB
  float *x, *y;
  cudaMalloc(&x, sizeof(float) * m * 8);
  cudaMalloc(&y, sizeof(float) * m * 8);
  cudaMemset(x, 0, sizeof(float) * m * 8);
  eight_per_lane<<<m / 256, 256>>>(x, y, m, 8);
  eight_loads<<<m / 256, 256>>>(x, y, m, 8);
  launch_chunk_store<2>(x, y);
  launch_chunk_store<4>(x, y);
  launch_chunk_store<8>(x, y);
  launch_chunk_store<16>(x, y);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
