// What L1 keeps between the passes of a multi-pass row kernel, and of a lane walking its own row: the
// measurements behind the analyzer's layer condition (docs/analyzer.md, "L1 capacity"). Run under ncu
// (scripts/probes/l1-capacity.sh) with the L2 sectors L1 reads and the shared-memory configuration the
// driver chose for each launch. Launches, in order, one line each on stdout: "launch <n> <what>".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe_check.h"

// Each block reads its row of C floats in `passes` passes (a reduction per pass, as softmax does), with
// `extra` bytes of dynamic shared memory it does not otherwise use (to move the driver's carveout).
__global__ void row_passes(const float* x, float* y, int C, int passes, int store_last) {
  extern __shared__ float dyn[];
  __shared__ float red;
  const float* row = x + static_cast<long long>(blockIdx.x) * C;
  float acc = 0.f;
  for (int p = 0; p < passes; ++p) {
    float s = 0.f;
    if (store_last && p == passes - 1) {  // softmax's last pass: the row written out as it is read
      for (int c = threadIdx.x; c < C; c += blockDim.x) y[static_cast<long long>(blockIdx.x) * C + c] = row[c] * acc;
      break;
    }
    for (int c = threadIdx.x; c < C; c += blockDim.x) s += row[c] * (p + 1);
    if (threadIdx.x == 0) red = s;
    __syncthreads();
    acc += red;
    __syncthreads();
  }
  if (threadIdx.x == 0 && !store_last) {
    dyn[0] = acc;
    y[blockIdx.x] = dyn[0];
  }
}

// Lane r walks its own row of C floats (x + r * C), as the corpus's row_pointer_per_lane.
__global__ void lane_walk(const float* x, float* y, int C) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float* row = x + r * C;
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += row[c];
  y[r] = s;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t bytes = std::size_t(2) << 30;  // 2 GiB: over L2 many times
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, bytes));
  CHECK(cudaMalloc(&y, bytes));
  CHECK(cudaMemset(x, 0, bytes));
  int n = 0;
  // Multi-pass rows: 3 passes, rows of 2-64 KiB, 64 Ki rows (fewer where 1 GiB ends), the last pass
  // reading only or also writing the row out (softmax).
  for (int carve : {-1, 0}) {  // -1: the driver's default; 0: prefer the most L1 (the attribute, per kernel)
    CHECK(cudaFuncSetAttribute(row_passes, cudaFuncAttributePreferredSharedMemoryCarveout, carve));
    for (int store : {0, 1})
      for (int threads : {256, 1024})
        for (int extra : {0, 8 * 1024, 24 * 1024}) {
          if (carve == 0 && (extra != 0 || threads != 256)) continue;
          if (threads != 256 && extra != 0) continue;
          for (int kib : {2, 4, 8, 12, 16, 24, 32, 64}) {
            const int C = kib * 256;
            const int rows = static_cast<int>(std::min<std::size_t>((bytes / 2) / (C * 4ull), 65536));
            row_passes<<<rows, threads, extra>>>(x, y, C, 3, store);
            CHECK(cudaGetLastError());
            std::printf("launch %d row_passes carveout=%d store_last=%d extra_shared=%d row_kib=%d rows=%d passes=3 threads=%d\n",
                        ++n, carve, store, extra, kib, rows, threads);
          }
        }
  }
  CHECK(cudaFuncSetAttribute(row_passes, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
  // Lane walks: rows of 4 KiB per lane, blocks of 256; grids of 1-8 blocks per SM (a wave).
  for (int per_sm : {1, 2, 4, 8}) {
    const int blocks = per_sm * sms, C = 1024;
    if (std::size_t(blocks) * 256 * C * 4 > bytes) break;
    lane_walk<<<blocks, 256>>>(x, y, C);
    CHECK(cudaGetLastError());
    std::printf("launch %d lane_walk blocks_per_sm=%d row_kib=4 threads=256 blocks=%d\n", ++n, per_sm, blocks);
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
