// CUPTI Range Profiling API, auto range (docs/cupti.md §1.2): one range per kernel launch; user replay for a
// one-pass metric group, kernel replay for more (replay_mode).
// The profiler object and each config's counter data are kept and reused across kernels.

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>

#include "cupti/cupti_check.h"
#include "support/cuda_check.h"
#include "cupti/cupti.h"

namespace rooflint::runtime::cupti {

namespace {

const char* support_name(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    default: return "unknown";
  }
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

struct range_profiler::state {
  CUcontext ctx = nullptr;
  bool initialized = false;
  CUpti_RangeProfiler_Object* object = nullptr;
  std::string chip;
  std::vector<std::uint8_t> availability;
  /// Whether `object` has collected once; a later collection reuses it only as reusable() says.
  bool object_used = false;
  /// The config image of the last collection, when that collection finished cleanly (else null), and
  /// its range capacity: the same one-pass config again keeps the enabled profiler.
  const std::vector<std::uint8_t>* clean_image = nullptr;
  int clean_capacity = 0;
  /// The counter data image of the collection in progress (arm() to finish()).
  std::vector<std::uint8_t> counter_data;

  ~state() {
    if (object) {
      CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = object;
      (void)cuptiRangeProfilerDisable(&p);
    }
    if (initialized) {
      CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
      (void)cuptiProfilerDeInitialize(&p);
    }
  }
};

range_profiler::range_profiler(range_profiler&&) noexcept = default;
range_profiler& range_profiler::operator=(range_profiler&&) noexcept = default;
range_profiler::~range_profiler() = default;

const std::string& range_profiler::chip() const { return state_->chip; }
const std::vector<std::uint8_t>& range_profiler::counter_availability() const { return state_->availability; }

result<range_profiler> range_profiler::create(int ordinal) {
  range_profiler rp;
  rp.state_ = std::make_unique<state>();
  state& s = *rp.state_;
  ROOFLINT_TRY_CUDA(cudaSetDevice(ordinal));
  ROOFLINT_TRY_CUDA(cudaFree(nullptr));  // creates the primary context
  // The driver's cuCtxGetCurrent through the runtime, so that the library does not link libcuda.so.1:
  // binaries built with it must start on machines without a driver and say "no GPU".
  using get_current_fn = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  ROOFLINT_TRY_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, CUDART_VERSION, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    return error{error_code::internal, "cudaGetDriverEntryPointByVersion('cuCtxGetCurrent') found no such driver entry point"};
  if (const CUresult r = reinterpret_cast<get_current_fn>(fn)(&s.ctx); r != CUDA_SUCCESS || !s.ctx)
    return error{error_code::internal, "cuCtxGetCurrent failed (" + std::to_string(r) + "): no current CUDA context"};

  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  ROOFLINT_TRY_CUPTI(cuptiProfilerInitialize(&init));
  s.initialized = true;

  CUpti_Profiler_DeviceSupported_Params supported{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  supported.cuDevice = ordinal;
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  ROOFLINT_TRY_CUPTI(cuptiProfilerDeviceSupported(&supported));
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    const std::pair<const char*, CUpti_Profiler_Support_Level> fields[] = {
        {"architecture", supported.architecture}, {"sli", supported.sli}, {"vgpu", supported.vGpu},
        {"confidential computing", supported.confidentialCompute}, {"cmp", supported.cmp}, {"wsl", supported.wsl}};
    const auto unsupported = [](const auto& f) { return f.second != CUPTI_PROFILER_CONFIGURATION_SUPPORTED; };
    const auto text = [](const auto& f) { return std::string(f.first) + " " + support_name(f.second); };
    const std::string why =
        fmt::format("{}", fmt::join(fields | ranges::views::filter(unsupported) | ranges::views::transform(text), ", "));
    return error{error_code::unavailable,
                 "the CUPTI range profiler does not support this device (" + why + "; cuptiProfilerDeviceSupported)"};
  }

  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<std::size_t>(ordinal);
  ROOFLINT_TRY_CUPTI(cuptiDeviceGetChipName(&chip));
  s.chip = chip.pChipName ? chip.pChipName : "";

  CUpti_Profiler_GetCounterAvailability_Params avail{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  avail.ctx = s.ctx;
  ROOFLINT_TRY_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  s.availability.resize(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = s.availability.data();
  ROOFLINT_TRY_CUPTI(cuptiProfilerGetCounterAvailability(&avail));

  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = s.ctx;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerEnable(&enable));  // INSUFFICIENT_PRIVILEGES surfaces here
  s.object = enable.pRangeProfilerObject;
  return rp;
}

namespace {
/// Disables and re-enables the range profiler of @p ctx. Measured on the H200 (CUPTI 13.0.85,
/// 2026-11-30): reusing one enabled profiler across metric lists failed (counter data initialisation
/// returned CUPTI_ERROR_UNKNOWN once another list's config had been set, and after a multi-pass
/// group a later collection crashed); a fresh enable per collection ran clean. It costs the first
/// Start's set-up (~0.1 s, docs/cupti.md §1.2) per metric group.
result<void> reenable(CUcontext ctx, CUpti_RangeProfiler_Object*& object) {
  CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  disable.pRangeProfilerObject = object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerDisable(&disable));
  object = nullptr;
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = ctx;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerEnable(&enable));
  object = enable.pRangeProfilerObject;
  return success();
}
}  // namespace

result<range_profiler*> range_profiler::shared(int ordinal) {
  static std::optional<result<range_profiler>> instance;
  if (!instance) instance.emplace(create(ordinal));
  if (!instance->ok()) return instance->err();
  return &instance->value();
}

namespace {
/// Whether ROOFLINT_PROFILER_REENABLE=1 asks for a fresh enable before every collection (the behaviour
/// before reuse, kept as a switch for a CUPTI that fails on reuse, and to measure what reuse saves).
bool always_reenable() {
  const char* v = std::getenv("ROOFLINT_PROFILER_REENABLE");
  return v && std::string(v) == "1";
}

/// The replay mode for a config of @p passes. One pass needs no replay: user replay, in which the one
/// pass is the launch itself and CUPTI saves and restores no device memory around it. Measured on the
/// H200 (2026-12-01, 72 launches of the example program under rooflint-verify): CUPTI's time inside each
/// launch call fell from 45.7 ms to 0.1 ms, the run from 5.62 to 4.52 s, with the same verdicts and bytes
/// within 0.2% (one 2 MB kernel 10% lower: kernel replay's own traffic). More passes: kernel replay.
/// ROOFLINT_PROFILER_REPLAY=kernel keeps kernel replay for every config (a CUPTI that misbehaves).
CUpti_ProfilerReplayMode replay_mode(std::size_t passes) {
  const char* v = std::getenv("ROOFLINT_PROFILER_REPLAY");
  const bool forced_kernel = v && std::string(v) == "kernel";
  return passes == 1 && !forced_kernel ? CUPTI_UserReplay : CUPTI_KernelReplay;
}

/// Sizes @p data for @p names and @p capacity ranges, initialises it and sets @p image as the config.
result<void> set_up_collection(CUpti_RangeProfiler_Object* object, std::vector<const char*>& names,
                               int capacity, const std::vector<std::uint8_t>& image, std::vector<std::uint8_t>& data,
                               bool resize, CUpti_ProfilerReplayMode replay) {
  if (resize) {
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = object;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = static_cast<std::size_t>(capacity);
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(capacity);
    ROOFLINT_TRY_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
    data.assign(size.counterDataSize, 0);
  } else {
    std::fill(data.begin(), data.end(), std::uint8_t{0});
  }
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = object;
  init.counterDataSize = data.size();
  init.pCounterData = data.data();
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));

  CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  set.pRangeProfilerObject = object;
  set.configSize = image.size();
  set.pConfig = image.data();
  set.counterDataImageSize = data.size();
  set.pCounterDataImage = data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = replay;
  set.maxRangesPerPass = static_cast<std::size_t>(capacity);
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerSetConfig(&set));
  return success();
}
}  // namespace

result<void> range_profiler::arm(const config& cfg, int launches) {
  state& s = *state_;
  // One more range than launches: a case that launches more kernels than it declares shows up as an
  // extra range instead of being dropped silently at the capacity (docs/cupti.md §7).
  const int capacity = launches + 1;
  std::vector<const char*> names;
  for (const auto& m : cfg.metrics()) names.push_back(m.c_str());

  // The same one-pass config as the last clean collection keeps the enabled profiler: a fresh enable
  // costs the first Start's set-up again (~0.2 s per launch under rooflint-verify on the H200). Only a
  // different config, or a multi-pass one, needs it (reenable() says what failed without it).
  const bool reuse = s.object_used && !always_reenable() && cfg.passes() == 1 && s.clean_image == &cfg.image() &&
                     s.clean_capacity == capacity;
  s.clean_image = nullptr;
  const CUpti_ProfilerReplayMode replay = replay_mode(cfg.passes());
  if (reuse && set_up_collection(s.object, names, capacity, cfg.image(), s.counter_data, false, replay)) {
    s.clean_capacity = capacity;
    return success();
  }
  if (s.object_used) ROOFLINT_TRY(reenable(s.ctx, s.object));
  s.object_used = true;
  s.clean_capacity = capacity;
  return set_up_collection(s.object, names, capacity, cfg.image(), s.counter_data, true, replay);
}

