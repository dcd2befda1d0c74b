// CUPTI's SASS metrics for per-line traffic: the chip's metrics, one collection window, the records
// merged per instruction, and the cubins of loaded modules (cupti/sass_lines.h).

#include "cupti/sass_lines.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <tuple>

#include "cupti/cupti.h"
#include "cupti/cupti_check.h"
#include "support/cuda_check.h"

namespace rooflint::runtime::cupti {

namespace {

constexpr const char* required_metrics[] = {"smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
                                            "smsp__sass_sectors_mem_global"};

bool is_elf(const char* image, std::size_t size) { return size > 4 && std::memcmp(image, "\x7f" "ELF", 4) == 0; }

void CUPTIAPI on_resource(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  static_cast<cubin_capture*>(userdata)->on_callback(domain, cbid, data);
}

/// The current context through the runtime's driver entry point (the library does not link libcuda.so.1).
result<CUcontext> current_context() {
  using get_current_fn = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  ROOFLINT_TRY_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, CUDART_VERSION, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    return error{error_code::internal, "cudaGetDriverEntryPointByVersion('cuCtxGetCurrent') found no such driver entry point"};
  CUcontext ctx = nullptr;
  if (const CUresult r = reinterpret_cast<get_current_fn>(fn)(&ctx); r != CUDA_SUCCESS || !ctx)
    return error{error_code::internal, "cuCtxGetCurrent failed (" + std::to_string(r) + "): no current CUDA context"};
  return ctx;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

result<void> set_config(const std::vector<std::pair<std::string, std::uint64_t>>& metrics, int ordinal) {
  std::vector<CUpti_SassMetrics_Config> cfg;
  for (const auto& m : metrics) cfg.push_back({m.second, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  CUpti_SassMetricsSetConfig_Params p{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  p.numOfMetricConfig = cfg.size();
  p.pConfigs = cfg.data();
  p.deviceIndex = static_cast<std::uint32_t>(ordinal);
  ROOFLINT_TRY_CUPTI(cuptiSassMetricsSetConfig(&p));
  return success();
}

void unset_config(int ordinal) {
  CUpti_SassMetricsUnsetConfig_Params unset{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
  unset.deviceIndex = static_cast<std::uint32_t>(ordinal);
  cuptiSassMetricsUnsetConfig(&unset);
}

/// The records of the window open in @p ctx, once the device has finished the launch (a program's launch
/// is only queued at its API's exit).
result<std::vector<sass_raw_record>> records_of(CUcontext ctx) {
  ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  std::vector<sass_raw_record> raw;
  CUpti_SassMetricsGetDataProperties_Params props{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  props.ctx = ctx;
  ROOFLINT_TRY_CUPTI(cuptiSassMetricsGetDataProperties(&props));
  const std::size_t records = props.numOfPatchedInstructionRecords, instances = props.numOfInstances;
  if (records == 0 || instances == 0)
    return error{error_code::internal,
                 "the SASS metrics gave no records for the launch (CUPTI collects in one window per process, "
                 "not after the range profiler or with the activity API)"};
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values(records, std::vector<CUpti_SassMetrics_InstanceValue>(instances));
  for (std::size_t r = 0; r < records; ++r) {
    data[r] = CUpti_SassMetrics_Data{};
    data[r].structSize = sizeof(CUpti_SassMetrics_Data);
    data[r].pInstanceValues = values[r].data();
  }
  CUpti_SassMetricsFlushData_Params flush{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
  flush.ctx = ctx;
  flush.numOfPatchedInstructionRecords = records;
  flush.numOfInstances = instances;
  flush.pMetricsData = data.data();
  ROOFLINT_TRY_CUPTI(cuptiSassMetricsFlushData(&flush));
  raw.reserve(records);
  for (std::size_t r = 0; r < records; ++r) {
    sass_raw_record x;
    x.cubin_crc = data[r].cubinCrc;
    x.function = data[r].functionName ? data[r].functionName : "";
    x.pc = data[r].pcOffset;
    for (const auto& v : values[r]) x.values.emplace_back(v.metricId, v.value);
    std::free(const_cast<char*>(data[r].functionName));  // CUPTI allocates it; the caller frees it
    raw.push_back(std::move(x));
  }
  return raw;
}

}  // namespace

result<std::vector<std::string>> line_metrics_offered(const std::vector<std::string>& offered, const std::string& chip) {
  for (const char* m : required_metrics)
    if (std::find(offered.begin(), offered.end(), m) == offered.end())
      return error{error_code::unavailable, "the chip " + (chip.empty() ? std::string("(unnamed)") : chip) +
                                                " offers no SASS metric '" + m + "', which per-line traffic needs"};
  std::vector<std::string> out;
  for (const std::string& m : line_traffic_metrics())
    if (std::find(offered.begin(), offered.end(), m) != offered.end()) out.push_back(m);
  return out;
}

std::vector<sass_record> merge_sass_records(const std::vector<sass_raw_record>& raw,
                                            const std::map<std::uint64_t, std::string>& names) {
  std::vector<sass_record> out;
  std::map<std::tuple<std::uint32_t, std::string, std::uint32_t>, std::size_t> index;
  for (const sass_raw_record& r : raw) {
    const auto [it, fresh] = index.emplace(std::make_tuple(r.cubin_crc, r.function, r.pc), out.size());
    if (fresh) out.push_back({r.cubin_crc, r.function, r.pc, {}});
    sass_record& s = out[it->second];
    for (const auto& [id, value] : r.values) {
      const auto name = names.find(id);
      s.values[name == names.end() ? "id " + std::to_string(id) : name->second] += static_cast<double>(value);
    }
  }
  return out;
}

result<std::unique_ptr<cubin_capture>> cubin_capture::create() {
  std::unique_ptr<cubin_capture> c(new cubin_capture());
  CUpti_SubscriberHandle subscriber = nullptr;
  ROOFLINT_TRY_CUPTI(cuptiSubscribe(&subscriber, on_resource, c.get()));
  c->subscriber_ = subscriber;
  ROOFLINT_TRY_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  return c;
}

result<std::unique_ptr<cubin_capture>> cubin_capture::attach(CUpti_SubscriberHandle subscriber) {
  std::unique_ptr<cubin_capture> c(new cubin_capture());
  ROOFLINT_TRY_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  return c;  // the subscriber stays the caller's: not unsubscribed here
}

void cubin_capture::on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED || !data) return;
  const auto* rd = static_cast<const CUpti_ResourceData*>(data);
  const auto* md = static_cast<const CUpti_ModuleResourceData*>(rd->resourceDescriptor);
  if (!md || !md->pCubin || md->cubinSize == 0) return;
  add(md->pCubin, md->cubinSize);
}

cubin_capture::~cubin_capture() {
  if (subscriber_) cuptiUnsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_));
}

void cubin_capture::add(const char* image, std::size_t size) {
  if (!is_elf(image, size)) return;
  auto copy = std::make_shared<const std::vector<char>>(image, image + size);
  const std::lock_guard<std::mutex> lock(mutex_);
  cubins_.push_back(std::move(copy));
}

std::vector<std::shared_ptr<const std::vector<char>>> cubin_capture::cubins() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return cubins_;
}

result<std::unique_ptr<sass_window>> sass_window::begin(int ordinal) {
  auto ctx = current_context();
  if (!ctx) return ctx.err();
  std::unique_ptr<sass_window> w(new sass_window());
  w->ctx_ = *ctx;
  w->ordinal_ = ordinal;
  sass_collection& out = w->out_;

  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  ROOFLINT_TRY_CUPTI(cuptiProfilerInitialize(&init));
  CUpti_Profiler_DeviceSupported_Params supported{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  supported.cuDevice = ordinal;
  supported.api = CUPTI_PROFILER_SASS_METRICS;
  ROOFLINT_TRY_CUPTI(cuptiProfilerDeviceSupported(&supported));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return error{error_code::unavailable,
                 "CUPTI's SASS metrics do not support this device or configuration (cuptiProfilerDeviceSupported: "
                 "architecture " + std::to_string(supported.architecture) + ", vGPU " + std::to_string(supported.vGpu) +
                     ", WSL " + std::to_string(supported.wsl) + "; 3 is supported)"};

  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<std::size_t>(ordinal);
  ROOFLINT_TRY_CUPTI(cuptiDeviceGetChipName(&chip));
  out.chip = chip.pChipName ? chip.pChipName : "";

  CUpti_SassMetrics_GetNumOfMetrics_Params count{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  count.pChipName = out.chip.c_str();
  ROOFLINT_TRY_CUPTI(cuptiSassMetricsGetNumOfMetrics(&count));
  std::vector<CUpti_SassMetrics_MetricDetails> details(count.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params list{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  list.pChipName = out.chip.c_str();
  list.numOfMetrics = details.size();
  list.pMetricsList = details.data();
  ROOFLINT_TRY_CUPTI(cuptiSassMetricsGetMetrics(&list));
  std::vector<std::string> offered;
  std::map<std::string, std::uint64_t> id_of;
  for (const auto& d : details)
    if (d.pMetricName) {
      offered.emplace_back(d.pMetricName);
      id_of[d.pMetricName] = d.metricId;
    }
  auto wanted = line_metrics_offered(offered, out.chip);
  if (!wanted) return wanted.err();

  std::vector<std::pair<std::string, std::uint64_t>> configured;
  for (const std::string& m : *wanted) configured.emplace_back(m, id_of[m]);
  if (auto set = set_config(configured, ordinal); !set) {
    // The full set refused: the required metrics alone (the ideal is then unknown, said in the report).
    std::vector<std::pair<std::string, std::uint64_t>> required;
    for (const auto& m : configured)
      if (std::find(std::begin(required_metrics), std::end(required_metrics), m.first) != std::end(required_metrics))
        required.push_back(m);
    if (auto again = set_config(required, ordinal); !again) return set.err();
    configured = std::move(required);
  }
  for (const auto& [name, id] : configured) {
    w->names_[id] = name;
    out.metrics.push_back(name);
  }

  w->t0_ = std::chrono::steady_clock::now();
  CUpti_SassMetricsEnable_Params enable{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  enable.ctx = *ctx;
  enable.enableLazyPatching = 1;  // eager patching was refused on the H200 (docs/verifier.md)
  if (const CUptiResult r = cuptiSassMetricsEnable(&enable); r != CUPTI_SUCCESS) {
    unset_config(ordinal);
    return detail::cupti_error(r, "cuptiSassMetricsEnable", __FILE__, __LINE__);
  }
  w->enabled_ = true;
  return w;
}

result<sass_collection> sass_window::end() {
  const auto ctx = static_cast<CUcontext>(ctx_);
  auto raw = records_of(ctx);
  CUpti_SassMetricsDisable_Params disable{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  disable.ctx = ctx;
  const CUptiResult disabled = cuptiSassMetricsDisable(&disable);
  out_.window_s = seconds_since(t0_);
  unset_config(ordinal_);
  enabled_ = false;
  if (!raw) return raw.err();
  if (disabled != CUPTI_SUCCESS) return detail::cupti_error(disabled, "cuptiSassMetricsDisable", __FILE__, __LINE__);
  out_.dropped = disable.numOfDroppedRecords;
  out_.records = merge_sass_records(*raw, names_);
  return out_;
}

sass_window::~sass_window() { close(); }

void sass_window::close() {
  if (!enabled_) return;
  CUpti_SassMetricsDisable_Params disable{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  disable.ctx = static_cast<CUcontext>(ctx_);
  cuptiSassMetricsDisable(&disable);
  unset_config(ordinal_);
  enabled_ = false;
}

result<sass_collection> collect_sass_lines(int ordinal, const std::function<result<void>()>& launch) {
  auto window = sass_window::begin(ordinal);
  if (!window) return window.err();
  if (const result<void> launched = launch(); !launched) return launched.err();  // the window closes unread
  return (*window)->end();
}

}  // namespace rooflint::runtime::cupti
