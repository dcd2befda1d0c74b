// rooflint-kernel-binding: a spec bound to a function that is not a kernel.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

void scale_on_host(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = 2 * x[i];
}
__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}

// Line 16: error: bound to 'scale_on_host', which is not a __global__ function.
inline constexpr auto host_spec =
    kernel<scale_on_host>("scale_on_host", unary(1, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1024));
// Line 19: no error: the same spec on the kernel.
inline constexpr auto kernel_spec =
    kernel<scale>("scale", unary(1, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1024));
