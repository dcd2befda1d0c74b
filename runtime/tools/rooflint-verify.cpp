// rooflint-verify [options] --manifest PATH... -- program [args...]
//
// Runs an unmodified program with the injection library (librooflint-inject.so, CUDA_INJECTION64_PATH)
// and verifies the launches of the kernels the manifests annotate against their specs, through the
// harness verifier's comparison and reports (rooflint/runtime/inject.h, docs/verifier.md).

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "inject/library_check.h"
#include "inject/program_lines.h"
#include "inject/supervise.h"
#include "rooflint/files/atomic_file.h"
#include "rooflint/files/ceilings_file.h"
#include "rooflint/files/input_file.h"
#include "rooflint/process/child.h"
#include "rooflint/runtime/device.h"
#include "rooflint/runtime/inject.h"
#include "rooflint/runtime/report.h"
#include "measure/lines.h"


namespace {

using namespace rooflint::runtime;
using namespace rooflint::runtime::inject;
namespace cli = rooflint::runtime::cli;

constexpr const char* description =
    "rooflint-verify [options] --manifest PATH... -- program [args...]\n"
    "\n"
    "Runs the program with rooflint's CUPTI injection library and verifies, against their specs, the\n"
    "launches of the kernels the manifests annotate: sizes bound from each launch's arguments and grid, the\n"
    "first launch of each distinct (kernel, sizes) measured cold (L2 flushed before it) by CUPTI's range\n"
    "profiler during the program's own launch (no launch is replayed), compared like the harness verifier.\n"
    "The program's output and exit status pass through; the report goes to stderr. Per-line traffic\n"
    "(--lines=failing|all) runs the program again, once per case, with its output discarded.";

constexpr const char* exit_codes_text = R"(The program runs in a process group of its own (so that a timeout or a signal reaches its children too;
like coreutils' timeout, it cannot read the terminal). SIGINT, SIGTERM and SIGHUP sent to rooflint-verify
are passed on to that group; the program is waited for (SIGKILL 10 s after the signal or the timeout's
SIGTERM), and the report is still written, marked interrupted.

exit codes: 0 every verdict passed; 1 a verdict failed (or a case WORSE than --baseline); 2 bad usage
(unknown option or bad value, an empty value, no or unreadable manifest, an unreadable or empty
--baseline, a program that does not exist, is not executable or cannot be executed (a missing
interpreter, a damaged file), an --inject-library that is not a CUDA injection library, a report that
cannot be written); 3 could not measure (no GPU, no counter permission, no annotated launch measured, sizes
that did not bind, a launch on a GPU that no --ceilings file applies to, an internal error); 4 the program
itself failed (non-zero exit, a signal, or it ran past --timeout; its status is in the report), which
takes precedence over 3, 1, 0 (without a GPU most CUDA programs exit non-zero: 4, said so); 128 + N: rooflint-verify was
interrupted by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP), which takes precedence over all others.
A per-line rerun (--lines) that ends otherwise than the measured run did (another exit code, a signal,
past --timeout) leaves its case's rows "not available" and the
exit code as it was)";

int usage_error(const std::string& message) {
  cli::print_error("rooflint-verify", message);
  std::cerr << "(see 'rooflint-verify --help')\n";
  return exit_usage;
}

/// @return The program's path: as given when it has a '/', else found on PATH; empty when not found.
std::string resolve_program(const std::string& name, std::string& why) {
  const auto executable = [&](const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;
    if (!S_ISREG(st.st_mode)) { why = "'" + path + "' is not a regular file"; return false; }
    if (::access(path.c_str(), X_OK) != 0) { why = "'" + path + "' is not executable"; return false; }
    return true;
  };
  if (name.find('/') != std::string::npos) {
    why = "'" + name + "' does not exist";
    return executable(name) ? name : std::string();
  }
  why = "'" + name + "' is not on PATH";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
  return {};
}

#ifndef ROOFLINT_INJECT_FROM_BINDIR
#define ROOFLINT_INJECT_FROM_BINDIR "../lib/rooflint"  // runtime/CMakeLists.txt sets it from the install layout
#endif

