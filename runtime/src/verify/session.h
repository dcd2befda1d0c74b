#pragma once
// The state one process keeps while it measures cases: device, L2 flush buffer, stream, NVML handle,
// and the CUPTI range profiler with one config per metric group (reused across cases).

#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <vector>

#include "cupti/cupti.h"
#include "verify/l2_flush.h"
#include "support/nvml.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime {

class verify_session {
 public:
  explicit verify_session(const verify_options& options);
  ~verify_session();
  verify_session(const verify_session&) = delete;
  verify_session& operator=(const verify_session&) = delete;

  /// Measures @p c; faults come back as run_status::faulted (the CUDA context may then be unusable).
  measurement measure(const case_definition& c);

 private:
  result<void> ensure_device();
  void ensure_profiler();

  verify_options options_;
  bool device_ready_ = false;
  device_snapshot device_;
  std::optional<l2_flush> flush_;
  cudaStream_t stream_ = nullptr;
  nvml_device nvml_device_;

  bool profiler_tried_ = false;
  error profiler_error_;
  std::vector<std::string> group_notes_;
  std::optional<cupti::config> core_, fp_, tensor_;
  cupti::range_profiler* profiler_ = nullptr;  ///< the process's (range_profiler::shared)
};

}  // namespace rooflint::runtime
