#pragma once
/// @file comparison.h
/// A measurement against the spec's prediction: the traffic check, the roofline fraction and the
/// findings. Host only and pure (no GPU, no I/O): unit-tested on recorded numbers.
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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/ceilings/ceilings_file.h"
#include "rooflint/dsl.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"
#include "rooflint/runtime/measurement.h"

namespace rooflint::runtime {

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
  double read_bytes = 0;             ///< compulsory bytes read
  double written_bytes = 0;          ///< compulsory bytes written
  model::math_mode mode = model::math_mode::fp32_simt;
  model::bound_result bound;         ///< classification at the compulsory bytes
  double bytes() const { return read_bytes + written_bytes; }
};

/// Observed against predicted.
struct comparison {
  bool traffic_measured = false;     ///< counters were available
  double observed_read_bytes = 0;    ///< dram__bytes_read.sum
  double observed_write_bytes = 0;   ///< L2 stores x 32 (exact written volume)
  double dram_write_bytes = 0;       ///< dram__bytes_write.sum (DRAM level)
  double observed_bytes = 0;         ///< read + write
  double read_ratio = 0, write_ratio = 0, total_ratio = 0, dram_write_ratio = 0;  ///< observed / compulsory; 0 = n/a
  double observed_flops = 0;         ///< FLOPs the counters saw; 0 when not measured
  double flop_ratio = 0;             ///< observed / ideal FLOPs; 0 = n/a
  model::bound_result measured_bound;  ///< the measured dot: ideal FLOPs over observed bytes (compulsory when no counters)
  double t_measured_s = 0;           ///< median timed run, seconds
  double roofline_fraction = 0;      ///< t_min / t_measured (t_min from the prediction)
  double achieved_flops_per_s = 0;   ///< ideal FLOPs / t_measured
  double achieved_bytes_per_s = 0;   ///< observed bytes (compulsory without counters) / t_measured
  double flops_fraction_of_peak = 0; ///< achieved FLOP/s / peak of the math mode
  double bytes_fraction_of_peak = 0; ///< achieved bytes/s / peak bandwidth
  bool cold = true;                  ///< false: not a cold measurement, the traffic check is void
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

/// @return The clock warning for a case's timing against the ceilings' clock state, or empty.
std::string clock_warning(const timing_values& t, const counter_values& c,
                          const std::optional<ceilings::clock_state>& ceilings_clocks, double tolerance);

}  // namespace rooflint::runtime
