// rooflint-param-name: a tensor's name differs from its kernel parameter's name.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Line 14, column 23: warning: tensor 'x' is bound to parameter 0 of 'vadd', which is named 'a'; ... [rooflint-param-name]
// note at line 7, column 35: parameter 'a' is declared here
inline constexpr auto wrong = kernel<vadd>("vadd", binary(1, in<0>("x", f32, N),   // x: (N)
                                                             in<1>("b", f32, N),   // b: (N)
                                                             out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));

// No diagnostic: every tensor is named after its parameter.
inline constexpr auto right = kernel<vadd>("vadd2", binary(1, in<0>("a", f32, N),   // a: (N)
                                                              in<1>("b", f32, N),   // b: (N)
                                                              out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));