/// @return Where the injection library is looked for, in order: beside this executable (a build tree),
/// then where the install puts it, relative to this executable (so an installed prefix can move).
std::vector<std::string> library_candidates() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {"librooflint-inject.so"};
  self[n] = '\0';
  const std::filesystem::path dir = std::filesystem::path(self).parent_path();
  return {(dir / "librooflint-inject.so").string(),
          (dir / ROOFLINT_INJECT_FROM_BINDIR / "librooflint-inject.so").lexically_normal().string()};
}

/// @return The first of library_candidates() that exists, or empty.
std::string default_library() {
  for (const std::string& c : library_candidates())
    if (::access(c.c_str(), R_OK) == 0) return c;
  return {};
}

/// "killed by signal 15 (Terminated) after running past --timeout 5 s", "exited with code 0 after
/// rooflint-verify passed on SIGINT": how the program ended, and why.
std::string describe_end(const program_end& end, int timeout_s, int& code) {
  code = rooflint::process::exit_code(end.status);
  std::string text = rooflint::process::describe_status(end.status);
  std::string why;
  if (end.timed_out) why = "running past --timeout " + std::to_string(timeout_s) + " s";
  if (end.interrupted_by) why += (why.empty() ? "" : " and ") + std::string("rooflint-verify passed on ") + signal_name(end.interrupted_by);
  if (end.killed) why += "; SIGKILL " + std::to_string(grace_seconds) + " s later";
  return why.empty() ? text : text + " after " + why;
}

/// Writes a report whole or not at all (rooflint::io): an old report survives a full disk.
bool write_file(const std::string& path, const std::string& text, const char* what) {
  if (const auto failed = rooflint::io::write_file_atomically(path, text)) {
    std::fprintf(stderr, "rooflint-verify: error: the %s report: %s\n", what, failed->c_str());
    return false;
  }
  return true;
}

/// " in process 1234 (python3 train.py)": the process of an API count line, or empty.
std::string process_text(const api_counts& a) {
  if (!a.pid) return {};
  const std::string cmd = a.command.size() > 80 ? a.command.substr(0, 77) + "..." : a.command;
  return fmt::format(" in process {}{}", a.pid, cmd.empty() ? std::string() : " (" + cmd + ")");
}

/// "; 5 counter batches (2 after cuMemFreeAsync, 1 at exit, 2 full)": each batch's set-up is most of
/// the arm phase, and what closed them says what a program does that costs it.
std::string batches_text(const api_counts& a) {
  long total = 0;
  std::string why;
  for (const auto& [reason, n] : a.batches) {
    total += n;
    why += fmt::format("{}{} {}", why.empty() ? "" : ", ", n, reason);
  }
  return total ? fmt::format("; {} counter batch{} ({})", total, total == 1 ? "" : "es", why) : std::string();
}

/// "rooflint's own time: 12.4 ms per measured launch over 54 (arm 0.4, drain 2.0, counters 9.1, clock
/// 0.9 ms)": where the run's time beyond the program's own goes (docs/verifier.md, overhead).
std::string own_time_line(const api_counts& a) {
  double total = 0;
  std::string phases;
  const double per = 1e3 / static_cast<double>(a.measured);
  for (const auto& [phase, seconds] : a.rooflint_seconds) {
    total += seconds;
    phases += (phases.empty() ? "" : ", ") + phase + " " + fmt::format("{:.1f}", seconds * per);
  }
  return fmt::format("rooflint's own time: {:.1f} ms per measured launch over {} ({} ms){}{}", total * per, a.measured,
                     phases, batches_text(a), process_text(a));
}

/// @return The run's exit status: 128 + the signal when rooflint-verify was interrupted, else 4 when
/// the program failed (or ran past --timeout), else the verdicts'.
int exit_code_of(const program_report& p) {
  if (p.interrupted_by) return 128 + p.interrupted_by;
  return p.program_failed ? exit_program_failed : p.run.exit_code;
}

