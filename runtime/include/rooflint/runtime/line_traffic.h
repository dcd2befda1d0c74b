#pragma once
/// @file line_traffic.h
/// Per-line global memory traffic: the executed requests and sectors of each global load, store and atomic
/// instruction (CUPTI's SASS metrics), mapped to source lines through the kernel's line table, beside the
/// analyzer's prediction for each access (the manifest's `predicted_traffic.accesses`). Host only and pure:
/// the CUPTI collection fills `instruction_traffic` and the correlation fills `line_table`; everything
/// here is tested on synthetic records (tests/runtime/line_traffic_test.cpp).
///
/// Glossary:
///   - *request*: one executed warp-level global memory instruction (`smsp__sass_inst_executed_op_global_*`).
///   - *sector*: 32 bytes, the unit L1 asks L2 for; *sectors* of an instruction: the sectors its requests'
///     addresses touch (`smsp__sass_sectors_mem_global`).
///   - *data bytes*: the bytes the instruction's active threads ask for (`smsp__sass_data_bytes_mem_global_op_*`,
///     threads x access width).
///   - *ideal sectors*: per instruction, max(requests, data bytes / 32): the requests' bytes packed into
///     whole sectors, and at least one sector per request. Exact when each request of the instruction moves
///     the same bytes and those are a multiple of 32 or at most 32 (a full warp, a guarded few lanes);
///     otherwise below the true ideal by less than one sector per request.
///   - *amplification*: sectors / ideal sectors (the analyzer's "8x per warp request").
///   - *excess sectors*: sectors - ideal sectors, the traffic a line moves beyond its ideal.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// The kind of a global memory instruction. `atomic` is ATOM (its result used), `reduction` RED (unused).
enum class memory_op { load, store, atomic, reduction };
/// @return "load", "store", "atomic", "reduction".
std::string_view name(memory_op op);

/// A source position as a line table gives it: the file (directory joined when the table gives one) and a
/// 1-based line; no column (SASS line tables have none).
struct source_location {
  std::string file;
  unsigned line = 0;
  bool known() const { return !file.empty() && line > 0; }
  friend bool operator==(const source_location&, const source_location&) = default;
};

/// One global memory instruction of a kernel, as the SASS metrics count it over one launch.
struct instruction_traffic {
  std::string function;   ///< the kernel's symbol as CUPTI reports it (mangled)
  std::uint32_t pc = 0;   ///< the instruction's offset in the function, bytes
  memory_op op = memory_op::load;
  double requests = 0;    ///< executed warp-level instructions
  double sectors = 0;     ///< sectors their addresses touched
  double chip_ideal = NAN;  ///< the chip's ideal sectors (smsp__sass_sectors_mem_global_ideal); NaN: not offered
  double data_bytes = NAN;  ///< bytes the active threads asked for; NaN: not collected
  /// @return The chip's ideal sectors where it counts them, else max(requests, data bytes / 32), else NaN.
  double ideal_sectors() const {
    if (!std::isnan(chip_ideal)) return chip_ideal;
    return std::isnan(data_bytes) ? NAN : std::max(requests, data_bytes / 32.0);
  }
};

/// The SASS metrics of one patched instruction, as CUPTI's cuptiSassMetricsFlushData gives them after the
/// records of one PC are merged (one record per metric and PC): metric name -> value at GPU granularity.
struct sass_record {
  std::uint32_t cubin_crc = 0;
  std::string function;
  std::uint32_t pc = 0;
  std::map<std::string, double> values;
};

/// @return The SASS metrics the per-line figures use, in the order they are configured (those the chip
/// offers): requests per kind of global instruction, the sectors, the chip's ideal sectors (GH100 lists
/// them), and the data bytes per kind (the ideal where the chip has no ideal metric).
const std::vector<std::string>& line_traffic_metrics();

