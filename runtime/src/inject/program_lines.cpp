// Per-line traffic for rooflint-verify -- program: the cases chosen, one rerun of the program each, and
// its observation joined into the case's report (inject/program_lines.h).

#include "inject/program_lines.h"

#include <chrono>
#include <optional>
#include <sstream>

#include "rooflint/files/input_file.h"
#include "rooflint/model/describe.h"
#include "rooflint/process/child.h"

namespace rooflint::runtime::inject {

namespace {

/// The observation among @p written's lines (one per process of the program that observed): the first
/// with figures, else the first; nullopt when there is none.
result<std::optional<line_observation>> first_observation(const std::string& written) {
  std::optional<line_observation> first;
  std::istringstream in(written);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto o = line_observation_from_json(line);
    if (!o) return o.err();
    if (o->not_available.empty()) return std::optional<line_observation>(std::move(*o));
    if (!first) first = std::move(*o);
  }
  return first;
}

/// "ran past --timeout 60 s and was stopped", "exited with code 1 (...)": how a rerun that did not end
/// as the measured run did (its exit code @p measured_code) ended; empty when it did.
std::string unclean_end(const program_end& end, int timeout_s, int measured_code) {
  if (end.timed_out) return "ran past --timeout " + std::to_string(timeout_s) + " s and was stopped";
  if (end.interrupted_by)
    return "was interrupted: rooflint-verify received " + signal_name(end.interrupted_by) + " and passed it on";
  const int code = process::exit_code(end.status);
  if (code == measured_code) return {};
  const std::string text = process::describe_status(end.status);
  return text + (measured_code ? " where the measured run exited with code " + std::to_string(measured_code) : std::string()) +
         " (its output was discarded: run the program alone to see why)";
}

line_observation not_available(std::string why) {
  line_observation o;
  o.not_available = std::move(why);
  return o;
}

/// Runs the program once for @p launch (its output discarded) and reads what it wrote.
rerun_result rerun(const rerun_setup& setup, const case_launch& launch) {
  rerun_result r;
  temporary_file observation;
  if (!observation.why().empty()) {
    r.end = error{error_code::internal, observation.why()};
    return r;
  }
  program_launch l;
  l.path = setup.program;
  l.argv = setup.argv;
  l.environment = lines_environment(setup.library, setup.manifest_list, launch, observation.path());
  l.timeout_s = setup.timeout_s;
  l.discard_output = true;  // the program's output was shown once, by the measured run
  r.end = run_supervised(l);
  if (r.end) {
    // The program could have replaced the file (by a FIFO, by gigabytes): read only a regular file.
    if (const auto why = io::read_regular_file(observation.path(), r.written)) r.unreadable = *why;
  }
  return r;
}

void say(const rerun_setup& setup, const std::string& line) {
  if (setup.progress) setup.progress(line);
}

/// "in 2.31 s (the window 14.8 ms; 2 lines)" or "not available: ...": the end of a rerun's progress line.
std::string outcome_text(const line_observation& o, double cost_s) {
  if (!o.not_available.empty()) return "not available: " + o.not_available;
  return "in " + model::format_duration(cost_s) + " (the window " + model::format_duration(o.window_s) + "; " +
         std::to_string(o.observed.size()) + " lines)";
}

/// The run was interrupted by @p sig (@p when: "during the per-line rerun of x"): said as when the
/// measured run is, and no further rerun starts.
void mark_interrupted(program_report& report, int sig, const std::string& when) {
  report.interrupted_by = sig;
  report.run.warnings.push_back("interrupted: rooflint-verify received " + signal_name(sig) + " " + when +
                                "; no further per-line rerun was started");
}

/// A case whose lines are not collected, with @p why.
void set_not_available(case_report& r, const std::string& why, bool show_always) {
  r.lines = line_report{};
  r.lines.not_available = why;
  r.lines.show_always = show_always;
}

}  // namespace

std::vector<std::size_t> cases_for_lines(const program_report& report, lines_mode mode) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < report.run.cases.size(); ++i) {
    const case_report& r = report.run.cases[i];
    if (r.measured.status != run_status::measured) continue;  // nothing ran to look at per line
    if (mode == lines_mode::all || (mode == lines_mode::failing && r.status == case_status::failed)) out.push_back(i);
  }
  return out;
}

std::string why_no_rerun(const case_launch& launch) {
  if (launch.kernels == 1) return {};
  return "an instance of this region makes " + std::to_string(launch.kernels) +
         " kernel launches; the SASS metrics collect the first kernel of a window, one window per process";
}