/// The JSON report: the harness's, plus the program, the kernels' launches, the APIs seen, the baseline.
std::string program_json(const program_report& p, const std::vector<baseline_case>& baseline) {
  nlohmann::json j = nlohmann::json::parse(to_json(p.run));
  j["program"] = {{"command", p.program}, {"status", p.program_status}, {"outcome", p.program_outcome}, {"failed", p.program_failed},
                  {"timed_out", p.timed_out},
                  {"interrupted_by", p.interrupted_by ? nlohmann::json(signal_name(p.interrupted_by)) : nlohmann::json()}};
  nlohmann::json kernels = nlohmann::json::array();
  for (const kernel_launches& k : p.kernels)
    kernels.push_back({{"kernel", k.kernel}, {"mangled_name", k.mangled_name}, {"region", k.region}, {"launches_seen", k.seen},
                       {"launches_measured", k.measured}, {"launches_unbound", k.unbound}});
  j["kernels"] = kernels;
  j["remarks"] = p.remarks;
  nlohmann::json apis = nlohmann::json::array();
  for (const api_counts& a : p.apis) {  // the library's own line, less its type
    nlohmann::json one = nlohmann::json::parse(to_json_line(a));
    one.erase("type");
    apis.push_back(std::move(one));
  }
  j["launch_apis"] = apis;
  if (!baseline.empty()) {
    nlohmann::json b = nlohmann::json::array();
    for (const baseline_case& c : baseline) {
      nlohmann::json levels = nlohmann::json::array();
      for (const baseline_level& l : c.levels)
        levels.push_back({{"level", std::string(rooflint::model::name(l.level))}, {"old_bytes", l.old_bytes}, {"new_bytes", l.new_bytes},
                          {"change", l.change}, {"band", l.band}});
      b.push_back({{"name", c.name}, {"verdict", std::string(name(c.outcome))}, {"levels", levels},
                   {"old_roofline_fraction", c.old_fraction}, {"new_roofline_fraction", c.new_fraction},
                   {"change", c.change}, {"noise_band", c.band},
                   {"outcome", c.outcome == baseline_case::verdict::regression    ? "regression"
                               : c.outcome == baseline_case::verdict::improvement ? "improvement"
                               : c.outcome == baseline_case::verdict::no_change   ? "no change"
                               : c.outcome == baseline_case::verdict::undecided   ? "undecided"
                               : c.outcome == baseline_case::verdict::new_case    ? "new"
                                                                                  : "missing"}});
    }
    j["baseline"] = b;
  }
  j["exit_code"] = exit_code_of(p);
  return j.dump(2) + "\n";
}

/// The command line, parsed: the options before "--", the program and its arguments after it.
struct tool_options {
  verify_options verify;
  std::vector<std::string> manifest_args;
  std::string json_path, junit_path, svg_path, sarif_path, baseline_path, library = default_library();
  std::vector<std::string> references;  ///< --reference KERNEL=REFERENCE
  int launches = 1;
  int timeout_s = 3600;        ///< the program's whole run, in seconds
  bool quiet = false;
  int first_program_arg = -1;  ///< argv index of the program
};