/// @return The global memory instructions among @p records (those with requests of a kind), one per PC
/// and kind; the sectors and data bytes are the PC's. A PC with requests of two kinds (never seen) is
/// split by kind, the sectors given to the first.
std::vector<instruction_traffic> instructions_from_sass(const std::vector<sass_record>& records);

/// PC -> file:line for the functions of one module, from the kernel's line information (`-lineinfo`):
/// CUPTI's cuptiGetSassToSourceCorrelation on the cubin, which gives the innermost location of an
/// inlined instruction (the inlined function's line, not its call's), out of the toolchain's headers to
/// the line that called them (rooflint/files/source_position.h).
class line_table {
 public:
  /// Records that @p pc of @p function is at @p where (unknown: the binary has no line for it).
  void add(std::string function, std::uint32_t pc, source_location where);
  /// @return The line of @p pc in @p function, or nullopt when it is not in the table or has no line.
  std::optional<source_location> find(const std::string& function, std::uint32_t pc) const;
  /// @return Whether any entry has a line: false for a binary built without -lineinfo (or -G).
  bool has_line_info() const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::map<std::pair<std::string, std::uint32_t>, source_location> entries_;
};

/// Maps one PC of a function to its line (CUPTI's correlation in the runtime, a table in tests).
using correlate_fn = std::function<result<source_location>(const std::string& function, std::uint32_t pc)>;

/// @return The line table of @p instructions' PCs (each asked once). A correlation error for one PC is
/// kept as "no line" for it; every PC failing is the error of the first.
result<line_table> build_line_table(const std::vector<instruction_traffic>& instructions, const correlate_fn& correlate);

/// What the instructions of one kind on one line did together.
struct observed_line {
  source_location where;
  memory_op op = memory_op::load;
  int instructions = 0;
  double requests = 0;
  double sectors = 0;
  double ideal_sectors = NAN;  ///< NaN when data bytes were not collected
  double sectors_per_request() const { return requests > 0 ? sectors / requests : 0; }
  double ideal_sectors_per_request() const { return requests > 0 ? ideal_sectors / requests : NAN; }
  double amplification() const { return ideal_sectors > 0 ? sectors / ideal_sectors : NAN; }
  double excess_sectors() const { return std::isnan(ideal_sectors) ? NAN : sectors - ideal_sectors; }
};

/// @return Per (line, kind): the sums of @p instructions whose PC @p table places on a line, in file and
/// line order. @p unmapped, when given, receives the instructions with no line.
std::vector<observed_line> observed_lines(const std::vector<instruction_traffic>& instructions, const line_table& table,
                                          std::vector<instruction_traffic>* unmapped = nullptr);

/// One access the analyzer predicted (the manifest's `predicted_traffic.accesses`, docs/manifest-schema.md).
struct predicted_access {
  std::string file;  ///< absolute, from the device IR's debug location
  unsigned line = 0, column = 0;
  std::string tensor;  ///< the spec's tensor name; empty for memory of no tensor of the spec
  int param = -1;
  bool store = false, atomic = false;
  std::optional<double> requests;  ///< warp requests over the launch the analyzer evaluated; nullopt: not evaluated
  std::optional<double> sectors_per_request, ideal_sectors_per_request;
  std::string note;  ///< why the access was not evaluated
  bool evaluated() const { return requests && sectors_per_request && ideal_sectors_per_request && *requests > 0; }
};

/// @return Whether an observed instruction kind is the analyzer's kind of access: an atomic access is an
/// ATOM or a RED (the analyzer does not know whether the result is used).
bool same_kind(const predicted_access& a, memory_op observed);

/// @return How well two file names name one file: 3 the same path (lexically normal), 2 one is the other's
/// trailing path components ("src/k.cu" in "/build/src/k.cu"), 1 only the same file name, 0 different.
int file_match(std::string_view a, std::string_view b);

