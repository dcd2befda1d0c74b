// The CUPTI range profiler as the probes use it: the core metrics rooflint-verify collects, in user-range
// user-replay sessions of windows (pushed ranges), every call's time kept by step(). Raw CUPTI, so that a
// probe measures CUPTI and not rooflint's wrappers.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define PROBE_CHECK(call)                                                    \
  do {                                                                       \
    if (CUptiResult r_ = (call); r_ != CUPTI_SUCCESS) {                      \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(r_)); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

namespace probe {

/// Prints the time since the previous step (or the process's first use of it) as "name ms".
inline void step(const char* name, bool print = true) {
  using clock_type = std::chrono::steady_clock;
  static clock_type::time_point mark = clock_type::now();
  const auto now = clock_type::now();
  if (print) std::printf("%-40s %9.2f ms\n", name, std::chrono::duration<double, std::milli>(now - mark).count());
  mark = clock_type::now();
}

inline const char* metrics[] = {"dram__bytes_read.sum",
                                "dram__bytes_write.sum",
                                "gpu__time_duration.sum",
                                "lts__t_bytes.sum",
                                "lts__t_sectors_srcunit_tex_op_read.sum",
                                "lts__t_sectors_srcunit_tex_op_write.sum",
                                "sm__cycles_elapsed.avg.per_second",
                                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
constexpr std::size_t metric_count = sizeof(metrics) / sizeof(metrics[0]);
enum metric_index { dram_read, dram_write, duration, l2_bytes, l2_read, l2_write, sm_hz, l1_load, l1_store };

/// One process's profiler on the current context: initialised, its config image of the core metrics
/// made, enabled. Each step is timed.
struct profiler {
  CUcontext ctx = nullptr;
  std::vector<std::uint8_t> availability, image, data;
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* object = nullptr;
  int capacity = 64;

  explicit profiler(bool with_availability = true) {
    cuCtxGetCurrent(&ctx);
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    PROBE_CHECK(cuptiProfilerInitialize(&init));
    step("cuptiProfilerInitialize");
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = 0;
    PROBE_CHECK(cuptiDeviceGetChipName(&chip));
    if (with_availability) {
      CUpti_Profiler_GetCounterAvailability_Params avail{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
      avail.ctx = ctx;
      PROBE_CHECK(cuptiProfilerGetCounterAvailability(&avail));
      availability.resize(avail.counterAvailabilityImageSize);
      avail.pCounterAvailabilityImage = availability.data();
      PROBE_CHECK(cuptiProfilerGetCounterAvailability(&avail));
      step("counter availability");
    }
    CUpti_Profiler_Host_Initialize_Params hinit{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hinit.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hinit.pChipName = chip.pChipName;
    hinit.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    PROBE_CHECK(cuptiProfilerHostInitialize(&hinit));
    host = hinit.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host;
    add.ppMetricNames = metrics;
    add.numMetrics = metric_count;
    PROBE_CHECK(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host;
    PROBE_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
    image.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject = host;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    PROBE_CHECK(cuptiProfilerHostGetConfigImage(&get));
    step("host config image");
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = ctx;
    PROBE_CHECK(cuptiRangeProfilerEnable(&enable));
    object = enable.pRangeProfilerObject;
    step("cuptiRangeProfilerEnable");
  }

  /// A session of up to `capacity` windows: counter data, config, Start.
  void start() {
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = object;
    size.pMetricNames = metrics;
    size.numMetrics = metric_count;
    size.maxNumOfRanges = capacity;
    size.maxNumRangeTreeNodes = capacity;
    PROBE_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
    data.assign(size.counterDataSize, 0);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = object;
    init.counterDataSize = data.size();
    init.pCounterData = data.data();
    PROBE_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));
    step("  counter data");
    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = object;
    set.configSize = image.size();
    set.pConfig = image.data();
    set.counterDataImageSize = data.size();
    set.pCounterDataImage = data.data();
    set.range = CUPTI_UserRange;
    set.replayMode = CUPTI_UserReplay;
    set.maxRangesPerPass = capacity;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    PROBE_CHECK(cuptiRangeProfilerSetConfig(&set));
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = object;
    PROBE_CHECK(cuptiRangeProfilerStart(&start));
    step("  set config and start");
  }
  /// Opens a window; each has a name of its own (windows of one name are one range).
  void push() {
    static int serial = 0;
    static std::vector<std::string> names;
    names.push_back("window " + std::to_string(serial++));
    CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object;
    p.pRangeName = names.back().c_str();
    PROBE_CHECK(cuptiRangeProfilerPushRange(&p));
  }
  void pop() {
    CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object;
    PROBE_CHECK(cuptiRangeProfilerPopRange(&p));
  }
  /// Stops and decodes the session: per window, the metrics' values.
  std::vector<std::vector<double>> stop() {
    CUpti_RangeProfiler_Stop_Params s{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = object;
    PROBE_CHECK(cuptiRangeProfilerStop(&s));
    CUpti_RangeProfiler_DecodeData_Params d{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = object;
    PROBE_CHECK(cuptiRangeProfilerDecodeData(&d));
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    PROBE_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
    std::vector<std::vector<double>> out;
    for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
      std::vector<double> values(metric_count);
      CUpti_Profiler_Host_EvaluateToGpuValues_Params e{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
      e.pHostObject = host;
      e.pCounterDataImage = data.data();
      e.counterDataImageSize = data.size();
      e.rangeIndex = r;
      e.ppMetricNames = metrics;
      e.numMetrics = metric_count;
      e.pMetricValues = values.data();
      PROBE_CHECK(cuptiProfilerHostEvaluateToGpuValues(&e));
      out.push_back(values);
    }
    step("  stop, decode, evaluate");
    return out;
  }
};

}  // namespace probe
