#pragma once
// Per-line traffic (docs/verifier.md, "Per-line traffic"): what one process that ran nothing else with
// CUPTI observes over one launch under CUPTI's SASS metrics (cupti/sass_lines.h): a registered case's,
// in a process the harness forks, or a program's own, under the injection library's lines mode
// (inject/program_lines.h); the observation it sends its parent, and the parent's join with the
// analyzer's predicted accesses (line_traffic.h's join_lines).

#include <map>
#include <string>
#include <vector>

#include "cupti/sass_lines.h"
#include "rooflint/runtime/inject.h"
#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/result.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime {

/// What the per-line process observed, or why it could not.
struct line_observation {
  std::string not_available;  ///< why there are no figures; empty when observed
  bool line_info = true;      ///< the kernel's binary had line information
  std::vector<observed_line> observed;
  std::vector<instruction_traffic> unmapped;
  std::vector<std::string> metrics;  ///< the SASS metrics configured
  double window_s = 0;  ///< the collection window (enable, patched launch, flush, disable)
};

/// Sets case @p c up in this process and observes one launch of it under the SASS metrics. Call it in a
/// fresh process (CUDA and CUPTI untouched: the SASS metrics collect in the first window of a process,
/// and not after the range profiler). Never throws; every failure is a not_available reason.
line_observation observe_lines(const case_definition& c);

/// @return The observation of one window's collection @p got (or why there is none): its instructions
/// mapped to lines through the cubins of @p capture that its records name (their CRC). Never throws.
line_observation observation_of(const result<cupti::sass_collection>& got, const cupti::cubin_capture& capture);

/// @return @p o as one line of JSON (the child's line to its parent).
std::string line_observation_to_json(const line_observation& o);
/// @return The observation in @p text; invalid_argument when it is malformed.
result<line_observation> line_observation_from_json(const std::string& text);

/// @return The case's line_report: @p o joined with @p predicted (join_lines), or not collected with
/// @p o's reason; @p cost_s the per-line process's wall time, @p show_always for --lines=all.
line_report line_report_of(const line_observation& o, const std::vector<predicted_access>& predicted, double cost_s,
                           bool show_always);

/// Predicted accesses per spec kernel name, from the manifests of verify_options::manifests.
using predicted_by_kernel = std::map<std::string, std::vector<predicted_access>>;

/// @return The predicted accesses of @p kernels (the manifests' entries), by kernel name; a kernel named
/// twice keeps its first entry.
predicted_by_kernel predicted_accesses_by_kernel(const std::vector<inject::manifest_kernel>& kernels);

/// @return The predicted accesses of every kernel of the manifests at @p paths (a file, or a directory
/// searched recursively for *.rooflint.json). Errors (invalid_argument) name the file: an unreadable or
/// malformed manifest, a path that is neither.
result<predicted_by_kernel> read_predicted_accesses(const std::vector<std::string>& paths);

/// The reason given in place of the rows where no process of its own could be run for a case.
inline constexpr const char* lines_need_a_process =
    "per-line traffic needs a process of its own per kernel (CUPTI's SASS metrics collect once per process, "
    "and not after the range profiler)";

}  // namespace rooflint::runtime