/// How the observed figures of a line stand against the prediction.
enum class line_status {
  agrees,         ///< observed amplification within the band of the predicted one (without data bytes: the
                  ///< observed sectors per request within the band of the predicted ones)
  differs,        ///< outside the band
  not_observed,   ///< predicted, but no instruction of that kind executed on that line (or no line info)
  not_evaluated,  ///< an access of the line with no figures (the analyzer's note says why): none for the line
  not_predicted,  ///< observed on a line the analyzer predicted nothing for
};
std::string_view name(line_status s);

/// One row of the per-line report: the accesses of one kind the analyzer predicted on one line (several
/// accesses on one line are compared together: the line table has no columns), and what that line did.
struct line_row {
  source_location where;  ///< the predicted access's file and line (the observed line's when not predicted)
  memory_op op = memory_op::load;
  std::vector<predicted_access> predicted;  ///< manifest order; empty for a line not predicted
  std::optional<observed_line> observed;
  line_status status = line_status::not_observed;
  /// The predicted accesses together: requests-weighted sectors and ideal sectors per request; 0 when
  /// one of them is not evaluated.
  double predicted_sectors_per_request = 0, predicted_ideal_sectors_per_request = 0;
  double predicted_amplification() const {
    return predicted_ideal_sectors_per_request > 0 ? predicted_sectors_per_request / predicted_ideal_sectors_per_request : 0;
  }
  /// The observed sectors per request over the predicted ideal: the amplification on the analyzer's
  /// scale. The chip's ideal is defined otherwise (two rows of a 16 x 16 block: the chip counts 2 ideal
  /// sectors where the useful 8 bytes fill 1), so the rows compare the sectors, which both count alike.
  double observed_amplification() const {
    return observed && predicted_ideal_sectors_per_request > 0 ? observed->sectors_per_request() / predicted_ideal_sectors_per_request
                                                               : NAN;
  }
};

/// Per-line traffic of one case: the collection's outcome and the joined rows.
struct line_report {
  bool collected = false;         ///< the SASS metrics ran for this case
  std::string not_available;      ///< why there are no per-line figures ("" when collected and lines known)
  bool line_info = true;          ///< the binary had line information
  double cost_s = 0;              ///< wall time of the collection (its own replay), seconds
  bool show_always = false;       ///< the text report prints the rows for a passed case too
  std::vector<line_row> rows;     ///< one per predicted (line, kind), in manifest order
  std::vector<line_row> unpredicted;  ///< lines not predicted, most excess sectors first
  std::vector<instruction_traffic> unmapped;  ///< instructions with no line
  /// Predicted accesses with no line (the analyzer's IR gave them none, as optimisation may): no row
  /// can be joined for them; their traffic is in the kernel's figures only.
  std::vector<predicted_access> unplaced;
  /// Every observed line, in file and line order (the JSON report's "observed": what a per-line
  /// comparison with another tool reads); filled by the collection, not by join_lines.
  std::vector<observed_line> observed;
};

/// The band within which an observed amplification agrees with the predicted one: |observed - predicted|
/// <= 10% of predicted + 0.05 (sector rounding at tensor edges moves a line by a few percent; the
/// errors the report is for are multiples).
inline constexpr double line_agreement_ratio = 0.10;
inline constexpr double line_agreement_slack = 0.05;

/// Joins @p predicted with @p observed: each predicted (file, line, kind) group with the observed line of
/// the best file match (file_match; a file-name-only match only when it names one observed file), and the
/// @p top_unpredicted observed lines no prediction matched, most excess sectors first (lines with no
/// excess are left out). Lines in other files than the predicted ones (an inlined function's line, such
/// as a toolkit header's atomicAdd) are matched the same way and listed when not predicted. Accesses
/// with no line (line 0) are line_report::unplaced, not rows.
line_report join_lines(const std::vector<predicted_access>& predicted, const std::vector<observed_line>& observed,
                       std::size_t top_unpredicted = 5);

}  // namespace rooflint::runtime
