// CUPTI Profiler Host API: metric enumeration, config images, pass counts, evaluation (CUPTI.md §1.2, §1.5).
// Works without a GPU for a named chip when the counter availability image is empty.

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>

#include <algorithm>
#include <unordered_set>

#include "cupti/cupti_check.h"
#include "cupti/cupti.h"

namespace rooflint::runtime::cupti {

const char* const permission_fix =
    "GPU performance counters are restricted to admin users (ERR_NVGPUCTRPERM); run as root or with "
    "CAP_SYS_ADMIN (CAP_PERFMON from driver R565), or have an admin set "
    "'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d, rebuild the initramfs and "
    "reload the driver; in a container the host must allow it (--cap-add=SYS_ADMIN); see "
    "https://developer.nvidia.com/ERR_NVGPUCTRPERM";

std::string describe(int cupti_result) {
  const char* text = nullptr;
  std::string s = "CUPTI error " + std::to_string(cupti_result);
  if (cuptiGetResultString(static_cast<CUptiResult>(cupti_result), &text) == CUPTI_SUCCESS && text) s = text;
  s += " (" + std::to_string(cupti_result) + ")";
  return s;
}

std::vector<std::string> fp_metrics() {
  std::vector<std::string> m;
  for (const auto& c : fp_counters) m.push_back(fp_metric(c.op));
  return m;
}

struct host::state {
  CUpti_Profiler_Host_Object* object = nullptr;
  ~state() {
    if (!object) return;
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = object;
    (void)cuptiProfilerHostDeinitialize(&p);
  }
};

host::host(host&&) noexcept = default;
host& host::operator=(host&&) noexcept = default;
host::~host() = default;

result<host> host::create(std::string chip, std::vector<std::uint8_t> counter_availability) {
  host h;
  h.chip_ = std::move(chip);
  h.availability_ = std::move(counter_availability);
  h.state_ = std::make_unique<state>();
  CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = h.chip_.c_str();
  p.pCounterAvailabilityImage = h.availability_.empty() ? nullptr : h.availability_.data();
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostInitialize(&p));
  h.state_->object = p.pHostObject;
  return h;
}

result<std::vector<std::string>> host::base_metrics() const {
  CUpti_Profiler_Host_GetBaseMetrics_Params p{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
  p.pHostObject = state_->object;
  p.metricType = CUPTI_METRIC_TYPE_COUNTER;
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostGetBaseMetrics(&p));
  std::vector<std::string> names;
  names.reserve(p.numMetrics);
  for (std::size_t i = 0; i < p.numMetrics; ++i) names.emplace_back(p.ppMetricNames[i]);
  return names;
}

result<std::vector<std::string>> host::tensor_metrics() const {
  auto base = base_metrics();
  if (!base) return base.err();
  const std::unordered_set<std::string> present(base->begin(), base->end());
  std::vector<std::string> out;
  for (const char* m : tensor_base_metrics)
    if (present.count(m)) out.push_back(std::string(m) + ".sum");
  return out;
}

config::config(config&&) noexcept = default;
config& config::operator=(config&&) noexcept = default;
config::~config() = default;

result<config> config::create(const std::string& chip, const std::vector<std::uint8_t>& counter_availability,
                               std::vector<std::string> metrics) {
  auto h = host::create(chip, counter_availability);
  if (!h) return h.err();
  config c;
  c.host_ = std::move(*h);
  c.metrics_ = std::move(metrics);
  CUpti_Profiler_Host_Object* object = c.host_.state_->object;

  // All metrics in one call: each ConfigAddMetrics call is scheduled as its own pass group (measured
  // here: the 7 core metrics take 1 pass added together, 7 passes added one by one).
  std::vector<const char*> names;
  for (const auto& m : c.metrics_) names.push_back(m.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = object;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (const CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
    // Name the metric the chip rejects: try each alone on a scratch host object.
    for (const auto& m : c.metrics_) {
      auto scratch = host::create(chip, counter_availability);
      if (!scratch) return scratch.err();
      const char* one[] = {m.c_str()};
      CUpti_Profiler_Host_ConfigAddMetrics_Params p{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
      p.pHostObject = scratch->state_->object;
      p.ppMetricNames = one;
      p.numMetrics = 1;
      if (const CUptiResult r1 = cuptiProfilerHostConfigAddMetrics(&p); r1 != CUPTI_SUCCESS)
        return error{detail::code_of(r1), "cuptiProfilerHostConfigAddMetrics('" + m + "') failed on chip '" + chip +
                                              "': " + describe(r1) + "; the metric may not exist on this chip"};
    }
    return detail::cupti_error(r, "cuptiProfilerHostConfigAddMetrics", __FILE__, __LINE__);
  }
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = object;
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
  c.image_.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = object;
  image.configImageSize = c.image_.size();
  image.pConfigImage = c.image_.data();
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostGetConfigImage(&image));
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = c.image_.size();
  passes.pConfigImage = c.image_.data();
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
  c.passes_ = passes.numOfPasses;
  return c;
}

result<std::vector<double>> config::evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const {
  std::vector<const char*> names;
  for (const auto& m : metrics_) names.push_back(m.c_str());
  std::vector<double> values(metrics_.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  p.pHostObject = host_.state_->object;
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  p.rangeIndex = range;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  p.pMetricValues = values.data();
  ROOFLINT_TRY_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&p));
  return values;
}

}  // namespace rooflint::runtime::cupti
