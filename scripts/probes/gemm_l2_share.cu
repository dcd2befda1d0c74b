// Where a tiled GEMM's L2 reads go: the H200 counted 0.6-0.8x the sectors that each block fetching its
// own tiles through its own L1 would send to L2 (tiled GEMMs of the traffic corpus, 2026-12-05), at L1
// exactly the sectors requested. Either blocks that share a tile share an SM's L1 (the block
// scheduler's placement), or requests of several SMs for one sector are merged before L2 counts them.
// Each variant records, per block, the SM it ran on and when (globaltimer), so the placement can be
// read beside the counters; "alone" runs one block per SM (shared memory held), which removes L1
// sharing between blocks.
//   gemm_l2_share VARIANT [placement.csv]   VARIANT: tiled32 | tiled32_alone | tile128 | tile128_alone
// tiled32 runs at n = 1024 (1024 blocks), tile128 at n = 2048 (256 blocks): more blocks than SMs.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include "probe_check.h"

struct Placement {
  unsigned sm;
  unsigned long long start, end;
};

__device__ unsigned smId() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// 32 x 32 tiles of 1024 threads; C = A B, all n x n row-major.
__global__ void tiled32(float* C, const float* A, const float* B, int n, Placement* where) {
  extern __shared__ float hold[];  // the "alone" variants' dynamic shared memory, unused
  __shared__ float As[32][32], Bs[32][33];
  const unsigned long long t0 = now();
  const int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += 32) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
  if (tx == 0 && ty == 0) {
    if (n < 0) hold[0] = acc;
    where[blockIdx.y * gridDim.x + blockIdx.x] = {smId(), t0, now()};
  }
}

// 128 x 128 tiles of 256 threads, 8 x 8 accumulators a thread, float4 loads (the corpus's kind).
__global__ void tile128(float* C, const float* A, const float* B, int n, Placement* where) {
  extern __shared__ float hold[];
  __shared__ float As[8][128];
  __shared__ __align__(16) float Bs[8][128];  // written by float4
  const unsigned long long t0 = now();
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16, row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < n; k0 += 8) {
    const float4 a = *reinterpret_cast<const float4*>(&A[(row0 + tid / 2) * n + k0 + (tid % 2) * 4]);
    As[(tid % 2) * 4 + 0][tid / 2] = a.x;
    As[(tid % 2) * 4 + 1][tid / 2] = a.y;
    As[(tid % 2) * 4 + 2][tid / 2] = a.z;
    As[(tid % 2) * 4 + 3][tid / 2] = a.w;
    *reinterpret_cast<float4*>(&Bs[tid / 32][(tid % 32) * 4]) =
        *reinterpret_cast<const float4*>(&B[(k0 + tid / 32) * n + col0 + (tid % 32) * 4]);
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) acc[i][j] += As[k][ty * 8 + i] * Bs[k][tx * 8 + j];
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) C[(row0 + ty * 8 + i) * n + col0 + tx * 8 + j] = acc[i][j];
  if (tid == 0) {
    if (n < 0) hold[0] = acc[0][0];
    where[blockIdx.y * gridDim.x + blockIdx.x] = {smId(), t0, now()};
  }
}

int main(int argc, char** argv) {
  const char* variant = argc > 1 ? argv[1] : "tiled32";
  const bool alone = std::strstr(variant, "_alone") != nullptr;
  const bool big = std::strncmp(variant, "tile128", 7) == 0;
  const int n = big ? 2048 : 1024;
  const dim3 block = big ? dim3(256) : dim3(32, 32), grid = big ? dim3(n / 128, n / 128) : dim3(n / 32, n / 32);
  const int blocks = int(grid.x * grid.y);
  float *A, *B, *C;
  Placement* where;
  CHECK(cudaMalloc(&A, sizeof(float) * n * n));
  CHECK(cudaMalloc(&B, sizeof(float) * n * n));
  CHECK(cudaMalloc(&C, sizeof(float) * n * n));
  CHECK(cudaMalloc(&where, sizeof(Placement) * blocks));
  CHECK(cudaMemset(A, 0, sizeof(float) * n * n));
  CHECK(cudaMemset(B, 0, sizeof(float) * n * n));
  auto kernel = big ? tile128 : tiled32;
  // One block per SM: more dynamic shared memory than half an SM's.
  int holdBytes = 0;
  if (alone) {
    int perSm = 0;
    CHECK(cudaDeviceGetAttribute(&perSm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    holdBytes = perSm / 2 + 16 * 1024;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, holdBytes));
  }
  for (int i = 0; i < 2; ++i) kernel<<<grid, block, holdBytes>>>(C, A, B, n, where);  // the second is counted
  CHECK(cudaDeviceSynchronize());
  std::vector<Placement> p(blocks);
  CHECK(cudaMemcpy(p.data(), where, sizeof(Placement) * blocks, cudaMemcpyDeviceToHost));
  // Pairs of blocks that ran at once on one SM, and what they share: A's row panel (same block row),
  // B's column panel (same block column).
  long pairs = 0, sameRow = 0, sameCol = 0;
  int sms = 0;
  unsigned long long first = p[0].start;
  for (const Placement& b : p) first = std::min(first, b.start);
  for (int i = 0; i < blocks; ++i) {
    sms = std::max<int>(sms, int(p[i].sm) + 1);
    for (int j = i + 1; j < blocks; ++j)
      if (p[i].sm == p[j].sm && p[i].start < p[j].end && p[j].start < p[i].end) {
        ++pairs;
        sameRow += i / int(grid.x) == j / int(grid.x);
        sameCol += i % int(grid.x) == j % int(grid.x);
      }
  }
  std::printf("%s: %d blocks on %d SMs; pairs at once on one SM: %ld, sharing A's panel %ld, B's %ld\n", variant,
              blocks, sms, pairs, sameRow, sameCol);
  std::printf("%s: SM of blocks 0-15:", variant);
  for (int i = 0; i < 16 && i < blocks; ++i) std::printf(" %u", p[i].sm);
  std::printf("\n");
  if (argc > 2)
    if (std::FILE* f = std::fopen(argv[2], "w")) {
      std::fprintf(f, "block,bx,by,sm,start_ns,end_ns\n");
      for (int i = 0; i < blocks; ++i)
        std::fprintf(f, "%d,%d,%d,%u,%llu,%llu\n", i, i % int(grid.x), i / int(grid.x), p[i].sm, p[i].start - first,
                     p[i].end - first);
      std::fclose(f);
    }
  return 0;
}