/// Parses the options before "--" into @p t. @return An exit status when the run ends here.
std::optional<int> parse_options(int argc, char** argv, tool_options& t) {
  int options_end = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      options_end = i;
      t.first_program_arg = i + 1;
      break;
    }
  CLI::App app(description, "rooflint-verify");
  cli::configure(app, exit_codes_text);
  const auto file = cli::non_empty("a file");
  app.add_option("--manifest", t.manifest_args,
                 "an analyzer manifest (rooflint_analyze() writes <target>.rooflint.json), or a build directory "
                 "searched for *.rooflint.json (repeatable)")->type_name("PATH")->check(file);
  app.add_option("--launches", t.launches, "launches measured per distinct (kernel, sizes) (default 1)")
      ->type_name("N")->check(cli::at_least(1, "a positive count"));
  app.add_option("--timeout", t.timeout_s,
                 "the program gets SIGTERM after S seconds (SIGKILL 10 s later) and the run fails (default 3600)")
      ->type_name("S")->check(cli::at_least(1, "seconds"));
  app.add_option("--ceilings", t.verify.ceilings_paths,
                 "measured peaks from rooflint-ceilings; repeat it with one file per GPU the program runs on (each launch "
                 "is judged against its own GPU's file; default: datasheet peaks, labelled as such)")->type_name("FILE")->check(file);
  app.add_option("--tolerance", t.verify.tolerance,
                 "largest acceptable observed/compulsory bytes ratio where the spec sets none (default 1.10)")
      ->type_name("X")->check(cli::at_least(1, "a ratio of at least 1 (1.10 allows 10% extra bytes)"));
  app.add_option("--baseline", t.baseline_path,
                 "a previous --json report: per case SAME, BETTER, WORSE or UNDECIDED (bytes per level and time judged "
                 "apart); WORSE fails")->type_name("FILE")->check(file);
  app.add_option("--reference", t.references,
                 "KERNEL=REFERENCE: set each case of KERNEL beside the case of REFERENCE (a kernel or region of the "
                 "manifests) at the same sizes, when it states the same work (repeatable)")
      ->type_name("KERNEL=REFERENCE")
      ->check(CLI::Validator(
          [](const std::string& v) {
            const auto eq = v.find('=');
            return eq == std::string::npos || eq == 0 || eq + 1 == v.size() ? std::string("expected KERNEL=REFERENCE") : std::string();
          },
          ""));
  app.add_option("--json", t.json_path, "write the JSON report")->type_name("FILE")->check(file);
  app.add_option("--junit", t.junit_path, "write JUnit XML")->type_name("FILE")->check(file);
  app.add_option("--svg", t.svg_path, "write the SVG roofline chart")->type_name("FILE")->check(file);
  app.add_option("--sarif", t.sarif_path, "write SARIF 2.1.0 for code scanning: the findings at each kernel's spec, the per-line traffic rows at their access")
      ->type_name("FILE")->check(file);
  app.add_option("--inject-library", t.library,
                 "the injection library (default: librooflint-inject.so beside this executable, else in "
                 ROOFLINT_INJECT_FROM_BINDIR " relative to it)")->type_name("F")->check(file);
  app.add_flag("--no-counters", [&](std::int64_t) { t.verify.counters = false; }, "timing only: no CUPTI counters");
  app.add_flag("--quiet", t.quiet, "no report table or per-line progress on stderr (the files are still written)");
  std::string lines = "off";
  app.add_option("--lines", lines,
                 "per-line traffic (CUPTI SASS metrics), collected by running the program again once per case after "
                 "the measured run, with the same arguments and --timeout and its output discarded: failing (once per "
                 "case whose verdict failed), all (once per measured case), or off (default: a rerun repeats the "
                 "program's side effects and time)")
      ->type_name("WHEN")->check(cli::one_of({"failing", "all", "off"}));
  if (const auto code = cli::parse(app, options_end, argv, exit_usage)) return *code;
  t.verify.lines = *parse_lines_mode(lines);
  if (t.first_program_arg < 0 || t.first_program_arg >= argc) return usage_error("no program: give it after '--'");
  if (t.manifest_args.empty()) return usage_error("no manifest: give --manifest FILE or --manifest BUILD_DIR");
  return std::nullopt;
}

/// What the run reads before the program starts: the annotated kernels of every manifest, the
/// ceilings, the baseline report.
struct run_inputs {
  std::vector<manifest_kernel> kernels;
  std::string manifest_list;  ///< the manifests' absolute paths, ':'-separated, for the library
  std::vector<rooflint::runtime::ceilings_source> ceilings;
  std::string baseline_text;
};

/// read_manifest, with what its checks missed (an exception) turned into the error it should have been.
rooflint::result<std::vector<manifest_kernel>> read_manifest_checked(const std::string& path) {
  try {
    return read_manifest(path);
  } catch (const std::exception& e) {
    return rooflint::error{rooflint::error_code::invalid_argument, "cannot read manifest '" + path + "': " + e.what()};
  }
}

/// Reads the manifests of @p t into @p in. @return An exit status when one cannot be read.
std::optional<int> read_manifests(const tool_options& t, run_inputs& in) {
  for (const std::string& m : t.manifest_args) {
    auto files = find_manifests(m);
    if (!files) return usage_error(files.err().message);
    for (const std::string& f : *files) {
      auto read = read_manifest_checked(f);
      if (!read) return usage_error(read.err().message);
      for (auto& k : *read) {
        if (!k.unverifiable.empty()) {
          std::cerr << "rooflint-verify: note: " << k.unverifiable << "\n";
          continue;
        }
        if (k.spec.launch.kind != rooflint::dsl::binding_kind::none) in.kernels.push_back(std::move(k));
      }
      in.manifest_list += (in.manifest_list.empty() ? "" : ":") + std::filesystem::absolute(f).string();
    }
  }
  return std::nullopt;
}

