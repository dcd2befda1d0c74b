#pragma once
/// @file verify.h
/// The verifier: runs registered cases (verify_case.h) on the GPU, reads what each kernel really moved
/// and did through CUPTI's range profiler, times it with CUDA events, and compares both with the spec.
///
/// Glossary (the model's words, model/roofline.h, plus the verifier's own):
///   - *compulsory bytes*: every input read once, every output written once (the spec's read_bytes and
///     written_bytes at the bound sizes).
///   - *observed bytes*: DRAM bytes read (dram__bytes_read.sum) plus the exact written volume, the stores
///     that reach L2 (lts__t_sectors_srcunit_tex_op_write.sum x 32). DRAM-level writes
///     (dram__bytes_write.sum, L2 evictions inside the window) are reported beside them.
///   - *traffic ratio*: observed bytes / compulsory bytes (reads, writes, total).
///   - *true intensity*: ideal FLOPs / observed bytes; where the measured dot lies.
///   - *roofline fraction*: t_min / t_measured (t_min from the compulsory bytes and the ideal FLOPs).
///   - *ideal-traffic error*: observed bytes above the tolerance such that memory time becomes the floor
///     (the dot moves across the ridge, or a memory-bound kernel's floor rises); a *note* when the kernel
///     stays compute-bound with the same floor.
///   - *not cold*: observed reads clearly below compulsory: the inputs were resident in L2; the traffic
///     check is void.
///
/// Cases run in child processes (fork before any CUDA call in the parent), so a kernel that faults
/// kills only its child: the case fails and the others go on.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/ceilings/ceilings_file.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"
#include "rooflint/runtime/result.h"
#include "rooflint/runtime/verify_case.h"

namespace rooflint::runtime {

// ---------------------------------------------------------------------------------------------------
// Measurements (what one case's child process sends back)

/// The device a case ran on.
struct device_snapshot {
  std::string name;          ///< "NVIDIA H200"
  std::string chip;          ///< CUPTI chip name, "GH100"; empty when CUPTI could not tell
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  double l2_bytes = 0;       ///< bytes
  double flush_bytes = 0;    ///< bytes read by the L2 flush before each measured launch
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
  double sm_clock_hz = 0;            ///< sm__cycles_elapsed.avg.per_second, Hz (mean over launches)

  bool fp_available = false;         ///< the SASS FP instruction group was measured
  std::map<std::string, double> fp_instructions;  ///< "ffma" -> thread instructions, etc.

  bool tensor_available = false;     ///< the tensor group was measured
  std::map<std::string, double> tensor_ops;       ///< full metric name -> ops (FLOP), 0 included

  std::map<std::string, int> passes; ///< group name ("core", "fp", "tensor") -> CUPTI passes
  int ranges_expected = 0;           ///< launches made while counting (per group)
  std::vector<std::string> notes;    ///< anything the report should state (a group skipped, and why)

