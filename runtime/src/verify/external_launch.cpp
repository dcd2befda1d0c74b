// Measuring a launch made by someone else (the program rooflint-verify runs): the same session, flush,
// profiler and core metric group as verify_session::measure, split around the program's own launch.

#include <cuda_runtime.h>

#include <chrono>
#include <optional>
#include <string>

#include "support/cuda_check.h"
#include "support/nvml.h"
#include "verify/session.h"

namespace rooflint::runtime {

namespace {
/// Adds the wall time from its construction to its destruction to @p seconds (a phase's total).
class phase_timer {
 public:
  explicit phase_timer(double& seconds) : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~phase_timer() { seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  phase_timer(const phase_timer&) = delete;
  phase_timer& operator=(const phase_timer&) = delete;

 private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};
}  // namespace

result<void> verify_session::begin_external(cudaStream_t launch_stream, int launches) {
  ROOFLINT_TRY(ensure_device());
  external_counting_ = false;
  std::optional<phase_timer> arm(std::in_place, external_seconds_[0].second);
  if (options_.counters) {
    ensure_profiler(groups::core);  // its failure (permission, another profiler) leaves timing-only verdicts
    if (profiler_ && core_) {
      ROOFLINT_TRY(profiler_->arm(*core_, launches));
      external_counting_ = true;
    }
  }
  arm.reset();
  phase_timer drain(external_seconds_[1].second);
  // The program's earlier work is done and L2 holds none of its lines when the window opens.
  ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  ROOFLINT_TRY(flush_->enqueue(stream_));
  ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream_));
  // Events on the launch's own stream: the time when no counter gives the launch's duration.
  if (!external_start_) ROOFLINT_TRY_CUDA(cudaEventCreate(&external_start_));
  if (!external_stop_) ROOFLINT_TRY_CUDA(cudaEventCreate(&external_stop_));
  ROOFLINT_TRY_CUDA(cudaEventRecord(external_start_, launch_stream));
  if (external_counting_) ROOFLINT_TRY(profiler_->start());
  external_began_ = std::chrono::steady_clock::now();
  return success();
}

measurement verify_session::end_external(const std::string& case_name, cudaStream_t launch_stream, int launches) {
  measurement m;
  m.case_name = case_name;
  m.device = device_;
  external_seconds_[2].second += std::chrono::duration<double>(std::chrono::steady_clock::now() - external_began_).count();
  counter_values& k = m.counters;
  k.notes = group_notes_;
  k.ranges_expected = launches;
  float event_ms = 0;
  std::optional<phase_timer> counting(std::in_place, external_seconds_[3].second);
  const bool timed = cudaEventRecord(external_stop_, launch_stream) == cudaSuccess &&
                     cudaEventSynchronize(external_stop_) == cudaSuccess &&
                     cudaEventElapsedTime(&event_ms, external_start_, external_stop_) == cudaSuccess;
  if (!options_.counters) {
    k.unavailable_reason = "counters switched off (--no-counters)";
  } else if (!profiler_) {
    k.permission_denied = profiler_error_.code == error_code::permission_denied;
    k.unavailable_reason = profiler_error_.message;
  } else if (!core_) {
    k.unavailable_reason = "the core metrics are not available on chip '" + device_.chip + "'";
  } else if (external_counting_) {
    k.passes["core"] = static_cast<int>(core_->passes());
    auto values = profiler_->finish(*core_, launches);
    if (values) {
      store_core_values(k, *values);
    } else {
      k.unavailable_reason = "core group not collected: " + values.err().message;
    }
  }
  if (k.available)
    k.notes.push_back(launches > 1 ? "counted on the program's own " + std::to_string(launches) +
                                         " launches of the region, summed (core group only: a second group would need a replay)"
                                   : "counted on the program's own launch (core group only: a second group would need a replay)");
  counting.reset();
  timing_values& t = m.timing;
  if (k.available && k.duration_s > 0) {
    t.available = true;
    t.repetitions = 1;
    t.median_s = t.min_s = t.max_s = k.duration_s;
  } else if (timed) {  // no counters: CUDA events around the launch on its stream
    t.available = true;
    t.repetitions = 1;
    t.median_s = t.min_s = t.max_s = event_ms * 1e-3;
  }
  phase_timer clock(external_seconds_[4].second);
  if (nvml_device_.handle)
    if (auto mhz = nvml_library::instance()->sm_mhz(nvml_device_)) {
      t.clock_available = true;
      t.sm_mhz_min = t.sm_mhz_max = t.sm_mhz_mean = *mhz;
    }
  // No cudaGetLastError here: in a program that shares this libcudart it would clear the program's error.
  return m;
}

void verify_session::abandon_external(int launches) {
  // Stop and decode what was counted, and drop it: the profiler is ready for the next window.
  if (external_counting_ && profiler_ && core_) (void)profiler_->finish(*core_, launches);
  external_counting_ = false;
}

}  // namespace rooflint::runtime
