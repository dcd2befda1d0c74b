/// @file program.cu
/// A plain program of the consumer, with no rooflint code in it: it launches the annotated saxpy and the
/// template kernel of kernels.cu. tests/consumer runs it under the installed rooflint-verify. Without a
/// CUDA device it says so and exits 0, as a test binary that skips would.
#include <cstdio>

#include <cuda_runtime.h>

#include "kernels.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("consumer_program: no CUDA device, nothing run");
    return 0;
  }
  const int n = 1 << 20;
  float* x = nullptr;  // (N)
  float* y = nullptr;  // (N)
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  consumer_saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  consumer_scale<float><<<(n + 255) / 256, 256>>>(y, 0.5f, n);
  const cudaError_t status = cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  std::printf("consumer_program: %s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
