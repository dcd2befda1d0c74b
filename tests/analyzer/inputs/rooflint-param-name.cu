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
// expected-note@+4 {{ideal FLOPs N = 1,048,576 FLOP (as the spec states them); compulsory bytes 12*N = 12,582,912 bytes (read 8*N, written 4*N)}}
// expected-note@+3 {{arithmetic intensity 1/12 FLOP/byte}}
// expected-note@+2 {{t_min 2.62 us is set by 12.6 MB of compulsory traffic at 4.8 TB/s}}
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto wrong = kernel<vadd>("vadd", binary(1, in<0>("x", f32, N),   // x: (N)
                                                             in<1>("b", f32, N),   // b: (N)
                                                             out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));

// No rooflint-param-name: every tensor is named after its parameter.
// expected-remark@+4 {{kernel 'vadd2' is memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.62 us at N = 1048576 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs N = 1,048,576 FLOP (as the spec states them); compulsory bytes 12*N = 12,582,912 bytes (read 8*N, written 4*N)}}
// expected-note@+2 {{arithmetic intensity 1/12 FLOP/byte}}
// expected-note@+1 {{t_min 2.62 us is set by 12.6 MB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto right = kernel<vadd>("vadd2", binary(1, in<0>("a", f32, N),   // a: (N)
                                                              in<1>("b", f32, N),   // b: (N)
                                                              out<2>("c", f32, N))) // c: (N)
                                  .at(N(1 << 20));

// No rooflint-param-name: usual spellings of the tensors' names. 'a_ptr' and 'd_b' are "a" and "b"
// without a pointer suffix and a device prefix; 'Cm' is "C" with one letter added, and "C" is also a
// dimension of the spec (a parameter named C would shadow the dimension's tag C).
// Both: an (N,C) add, 1 FLOP per element; N = C = 1024: 1,048,576 FLOP, 12,582,912 bytes, as above.
inline constexpr struct C final : dim<"C"> {} C;

// expected-note@+1 {{kernel 'vadd_spelled' is declared here}}
__global__ void vadd_spelled(const float* a_ptr, const float* d_b, float* Cm, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) Cm[i] = a_ptr[i] + d_b[i];
}

// expected-remark@+4 {{kernel 'vadd_spelled' is memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.62 us at N = 1024, C = 1024 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs N*C = 1,048,576 FLOP (as the spec states them); compulsory bytes 12*N*C = 12,582,912 bytes (read 8*N*C, written 4*N*C)}}
// expected-note@+2 {{arithmetic intensity 1/12 FLOP/byte}}
// expected-note@+1 {{t_min 2.62 us is set by 12.6 MB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto spelled = kernel<vadd_spelled>("vadd_spelled", binary(1, in<0>("a", f32, N, C),   // a: (N,C)
                                                                              in<1>("b", f32, N, C),   // b: (N,C)
                                                                              out<2>("C", f32, N, C))) // C: (N,C)
                                    .at(N(1024), C(1024));

// No rooflint-param-name for parts of one buffer: 'q' and 'k' are slices of 'qk'.
// 2*N*C FLOP over q, k (N,C) of qk and s (N): 8*N*C + 4*N bytes; N = C = 1024: 2,097,152 FLOP over
// 8,392,704 bytes = 0.25 FLOP/byte (C/(4*C + 2)); 8392704 / 4.8e12 B/s = 1.75 us.
// expected-note@+1 {{kernel 'dot_rows' is declared here}}
__global__ void dot_rows(const float* qk, float* s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = qk[i] * qk[i + 1024];
}

// expected-remark@+4 {{kernel 'dot_rows' is memory-bound (arithmetic intensity 0.25 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 1.75 us at N = 1024, C = 1024 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs 2*N*C = 2,097,152 FLOP (as the spec states them); compulsory bytes 8*N*C + 4*N = 8,392,704 bytes (read 8*N*C, written 4*N)}}
// expected-note@+2 {{arithmetic intensity C/(4*C + 2) FLOP/byte}}
// expected-note@+1 {{t_min 1.75 us is set by 8.39 MB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto dots = kernel<dot_rows>("dot_rows", custom(2 * N * C, in<0>("q", f32, N, C).slice(0),   // q: (N,C)
                                                                 in<0>("k", f32, N, C).slice(C),      // k: (N,C)
                                                                 out<1>("s", f32, N)))                // s: (N)
                              .at(N(1024), C(1024));

// Still rooflint-param-name: 'dout' is not a spelling of "out" (a backward kernel's gradient of out).
// 1 FLOP per element of (N): 1,024 FLOP over 8*N = 8,192 bytes, 0.125 FLOP/byte; 8192 / 4.8e12 = 1.71 ns.
// expected-note@+2 {{parameter 'dout' is declared here}}
// expected-note@+1 {{kernel 'scale_grad' is declared here}}
__global__ void scale_grad(const float* dout, float* dinp, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dinp[i] = 2 * dout[i];
}

// expected-warning@+5:23 {{tensor 'out' is bound to parameter 0 of 'scale_grad', which is named 'dout'; the spec and the kernel disagree on what the parameter is [rooflint-param-name]}}
// expected-remark@+4 {{kernel 'scale_grad' is memory-bound (arithmetic intensity 0.125 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 1.71 ns at N = 1024 [rooflint-bound]}}
// expected-note@+3 {{ideal FLOPs N = 1,024 FLOP (as the spec states them); compulsory bytes 8*N = 8,192 bytes (read 4*N, written 4*N)}}
// expected-note@+2 {{arithmetic intensity 1/8 FLOP/byte}}
// expected-note@+1 {{t_min 1.71 ns is set by 8.19 kB of compulsory traffic at 4.8 TB/s}}
inline constexpr auto grad = kernel<scale_grad>("scale_grad", unary(1, in<0>("out", f32, N),      // out: (N)
                                                                       out<1>("dinp", f32, N)))  // dinp: (N)
                                 .at(N(1024));

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@23 {{kernel 'vadd' (N = 1048576): traffic not predicted for 'x', 'b', 'c' at L1, L2, DRAM: the assumed launch grid (4096, 1, 1), block (256, 1, 1) reads 'x' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@33 {{kernel 'vadd2' (N = 1048576): traffic not predicted for 'a', 'b', 'c' at L1, L2, DRAM: the assumed launch grid (4096, 1, 1), block (256, 1, 1) reads 'a' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@54 {{kernel 'vadd_spelled' (N = 1024, C = 1024): traffic not predicted for 'a', 'b', 'C' at L1, L2, DRAM: the assumed launch grid (4096, 1, 1), block (256, 1, 1) reads 'a' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@72 {{kernel 'dot_rows' (N = 1024, C = 1024): traffic not predicted for 'q', 'k', 's' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'q' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@91 {{kernel 'scale_grad' (N = 1024): traffic not predicted for 'out', 'dinp' at L1, L2, DRAM: the assumed launch grid (4, 1, 1), block (256, 1, 1) reads 'out' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
