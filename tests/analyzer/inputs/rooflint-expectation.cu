// rooflint-expectation: the spec's .expect(...) contradicted by the verdict.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void sgemm(const float* A, const float* B, float* C, int n) {}

// Line 11, column 23: warning: kernel 'small' is expected to be compute-bound but is memory-bound on
//   'H200' at N = 64; arithmetic intensity 10.7 FLOP/byte is below the ridge 13.9 FLOP/byte ... [rooflint-expectation]
inline constexpr auto small_spec = kernel<sgemm>("small", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(64))
                                       .expect(compute_bound);

// No diagnostic: at N = 4096 the expectation holds.
inline constexpr auto large_spec = kernel<sgemm>("large", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(4096))
                                       .expect(compute_bound);
