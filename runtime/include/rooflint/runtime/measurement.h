#pragma once
/// @file measurement.h
/// What measuring one case gives: the device it ran on, the counter values summed over its launches
/// (CUPTI's range profiler) and the timing of its cold runs (CUDA events, NVML clocks). Plain data; the
/// comparison with the spec is comparison.h.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rooflint::runtime {

/// The device a case ran on.
struct device_snapshot {
  std::string name;          ///< "NVIDIA H200"
  std::string uuid;          ///< "GPU-xxxxxxxx-...", as nvidia-smi prints it (device_properties::uuid)
  std::string driver_version;  ///< "580.159.04" (device_properties::driver_version)
  std::string chip;          ///< CUPTI chip name, "GH100"; empty when CUPTI could not tell
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  double l2_bytes = 0;       ///< bytes
  double flush_bytes = 0;    ///< bytes read by the L2 flush before each measured launch
};

/// The precision a SASS FP instruction counter belongs to.
enum class fp_precision { fp32, fp64, fp16 };

/// A SASS FP instruction counter (the op in sm__sass_thread_inst_executed_op_<op>_pred_on.sum) and its
/// FLOP weight per thread instruction, as Nsight Compute's roofline sections weigh them: a fused
/// multiply-add is 2 FLOPs, and the half-precision instructions are 2-wide (HFMA2 4, HADD2/HMUL2 2).
struct sass_fp_counter {
  const char* op;                  ///< "ffma"
  fp_precision precision;
  double flops_per_instruction;    ///< FLOP per thread instruction
};

/// The nine counters, in the order the verifier requests them (cupti::fp_metrics). The one table of
/// FLOP weights: counter_values::fp32_flops() and its siblings sum over it.
inline constexpr sass_fp_counter sass_fp_counters[] = {
    {"ffma", fp_precision::fp32, 2}, {"fadd", fp_precision::fp32, 1}, {"fmul", fp_precision::fp32, 1},
    {"dfma", fp_precision::fp64, 2}, {"dadd", fp_precision::fp64, 1}, {"dmul", fp_precision::fp64, 1},
    {"hfma", fp_precision::fp16, 4}, {"hadd", fp_precision::fp16, 2}, {"hmul", fp_precision::fp16, 2},
};

/// Counter values of one case, summed over its launches. Fields are 0 when not measured.
struct counter_values {
  bool available = false;            ///< the core group was measured
  std::string unavailable_reason;    ///< why not (permission, no support, --no-counters), with the fix
  bool permission_denied = false;    ///< CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (ERR_NVGPUCTRPERM)

  double dram_read_bytes = 0;        ///< dram__bytes_read.sum, bytes
  double dram_write_bytes = 0;       ///< dram__bytes_write.sum, bytes (L2 evictions inside the window)
  double l2_bytes = 0;               ///< lts__t_bytes.sum, bytes (all L2 tag lookups)
  double l2_read_sectors = 0;        ///< lts__t_sectors_srcunit_tex_op_read.sum, 32-byte sectors
  double l2_write_sectors = 0;       ///< lts__t_sectors_srcunit_tex_op_write.sum, 32-byte sectors
  bool l1_available = false;         ///< the L1 sectors below were measured (recorded data before them lacks them)
  double l1_read_sectors = 0;        ///< l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum, 32-byte sectors
  double l1_write_sectors = 0;       ///< l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum, 32-byte sectors
  double duration_s = 0;             ///< gpu__time_duration.sum, seconds (summed over launches)
  double sm_clock_hz = 0;            ///< sm__cycles_elapsed.avg.per_second, Hz (over launches: weighted by their duration)

  bool fp_available = false;         ///< the SASS FP instruction group was measured
  std::map<std::string, double> fp_instructions;  ///< "ffma" -> thread instructions, etc.

  bool tensor_available = false;     ///< the tensor group was measured
  std::map<std::string, double> tensor_ops;       ///< full metric name -> ops (FLOP), 0 included

  std::map<std::string, int> passes; ///< group name ("core", "fp", "tensor") -> CUPTI passes
  int ranges_expected = 0;           ///< launches made while counting (per group)
  std::vector<std::string> notes;    ///< anything the report should state (a group skipped, and why)
  /// Counted in a batch of windows with a user range per window (rooflint-verify -- program; the
  /// report's counting mode says so). JSON "batched_user_range", optional (false) in older lines.
  bool batched_user_range = false;

  /// @return Bytes the SMs stored to L2: l2_write_sectors x 32.
  double l2_write_bytes() const { return l2_write_sectors * 32; }
  /// @return Bytes the SMs loaded from L2: l2_read_sectors x 32.
  double l2_read_bytes() const { return l2_read_sectors * 32; }
  /// @return Global-load bytes the SMs requested of L1: l1_read_sectors x 32.
  double l1_read_bytes() const { return l1_read_sectors * 32; }
  /// @return Global-store bytes the SMs passed through L1: l1_write_sectors x 32.
  double l1_write_bytes() const { return l1_write_sectors * 32; }
  /// @return FLOPs on CUDA cores of @p precision: its fp_instructions weighted by sass_fp_counters.
  double simt_flops(fp_precision precision) const;
  /// @return FP32 FLOPs on CUDA cores: fadd + fmul + 2 ffma.
  double fp32_flops() const { return simt_flops(fp_precision::fp32); }
  /// @return FP64 FLOPs on CUDA cores: dadd + dmul + 2 dfma.
  double fp64_flops() const { return simt_flops(fp_precision::fp64); }
  /// @return FP16 FLOPs on CUDA cores: 2 hadd + 2 hmul + 4 hfma (HFMA2 is 2-wide).
  double fp16_flops() const { return simt_flops(fp_precision::fp16); }
  /// @return Tensor-core FLOPs: the sum of the sm__ops_path_tensor_* metrics (already FLOP counts).
  double tensor_flops() const;
  /// @return All executed FLOPs the counters saw (0 when neither FP group was measured).
  double flops() const { return fp32_flops() + fp64_flops() + fp16_flops() + tensor_flops(); }
};

/// Timing of one case: CUDA events around each cold run (L2 flushed outside the window).
struct timing_values {
  bool available = false;
  int warmup = 0;                    ///< unmeasured runs before the timed ones
  int repetitions = 0;               ///< timed runs
  double median_s = 0, min_s = 0, max_s = 0;  ///< seconds per run of `launch`
  bool clock_available = false;      ///< NVML sampled the SM clock during the timed runs
  double sm_mhz_min = 0, sm_mhz_max = 0, sm_mhz_mean = 0;  ///< MHz (NVML samples)
  std::vector<std::string> throttle_reasons;  ///< NVML clock-event reasons seen during the runs
};

/// What happened to a case in its process.
enum class run_status {
  measured,    ///< counters and/or timing were taken
  no_device,   ///< no CUDA device or driver: skipped
  faulted,     ///< the kernel (or a CUDA call of the case) failed; the context may be dead
  crashed,     ///< the child process died or hung without reporting
  bad_case,    ///< the case's sizes do not bind to its spec
  not_measured,  ///< a program's launches were seen but none could be counted (error says why)
};

std::string_view name(run_status s);

/// The raw result of running one case.
struct measurement {
  std::string case_name;
  run_status status = run_status::measured;
  std::string error;                 ///< what went wrong, lowercase, with the failing call
  device_snapshot device;
  counter_values counters;
  timing_values timing;
};

}  // namespace rooflint::runtime
