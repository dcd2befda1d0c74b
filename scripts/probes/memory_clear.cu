// What a counted window sees at DRAM after the program changed device memory, as a function of the time
// between the change and the window, inside one profiling session (a batch of windows). Each window is a
// saxpy over 2^26 floats: 512 MiB read and 256 MiB written by hand, less the dirty lines of y the L2
// still holds when the window ends (a window of its own session counted 236 MiB written, H200
// 2026-12-04). The changes: cudaFree of 4 and 16 GiB that were set long before; cudaMalloc and
// cudaMemset of 4 GiB; cudaMalloc of 4 GiB never touched. Printed: the window's DRAM bytes against a
// window after no change in the same session.
#include <unistd.h>

#include <string>

#include "cupti_probe.h"

namespace {
__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

constexpr int n = 1 << 26;
float *x = nullptr, *y = nullptr;
void window(probe::profiler& p) {
  p.push();
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  p.pop();
}

void* set_buffer(std::size_t bytes) {
  void* b = nullptr;
  cudaMalloc(&b, bytes);
  cudaMemset(b, 1, bytes);
  cudaDeviceSynchronize();
  return b;
}
}  // namespace

int main() {
  cudaMalloc(&x, std::size_t(n) * sizeof(float));
  cudaMalloc(&y, std::size_t(n) * sizeof(float));
  cudaMemset(x, 0, std::size_t(n) * sizeof(float));
  cudaMemset(y, 0, std::size_t(n) * sizeof(float));
  cudaDeviceSynchronize();
  probe::profiler p;
  p.capacity = 128;
  const std::size_t gib = std::size_t(1) << 30;
  struct change {
    const char* name;
    std::size_t bytes;
  };
  const change changes[] = {{"free", 4 * gib}, {"free", 16 * gib}, {"malloc+memset", 4 * gib}, {"malloc", 4 * gib}};
  const int waits_us[] = {0, 1000, 2000, 5000, 10000, 20000, 50000};
  std::vector<std::string> labels;
  p.start();
  for (const change& c : changes)
    for (int wait : waits_us) {
      // A window after no change first: the session's baseline at this point.
      usleep(100000);
      window(p);
      labels.push_back("no change");
      void* b = nullptr;
      if (std::string(c.name) == "free") b = set_buffer(c.bytes);
      usleep(100000);  // whatever setting the buffer left behind is done
      if (std::string(c.name) == "free") cudaFree(b);
      if (std::string(c.name) == "malloc+memset") b = set_buffer(c.bytes);
      if (std::string(c.name) == "malloc") cudaMalloc(&b, c.bytes);
      cudaDeviceSynchronize();
      if (wait) usleep(wait);
      window(p);
      labels.push_back(std::string(c.name) + " " + std::to_string(c.bytes / gib) + " GiB, then " +
                       std::to_string(wait / 1000) + " ms");
      if (std::string(c.name) != "free") {
        cudaFree(b);
        cudaDeviceSynchronize();
      }
    }
  const auto v = p.stop();
  for (std::size_t w = 0; w < v.size() && w < labels.size(); ++w)
    std::printf("%-34s DRAM read %7.1f MiB, write %7.1f MiB\n", labels[w].c_str(), v[w][probe::dram_read] / 1048576,
                v[w][probe::dram_write] / 1048576);
  return 0;
}