std::vector<std::pair<std::string, std::string>> lines_environment(const std::string& library,
                                                                   const std::string& manifest_list,
                                                                   const case_launch& launch,
                                                                   const std::string& observation_path) {
  return {{"CUDA_INJECTION64_PATH", library},
          {env_manifests, manifest_list},
          {env_lines_kernel, launch.mangled_name},
          {env_lines_sizes, launch.sizes},
          {env_lines_out, observation_path}};
}

line_observation observation_of_rerun(const rerun_result& r, const std::string& kernel, const case_launch& launch,
                                      int timeout_s, int measured_code) {
  if (!r.end) return not_available("the rerun could not start: " + r.end.err().message);
  if (!r.unreadable.empty()) return not_available("the rerun's observation could not be read: " + r.unreadable);
  auto written = first_observation(r.written);
  if (!written) return not_available("the rerun's observation could not be read: " + written.err().message);
  // Figures count only from a rerun that ran as the measured run did, to the same end: a program that
  // failed or was stopped this time may not have run the case's launch as it did then.
  if (const std::string end = unclean_end(*r.end, timeout_s, measured_code); !end.empty())
    return not_available("the rerun " + end +
                         (*written && !(*written)->not_available.empty() ? "; " + (*written)->not_available : ""));
  if (!*written)
    return not_available("the rerun wrote no observation: it did not launch kernel '" + kernel + "' at " + launch.sizes +
                         " (a program whose launches differ from run to run), or the injection library was not loaded");
  return std::move(**written);
}

namespace {

/// The cases @p mode chooses that a rerun can observe (indices); the others say why not.
std::vector<std::size_t> plan_reruns(program_report& report, lines_mode mode) {
  std::vector<std::size_t> reruns;
  for (const std::size_t i : cases_for_lines(report, mode)) {
    case_report& r = report.run.cases[i];
    const auto launch = report.case_launches.find(r.name);
    const std::string why = launch == report.case_launches.end() ? std::string("no launch of this case was recorded")
                                                                 : why_no_rerun(launch->second);
    if (why.empty()) reruns.push_back(i);
    else set_not_available(r, why, mode == lines_mode::all);
  }
  return reruns;
}

/// Case @p r's rerun (@p which: "rerun 1 of 3") and its line_report; a signal passed on during it marks
/// the report interrupted.
void rerun_case(program_report& report, case_report& r, const std::string& which, const rerun_setup& setup,
                const predicted_by_kernel& predicted, bool show_always) {
  const case_launch& launch = report.case_launches.at(r.name);
  say(setup, "per-line traffic of " + r.name + " (" + which + ")...");
  const auto t0 = std::chrono::steady_clock::now();
  const rerun_result result = rerun(setup, launch);
  const double cost_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const line_observation o = observation_of_rerun(result, r.kernel, launch, setup.timeout_s, report.program_status);
  const auto accesses = predicted.find(r.kernel);
  r.lines = line_report_of(o, accesses == predicted.end() ? std::vector<predicted_access>{} : accesses->second, cost_s,
                           show_always);
  say(setup, "per-line traffic of " + r.name + ": " + outcome_text(o, cost_s));
  if (result.end && result.end->interrupted_by)
    mark_interrupted(report, result.end->interrupted_by, "during the per-line rerun of " + r.name + " and passed it on");
}

}  // namespace

void collect_program_lines(program_report& report, lines_mode mode, const rerun_setup& setup,
                           const predicted_by_kernel& predicted) {
  const bool show_always = mode == lines_mode::all;
  const std::vector<std::size_t> reruns = plan_reruns(report, mode);
  for (std::size_t n = 0; n < reruns.size(); ++n) {
    case_report& r = report.run.cases[reruns[n]];
    if (const int sig = report.interrupted_by ? 0 : take_pending_signal())  // one that came between reruns
      mark_interrupted(report, sig, "before the per-line rerun of " + r.name);
    if (report.interrupted_by)
      set_not_available(r, "rooflint-verify was interrupted (" + signal_name(report.interrupted_by) + ") before its rerun",
                        show_always);
    else
      rerun_case(report, r, "rerun " + std::to_string(n + 1) + " of " + std::to_string(reruns.size()), setup, predicted,
                 show_always);
  }
}

void hint_lines_of_failed_cases(run_report& run) {
  for (case_report& r : run.cases)
    if (r.status == case_status::failed && r.measured.status == run_status::measured)
      set_not_available(r, lines_off_in_program_mode, false);
}

}  // namespace rooflint::runtime::inject
