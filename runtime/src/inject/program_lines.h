#pragma once
// Per-line traffic for rooflint-verify -- program (docs/verifier.md, "Per-line traffic"). CUPTI's SASS
// metrics collect in the first window of a process only, and not after the range profiler, so the
// measured run cannot collect them: after it, the program runs once more per case, with the injection
// library in its lines mode (inject.h's env_lines_*; inject/library/line_observer.cpp), which observes
// the case's kernel at the case's sizes and appends its observation (measure/lines.h) to a file. The
// parent joins it with the case's predicted accesses (line_report_of), as the harness does.

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "inject/supervise.h"
#include "rooflint/runtime/inject.h"
#include "measure/lines.h"

namespace rooflint::runtime::inject {

/// @return The cases (indices into report.run.cases) whose lines @p mode collects: those whose verdict
/// failed (failing), every measured case (all), none (off).
std::vector<std::size_t> cases_for_lines(const program_report& report, lines_mode mode);

/// @return Why no rerun can observe the launches of @p launch, or empty: a region's instance is several
/// kernel launches, and the SASS metrics collect the first kernel of a window.
std::string why_no_rerun(const case_launch& launch);

/// @return The environment a rerun adds to rooflint-verify's own: the injection library @p library (in
/// lines mode: env_lines_kernel and env_lines_sizes name @p launch, env_lines_out @p observation_path)
/// and the manifests @p manifest_list (':'-separated), from which it binds a launch's sizes.
std::vector<std::pair<std::string, std::string>> lines_environment(const std::string& library,
                                                                   const std::string& manifest_list,
                                                                   const case_launch& launch,
                                                                   const std::string& observation_path);

/// How one rerun went.
struct rerun_result {
  result<program_end> end = program_end{};  ///< how the program ended; an error when it could not start
  std::string written;     ///< what it wrote to the observation file: one JSON line per observing process
  std::string unreadable;  ///< why that file could not be read, or empty
};

/// @return The observation of a rerun for the launches @p launch of kernel @p kernel: the written one
/// with figures (else the first written) when the program exited with the measured run's code
/// @p measured_code (a program that exits 1 by design gets its rows); otherwise, or when nothing was
/// written, not_available saying why (its exit, --timeout @p timeout_s, a passed-on signal).
line_observation observation_of_rerun(const rerun_result& r, const std::string& kernel, const case_launch& launch,
                                      int timeout_s, int measured_code);

/// What the reruns need: the program as the measured run ran it.
struct rerun_setup {
  std::string program;             ///< resolved path
  std::vector<std::string> argv;   ///< argv[0] first
  std::string library;             ///< the injection library
  std::string manifest_list;       ///< the manifests' paths, ':'-separated
  int timeout_s = 3600;            ///< --timeout: each rerun's
  std::function<void(const std::string&)> progress;  ///< a progress line (stderr), or none
};

/// Per-line traffic of the cases @p mode chooses (cases_for_lines): the program runs once more per case,
/// its own output discarded, and the case's line_report is the observation joined with @p predicted
/// (line_report_of; the rerun's wall time its cost); a case no rerun observes says why. Nothing here
/// changes a verdict or the exit code, except a signal passed on to a rerun: the report is then marked
/// interrupted (as when the measured run is) and no further rerun starts.
void collect_program_lines(program_report& report, lines_mode mode, const rerun_setup& setup,
                           const predicted_by_kernel& predicted);

/// What a failed case says with --lines=off, program mode's default: how to collect its lines.
inline constexpr const char* lines_off_in_program_mode =
    "collecting it runs the program again, which --lines=off (the default of rooflint-verify -- program) does not "
    "do; --lines=failing reruns the program once per failing kernel";

/// --lines=off: each failed case says lines_off_in_program_mode (printed under it).
void hint_lines_of_failed_cases(run_report& run);

}  // namespace rooflint::runtime::inject
