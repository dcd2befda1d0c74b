// Where a process's first counted window spends its time: each step of the CUPTI range profiler's
// set-up timed alone, in the order rooflint-verify takes them (a context, the profiler, the chip's
// counter availability, the config image of the core metrics, an enable), then three sessions of one
// window each. `cupti_setup no-availability` makes the config image without the availability image.
#include <cstring>

#include "cupti_probe.h"

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
  const int n = 1 << 24;
  probe::step("process start to main", false);
  float *x = nullptr, *y = nullptr;
  cudaFree(nullptr);
  probe::step("context (cudaFree(0))");
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  probe::step("buffers and a first launch");
  probe::profiler p(!(argc > 1 && std::strcmp(argv[1], "no-availability") == 0));
  for (int session = 1; session <= 3; ++session) {
    std::printf("session %d:\n", session);
    p.start();
    p.push();
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    cudaDeviceSynchronize();
    p.pop();
    probe::step("  push, launch, sync, pop");
    const auto v = p.stop();
    std::printf("  (DRAM read %.0f bytes, L1 load sectors %.0f; by hand 134217728 and 4194304)\n",
                v.at(0)[probe::dram_read], v.at(0)[probe::l1_load]);
  }
  return 0;
}
