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

#include "cupti/combine_ranges.h"
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

result<void> enable(CUcontext ctx, CUpti_RangeProfiler_Object*& object) {
  CUpti_RangeProfiler_Enable_Params params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  params.ctx = ctx;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerEnable(&params));
  object = params.pRangeProfilerObject;
  return success();
}

void disable(CUpti_RangeProfiler_Object*& object) {
  CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object;
  (void)cuptiRangeProfilerDisable(&params);
  object = nullptr;
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
  /// The last collection, when it finished cleanly: the same one-pass config again, at the same
  /// capacity and range mode, keeps the enabled profiler (only the counter data is initialised anew).
  struct clean_collection {
    const std::vector<std::uint8_t>* image = nullptr;
    int capacity = 0;
    CUpti_ProfilerRange range = CUPTI_AutoRange;
  };
  std::optional<clean_collection> clean;
  /// The counter data image of the collection in progress (arm() to finish(), or a batch).
  std::vector<std::uint8_t> counter_data;
  /// The batch in progress (open_batch() to close_batch()): user range, one range per window.
  struct open_batch_state {
    const config* cfg = nullptr;
    int capacity = 0;
    bool user_range = false;  ///< else auto range: every kernel of the session is a range
    int pushed = 0;
    bool range_open = false;
  };
  std::optional<open_batch_state> batch;
  /// The environment's switches, read once when the profiler is created.
  bool always_reenable = false;  ///< ROOFLINT_PROFILER_REENABLE=1
  bool forced_kernel_replay = false;  ///< ROOFLINT_PROFILER_REPLAY=kernel

  ~state() {
    if (object) disable(object);
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
  // ROOFLINT_PROFILER_REENABLE=1: a fresh enable before every collection (the behaviour before reuse,
  // kept as a switch for a CUPTI that fails on reuse, and to measure what reuse saves).
  // ROOFLINT_PROFILER_REPLAY=kernel: kernel replay for every config (a CUPTI that misbehaves in user replay).
  const auto env_is = [](const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v && std::string(v) == value;
  };
  s.always_reenable = env_is("ROOFLINT_PROFILER_REENABLE", "1");
  s.forced_kernel_replay = env_is("ROOFLINT_PROFILER_REPLAY", "kernel");
  // The driver's cuCtxGetCurrent through the runtime, so that the library does not link libcuda.so.1:
  // binaries built with it must start on machines without a driver and say "no GPU".
  using get_current_fn = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  ROOFLINT_TRY_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, CUDART_VERSION, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    return error{error_code::internal, "cudaGetDriverEntryPointByVersion('cuCtxGetCurrent') found no such driver entry point"};
  const auto get_current = reinterpret_cast<get_current_fn>(fn);
  // A program's own current context (its launches run there) is profiled as it is; only a thread with
  // none gets the device's primary context.
  if (get_current(&s.ctx) != CUDA_SUCCESS || !s.ctx) {
    ROOFLINT_TRY_CUDA(cudaSetDevice(ordinal));
    ROOFLINT_TRY_CUDA(cudaFree(nullptr));  // creates the primary context
    if (const CUresult r = get_current(&s.ctx); r != CUDA_SUCCESS || !s.ctx)
      return error{error_code::internal, "cuCtxGetCurrent failed (" + std::to_string(r) + "): no current CUDA context"};
  }

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

  ROOFLINT_TRY(enable(s.ctx, s.object));  // INSUFFICIENT_PRIVILEGES surfaces here
  return rp;
}

namespace {
/// Disables and re-enables the range profiler of @p ctx. Measured on the H200 (CUPTI 13.0.85,
/// 2026-11-30): reusing one enabled profiler across metric lists failed (counter data initialisation
/// returned CUPTI_ERROR_UNKNOWN once another list's config had been set, and after a multi-pass
/// group a later collection crashed); a fresh enable per collection ran clean. It costs the first
/// Start's set-up (~0.1 s, docs/cupti.md §1.2) per metric group.
result<void> reenable(CUcontext ctx, CUpti_RangeProfiler_Object*& object) {
  disable(object);
  return enable(ctx, object);
}
}  // namespace

result<range_profiler*> range_profiler::shared(int ordinal) {
  static std::optional<result<range_profiler>> instance;
  if (!instance) instance.emplace(create(ordinal));
  if (!instance->ok()) return instance->err();
  return &instance->value();
}

namespace {
/// The replay mode for a config of @p passes. One pass needs no replay: user replay, in which the one
/// pass is the launch itself and CUPTI saves and restores no device memory around it. Measured on the
/// H200 (2026-12-01, 72 launches of the example program under rooflint-verify): CUPTI's time inside each
/// launch call fell from 45.7 ms to 0.1 ms, the run from 5.62 to 4.52 s, with the same verdicts and bytes
/// within 0.2% (one 2 MB kernel 10% lower: kernel replay's own traffic). More passes: kernel replay.
/// @p forced_kernel: ROOFLINT_PROFILER_REPLAY=kernel keeps kernel replay for every config.
CUpti_ProfilerReplayMode replay_mode(std::size_t passes, bool forced_kernel) {
  return passes == 1 && !forced_kernel ? CUPTI_UserReplay : CUPTI_KernelReplay;
}

/// Sizes @p data for @p names and @p capacity ranges, initialises it and sets @p image as the config.
result<void> set_up_collection(CUpti_RangeProfiler_Object* object, std::vector<const char*>& names,
                               int capacity, const std::vector<std::uint8_t>& image, std::vector<std::uint8_t>& data,
                               bool resize, CUpti_ProfilerReplayMode replay, CUpti_ProfilerRange range) {
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
  set.range = range;
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

/// Sets @p cfg up on the profiler for @p capacity ranges in @p range mode: keeps the enabled profiler
/// when the last collection was the same one-pass config, capacity and mode and ended cleanly (a fresh
/// enable costs the first Start's set-up again, ~0.2 s per launch under rooflint-verify on the H200);
/// otherwise re-enables it (reenable() says what failed without it).
result<void> range_profiler::set_up(const config& cfg, int capacity, int range_mode) {
  state& s = *state_;
  const auto range = static_cast<CUpti_ProfilerRange>(range_mode);
  std::vector<const char*> names;
  for (const auto& m : cfg.metrics()) names.push_back(m.c_str());
  const bool reuse = s.object_used && !s.always_reenable && cfg.passes() == 1 && s.clean &&
                     s.clean->image == &cfg.image() && s.clean->capacity == capacity && s.clean->range == range;
  s.clean.reset();
  const CUpti_ProfilerReplayMode replay = range == CUPTI_UserRange ? CUPTI_UserReplay : replay_mode(cfg.passes(), s.forced_kernel_replay);
  if (reuse && set_up_collection(s.object, names, capacity, cfg.image(), s.counter_data, false, replay, range)) return success();
  if (!s.object) ROOFLINT_TRY(enable(s.ctx, s.object));  // released (another process's turn came between)
  else if (s.object_used) ROOFLINT_TRY(reenable(s.ctx, s.object));
  s.object_used = true;
  return set_up_collection(s.object, names, capacity, cfg.image(), s.counter_data, true, replay, range);
}

result<void> range_profiler::arm(const config& cfg, int launches) {
  if (state_->batch) return error{error_code::internal, "range_profiler::arm while a batch is open"};
  // One more range than launches: a case that launches more kernels than it declares shows up as an
  // extra range instead of being dropped silently at the capacity (docs/cupti.md §7).
  return set_up(cfg, launches + 1, CUPTI_AutoRange);
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

  std::vector<std::vector<double>> ranges;
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    auto values = cfg.evaluate(data, r);
    if (!values) return values.err();
    ranges.push_back(std::move(*values));
  }
  std::vector<double> sum = combine_ranges(ranges, cfg.metrics());  // counts summed, rates weighted by duration
  s.clean = state::clean_collection{&cfg.image(), launches + 1, CUPTI_AutoRange};
  return sum;
}

result<void> range_profiler::open_batch(const config& cfg, int capacity, bool user_range) {
  state& s = *state_;
  if (s.batch) return error{error_code::internal, "range_profiler::open_batch: a batch is already open"};
  if (cfg.passes() != 1)
    return error{error_code::internal, "range_profiler::open_batch: a batch needs a one-pass config (this one takes " +
                                           std::to_string(cfg.passes()) + ")"};
  ROOFLINT_TRY(set_up(cfg, capacity, user_range ? CUPTI_UserRange : CUPTI_AutoRange));
  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = s.object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerStart(&start));
  s.batch = state::open_batch_state{&cfg, capacity, user_range, 0, false};
  return success();
}

void range_profiler::release() {
  state& s = *state_;
  if (s.batch || !s.object) return;
  disable(s.object);
  s.object_used = false;
  s.clean.reset();
}

bool range_profiler::batch_open() const { return state_->batch.has_value(); }
int range_profiler::batch_ranges() const { return state_->batch ? state_->batch->pushed : 0; }
int range_profiler::batch_capacity() const { return state_->batch ? state_->batch->capacity : 0; }

result<int> range_profiler::push_range() {
  state& s = *state_;
  if (!s.batch || !s.batch->user_range || s.batch->range_open || s.batch->pushed >= s.batch->capacity)
    return error{error_code::internal, "range_profiler::push_range: no open batch with room for a range"};
  // The range's name is its index in the batch: close_batch() matches values to windows by it.
  const std::string name = std::to_string(s.batch->pushed);
  CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  push.pRangeProfilerObject = s.object;
  push.pRangeName = name.c_str();
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerPushRange(&push));
  s.batch->range_open = true;
  return s.batch->pushed++;
}

