/// @file clock_state.cpp
/// The NVML sampler thread.

#include "support/clock_state.h"

#include <algorithm>

namespace rooflint::runtime {

void clock_summary::merge(const clock_summary& o) {
  if (o.samples == 0) return;
  if (samples == 0) {
    *this = o;
    return;
  }
  sm_mhz_mean = (sm_mhz_mean * samples + o.sm_mhz_mean * o.samples) / (samples + o.samples);
  samples += o.samples;
  sm_mhz_min = std::min(sm_mhz_min, o.sm_mhz_min);
  sm_mhz_max = std::max(sm_mhz_max, o.sm_mhz_max);
  sm_mhz_last = o.sm_mhz_last;
  memory_mhz_min = std::min(memory_mhz_min, o.memory_mhz_min);
  memory_mhz_max = std::max(memory_mhz_max, o.memory_mhz_max);
  power_w_max = std::max(power_w_max, o.power_w_max);
  temperature_c_max = std::max(temperature_c_max, o.temperature_c_max);
  clock_event_reasons |= o.clock_event_reasons;
}

clock_sampler::clock_sampler(nvml_device device, std::chrono::milliseconds period)
    : device_(device), period_(period) {}

clock_sampler::~clock_sampler() {
  if (running_) (void)stop();
}

void clock_sampler::start() {
  if (running_) return;
  {
    std::lock_guard lock(mutex_);
    summary_ = {};
    sm_sum_ = 0;
  }
  if (!device_.handle || !nvml_library::instance()->loaded()) return;
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

clock_summary clock_sampler::stop() {
  if (running_) {
    running_ = false;
    thread_.join();
    sample();  // one reading at the end, so even a short window has the state it ended in
  }
  std::lock_guard lock(mutex_);
  if (summary_.samples > 0) summary_.sm_mhz_mean = sm_sum_ / summary_.samples;
  return summary_;
}

void clock_sampler::run() {
  auto next = std::chrono::steady_clock::now();
  while (running_) {
    sample();
    next += period_;
    std::this_thread::sleep_until(next);
  }
}

void clock_sampler::sample() {
  const nvml_snapshot s = nvml_library::instance()->snapshot(device_);
  if (!s.sm_mhz) return;
  std::lock_guard lock(mutex_);
  clock_summary& c = summary_;
  const double sm = *s.sm_mhz;
  const double mem = s.memory_mhz.value_or(0);
  if (c.samples == 0) {
    c.sm_mhz_min = c.sm_mhz_max = sm;
    c.memory_mhz_min = c.memory_mhz_max = mem;
  }
  ++c.samples;
  sm_sum_ += sm;
  c.sm_mhz_min = std::min(c.sm_mhz_min, sm);
  c.sm_mhz_max = std::max(c.sm_mhz_max, sm);
  c.sm_mhz_last = sm;
  c.memory_mhz_min = std::min(c.memory_mhz_min, mem);
  c.memory_mhz_max = std::max(c.memory_mhz_max, mem);
  c.power_w_max = std::max(c.power_w_max, s.power_w.value_or(0));
  c.temperature_c_max = std::max(c.temperature_c_max, static_cast<double>(s.temperature_c.value_or(0)));
  c.clock_event_reasons |= s.clock_event_reasons.value_or(0);
}

ceilings::clock_state to_clock_state(const nvml_snapshot& snapshot, const clock_summary& during) {
  ceilings::clock_state c;
  c.sm_mhz_min = during.sm_mhz_min;
  c.sm_mhz_max = during.sm_mhz_max;
  c.memory_mhz = during.memory_mhz_max > 0 ? during.memory_mhz_max : snapshot.memory_mhz.value_or(0);
  c.sm_max_mhz = snapshot.sm_max_mhz.value_or(0);
  c.power_w_max = during.power_w_max;
  c.power_limit_w = snapshot.power_limit_w.value_or(0);
  c.temperature_c_max = during.temperature_c_max;
  c.throttle_reasons = decode_clock_event_reasons(during.clock_event_reasons & ~std::uint64_t{clock_event_gpu_idle});
  c.persistence_mode = snapshot.persistence_mode.value_or(false);
  c.ecc_enabled = snapshot.ecc_enabled.value_or(false);
  return c;
}

}  // namespace rooflint::runtime
