#pragma once
/// @file comparison.h
/// A measurement against the spec's prediction: the traffic check, the roofline fraction and the
/// findings. Host only and pure (no GPU, no I/O): unit-tested on recorded numbers.
///
/// Glossary (the model's words, model/roofline.h, plus the verifier's own):
///   - *compulsory bytes*: every input read once, every output written once (the spec's read_bytes and
///     written_bytes at the bound sizes).
///   - *observed bytes*: the DRAM level's bytes, dram__bytes_read.sum + dram__bytes_write.sum; the exact
///     written volume, the stores that reach L2 (lts__t_sectors_srcunit_tex_op_write.sum x 32), is the
///     write ratio's numerator. Each level (DRAM, L2, L1) has its own bytes, roof and floor (level_traffic);
///     bytes of two levels are never added.
///   - *traffic ratio*: observed bytes / compulsory bytes (reads, writes, total; per level).
///   - *true intensity*: ideal FLOPs / a level's bytes; where that level's dot lies.
///   - *binding level*: the level with the largest floor (bytes / that level's roof), or compute.
///   - *roofline fraction*: t_min / t_measured (t_min from the compulsory bytes and the ideal FLOPs).
///   - *ideal-traffic error*: a level's bytes above the tolerance and its floor above t_min beyond the
///     tolerance (the dot crosses the ridge at that level, or a memory-bound floor rises); a *note* when
///     the level moves more than its ideal but its floor stays under t_min.
///   - *not cold*: observed reads clearly below compulsory: the inputs were resident in L2; the traffic
///     check is void.
///

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/files/ceilings_file.h"
#include "rooflint/files/manifest.h"
#include "rooflint/dsl.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"
#include "rooflint/runtime/measurement.h"
#include "rooflint/runtime/line_traffic.h"

namespace rooflint::runtime {

/// Bands for the traffic check. See docs/verifier.md for why these defaults.
struct tolerances {
  double read_ratio = 1.10;          ///< observed / compulsory DRAM reads above this: excess reads
  double write_ratio = 1.10;         ///< observed / compulsory written volume (L2 stores) above this: excess writes
  double total_ratio = model::traffic_tolerance;         ///< observed / compulsory total above this: an ideal-traffic finding
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
  /// The level whose floor is the measured floor; none when compute sets it.
  std::optional<model::memory_level> binding;
  /// @return "compute" or the binding level's label ("DRAM", "L2", "L1"), as the reports print it.
  std::string binding_text() const { return binding ? std::string(model::label(*binding)) : std::string("compute"); }
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

/// A kernel's predicted ratio at one level, of the kind the manifest gives (docs/manifest-schema.md): a
/// value, a range (low to high, ratio the point inside) or not predicted.
struct predicted_level_ratio {
  manifest::prediction_kind kind = manifest::prediction_kind::not_predicted;
  double ratio = 0, low = 0, high = 0;
  bool pointed = true;  ///< a range with a point estimate (ratio); false: low and high only
  bool predicted() const { return kind != manifest::prediction_kind::not_predicted; }
  bool has_point() const { return predicted() && pointed; }
};

/// A case's reference implementation of the same work, measured in the same run (pair_references).
struct reference_result {
  std::string name;                  ///< the reference's case
  double roofline_fraction = 0;      ///< its t_min / t_measured
  double t_measured_s = 0;
  /// Its bytes per level over the compulsory bytes (index: model::memory_level); 0: not counted.
  std::array<double, model::memory_level_count> level_ratio{};
};

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
  /// The analyzer's prediction from the manifest (manifest_kernel::predicted_traffic), printed beside
  /// the observed ratios; empty for ROOFLINT_VERIFY_CASE cases and version 2 manifests.
  std::vector<std::string> predicted_traffic;
  /// The kernel's predicted bytes per level over its compulsory bytes (index: model::memory_level):
  /// the tensors' predicted ratios weighted by their compulsory bytes at the case's sizes; not predicted
  /// where a tensor has no prediction at that level (a ratio of 0 is a prediction: no traffic there).
  std::array<predicted_level_ratio, model::memory_level_count> predicted_ratio{};
  /// Per-line traffic (line_traffic.h): each predicted access's observed sectors per request beside the
  /// prediction, and the lines that moved the most excess sectors; `collected` false when not run.
  line_report lines;
  /// Its reference implementation's figures, when the run measured one (ROOFLINT_VERIFY_REFERENCE,
  /// rooflint-verify --reference).
  std::optional<reference_result> reference;
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