  /// @return Bytes the SMs stored to L2: l2_write_sectors x 32.
  double l2_write_bytes() const { return l2_write_sectors * 32; }
  /// @return Bytes the SMs loaded from L2: l2_read_sectors x 32.
  double l2_read_bytes() const { return l2_read_sectors * 32; }
  /// @return Global-load bytes the SMs requested of L1: l1_read_sectors x 32.
  double l1_read_bytes() const { return l1_read_sectors * 32; }
  /// @return Global-store bytes the SMs passed through L1: l1_write_sectors x 32.
  double l1_write_bytes() const { return l1_write_sectors * 32; }
  /// @return FP32 FLOPs on CUDA cores: fadd + fmul + 2 ffma.
  double fp32_flops() const;
  /// @return FP64 FLOPs on CUDA cores: dadd + dmul + 2 dfma.
  double fp64_flops() const;
  /// @return FP16 FLOPs on CUDA cores: 2 hadd + 2 hmul + 4 hfma (HFMA2 is 2-wide).
  double fp16_flops() const;
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

// ---------------------------------------------------------------------------------------------------
// Comparison (host only; unit-tested on recorded numbers)

/// Bands for the traffic check. See docs/verifier.md for why these defaults.
struct tolerances {
  double read_ratio = 1.10;          ///< observed / compulsory DRAM reads above this: excess reads
  double write_ratio = 1.10;         ///< observed / compulsory written volume (L2 stores) above this: excess writes
  double total_ratio = 1.10;         ///< observed / compulsory total above this: an ideal-traffic finding
  double slack_bytes = 256 * 1024;   ///< absolute allowance per direction (kernel parameters, code, sector rounding)
  double not_cold_ratio = 0.90;      ///< observed reads below this x compulsory: not a cold measurement
  double faster_than_roof = 0.97;    ///< t_measured below this x t_min: faster than the roof
  double clock_mismatch = 0.05;      ///< relative SM clock difference from the ceilings' clock state that warns
};

/// @return The tolerances for @p spec: the spec's max_traffic_ratio for all three ratios when set, else
/// @p override_ratio when > 0 (--tolerance), else the defaults.
tolerances tolerances_for(const dsl::spec& spec, double override_ratio, tolerances defaults = {});

enum class severity { remark, note, warning, error };
std::string_view name(severity s);

/// One verdict about a case. `id` is the diagnostic name ("rooflint-ideal-traffic").
struct finding {
  severity level = severity::note;
  std::string id;
  std::string message;  ///< lowercase first word, no final period, numbers with units
};

/// The predicted dot: ideal FLOPs and compulsory bytes against the peaks.
struct prediction {
  double flops = 0;                  ///< ideal FLOPs, FLOP
  model::mix_roof dram_roof;         ///< the DRAM roof of the compulsory read/write mix (bytes_per_s 0: the peaks' single figure)
  std::string dram_roof_text;        ///< which DRAM roof and why
  double read_bytes = 0;             ///< compulsory bytes read
  double written_bytes = 0;          ///< compulsory bytes written
  model::math_mode mode = model::math_mode::fp32_simt;
  std::string mode_reason;           ///< which compute roof and why ("FP32 SIMT roof: a layernorm on bf16 data ...")
  model::bound_result bound;         ///< classification at the compulsory bytes, DRAM roof of their mix
  double bytes() const { return read_bytes + written_bytes; }
};

/// One level of the hierarchical roofline for one case: the bytes the counters saw there, the level's
/// ideal (compulsory) bytes, the roof its read/write mix meets, and the floor those bytes impose.
/// A level's bytes are never added to another level's, nor priced at another level's roof.
///
/// Ideal traffic per level (docs/verifier.md): every level must at least carry the compulsory bytes
/// once, so the ideal is the spec's compulsory reads and writes at each of DRAM, L2 and L1 (inputs
/// cross each level once on their way to the SMs, outputs once on their way back).
struct level_traffic {
  model::memory_level level = model::memory_level::dram;
  bool measured = false;             ///< the counters of this level were collected
  double read_bytes = 0;             ///< observed bytes read at this level
  double write_bytes = 0;            ///< observed bytes written at this level
  double ideal_read_bytes = 0;       ///< compulsory reads
  double ideal_write_bytes = 0;      ///< compulsory writes
  double ratio = 0;                  ///< observed / ideal bytes; 0 = n/a
  model::mix_roof roof;              ///< the roof for the observed mix; roof.bytes_per_s 0 = no ceiling measured
  std::string roof_text;             ///< which roof and why ("DRAM copy roof 4.3 TB/s: read and write, 33% written")
  double intensity = 0;              ///< ideal FLOPs / observed bytes, FLOP/byte; 0 without bytes
  double floor_s = 0;                ///< observed bytes / roof, seconds; 0 without a roof
  double bytes() const { return read_bytes + write_bytes; }
  double ideal_bytes() const { return ideal_read_bytes + ideal_write_bytes; }
};

/// Observed against predicted.
struct comparison {
  bool traffic_measured = false;     ///< counters were available
  double observed_read_bytes = 0;    ///< DRAM level: dram__bytes_read.sum
  double observed_write_bytes = 0;   ///< L2 stores x 32 (lts__t_sectors_srcunit_tex_op_write x 32): the written volume
  double dram_write_bytes = 0;       ///< DRAM level: dram__bytes_write.sum (L2 evictions inside the window)
  double observed_bytes = 0;         ///< DRAM level: dram reads + dram writes (one level's bytes only)
  double read_ratio = 0, write_ratio = 0, total_ratio = 0, dram_write_ratio = 0;  ///< observed / compulsory; 0 = n/a
  std::vector<level_traffic> levels; ///< DRAM, L2, L1 (memory_levels order) when counters ran
  std::string binding = "compute";   ///< what sets the measured floor: "compute" or a level label ("DRAM", "L2", "L1")
  double binding_floor_s = 0;        ///< the largest floor: compute time or a level's floor, seconds
  double observed_flops = 0;         ///< FLOPs the counters saw; 0 when not measured
  double flop_ratio = 0;             ///< observed / ideal FLOPs; 0 = n/a
  model::bound_result measured_bound;  ///< the measured dot at the binding level (DRAM when compute binds): ideal FLOPs over that level's bytes
  double t_measured_s = 0;           ///< median timed run, seconds
  double roofline_fraction = 0;      ///< t_min / t_measured (t_min from the prediction)
  double achieved_flops_per_s = 0;   ///< ideal FLOPs / t_measured
  double achieved_bytes_per_s = 0;   ///< DRAM bytes (compulsory without counters) / t_measured
  double flops_fraction_of_peak = 0; ///< achieved FLOP/s / peak of the math mode
  double bytes_fraction_of_peak = 0; ///< achieved bytes/s / the DRAM roof of the kernel's mix
  bool cold = true;                  ///< false: not a cold measurement, the traffic check is void

