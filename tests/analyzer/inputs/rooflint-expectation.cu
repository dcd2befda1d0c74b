// rooflint-expectation: the spec's .expect(...) contradicted by the verdict.
// Square f32 matmul on H200 (as in rooflint-bound.cu): intensity N/6, ridge 13.9375, compute-bound from
// N = 84. At N = 64: 64/6 = 10.67 -> "10.7", below the ridge; floor 12*64^2 = 49,152 bytes at 4.8 TB/s =
// 10.24 ns. At N = 4096 the expectation holds.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// expected-note@+2 {{kernel 'small' is declared here}}
// expected-note@+1 {{kernel 'large' is declared here}}
__global__ void sgemm(const float* A, const float* B, float* C, int n) {}

// expected-warning@+7:23 {{kernel 'small' is expected to be compute-bound but is memory-bound on 'H200' at N = 64; arithmetic intensity 10.7 FLOP/byte is below the ridge 13.9 FLOP/byte (FP32, datasheet peaks) [rooflint-expectation]}}
// expected-note@+6 {{it is compute-bound from N = 84}}
// expected-remark@+5:23 {{kernel 'small' is memory-bound (arithmetic intensity 10.7 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 10.2 ns at N = 64 [rooflint-bound]}}
// expected-note@+4 {{ideal FLOPs 2*N^3 = 524,288 FLOP (torch.utils.flop_counter); compulsory bytes 12*N^2 = 49,152 bytes (read 8*N^2, written 4*N^2)}}
// expected-note@+3 {{arithmetic intensity N/6 FLOP/byte; compute-bound from N = 84 on H200 FP32}}
// expected-note@+2 {{t_min 10.2 ns is set by 49.2 kB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto small_spec = kernel<sgemm>("small", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(64))
                                       .expect(compute_bound);

// No rooflint-expectation: at N = 4096 the expectation holds (683 FLOP/byte; 2.05 ms, as in rooflint-bound.cu).
// expected-remark@+4 {{kernel 'large' is compute-bound (arithmetic intensity 683 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.05 ms at N = 4096 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs 2*N^3 = 137,438,953,472 FLOP (torch.utils.flop_counter); compulsory bytes 12*N^2 = 201,326,592 bytes (read 8*N^2, written 4*N^2)}}
// expected-note@+2 {{arithmetic intensity N/6 FLOP/byte; compute-bound from N = 84 on H200 FP32}}
// expected-note@+1 {{t_min 2.05 ms is set by 137 GFLOP at 66.9 TFLOP/s FP32}}
inline constexpr auto large_spec = kernel<sgemm>("large", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(4096))
                                       .expect(compute_bound);

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@21 {{kernel 'small' (N = 64): traffic not predicted for 'A', 'B', 'C' at L1, L2, DRAM: the assumed launch grid (16, 1, 1), block (256, 1, 1) reads 'A' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@32 {{kernel 'large' (N = 4096): traffic not predicted for 'A', 'B', 'C' at L1, L2, DRAM: the assumed launch grid (65536, 1, 1), block (256, 1, 1) reads 'A' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
