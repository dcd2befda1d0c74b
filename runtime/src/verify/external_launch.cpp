// Measuring a launch made by someone else (the program rooflint-verify runs): the same session, flush,
// profiler and core metric group as verify_session::measure, split around the program's own launch.

#include <cuda_runtime.h>

#include <string>

#include "support/cuda_check.h"
#include "support/nvml.h"
#include "verify/session.h"

namespace rooflint::runtime {

result<void> verify_session::begin_external() {
  ROOFLINT_TRY(ensure_device());
  if (!options_.counters) return success();
  ensure_profiler();
  if (!profiler_) return profiler_error_;
  if (!core_) return error{error_code::unavailable, "the core metrics are not available on chip '" + device_.chip + "'"};
  ROOFLINT_TRY(profiler_->arm(*core_, 1));
  // The program's earlier work is done and L2 holds none of its lines when the window opens.
  ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  ROOFLINT_TRY(flush_->enqueue(stream_));
  ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream_));
  return profiler_->start();
}

measurement verify_session::end_external(const std::string& case_name) {
  measurement m;
  m.case_name = case_name;
  m.device = device_;
  counter_values& k = m.counters;
  k.notes = group_notes_;
  k.ranges_expected = 1;
  if (!options_.counters) {
    k.unavailable_reason = "counters switched off (--no-counters)";
  } else if (!profiler_) {
    k.permission_denied = profiler_error_.code == error_code::permission_denied;
    k.unavailable_reason = profiler_error_.message;
  } else if (core_) {
    k.passes["core"] = static_cast<int>(core_->passes());
    auto values = profiler_->finish(*core_, 1);
    if (values) {
      store_core_values(k, *values);
    } else {
      k.unavailable_reason = "core group not collected: " + values.err().message;
    }
  }
  k.notes.push_back("counted on the program's own launch (core group only: a second group would need a replay)");
  timing_values& t = m.timing;
  if (k.available && k.duration_s > 0) {
    t.available = true;
    t.repetitions = 1;
    t.median_s = t.min_s = t.max_s = k.duration_s;
  }
  if (nvml_device_.handle)
    if (auto mhz = nvml_library::instance()->sm_mhz(nvml_device_)) {
      t.clock_available = true;
      t.sm_mhz_min = t.sm_mhz_max = t.sm_mhz_mean = *mhz;
    }
  // No cudaGetLastError here: in a program that shares this libcudart it would clear the program's error.
  return m;
}

}  // namespace rooflint::runtime
