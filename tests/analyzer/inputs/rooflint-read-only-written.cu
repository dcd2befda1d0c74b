// rooflint-read-only-written: the kernel writes through a tensor the spec declares read-only.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void axpy(float a, float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] += a * x[i];  // no diagnostic: y is inout
    x[i] = 0;          // line 11, column 10: warning: kernel 'axpy' writes through 'x', which spec 'axpy_spec' declares read-only (tensor 'x') ...
  }
}
inline constexpr auto axpy_spec = kernel<axpy>("axpy", custom(2 * N, in<1>("x", f32, N),      // x: (N)
                                                                 inout<2>("y", f32, N)))  // y: (N)
                                      .at(N(1024));

// No diagnostic: x is only read; atomics into the inout tensor are writes it declares.
__global__ void axpy2(float a, float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&y[i], a * x[i]);
}
inline constexpr auto axpy2_spec = kernel<axpy2>("axpy2", custom(2 * N, in<1>("x", f32, N),      // x: (N)
                                                                    inout<2>("y", f32, N)))  // y: (N)
                                       .at(N(1024));