  /// @return The level @p l, or nullptr when it was not compared.
  const level_traffic* level(model::memory_level l) const {
    for (const auto& x : levels)
      if (x.level == l) return &x;
    return nullptr;
  }
};

enum class case_status { passed, failed, skipped, error };
std::string_view name(case_status s);

/// Everything the reports show about one case.
struct case_report {
  std::string name;
  std::string kernel;
  std::string file;
  int line = 0;
  std::string sizes;                 ///< "N=67108864"
  case_status status = case_status::passed;
  measurement measured;
  prediction predicted;
  comparison compared;
  tolerances bands;
  std::vector<finding> findings;
};

/// Inputs of one comparison, so it can be tested without a registry or a GPU.
struct case_input {
  std::string name;
  const dsl::spec* spec = nullptr;
  dsl::sizes sizes;
};

/// Compares @p m with the spec's prediction against @p peaks. Pure: no GPU, no I/O.
case_report compare(const case_input& in, const measurement& m, const model::peaks& peaks, const tolerances& bands);

/// The whole run: environment and every case.
struct run_report {
  std::string device;
  std::string peaks_label;           ///< "measured (ceilings.json)" or "datasheet (H200): spec-sheet peaks ..."
  model::peaks peaks;                ///< peaks.device is not used by the reports (it views a string that a copy does not own)
  std::string peaks_device;          ///< the peaks' device name
  std::optional<ceilings::clock_state> ceilings_clocks;
  std::string counters_mode;         ///< "cupti" or "timing only: <reason>"
  std::vector<std::string> warnings; ///< run-wide warnings (clock mismatch, datasheet peaks, ...)
  std::vector<case_report> cases;
  int exit_code = 0;
};

/// @return The clock warning for a case's timing against the ceilings' clock state, or empty.
std::string clock_warning(const timing_values& t, const counter_values& c,
                          const std::optional<ceilings::clock_state>& ceilings_clocks, double tolerance);

// ---------------------------------------------------------------------------------------------------
// Running

struct verify_options {
  std::string filter = ".*";         ///< ECMAScript regex matched against case names (search)
  std::string ceilings_path;         ///< measured peaks; empty: datasheet
  double tolerance = 0;              ///< > 0: overrides the default traffic bands (not a spec's own)
  bool counters = true;              ///< false: timing only (--no-counters)
  bool fp_counters = true;           ///< false: skip the SASS FP instruction group (--no-fp-counters; ~80x a dense kernel's time)
  int repetitions = 30;              ///< timed cold runs per case
  int warmup = 3;                    ///< unmeasured runs first
  bool isolate = true;               ///< run cases in child processes (fork); false: in this process
  int timeout_s = 600;               ///< a child that reports nothing for this long is killed
  bool progress = true;              ///< progress lines on stderr
};

/// Measures case @p c in this process (CUDA is initialised here). Never throws; faults come back as
/// run_status::faulted.
measurement measure_case(const case_definition& c, const verify_options& options);

/// Runs the cases matching options.filter and compares them. Errors: invalid_argument (bad regex,
/// unreadable ceilings file), unavailable (no case matched).
result<run_report> verify(const verify_options& options);

/// Measures and compares the case named @p case_name in this process (no child process: for a
/// project's own GPU tests, which may have initialised CUDA already). Errors: invalid_argument (no such
/// case, unreadable ceilings file).
result<run_report> verify_in_process(const std::string& case_name, const verify_options& options);

/// Exit codes of rooflint-verify.
enum exit_code : int {
  exit_passed = 0,          ///< every verdict passed
  exit_failed = 1,          ///< a verdict failed
  exit_usage = 2,           ///< bad command line
  exit_cannot_measure = 3,  ///< no GPU, no counter permission when counters were required, a case faulted
};

/// The rooflint-verify command line; each example binary's main is `return rooflint::verify_main(argc, argv);`.
int verify_main(int argc, char** argv);

/// JSON (de)serialisation of a measurement, used between a case's child process and the parent.
std::string measurement_to_json(const measurement& m);
result<measurement> measurement_from_json(const std::string& text);

}  // namespace rooflint::runtime

namespace rooflint {
using runtime::verify_main;
}
