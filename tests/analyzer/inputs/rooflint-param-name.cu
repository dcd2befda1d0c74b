// rooflint-param-name: a tensor's name differs from its kernel parameter's name.
// Both specs: f32 vector add, 1 FLOP per element as typed (N = 1,048,576 FLOP), 12*N = 12,582,912 bytes
// at N = 2^20: 1/12 = 0.0833 FLOP/byte; 12582912 / 4.8e12 B/s = 2.621 us on H200.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// expected-note@+3:35 {{parameter 'a' is declared here}}
// expected-note@+2 {{kernel 'vadd' is declared here}}
// expected-note@+1 {{kernel 'vadd2' is declared here}}
__global__ void vadd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// expected-warning@+6:23 {{tensor 'x' is bound to parameter 0 of 'vadd', which is named 'a'; the spec and the kernel disagree on what the parameter is [rooflint-param-name]}}
// expected-remark@+5 {{kernel 'vadd' is memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.62 us at N = 1048576 [rooflint-bound]}}
// expected-note@+4 {{ideal FLOPs N = 1,048,576 FLOP (torch.utils.flop_counter); compulsory bytes 12*N = 12,582,912 bytes (read 8*N, written 4*N)}}
// expected-note@+3 {{arithmetic intensity 1/12 FLOP/byte}}
// expected-note@+2 {{t_min 2.62 us is set by 12.6 MB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto wrong = kernel<vadd>("vadd", binary(1, in<0>("x", f32, N),   // x: (N)
                                                             in<1>("b", f32, N),   // b: (N)
                                                             out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));

// No rooflint-param-name: every tensor is named after its parameter.
// expected-remark@+4 {{kernel 'vadd2' is memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.62 us at N = 1048576 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs N = 1,048,576 FLOP (torch.utils.flop_counter); compulsory bytes 12*N = 12,582,912 bytes (read 8*N, written 4*N)}}
// expected-note@+2 {{arithmetic intensity 1/12 FLOP/byte}}
// expected-note@+1 {{t_min 2.62 us is set by 12.6 MB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto right = kernel<vadd>("vadd2", binary(1, in<0>("a", f32, N),   // a: (N)
                                                              in<1>("b", f32, N),   // b: (N)
                                                              out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));
