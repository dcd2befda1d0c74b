#pragma once
/// @file timing.h
/// Timing of probe launches with CUDA events, and the burst / settle / sustained schedule.

#include <cuda_runtime.h>

#include <functional>
#include <vector>

#include "ceilings/ceilings.h"
#include "support/clock_state.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::detail {

/// Enqueues one launch of a probe on the stream.
using launch_fn = std::function<result<void>(cudaStream_t)>;

/// Owns a CUDA stream; destroys it at scope exit.
class stream_guard {
 public:
  stream_guard() = default;
  ~stream_guard() { if (stream_) cudaStreamDestroy(stream_); }
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;
  result<void> create();
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Owns device memory; frees it at scope exit.
class device_buffer {
 public:
  device_buffer() = default;
  ~device_buffer() { if (ptr_) cudaFree(ptr_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  result<void> allocate(std::size_t bytes);
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// A reusable set of events timing a batch of back-to-back launches: enqueue() records an event, then
/// for each launch the launch and an event; collect() waits and returns seconds per launch. Two batches
/// alternate in measure_sustained so the GPU always has the next batch queued (no idle gaps).
class event_batch {
 public:
  event_batch() = default;
  ~event_batch();
  event_batch(const event_batch&) = delete;
  event_batch& operator=(const event_batch&) = delete;
  result<void> enqueue(cudaStream_t stream, int count, const launch_fn& launch);
  result<std::vector<double>> collect();
  bool pending() const { return pending_ > 0; }
  bool in_window = false;  ///< queued inside the sustained window (measure_sustained's bookkeeping)

 private:
  std::vector<cudaEvent_t> events_;
  int pending_ = 0;
};

/// Times @p count back-to-back launches on @p stream, each between its own pair of events (the events
/// are recorded consecutively, so the GPU never waits for the host inside the batch).
/// @return Seconds per launch.
result<std::vector<double>> time_launches(cudaStream_t stream, int count, const launch_fn& launch);

/// Burst and sustained timings of one probe configuration.
struct sustained_timing {
  std::vector<double> burst_s;      ///< first timed launches after one warm-up
  std::vector<double> sustained_s;  ///< launches in the sustained window
  clock_summary burst_clocks, sustained_clocks;
  double loaded_before_window_s = 0;  ///< s of load before the sustained window began
};

/// Warm-up (1 launch), burst (@p burst_launches timed), load until @p settle_s has passed, then time
/// launches for @p window_s with the NVML sampler running.
result<sustained_timing> measure_sustained(cudaStream_t stream, const launch_fn& launch, nvml_device nvml,
                                           double settle_s, double window_s, int burst_launches = 3);

/// Fills @p r's burst rate, sustained timing, clocks and `sustained` flag from @p t; @p r.flops_per_launch
/// must be set. The figure counts as sustained after at least 1 s of load before the window.
void record_rates(compute_result& r, const sustained_timing& t);

}  // namespace rooflint::runtime::detail