result<void> range_profiler::start() {
  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = state_->object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerStart(&start));
  return success();
}

result<std::vector<double>> range_profiler::finish(const config& cfg, int launches) {
  state& s = *state_;
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = s.object;
  if (const CUptiResult stopped = cuptiRangeProfilerStop(&stop); stopped != CUPTI_SUCCESS)
    return detail::cupti_error(stopped, "cuptiRangeProfilerStop", __FILE__, __LINE__);
  if (!stop.isAllPassSubmitted)
    return error{error_code::internal, "cuptiRangeProfilerStop: not all passes of the metric group were submitted"};

  const std::vector<std::uint8_t>& data = s.counter_data;
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = s.object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerDecodeData(&decode));
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges != static_cast<std::size_t>(launches) || decode.numOfRangeDropped != 0)
    return error{error_code::internal,
                 "CUPTI recorded " + std::to_string(info.numTotalRanges) + " ranges (" +
                     std::to_string(decode.numOfRangeDropped) + " dropped) for " + std::to_string(launches) +
                     " kernel launches; set launcher::launches to the number of kernels one call of 'launch' "
                     "makes, and launch them directly on the stream (not through a CUDA graph)"};

  std::vector<double> sum(cfg.metrics().size(), 0.0);
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    auto values = cfg.evaluate(data, r);
    if (!values) return values.err();
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += (*values)[i];
  }
  for (std::size_t i = 0; i < sum.size(); ++i)
    if (ends_with(cfg.metrics()[i], ".per_second") && info.numTotalRanges > 0) sum[i] /= static_cast<double>(info.numTotalRanges);
  s.clean_image = &cfg.image();
  return sum;
}

result<std::vector<double>> range_profiler::collect(const config& cfg, int launches,
                                                    const std::function<result<void>()>& prepare,
                                                    const std::function<result<void>()>& launch) {
  ROOFLINT_TRY(arm(cfg, launches));
  ROOFLINT_TRY(prepare());  // outside Start/Stop: not a profiled range
  ROOFLINT_TRY(start());
  const result<void> launched = launch();
  auto values = finish(cfg, launches);
  if (!launched) return launched.err();
  return values;
}

}  // namespace rooflint::runtime::cupti