/// Reads the run's inputs into @p in. @return An exit status when one cannot be read.
std::optional<int> read_inputs(const tool_options& t, run_inputs& in) {
  if (const auto code = read_manifests(t, in)) return code;
  auto ceilings = rooflint::runtime::load_ceilings(t.verify.ceilings_paths);
  if (!ceilings) return usage_error(ceilings.err().message);
  in.ceilings = std::move(*ceilings);
  if (!t.baseline_path.empty()) {
    // Refused here, before the program runs: an empty or unreadable baseline would turn the gate off.
    if (const auto why = rooflint::io::read_regular_file(t.baseline_path, in.baseline_text)) return usage_error("--baseline: " + *why);
    if (auto b = read_baseline(in.baseline_text); !b) return usage_error("--baseline '" + t.baseline_path + "': " + b.err().message);
  }
  return std::nullopt;
}

/// What the injection library wrote, one JSON line each: the measured launches, the API counts of each
/// process, and the lines that could not be read; and how the program ended.
struct library_output {
  std::vector<launch_event> events;
  std::vector<api_counts> apis;
  std::vector<std::string> bad_lines;
  program_end end;
};

/// Reads the injection library's lines from @p path into @p out. The program could have replaced the
/// file (by a FIFO, by gigabytes): it is read only when it is a regular file of a sane size.
void read_library_output(const std::string& path, library_output& out) {
  std::string text;
  if (const auto why = rooflint::io::read_regular_file(path, text)) {
    out.bad_lines.push_back(*why);
    return;
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find("\"type\":\"apis\"") != std::string::npos) {
      if (auto c = api_counts_from_json(line)) out.apis.push_back(std::move(*c));
      else out.bad_lines.push_back(c.err().message);
      continue;
    }
    auto e = launch_event_from_json(line);
    if (e) out.events.push_back(std::move(*e));
    else out.bad_lines.push_back(e.err().message);
  }
}

/// Runs the program (argv from t.first_program_arg) with the injection library and waits for it
/// (supervise.h: its own process group, --timeout, the signals passed on).
/// @return An exit status when it could not be started.
std::optional<int> run_program(char** argv, const tool_options& t, const std::string& program,
                               const std::string& manifest_list, library_output& out) {
  block_forwarded_signals();  // from here a signal is passed on to the program, never the end of this process
  temporary_file output;  // the file the injection library appends its lines to
  if (!output.why().empty()) {
    cli::print_error("rooflint-verify", output.why());
    return exit_cannot_measure;
  }
  program_launch launch;
  launch.path = program;
  for (char** a = argv + t.first_program_arg; *a; ++a) launch.argv.emplace_back(*a);
  launch.environment = {{"CUDA_INJECTION64_PATH", t.library}, {env_manifests, manifest_list}, {env_output, output.path()},
                        {env_launches, std::to_string(t.launches)}};
  if (!t.verify.counters) launch.environment.emplace_back(env_counters, "0");
  launch.timeout_s = t.timeout_s;
  std::fflush(stdout);
  std::fflush(stderr);
  auto end = run_supervised(launch);
  if (!end) {
    cli::print_error("rooflint-verify", end.err().message);
    return end.err().code == rooflint::error_code::invalid_argument ? exit_usage : exit_cannot_measure;
  }
  out.end = *end;
  if (!out.end.interrupted_by) out.end.interrupted_by = take_pending_signal();  // one that came as it ended
  read_library_output(output.path(), out);
  return std::nullopt;
}

