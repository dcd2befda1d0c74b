// rooflint-read-only-written: the kernel writes through a tensor the spec declares read-only.
// Both specs: 2*N = 2,048 FLOP over 12*N = 12,288 bytes at N = 1024 (x read, y read and written):
// intensity 1/6 = 0.167 FLOP/byte; 12288 / 4.8e12 B/s = 2.56 ns on H200.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// expected-note@+1 {{kernel 'axpy' is declared here}}
__global__ void axpy(float a, float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] += a * x[i];  // no diagnostic: y is inout
    x[i] = 0;          // expected-warning@:10 {{kernel 'axpy' writes through 'x', which spec 'axpy_spec' declares read-only (tensor 'x'); its written bytes are not counted [rooflint-read-only-written]}}
  }
}
// expected-note@+6 {{declare it inout<1> or out<1> in the spec}}
// expected-remark@+5 {{kernel 'axpy' is memory-bound (arithmetic intensity 0.167 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.56 ns at N = 1024 [rooflint-bound]}}
// expected-note@+4 {{ideal FLOPs 2*N = 2,048 FLOP (as the spec states them); compulsory bytes 12*N = 12,288 bytes (read 8*N, written 4*N)}}
// expected-note@+3 {{arithmetic intensity 1/6 FLOP/byte}}
// expected-note@+2 {{t_min 2.56 ns is set by 12.3 kB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto axpy_spec = kernel<axpy>("axpy", custom(2 * N, in<1>("x", f32, N),      // x: (N)
                                                                 inout<2>("y", f32, N)))  // y: (N)
                                      .at(N(1024));

// No rooflint-read-only-written: x is only read; atomics into the inout tensor are writes it declares.
// expected-note@+1 {{kernel 'axpy2' is declared here}}
__global__ void axpy2(float a, float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&y[i], a * x[i]);
}
// expected-remark@+4 {{kernel 'axpy2' is memory-bound (arithmetic intensity 0.167 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.56 ns at N = 1024 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs 2*N = 2,048 FLOP (as the spec states them); compulsory bytes 12*N = 12,288 bytes (read 8*N, written 4*N)}}
// expected-note@+2 {{arithmetic intensity 1/6 FLOP/byte}}
// expected-note@+1 {{t_min 2.56 ns is set by 12.3 kB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto axpy2_spec = kernel<axpy2>("axpy2", custom(2 * N, in<1>("x", f32, N),      // x: (N)
                                                                    inout<2>("y", f32, N)))  // y: (N)
                                       .at(N(1024));

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@23 {{kernel 'axpy' (N = 1024): traffic not predicted for 'x', 'y' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@37 {{kernel 'axpy2' (N = 1024): traffic not predicted for 'x', 'y' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
