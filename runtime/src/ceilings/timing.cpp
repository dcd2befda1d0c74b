/// @file timing.cpp
/// CUDA-event timing and the sustained schedule.

#include "timing.h"

#include <algorithm>
#include <chrono>

#include "rooflint/runtime/cuda_check.h"

namespace rooflint::runtime {

timing_stats summarize(std::vector<double> seconds) {
  timing_stats s;
  if (seconds.empty()) return s;
  std::sort(seconds.begin(), seconds.end());
  s.repetitions = static_cast<int>(seconds.size());
  const std::size_t n = seconds.size();
  s.median_s = n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  s.min_s = seconds.front();
  s.max_s = seconds.back();
  return s;
}

namespace detail {

result<void> stream_guard::create() {
  ROOFLINT_TRY_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  return success();
}

result<void> device_buffer::allocate(std::size_t bytes) {
  ROOFLINT_TRY_CUDA(cudaMalloc(&ptr_, bytes));
  bytes_ = bytes;
  return success();
}

namespace {

/// A set of events, destroyed at scope exit.
struct event_pool {
  std::vector<cudaEvent_t> events;
  ~event_pool() {
    for (cudaEvent_t e : events) cudaEventDestroy(e);
  }
};

}  // namespace

result<std::vector<double>> time_launches(cudaStream_t stream, int count, const launch_fn& launch) {
  event_pool pool;
  pool.events.reserve(count + 1);
  for (int i = 0; i <= count; ++i) {
    cudaEvent_t e = nullptr;
    ROOFLINT_TRY_CUDA(cudaEventCreate(&e));
    pool.events.push_back(e);
  }
  ROOFLINT_TRY_CUDA(cudaEventRecord(pool.events[0], stream));
  for (int i = 0; i < count; ++i) {
    ROOFLINT_TRY(launch(stream));
    ROOFLINT_TRY_CUDA(cudaGetLastError());  // a launch configuration error shows here
    ROOFLINT_TRY_CUDA(cudaEventRecord(pool.events[i + 1], stream));
  }
  ROOFLINT_TRY_CUDA(cudaEventSynchronize(pool.events[count]));
  std::vector<double> seconds;
  seconds.reserve(count);
  for (int i = 0; i < count; ++i) {
    float ms = 0;
    ROOFLINT_TRY_CUDA(cudaEventElapsedTime(&ms, pool.events[i], pool.events[i + 1]));
    seconds.push_back(ms * 1e-3);
  }
  return seconds;
}

result<sustained_timing> measure_sustained(cudaStream_t stream, const launch_fn& launch, nvml_device nvml,
                                           double settle_s, double window_s, int burst_launches) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  sustained_timing out;
  clock_sampler sampler(nvml);

  auto warm = time_launches(stream, 1, launch);  // warm-up: first-launch costs, cuBLASLt kernel loading
  if (!warm) return warm.err();
  const auto start = clock::now();
  sampler.start();
  auto burst = time_launches(stream, burst_launches, launch);
  out.burst_clocks = sampler.stop();
  if (!burst) return burst.err();
  out.burst_s = *burst;

  // Batches of about 50 ms keep the GPU busy (no host gaps) while letting us watch the wall clock.
  const double per_launch_s = std::max(summarize(out.burst_s).median_s, 1e-6);
  const int batch = std::clamp(static_cast<int>(0.05 / per_launch_s), 1, 1000);
  while (since(start) < settle_s) {
    auto settle = time_launches(stream, batch, launch);
    if (!settle) return settle.err();
  }
  out.loaded_before_window_s = since(start);
  const auto window_start = clock::now();
  sampler.start();
  while (since(window_start) < window_s || out.sustained_s.size() < 3) {
    auto timed = time_launches(stream, batch, launch);
    if (!timed) {
      (void)sampler.stop();
      return timed.err();
    }
    out.sustained_s.insert(out.sustained_s.end(), timed->begin(), timed->end());
  }
  out.sustained_clocks = sampler.stop();
  return out;
}

}  // namespace detail
}  // namespace rooflint::runtime
