/// @file timing.cpp
/// CUDA-event timing and the sustained schedule.

#include "timing.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "support/cuda_check.h"
#include "support/statistics.h"

namespace rooflint::runtime {

namespace detail {

result<void> stream_guard::create() {
  ROOFLINT_TRY_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  return success();
}

result<void> device_buffer::allocate(std::size_t bytes) {
  void* p = nullptr;
  ROOFLINT_TRY_CUDA(cudaMalloc(&p, bytes));
  ptr_.reset(p);
  bytes_ = bytes;
  return success();
}

event_batch::~event_batch() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

result<void> event_batch::enqueue(cudaStream_t stream, int count, const launch_fn& launch) {
  while (static_cast<int>(events_.size()) < count + 1) {
    cudaEvent_t e = nullptr;
    ROOFLINT_TRY_CUDA(cudaEventCreate(&e));
    events_.push_back(e);
  }
  ROOFLINT_TRY_CUDA(cudaEventRecord(events_[0], stream));
  for (int i = 0; i < count; ++i) {
    ROOFLINT_TRY(launch(stream));
    ROOFLINT_TRY_CUDA(cudaGetLastError());  // a launch configuration error shows here
    ROOFLINT_TRY_CUDA(cudaEventRecord(events_[i + 1], stream));
  }
  pending_ = count;
  return success();
}

result<std::vector<double>> event_batch::collect() {
  const int count = pending_;
  pending_ = 0;
  std::vector<double> seconds;
  if (count == 0) return seconds;
  ROOFLINT_TRY_CUDA(cudaEventSynchronize(events_[count]));
  seconds.reserve(count);
  for (int i = 0; i < count; ++i) {
    float ms = 0;
    ROOFLINT_TRY_CUDA(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
    seconds.push_back(ms * 1e-3);
  }
  return seconds;
}

result<std::vector<double>> time_launches(cudaStream_t stream, int count, const launch_fn& launch) {
  event_batch batch;
  ROOFLINT_TRY(batch.enqueue(stream, count, launch));
  return batch.collect();
}

result<sustained_timing> measure_sustained(cudaStream_t stream, const launch_fn& launch, nvml_device nvml,
                                           double settle_s, double window_s, int burst_launches) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  sustained_timing out;
  clock_sampler sampler(nvml);

  auto warm = time_launches(stream, 1, launch);  // warm-up: first-launch costs, cuBLASLt kernel loading
  if (!warm) return warm.err();
  // Idle first, so the burst is a burst: after the screening launches the power-capped clock sits low,
  // and it takes a moment without load to climb back to boost (H200, 2026-11-30: a thorough run's
  // FP16 "burst" read 659 TFLOP/s right after screening, a quick run's 781 TFLOP/s from idle).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto start = clock::now();
  sampler.start();
  auto burst = time_launches(stream, burst_launches, launch);
  out.burst_clocks = sampler.stop();
  if (!burst) return burst.err();
  out.burst_s = *burst;

  // Batches of about 50 ms, two in flight: the next batch is queued before the previous one is read,
  // so the GPU never waits for the host and a power-capped clock sees continuous load.
  const double per_launch_s = std::max(summarize(out.burst_s).median_s, 1e-6);
  const int batch = std::clamp(static_cast<int>(0.05 / per_launch_s), 1, 1000);
  event_batch batches[2];
  // Reads a finished batch; its times count when it was queued inside the window.
  const auto collect = [&out](event_batch& b) -> result<void> {
    const bool counted = b.in_window;
    auto timed = b.collect();
    if (!timed) return timed.err();
    if (counted) out.sustained_s.insert(out.sustained_s.end(), timed->begin(), timed->end());
    return success();
  };
  int current = 0;
  bool in_window = false;
  auto window_start = clock::now();
  for (;;) {
    if (!in_window && since(start) >= settle_s) {
      // Batches queued from now on are in the window; the one still in flight is not.
      in_window = true;
      out.loaded_before_window_s = since(start);
      window_start = clock::now();
      sampler.start();
    }
    if (in_window && since(window_start) >= window_s && out.sustained_s.size() >= 3) break;
    if (auto queued = batches[current].enqueue(stream, batch, launch); !queued) {
      (void)sampler.stop();
      return queued.err();
    }
    batches[current].in_window = in_window;
    if (event_batch& previous = batches[1 - current]; previous.pending()) {
      if (auto read = collect(previous); !read) {
        (void)sampler.stop();
        return read.err();
      }
    }
    current = 1 - current;
  }
  // Drain the batch still in flight (it belongs to the window: it was queued in it).
  for (event_batch& b : batches) {
    if (!b.pending()) continue;
    if (auto read = collect(b); !read) {
      (void)sampler.stop();
      return read.err();
    }
  }
  out.sustained_clocks = sampler.stop();
  return out;
}

void record_rates(compute_result& r, const sustained_timing& t) {
  r.burst_flops_per_s = r.flops_per_launch / summarize(t.burst_s).median_s;
  r.sustained_time = summarize(t.sustained_s);
  r.burst_clocks = t.burst_clocks;
  r.sustained_clocks = t.sustained_clocks;
  r.sustained = t.loaded_before_window_s >= 1.0;
}

}  // namespace detail
}  // namespace rooflint::runtime
