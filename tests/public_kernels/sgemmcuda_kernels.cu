/// @file sgemmcuda_kernels.cu
/// siboehm/SGEMM_CUDA src/kernels: kernels 1 to 11, the steps from a naive SGEMM to warp tiling with
/// double buffering, C = alpha A B + beta C (f32, row-major), at M = N = K = 4096, each with the launch
/// its runner (src/runner.cu) makes for the A6000. C is read (beta) and written: inout. Kernel 12 is
/// left out: it declares `__shared__ cuda::barrier` objects, whose constructors nvcc accepts with a
/// warning and clang 19 rejects ("initialization is not supported for __shared__ variables").
#include "public_kernels.h"

#include "src/kernels/1_naive.cuh"
#include "src/kernels/2_kernel_global_mem_coalesce.cuh"
#include "src/kernels/3_kernel_shared_mem_blocking.cuh"
#include "src/kernels/4_kernel_1D_blocktiling.cuh"
#include "src/kernels/5_kernel_2D_blocktiling.cuh"
#include "src/kernels/6_kernel_vectorize.cuh"
#include "src/kernels/7_kernel_resolve_bank_conflicts.cuh"
#include "src/kernels/8_kernel_bank_extra_col.cuh"
#include "src/kernels/9_kernel_autotuned.cuh"
#include "src/kernels/10_kernel_warptiling.cuh"
#include "src/kernels/11_kernel_double_buffering.cuh"

// Each spec states the registers ptxas allocates a thread of its kernel (`nvcc -arch=sm_90 -Xptxas -v`,
// nvcc 13.0; ncu's launch__registers_per_thread counted the same for kernels 3, 4, 5 and 10 on an H100):
// they decide how many blocks an SM holds, so how many blocks share a wave.
namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;   // rows of A and C
inline constexpr struct N final : dim<"N"> {} N;   // columns of B and C
inline constexpr struct K final : dim<"K"> {} K;   // columns of A, rows of B

/// The operation every kernel here computes, its sizes read from (M, N, K, alpha, A, B, beta, C).
template <auto Kernel, std::size_t L>
constexpr auto sgemm(const char (&name)[L]) {
  return kernel<Kernel>(name, matmul(in<4>("A", f32, M, K), in<5>("B", f32, K, N), inout<7>("C", f32, M, N)))
      .at(M(4096), N(4096), K(4096))
      .sizes(M(arg<0>), N(arg<1>), K(arg<2>));
}

// Kernels 1 to 3: a 32 x 32 tile of C a block, blockIdx.x along the rows.
inline constexpr auto sgemm_naive_spec = sgemm<sgemm_naive>("sgemm_naive").block(32, 32).grid(ceil_div(M, 32), ceil_div(N, 32))
    .registers(32);
inline constexpr auto sgemm_coalesce_spec =
    sgemm<sgemm_global_mem_coalesce<32>>("sgemm_global_mem_coalesce").block(1024).grid(ceil_div(M, 32), ceil_div(N, 32))
    .registers(32);
inline constexpr auto sgemm_smem_spec =
    sgemm<sgemm_shared_mem_block<32>>("sgemm_shared_mem_block").block(1024).grid(ceil_div(M, 32), ceil_div(N, 32))
    .registers(32);
// Kernels 4 to 12: blockIdx.x along the columns. 1D: 64 x 64 tiles, 8 outputs a thread.
inline constexpr auto sgemm_1d_spec =
    sgemm<sgemm1DBlocktiling<64, 64, 8, 8>>("sgemm1DBlocktiling").block(512).grid(ceil_div(N, 64), ceil_div(M, 64))
    .registers(56);
// 2D, vectorized and the bank-conflict variants: 128 x 128 tiles, 8 x 8 outputs a thread.
inline constexpr auto sgemm_2d_spec =
    sgemm<sgemm2DBlocktiling<128, 128, 8, 8, 8>>("sgemm2DBlocktiling").block(256).grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(96);
inline constexpr auto sgemm_vectorize_spec =
    sgemm<sgemmVectorize<128, 128, 8, 8, 8>>("sgemmVectorize").block(256).grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(94);
inline constexpr auto sgemm_bank_spec = sgemm<sgemmResolveBankConflicts<128, 128, 8, 8, 8>>("sgemmResolveBankConflicts")
                                             .block(256)
                                             .grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(94);
inline constexpr auto sgemm_extra_col_spec = sgemm<sgemmResolveBankExtraCol<128, 128, 8, 8, 8>>("sgemmResolveBankExtraCol")
                                                  .block(256)
                                                  .grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(94);
inline constexpr auto sgemm_autotuned_spec =
    sgemm<sgemmAutotuned<128, 128, 16, 8, 8>>("sgemmAutotuned").block(256).grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(92);
// Warp tiling: 128 x 128 tiles, four warps of 64 x 64.
inline constexpr auto sgemm_warptiling_spec = sgemm<sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>>("sgemmWarptiling")
                                                   .block(128)
                                                   .grid(ceil_div(N, 128), ceil_div(M, 128))
    .registers(168);
// Double buffering in shared memory: 128 x 256 tiles (BM x BN), eight warps of 128 x 32.
inline constexpr auto sgemm_double_buffering_spec =
    sgemm<sgemmDoubleBuffering<128, 256, 16, 128, 32, 1, 8, 8, 256>>("sgemmDoubleBuffering")
        .block(256)
        .grid(ceil_div(N, 256), ceil_div(M, 128))
    .registers(172);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int M = 4096, N = 4096, K = 4096;
  const float alpha = 1, beta = 0.5f;
  const auto launch = [&](const char* name, auto kernel, dim3 grid, dim3 block) {
    if (!corpus::wanted(name)) return;
    corpus::Case c(name);
    float *A = c.zeros<float>(Z(M) * K), *B = c.zeros<float>(Z(K) * N), *C = c.zeros<float>(Z(M) * N);
    if (c.ready()) kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
    c.done();
  };
  const dim3 rows32(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), tiles128(CEIL_DIV(N, 128), CEIL_DIV(M, 128));
  launch("sgemm_naive", sgemm_naive, rows32, dim3(32, 32));
  launch("sgemm_global_mem_coalesce", sgemm_global_mem_coalesce<32>, rows32, dim3(1024));
  launch("sgemm_shared_mem_block", sgemm_shared_mem_block<32>, rows32, dim3(1024));
  launch("sgemm1DBlocktiling", sgemm1DBlocktiling<64, 64, 8, 8>, dim3(CEIL_DIV(N, 64), CEIL_DIV(M, 64)), dim3(512));
  launch("sgemm2DBlocktiling", sgemm2DBlocktiling<128, 128, 8, 8, 8>, tiles128, dim3(256));
  launch("sgemmVectorize", sgemmVectorize<128, 128, 8, 8, 8>, tiles128, dim3(256));
  launch("sgemmResolveBankConflicts", sgemmResolveBankConflicts<128, 128, 8, 8, 8>, tiles128, dim3(256));
  launch("sgemmResolveBankExtraCol", sgemmResolveBankExtraCol<128, 128, 8, 8, 8>, tiles128, dim3(256));
  launch("sgemmAutotuned", sgemmAutotuned<128, 128, 16, 8, 8>, tiles128, dim3(256));
  launch("sgemmWarptiling", sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>, tiles128, dim3(128));
  launch("sgemmDoubleBuffering", sgemmDoubleBuffering<128, 256, 16, 128, 32, 1, 8, 8, 256>,
         dim3(CEIL_DIV(N, 256), CEIL_DIV(M, 128)), dim3(256));
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
