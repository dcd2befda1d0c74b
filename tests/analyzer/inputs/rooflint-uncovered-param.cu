// rooflint-uncovered-param: a pointer parameter that is neither a tensor nor uncounted<>.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// Line 9, column 56: warning: pointer parameter 'scratch' of kernel 'scale' is not covered by spec
//   'scale_spec'; its traffic is not counted [rooflint-uncovered-param]
__global__ void scale(const float* x, float* y, float* scratch, int n) {}
inline constexpr auto scale_spec = kernel<scale>("scale", unary(1, in<0>("x", f32, N),   // x: (N)
                                                                   out<1>("y", f32, N))) // y: (N)
                                       .at(N(1024));

// No diagnostic: the scratch pointer is marked uncounted; the int parameter is not a pointer.
__global__ void scale2(const float* x, float* y, float* scratch, int n) {}
inline constexpr auto scale2_spec = kernel<scale2>("scale2", unary(1, in<0>("x", f32, N),    // x: (N)
                                                                      out<1>("y", f32, N)),  // y: (N)
                                                   uncounted<2>("scratch"))
                                        .at(N(1024));
