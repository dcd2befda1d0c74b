#pragma once
/// @file verify.h
/// Running the verifier: runs registered cases (verify_case.h) on the GPU, reads what each kernel really
/// moved and did through CUPTI's range profiler, times it with CUDA events, and compares both with the
/// spec (comparison.h). Its options, the run's report, and the exit codes of rooflint-verify.
///
/// Isolation (verify_options::isolate, the default): the parent never initialises CUDA; it forks a
/// child that measures the cases in order and reports each back. A case that faults (its CUDA context
/// may be dead) or crashes ends that child: the case fails, and a fresh child goes on with the next.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/files/ceilings_file.h"
#include "rooflint/model/peaks.h"
#include "rooflint/runtime/ceilings_check.h"
#include "rooflint/runtime/comparison.h"
#include "rooflint/runtime/measurement.h"
#include "rooflint/runtime/result.h"
#include "rooflint/runtime/verify_case.h"

namespace rooflint::runtime {

/// The whole run: environment and every case.
struct run_report {
  std::string tool = "rooflint-verify";  ///< the program that ran it: its lines start with this name
  std::string device;
  std::string peaks_label;           ///< "measured (ceilings.json)" or "datasheet (H200): spec-sheet peaks ..."
  model::peaks peaks;                ///< peaks.device is not used by the reports (it views a string that a copy does not own)
  std::string peaks_device;          ///< the peaks' device name
  std::optional<ceilings::clock_state> ceilings_clocks;
  std::string counters_mode;         ///< "cupti" or "timing only: <reason>"
  std::vector<std::string> warnings; ///< run-wide warnings (clock mismatch, datasheet peaks, ...)
  std::vector<case_report> cases;
  int exit_code = 0;
  /// Each case's verdict against --baseline ("SAME", "WORSE", ...; inject::apply_baseline), by case name.
  std::vector<std::pair<std::string, std::string>> baseline_verdicts;
};

/// Per-line traffic (--lines; docs/verifier.md, "Per-line traffic"): off; collected and printed for the
/// cases that fail, once the verdicts are known (failing, the default); for every measured case (all).
/// The JSON report has it wherever it was collected.
enum class lines_mode { off, failing, all };
std::string_view name(lines_mode m);
/// @return The mode named @p text ("off", "failing", "all"), or nullopt.
std::optional<lines_mode> parse_lines_mode(std::string_view text);

/// Sets each candidate case beside its reference (reference_pair: case names, or kernel names, a program's
/// cases then paired at equal sizes): case_report::reference and a rooflint-reference remark with both
/// roofline fractions, the time ratio and the bytes per level. A reference that states other work
/// (ideal FLOPs or compulsory bytes differ) is not compared: a warning says so; one the run did not
/// measure: a remark.
void pair_references(run_report& run, const std::vector<reference_pair>& pairs);

struct verify_options {
  std::string filter = ".*";         ///< ECMAScript regex matched against case names (search)
  std::string tool = "rooflint-verify";  ///< the program's name, which its progress lines and table start with
  /// Measured peaks, a file per GPU the cases may run on (each case is judged against the file of its
  /// own GPU); empty: the datasheet's.
  std::vector<std::string> ceilings_paths;
  double tolerance = 0;              ///< > 0: overrides the default traffic bands (not a spec's own)
  bool counters = true;              ///< false: timing only (--no-counters)
  bool fp_counters = true;           ///< false: skip the SASS FP instruction group (--no-fp-counters; ~80x a dense kernel's time)
  int repetitions = 30;              ///< timed cold runs per case
  int warmup = 3;                    ///< unmeasured runs first
  bool isolate = true;               ///< measure in a child process, a fresh one after a fault (fork); false: in this process
  int timeout_s = 600;               ///< a child that reports nothing for this long is killed
  bool progress = true;              ///< progress lines on stderr
  lines_mode lines = lines_mode::failing;  ///< per-line traffic: one more process per case (isolation only)
  /// The analyzer's manifests (files, or directories searched for *.rooflint.json) whose predicted
  /// accesses the per-line rows compare with, matched by the spec's kernel name (--manifest).
  std::vector<std::string> manifests;
};

/// A case to compare, as the comparison needs it: the spec, the bound sizes, where it was stated.
struct case_source {
  case_input input;
  std::string file;
  int line = 0;
};

/// Compares each measurement with its case's spec against the peaks of the GPU it ran on (the
/// --ceilings file that applies to that GPU, else its datasheet entry; a GPU none of the files given
/// applies to gets no verdict: rooflint-no-peaks), adds the run-wide warnings and decides the exit code:
/// what verify() does once the cases are measured, shared by rooflint-verify -- ./program. @p measured
/// is aligned with @p cases.
run_report compare_cases(const std::vector<case_source>& cases, const std::vector<measurement>& measured,
                         const verify_options& options, const std::vector<ceilings_source>& ceilings);

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

}  // namespace rooflint::runtime

namespace rooflint {
using runtime::verify_main;
}
