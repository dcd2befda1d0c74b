// Does L1 serve a load of what the same warp has just stored? One warp per row of C floats (the rows
// of 2^15 x 768 f32: 96 MiB, over L2's 60 MiB), written then read back by the same lanes, as a fused
// residual + layernorm kernel does: with 4-byte stores and loads, and with 16-byte ones (float4).
// Each kernel writes out[] from the values read back, so the loads stay. ncu's L1 hit sectors and L2
// read sectors of the loads tell whether L1 kept the stored lines.
#include <cuda_runtime.h>

#include <cstdio>

constexpr int Rows = 1 << 15, C = 768;

__global__ void reload4(const float* in, float* res, float* out) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (r >= Rows) return;
  for (int c = lane; c < C; c += 32) res[r * C + c] = in[r * C + c] + 1.0f;
  __syncwarp();
  float s = 0;
  for (int c = lane; c < C; c += 32) s += res[r * C + (c ^ 1)];
  out[r * 32 + lane] = s;
}

__global__ void reload16(const float4* in, float4* res, float* out) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (r >= Rows) return;
  for (int c = lane; c < C / 4; c += 32) {
    float4 v = in[r * (C / 4) + c];
    v.x += 1.0f;
    res[r * (C / 4) + c] = v;
  }
  __syncwarp();
  float s = 0;
  for (int c = lane; c < C / 4; c += 32) s += res[r * (C / 4) + (c ^ 1)].y;
  out[r * 32 + lane] = s;
}

int main() {
  float *in, *res, *out;
  cudaMalloc(&in, sizeof(float) * Rows * C);
  cudaMalloc(&res, sizeof(float) * Rows * C);
  cudaMalloc(&out, sizeof(float) * Rows * 32);
  cudaMemset(in, 0, sizeof(float) * Rows * C);
  const int block = 256, grid = Rows / (block / 32);
  reload4<<<grid, block>>>(in, res, out);
  reload16<<<grid, block>>>(reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(res), out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
