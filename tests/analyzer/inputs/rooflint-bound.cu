// rooflint-bound: the verdict at the spec's declared sizes, and where it changes.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void sgemm(const float* A, const float* B, float* C, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// Line 18, column 23: remark: kernel 'sgemm' is compute-bound (arithmetic intensity 683 FLOP/byte,
//   ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks): floor 2.05 ms at N = 4096 [rooflint-bound]
// notes: 2*N^3 = 137,438,953,472 FLOP; 12*N^2 = 201,326,592 bytes; "compute-bound from N = 84"; t_min.
inline constexpr auto sgemm_spec = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                 in<1>("B", f32, N, N),   // B: (N,N)
                                                                 out<2>("C", f32, N, N))) // C: (N,N)
                                       .at(N(4096));

// Line 24, column 23: no declared size: remark "has no verdict at declared sizes; dimension 'N' has no size".
inline constexpr auto sgemm_symbolic = kernel<sgemm>("sgemm_n", matmul(in<0>("A", f32, N, N),    // A: (N,N)
                                                                       in<1>("B", f32, N, N),    // B: (N,N)
                                                                       out<2>("C", f32, N, N))); // C: (N,N)

// No diagnostic: a template's dependent spec is not a value until instantiated.
template <int Size>
struct not_a_spec { static constexpr int value = Size; };
