#pragma once
/// @file verify_report.h
/// The verifier's JSON report (schema "rooflint-verify", docs/verifier.md "Reports") as the tools that
/// read it see it: what a table of many runs needs of each case (its name, kernel, sizes and status, its
/// roofline fraction, its bytes and traffic ratio per level) and, from `rooflint-verify --baseline`, each
/// case's gate verdict. Keys the reader does not know are left alone; those it knows are checked for
/// their type. The verifier writes the report (runtime/src/report/report_json.cpp); a runtime test reads
/// what it writes with this reader (tests/runtime/report_output_test.cpp), so that the two agree.
///
/// std only: the JSON library is private to rooflint::files.

#include <optional>
#include <string>
#include <vector>

#include "rooflint/model/peaks.h"

namespace rooflint::verify_report {

/// The versions of the report this reader knows.
inline constexpr int oldest_version = 1, version = 2;

/// One level's observed traffic (compared.levels, version 2).
struct level {
  model::memory_level level = model::memory_level::dram;
  double bytes = 0;          ///< read + written at this level
  double traffic_ratio = 0;  ///< over the compulsory bytes; 0: not known
};

/// What the case's measurement came to (compared).
struct comparison {
  double roofline_fraction = 0;  ///< t_min / t_measured; 0: not measured
  double t_measured_s = 0;
  std::vector<level> levels;     ///< the levels counted
};

/// The timed runs of the case (measured.timing): their spread is the noise a gate judges a change by.
struct timed_runs {
  bool available = false;
  int repetitions = 0;  ///< timed runs
  double median_s = 0, min_s = 0, max_s = 0;
};

/// What was measured (measured); the report has more, which this reader leaves alone.
struct measurement {
  timed_runs timing;
};

/// The case's reference implementation of the same work, measured in the same run.
struct reference_entry {
  std::string name;
  double roofline_fraction = 0;
};

struct case_entry {
  std::string name;    ///< "saxpy [N=67108864]": the kernel and its sizes, unique in a report
  std::string kernel;
  std::string sizes;
  std::string status;  ///< "passed", "failed", "skipped", "error" (could not be measured)
  comparison compared;
  measurement measured;
  std::optional<reference_entry> reference;
};

/// One case's verdict against a baseline report (rooflint-verify --baseline).
struct baseline_entry {
  std::string name;
  std::string verdict;  ///< "SAME", "BETTER", "WORSE", "UNDECIDED", "NEW", "MISSING"; empty in older reports
};

struct report {
  int version = 0;
  std::string device;     ///< the GPU the cases ran on ("NVIDIA H200"); empty when none was found
  int exit_code = 0;
  std::vector<std::string> warnings;
  std::vector<case_entry> cases;
  std::vector<baseline_entry> baseline;
};

/// @return Whether @p text is a JSON object whose schema is "rooflint-verify" (it may still be invalid).
bool is_verify_report(const std::string& text);

/// Reads a report; errors begin with @p source, what the text is to the user ("report 'r.json'", "the
/// baseline"), and name the field by its JSON pointer ("'/cases/3/status' must be a string, not an
/// integer"). Besides the types and ranges of the fields, it checks what a reader relies
/// on: case names unique, a timing's min, median and max in order.
std::optional<report> from_json(const std::string& text, const std::string& source, std::string& error);
/// Reads the report in the file @p path; errors begin with "report '<path>'".
std::optional<report> load(const std::string& path, std::string& error);

}  // namespace rooflint::verify_report
