#pragma once
/// @file clock_state.h
/// The clock state during a measurement: a background thread polls NVML about every 10 ms while a
/// probe runs and keeps the minimum and maximum SM clock, the peak power and temperature, and the union
/// of the clock-event (throttle) reasons. NVML polling cannot resolve clock changes inside a
/// sub-millisecond kernel (docs/cupti.md §4): this is context for a probe that runs for tens of milliseconds
/// or more, not a per-kernel truth. Without NVML the sampler records nothing and says so.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rooflint/files/ceilings_file.h"
#include "support/nvml.h"

namespace rooflint::runtime {

/// What the sampler saw between start() and stop().
struct clock_summary {
  int samples = 0;                        ///< NVML readings taken (0: NVML missing or window too short)
  double sm_mhz_min = 0, sm_mhz_max = 0;  ///< MHz
  double sm_mhz_mean = 0;                 ///< MHz, over the samples
  double sm_mhz_last = 0;                 ///< MHz, the last sample (the settled clock of a long probe)
  double memory_mhz_min = 0, memory_mhz_max = 0;  ///< MHz
  double power_w_max = 0;                 ///< W
  double temperature_c_max = 0;           ///< degrees Celsius
  std::uint64_t clock_event_reasons = 0;  ///< union of clock_event_reason bits over the samples

  /// Folds @p other into this summary (min of mins, max of maxes, union of reasons).
  void merge(const clock_summary& other);
};

/// Polls NVML on a background thread. Use one per probe, or reuse with start()/stop() pairs.
class clock_sampler {
 public:
  /// @param device the NVML device; an empty handle makes a sampler that records nothing.
  explicit clock_sampler(nvml_device device, std::chrono::milliseconds period = std::chrono::milliseconds(10));
  ~clock_sampler();
  clock_sampler(const clock_sampler&) = delete;
  clock_sampler& operator=(const clock_sampler&) = delete;

  void start();
  clock_summary stop();

 private:
  void run();
  void sample();

  nvml_device device_;
  std::chrono::milliseconds period_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::mutex mutex_;
  clock_summary summary_;
  double sm_sum_ = 0;
};

/// @return The ceilings file's clock state: NVML's static readings from @p snapshot (limits, modes)
/// and the sampled ranges from @p during. Reasons exclude gpu_idle, which only says that the GPU waited
/// for the host between launches.
ceilings::clock_state to_clock_state(const nvml_snapshot& snapshot, const clock_summary& during);

}  // namespace rooflint::runtime