/// The report of the run: the harness's comparison of the measured launches, the program's outcome,
/// and the warnings of what was not measured (nothing, or kernels inside CUDA graphs).
program_report make_report(const run_inputs& in, library_output& out, const tool_options& t, const std::string& command) {
  program_report report = make_program_report(in.kernels, out.events, t.verify, in.ceilings);
  report.program = command;
  report.apis = std::move(out.apis);
  report.program_outcome = describe_end(out.end, t.timeout_s, report.program_status);
  report.program_failed = report.program_status != 0 || out.end.timed_out;
  report.timed_out = out.end.timed_out;
  report.interrupted_by = out.end.interrupted_by;
  if (out.end.interrupted_by)
    report.run.warnings.push_back("interrupted: rooflint-verify received " + signal_name(out.end.interrupted_by) +
                                  " and passed it on to the program; this report covers what ran until then");
  for (const std::string& b : out.bad_lines) report.run.warnings.push_back("the injection library wrote a line that could not be read: " + b);
  if (report.run.cases.empty()) {
    std::erase_if(report.run.warnings, [](const std::string& w) { return w.rfind("nothing was measured", 0) == 0; });
    // The library never reported: the driver never loaded it. Without a device that is why (asked here,
    // after the program ended, so that this process never holds CUDA while the program runs).
    std::string why = "no launch of an annotated kernel was measured";
    if (report.apis.empty()) {
      const auto devices = device_count();
      why = devices ? "the injection library did not report (did the program use CUDA?)" : devices.err().message;
      report.no_device = !devices;
    }
    // Exit code 3 only where it is the run's: a failed program's 4 and a signal's 128 + N take precedence.
    const bool exits_three = !report.program_failed && !report.interrupted_by;
    report.run.warnings.push_back(std::string("nothing was measured") + (exits_three ? " (exit code 3)" : "") + ": " + why);
  }
  if (!report.apis.empty()) {
    long graphs = 0;
    for (const api_counts& a : report.apis)
      for (const auto& [name, n] : a.driver)
        if (name.rfind("cuGraphLaunch", 0) == 0) graphs += n;
    if (graphs > 0)
      report.run.warnings.push_back(std::to_string(graphs) + " CUDA graph launches: kernels inside graphs are not measured "
                                    "(CUPTI 13.0's auto range records only a graph's first kernel node)");
  }
  return report;
}

/// Per-line traffic (--lines): the program run again once per chosen case (program_lines.h), the
/// cases' rows joined with the manifests' predicted accesses; with --lines=off a failed case says how.
void collect_lines(program_report& report, char** argv, const tool_options& t, const std::string& program,
                   const run_inputs& in) {
  if (t.verify.lines == lines_mode::off) {
    hint_lines_of_failed_cases(report.run);
    return;
  }
  rerun_setup setup;
  setup.program = program;
  for (char** a = argv + t.first_program_arg; *a; ++a) setup.argv.emplace_back(*a);
  setup.library = t.library;
  setup.manifest_list = in.manifest_list;
  setup.timeout_s = t.timeout_s;
  if (!t.quiet) setup.progress = [](const std::string& line) { std::fprintf(stderr, "rooflint-verify: %s\n", line.c_str()); };
  collect_program_lines(report, t.verify.lines, setup, predicted_accesses_by_kernel(in.kernels));
}

/// Compares the run with the --baseline report: a regression fails its case (and the run).
/// @return An exit status when the baseline cannot be read.
std::optional<int> apply_baseline(program_report& report, const tool_options& t, const std::string& baseline_text,
                                  std::vector<baseline_case>& baseline) {
  if (t.baseline_path.empty()) return std::nullopt;
  auto b = compare_baseline(report.run, baseline_text);
  if (!b) return usage_error("--baseline '" + t.baseline_path + "': " + b.err().message);
  baseline = std::move(*b);
  apply_baseline(report.run, baseline);
  return std::nullopt;
}

