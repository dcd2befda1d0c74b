// rooflint-uncovered-param: a pointer parameter that is neither a tensor nor uncounted<>.
// Both specs: f32 scale, 1 FLOP per element as typed (1,024 FLOP), 8*N = 8,192 bytes at N = 1024: 1/8
// FLOP/byte; 8192 / 4.8e12 B/s = 1.707 ns on H200.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// expected-warning@+2:56 {{pointer parameter 'scratch' of kernel 'scale' is not covered by spec 'scale_spec'; its traffic is not counted [rooflint-uncovered-param]}}
// expected-note@+1 {{kernel 'scale' is declared here}}
__global__ void scale(const float* x, float* y, float* scratch, int n) {}
// expected-note@+6 {{bind it as a tensor (in<2>, out<2>, inout<2>) or mark it uncounted<2>("scratch") in the spec}}
// expected-remark@+5 {{kernel 'scale' is memory-bound (arithmetic intensity 0.125 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 1.71 ns at N = 1024 [rooflint-bound]}}
// expected-note@+4 {{ideal FLOPs N = 1,024 FLOP (as the spec states them); compulsory bytes 8*N = 8,192 bytes (read 4*N, written 4*N)}}
// expected-note@+3 {{arithmetic intensity 1/8 FLOP/byte}}
// expected-note@+2 {{t_min 1.71 ns is set by 8.19 kB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto scale_spec = kernel<scale>("scale", unary(1, in<0>("x", f32, N),   // x: (N)
                                                                   out<1>("y", f32, N))) // y: (N)
                                       .at(N(1024));

// No rooflint-uncovered-param: the scratch pointer is marked uncounted; the int parameter is not a pointer.
// expected-note@+1 {{kernel 'scale2' is declared here}}
__global__ void scale2(const float* x, float* y, float* scratch, int n) {}
// expected-remark@+4 {{kernel 'scale2' is memory-bound (arithmetic intensity 0.125 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 1.71 ns at N = 1024 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs N = 1,024 FLOP (as the spec states them); compulsory bytes 8*N = 8,192 bytes (read 4*N, written 4*N)}}
// expected-note@+2 {{arithmetic intensity 1/8 FLOP/byte}}
// expected-note@+1 {{t_min 1.71 ns is set by 8.19 kB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto scale2_spec = kernel<scale2>("scale2", unary(1, in<0>("x", f32, N),    // x: (N)
                                                                      out<1>("y", f32, N)),  // y: (N)
                                                   uncounted<2>("scratch"))
                                        .at(N(1024));

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@18 {{kernel 'scale' (N = 1024): traffic not predicted for 'x', 'y' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@29 {{kernel 'scale2' (N = 1024): traffic not predicted for 'x', 'y' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
