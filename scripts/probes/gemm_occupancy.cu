// Whether the blocks of a wave that share a tile keep in step as an SM holds more of them: the held-out
// 64 x 64-tile SGEMM (held_out_kernels.cu, 40 registers, six blocks an SM by its registers) at M = N =
// 4096, M from 704 to 4096, its blocks per SM cut to 1..6 by dynamic shared memory the kernel does not
// use. B (64 MiB, over L2) is shared by the M / 64 blocks of a column of tiles, 64 ids apart: a wave of
// 132 b blocks (on an H100 or H200) holds about 2 b of them. Once a wave would read B 64 M / (132 b 64)
// times; every sharer, M / 64 times.
//   gemm_occupancy DYNAMIC_SHARED_BYTES M
#include <cstdio>
#include <cstdlib>

#include "probe_check.h"

#define main held_out_main  // the held-out program's own main is not this probe's
#include "held_out_kernels.cu"
#undef main

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gemm_occupancy DYNAMIC_SHARED_BYTES M\n");
    return 2;
  }
  const int dynamic = std::atoi(argv[1]), M = std::atoi(argv[2]), N = 4096, K = 4096;
  float *A, *B, *C;
  CHECK(cudaMalloc(&A, sizeof(float) * size_t(M) * K));
  CHECK(cudaMalloc(&B, sizeof(float) * size_t(K) * N));
  CHECK(cudaMalloc(&C, sizeof(float) * size_t(M) * N));
  CHECK(cudaMemset(A, 0, sizeof(float) * size_t(M) * K));
  CHECK(cudaMemset(B, 0, sizeof(float) * size_t(K) * N));
  CHECK(cudaFuncSetAttribute(sgemm_tile64_strided, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic));
  sgemm_tile64_strided<<<dim3(N / 64, M / 64), dim3(16, 16), dynamic>>>(A, B, C, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}