/// The report table, the launches of each kernel, rooflint's own time and the program's outcome, on stderr.
void print_summary(const program_report& report) {
  std::fputs(to_table(report.run).c_str(), stderr);
  for (const kernel_launches& k : report.kernels)
    std::fprintf(stderr, k.region ? "region %-28s instances seen %ld, measured %ld%s\n" : "kernel %-28s launches seen %ld, measured %ld%s\n",
                 k.kernel.c_str(), k.seen, k.measured,
                 k.unbound ? (", sizes did not bind " + std::to_string(k.unbound)).c_str() : "");
  for (const api_counts& a : report.apis)
    if (a.measured > 0) std::fprintf(stderr, "%s\n", own_time_line(a).c_str());
    else if (report.apis.size() > 1) std::fprintf(stderr, "no annotated launch measured%s\n", process_text(a).c_str());
  for (const std::string& r : report.remarks) std::fprintf(stderr, "remark: %s\n", r.c_str());
  std::fprintf(stderr, "program '%s' %s%s\n", report.program.c_str(), report.program_outcome.c_str(),
               !report.program_failed || report.interrupted_by ? ""
               : report.no_device ? " (exit code 4: the program failed; no usable CUDA device was found, which may be why)"
                                  : " (exit code 4: the program failed)");
}

/// Writes the reports asked for. @return The exit status of the run.
int write_reports(const program_report& report, const tool_options& t, const std::vector<baseline_case>& baseline) {
  bool written = true;
  if (!t.json_path.empty()) written = write_file(t.json_path, program_json(report, baseline), "JSON") && written;
  if (!t.junit_path.empty()) written = write_file(t.junit_path, to_junit(report.run), "JUnit") && written;
  if (!t.svg_path.empty()) written = write_file(t.svg_path, to_svg(report.run), "SVG") && written;
  if (!t.sarif_path.empty()) written = write_file(t.sarif_path, to_sarif(report.run, report.run.tool), "SARIF") && written;
  // An interrupted run and a failed program outrank a report not written: they say more of the run.
  if (!written && !report.interrupted_by && !report.program_failed) return exit_usage;
  return exit_code_of(report);
}

/// Checks what is needed before the program runs. @return An exit status when the run ends here.
std::optional<int> check_before_run(const tool_options& t, const char* program_name, std::string& program) {
  // Before the program runs, not after: a report that cannot be written would lose the whole run.
  for (const std::string* path : {&t.json_path, &t.junit_path, &t.svg_path, &t.sarif_path})
    if (!path->empty())
      if (const auto unwritable = rooflint::io::check_writable(*path)) return usage_error(*unwritable);
  std::string why;
  program = resolve_program(program_name, why);
  if (program.empty()) return usage_error("cannot run the program: " + why);
  if (t.library.empty()) {
    std::string looked;
    for (const std::string& c : library_candidates()) looked += (looked.empty() ? "'" : "' and '") + c;
    return usage_error("the injection library librooflint-inject.so was not found (looked for " + looked +
                       "'); install rooflint's tools component, which puts it there, or pass --inject-library FILE");
  }
  // The driver ignores a library it cannot load, silently: the run would measure nothing.
  if (const auto problem = injection_library_problem(t.library))
    return usage_error("injection library: " + *problem + "; install rooflint's tools component, or pass --inject-library FILE");
  return std::nullopt;
}

int verify_program(int argc, char** argv) {
  tool_options t;
  if (const auto code = parse_options(argc, argv, t)) return *code;
  std::string program;
  if (const auto code = check_before_run(t, argv[t.first_program_arg], program)) return *code;
  run_inputs in;
  if (const auto code = read_inputs(t, in)) return *code;
  std::string command;
  for (int i = t.first_program_arg; i < argc; ++i) command += (command.empty() ? "" : " ") + std::string(argv[i]);
  library_output out;
  if (const auto code = run_program(argv, t, program, in.manifest_list, out)) return *code;
  program_report report = make_report(in, out, t, command);
  std::vector<reference_pair> pairs;
  for (const std::string& r : t.references) pairs.push_back({r.substr(0, r.find('=')), r.substr(r.find('=') + 1)});
  pair_references(report.run, pairs);
  std::vector<baseline_case> baseline;
  if (const auto code = apply_baseline(report, t, in.baseline_text, baseline)) return *code;
  collect_lines(report, argv, t, program, in);  // after the gate: a case WORSE than the baseline has failed
  if (!t.quiet) print_summary(report);
  return write_reports(report, t, baseline);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return verify_program(argc, argv);
  } catch (const std::exception& e) {  // a failure no check foresaw: said, with the documented status
    cli::print_error("rooflint-verify", std::string("internal error: ") + e.what());
    return exit_cannot_measure;
  }
}
