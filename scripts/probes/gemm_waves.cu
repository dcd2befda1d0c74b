// Whether the waves of a tiled GEMM's blocks hold: SGEMM_CUDA's kernels (its src/kernels, fetched by
// scripts/public-kernels.sh) at shapes whose grids run 2.6 to 62 waves, the operand whose tiles blocks
// share larger than L2. Blocks that share a tile D apart in launch order read it within a short time
// where the wave they run in started together (only pairs on either side of a wave boundary read it
// again from DRAM), long after each other where the blocks' start times have drifted apart.
//   gemm_waves KERNEL M N K     KERNEL: smem32 | tile1d | tile2d | warptiling
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_check.h"

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
#include "src/kernels/3_kernel_shared_mem_blocking.cuh"
#include "src/kernels/4_kernel_1D_blocktiling.cuh"
#include "src/kernels/5_kernel_2D_blocktiling.cuh"
#include "src/kernels/10_kernel_warptiling.cuh"

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: gemm_waves smem32|tile1d|tile2d|warptiling M N K\n");
    return 2;
  }
  const int M = std::atoi(argv[2]), N = std::atoi(argv[3]), K = std::atoi(argv[4]);
  float *A, *B, *C;
  CHECK(cudaMalloc(&A, sizeof(float) * size_t(M) * K));
  CHECK(cudaMalloc(&B, sizeof(float) * size_t(K) * N));
  CHECK(cudaMalloc(&C, sizeof(float) * size_t(M) * N));
  CHECK(cudaMemset(A, 0, sizeof(float) * size_t(M) * K));
  CHECK(cudaMemset(B, 0, sizeof(float) * size_t(K) * N));
  CHECK(cudaMemset(C, 0, sizeof(float) * size_t(M) * N));
  const float alpha = 1, beta = 0.5f;
  const char *k = argv[1];
  // The launches SGEMM_CUDA's runner makes (its A6000 tiles).
  if (!std::strcmp(k, "smem32"))
    sgemm_shared_mem_block<32><<<dim3(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), 1024>>>(M, N, K, alpha, A, B, beta, C);
  else if (!std::strcmp(k, "tile1d"))
    sgemm1DBlocktiling<64, 64, 8, 8><<<dim3(CEIL_DIV(N, 64), CEIL_DIV(M, 64)), 512>>>(M, N, K, alpha, A, B, beta, C);
  else if (!std::strcmp(k, "tile2d"))
    sgemm2DBlocktiling<128, 128, 8, 8, 8><<<dim3(CEIL_DIV(N, 128), CEIL_DIV(M, 128)), 256>>>(M, N, K, alpha, A, B, beta, C);
  else if (!std::strcmp(k, "warptiling"))
    sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>
        <<<dim3(CEIL_DIV(N, 128), CEIL_DIV(M, 128)), 128>>>(M, N, K, alpha, A, B, beta, C);
  else {
    std::fprintf(stderr, "gemm_waves: unknown kernel '%s'\n", k);
    return 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}
