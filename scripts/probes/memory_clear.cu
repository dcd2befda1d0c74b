// What a counted window sees at DRAM after the program changed device memory, as a function of the time
// between the change and the window, inside one profiling session (a batch of windows). Each window is a
// saxpy over 2^26 floats: 512 MiB read and 256 MiB written by hand, less the dirty lines of y the L2
// still holds when the window ends (a window of its own session counted 236 MiB written, H200
// 2026-12-04). The changes: cudaFree of 4 and 16 GiB that were set long before; cudaMalloc and
// cudaMemset of 4 GiB; cudaMalloc of 4 GiB never touched. Printed: the window's DRAM bytes against a
// window after no change in the same session. `sweep`: the clearing rate of frees, in finer steps.
#include <unistd.h>

#include <string>
#include <vector>

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

/// One window after a change of device memory and a wait, and the window before it after none.
struct measured {
  std::string label;
  std::size_t bytes = 0;
  int wait_us = 0;
};

void change_then_window(probe::profiler& p, const char* name, std::size_t bytes, int wait_us, std::vector<measured>& out) {
  const std::size_t gib = std::size_t(1) << 30;
  // A window after no change first: the session's baseline at this point.
  usleep(100000);
  window(p);
  out.push_back({"no change", 0, 0});
  void* b = nullptr;
  if (std::string(name) == "free") b = set_buffer(bytes);
  usleep(100000);  // whatever setting the buffer left behind is done
  if (std::string(name) == "free") cudaFree(b);
  if (std::string(name) == "malloc+memset") b = set_buffer(bytes);
  if (std::string(name) == "malloc") cudaMalloc(&b, bytes);
  cudaDeviceSynchronize();
  if (wait_us) usleep(wait_us);
  window(p);
  char label[64];
  std::snprintf(label, sizeof label, "%s %zu GiB, then %.1f ms", name, bytes / gib, wait_us / 1000.0);
  out.push_back({label, std::string(name) == "free" ? bytes : 0, wait_us});
  if (std::string(name) != "free") {
    cudaFree(b);
    cudaDeviceSynchronize();
  }
}
}  // namespace

// Without arguments: the changes and waits above. With "sweep": frees of 2, 8 and 24 GiB, each followed
// by waits in fine steps, and per size the first wait after which the window counted no more DRAM writes
// than the window before it (within 10%): the size over that wait bounds the clearing rate from below.
int main(int argc, char** argv) {
  const bool sweep = argc > 1 && std::string(argv[1]) == "sweep";
  cudaMalloc(&x, std::size_t(n) * sizeof(float));
  cudaMalloc(&y, std::size_t(n) * sizeof(float));
  cudaMemset(x, 0, std::size_t(n) * sizeof(float));
  cudaMemset(y, 0, std::size_t(n) * sizeof(float));
  cudaDeviceSynchronize();
  probe::profiler p;
  p.capacity = 256;
  const std::size_t gib = std::size_t(1) << 30;
  std::vector<measured> runs;
  p.start();
  if (!sweep) {
    struct change {
      const char* name;
      std::size_t bytes;
    };
    const change changes[] = {{"free", 4 * gib}, {"free", 16 * gib}, {"malloc+memset", 4 * gib}, {"malloc", 4 * gib}};
    const int waits_us[] = {0, 1000, 2000, 5000, 10000, 20000, 50000};
    for (const change& c : changes)
      for (int wait : waits_us) change_then_window(p, c.name, c.bytes, wait, runs);
  } else {
    for (const std::size_t g : {std::size_t(2), std::size_t(8), std::size_t(24)}) {
      const int step_us = int(g) * 250;  // 0.5 ms a step for 2 GiB, 6 ms for 24 GiB: 24 steps each
      for (int k = 0; k <= 24; ++k) change_then_window(p, "free", g * gib, k * step_us, runs);
    }
  }
  const auto v = p.stop();
  for (std::size_t w = 0; w < v.size() && w < runs.size(); ++w)
    std::printf("%-34s DRAM read %7.1f MiB, write %7.1f MiB\n", runs[w].label.c_str(), v[w][probe::dram_read] / 1048576,
                v[w][probe::dram_write] / 1048576);
  if (!sweep) return 0;
  // Per size: the first wait whose window wrote no more than 1.1x the window before it.
  std::size_t size = 0;
  bool found = false;
  for (std::size_t w = 1; w < v.size() && w < runs.size(); w += 2) {
    if (runs[w].bytes != size) {
      size = runs[w].bytes;
      found = false;
    }
    if (found || runs[w].wait_us == 0) continue;
    if (v[w][probe::dram_write] <= 1.1 * v[w - 1][probe::dram_write]) {
      found = true;
      const double rate = double(runs[w].bytes) / (runs[w].wait_us * 1e-6);
      std::printf("free of %zu GiB: no extra writes after %.1f ms: cleared at %.2f TB/s or faster\n", runs[w].bytes / gib,
                  runs[w].wait_us / 1000.0, rate / 1e12);
    }
  }
  return 0;
}
