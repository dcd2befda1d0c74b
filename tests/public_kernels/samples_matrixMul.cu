/// @file samples_matrixMul.cu
/// cuda-samples Samples/0_Introduction/matrixMul/matrixMul.cu: MatrixMulCUDA<32>, C = A * B with 32 x 32
/// tiles staged in shared memory, a thread per output, at M = N = K = 4096.
#include "public_kernels.h"

#define main samples_matrixMul_main
#include "0_Introduction/matrixMul/matrixMul.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;   // rows of A and C
inline constexpr struct N final : dim<"N"> {} N;   // columns of B and C (wB)
inline constexpr struct K final : dim<"K"> {} K;   // columns of A (wA)

// The launch gives the widths; the rows are the grid's 32-row tiles.
inline constexpr auto MatrixMulCUDA_32_spec =
    kernel<MatrixMulCUDA<32>>("MatrixMulCUDA_32", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096)).sizes(M(grid_dim.y * 32), K(arg<3>), N(arg<4>))
        .block(32, 32).grid(ceil_div(N, 32), ceil_div(M, 32));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int M = 4096, N = 4096, K = 4096;
  if (!corpus::wanted("MatrixMulCUDA_32")) return;
  corpus::Case c("MatrixMulCUDA_32");
  float *C = c.zeros<float>(Z(M) * N), *A = c.zeros<float>(Z(M) * K), *B = c.zeros<float>(Z(K) * N);
  if (c.ready()) MatrixMulCUDA<32><<<dim3(N / 32, M / 32), dim3(32, 32)>>>(C, A, B, K, N);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
