// rooflint-bound: the verdict at the spec's declared sizes, and where it changes.
// Square f32 matmul on H200 (FP32 66.9 TFLOP/s, DRAM 4.8 TB/s): 2*N^3 FLOP over 12*N^2 bytes, arithmetic
// intensity N/6 = 682.67 at N = 4096 -> "683"; ridge 66.9/4.8 = 13.9375 -> "13.9"; N/6 >= 13.9375 from
// N = 83.625: compute-bound from N = 84; compute time 2*4096^3 / 66.9e12 = 2.054 ms (memory 0.042 ms).
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// expected-note@+2 {{kernel 'sgemm' is declared here}}
// expected-note@+1 {{kernel 'sgemm_n' is declared here}}
__global__ void sgemm(const float* A, const float* B, float* C, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// expected-remark@+6:23 {{kernel 'sgemm' is compute-bound (arithmetic intensity 683 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.05 ms at N = 4096 [rooflint-bound]}}
// expected-note@+5 {{ideal FLOPs 2*N^3 = 137,438,953,472 FLOP (torch.utils.flop_counter); compulsory bytes 12*N^2 = 201,326,592 bytes (read 8*N^2, written 4*N^2)}}
// expected-note@+4 {{arithmetic intensity N/6 FLOP/byte; compute-bound from N = 84 on H200 FP32}}
// expected-note@+3 {{t_min 2.05 ms is set by 137 GFLOP at 66.9 TFLOP/s FP32}}
// The run's one remark on datasheet peaks, at its first verdict:
// expected-remark@+1 {{verdicts use datasheet peaks of 'H200'; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from rooflint-ceilings) [rooflint-datasheet-peaks]}}
inline constexpr auto sgemm_spec = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(4096));

// No declared size: no verdict, but the formulas and where the verdict changes.
// expected-remark@+3:23 {{kernel 'sgemm_n' has no verdict at declared sizes; dimension 'N' has no size (declare one with .at(N(...))) [rooflint-bound]}}
// expected-note@+2 {{ideal FLOPs 2*N^3 (torch.utils.flop_counter); compulsory bytes 12*N^2 (read 8*N^2, written 4*N^2)}}
// expected-note@+1 {{arithmetic intensity N/6 FLOP/byte; compute-bound from N = 84 on H200 FP32}}
inline constexpr auto sgemm_symbolic = kernel<sgemm>("sgemm_n", matmul(in<0>("A", f32, N, N),    // A: (N,N)
                                                                       in<1>("B", f32, N, N),    // B: (N,N)
                                                                       out<2>("C", f32, N, N))); // C: (N,N)

// No diagnostic: a template's dependent spec is not a value until instantiated.
template <int Size>
struct not_a_spec { static constexpr int value = Size; };

// Under the mock header, at the launch the analyzer assumes, these kernels' traffic is not predicted:
// rooflint-not-predicted says why, at each spec.
// expected-remark@26 {{kernel 'sgemm' (N = 4096): traffic not predicted for 'A', 'B', 'C' at L1, L2, DRAM: the assumed launch grid (65536, 1, 1), block (256, 1, 1) reads 'A' 0 times, not once; state the launch with .block(...) and .grid(...) [rooflint-not-predicted]}}
// expected-remark@35 {{kernel 'sgemm_n': traffic not predicted for 'A', 'B', 'C' at L1, L2, DRAM: the spec gives no size to 'N' (.at()) [rooflint-not-predicted]}}