result<void> range_profiler::pop_range() {
  state& s = *state_;
  if (!s.batch || !s.batch->range_open) return error{error_code::internal, "range_profiler::pop_range: no range is open"};
  CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
  pop.pRangeProfilerObject = s.object;
  s.batch->range_open = false;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerPopRange(&pop));
  return success();
}

result<std::vector<std::optional<std::vector<double>>>> range_profiler::close_batch() {
  state& s = *state_;
  if (!s.batch) return error{error_code::internal, "range_profiler::close_batch: no batch is open"};
  const state::open_batch_state b = *s.batch;
  s.batch.reset();
  if (b.range_open) {  // a window left open (the program ended inside it): close it, its values are dropped
    CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    pop.pRangeProfilerObject = s.object;
    (void)cuptiRangeProfilerPopRange(&pop);
  }
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = s.object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerStop(&stop));
  if (!stop.isAllPassSubmitted)
    return error{error_code::internal, "cuptiRangeProfilerStop: not all passes of the metric group were submitted"};
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = s.object;
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerDecodeData(&decode));
  const std::vector<std::uint8_t>& data = s.counter_data;
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  ROOFLINT_TRY_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  // Values by the range's name (its window's index): a range CUPTI did not record stays empty, and the
  // caller reports that window as not measured, never as zeros.
  // User range: one entry per pushed window. Auto range: one per range CUPTI recorded, a kernel each,
  // named "0", "1", ... in launch order (the caller checks the count against the kernels it saw).
  const std::size_t entries = b.user_range ? static_cast<std::size_t>(b.pushed) : info.numTotalRanges;
  std::vector<std::optional<std::vector<double>>> values(entries);
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params range{CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
    range.pCounterDataImage = data.data();
    range.counterDataImageSize = data.size();
    range.rangeIndex = r;
    range.rangeDelimiter = "/";
    ROOFLINT_TRY_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&range));
    const std::string name = range.rangeName ? range.rangeName : "";
    const std::optional<std::size_t> at = batch_entry_of_range(name, r, entries, info.numTotalRanges);
    if (!at) return error{error_code::internal, "the batch's counter data holds a range named '" + name + "', which no window pushed"};
    const long window = static_cast<long>(*at);
    auto v = b.cfg->evaluate(data, r);
    if (!v) return v.err();
    values[static_cast<std::size_t>(window)] = std::move(*v);
  }
  s.clean = state::clean_collection{&b.cfg->image(), b.capacity, b.user_range ? CUPTI_UserRange : CUPTI_AutoRange};
  return values;
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
