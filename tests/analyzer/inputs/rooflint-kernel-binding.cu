// rooflint-kernel-binding: a spec bound to a function that is not a kernel.
// The kernel's spec: an f32 scale, 1 FLOP per element as typed (1,024 FLOP), 8*N = 8,192 bytes at
// N = 1024: 1/8 FLOP/byte; 8192 / 4.8e12 B/s = 1.707 ns on H200.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

void scale_on_host(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = 2 * x[i];
}
// expected-note@+1 {{kernel 'scale' is declared here}}
__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}

// Refused: no verdict from a spec on a host function.
// expected-error@+1 {{spec 'host_spec' is bound to 'scale_on_host', which is not a __global__ function (a kernel): bind the spec to the kernel the program launches [rooflint-kernel-binding]}}
inline constexpr auto host_spec =
    kernel<scale_on_host>("scale_on_host", unary(1, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1024));
// The same spec on the kernel is read.
// expected-remark@+5 {{kernel 'scale' is memory-bound (arithmetic intensity 0.125 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 1.71 ns at N = 1024 [rooflint-bound]}}
// expected-note@+4 {{ideal FLOPs N = 1,024 FLOP (as the spec states them); compulsory bytes 8*N = 8,192 bytes (read 4*N, written 4*N)}}
// expected-note@+3 {{arithmetic intensity 1/8 FLOP/byte}}
// expected-note@+2 {{t_min 1.71 ns is set by 8.19 kB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto kernel_spec =
    kernel<scale>("scale", unary(1, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1024));

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@28 {{kernel 'scale' (N = 1024): traffic not predicted for 'x', 'y' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
