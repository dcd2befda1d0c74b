/// @file kernels.cu
/// An annotated kernel (its spec is in kernels.h) and deliberate stride-33 reads: two silenced (NOLINT on
/// line 13, NOLINTNEXTLINE for line 16), one left to warn (line 14). tests/consumer checks the build log.
#include "kernels.h"

__global__ void consumer_saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void consumer_gather(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 33] + x[i * 33 + 1];  // NOLINT(rooflint-uncoalesced): a deliberate gather
  if (i < n) y[i] += x[i * 33 + 2];             // not silenced: must still warn
  // NOLINTNEXTLINE(rooflint-uncoalesced)
  if (i < n) y[i] += x[i * 33 + 3];
}

// A template kernel that program.cu launches (explicitly instantiated here).
template <typename T>
__global__ void consumer_scale(T* x, T a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
template __global__ void consumer_scale<float>(float*, float, int);
