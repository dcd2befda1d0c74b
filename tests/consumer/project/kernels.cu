/// @file kernels.cu
/// An annotated kernel (its spec is in kernels.h) and two deliberate stride-33 reads: one silenced with
/// NOLINT, one left to warn (tests/consumer/CMakeLists.txt checks both in the build log).
#include "kernels.h"

__global__ void consumer_saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void consumer_gather(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 33] + x[i * 33 + 1];  // NOLINT(rooflint-uncoalesced): consumer-nolint-line
  if (i < n) y[i] += x[i * 33 + 2];  // consumer-flagged-line: still warns
}
