// rooflint-verify: the command line, the run over registered cases (each batch of cases in a child
// process forked before any CUDA call here, so that a faulting kernel ends only its child), the
// comparison and the reports.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "rooflint/diagnostics.h"
#include "rooflint/ceilings/ceilings_file.h"
#include "rooflint/model/describe.h"
#include "rooflint/model/peaks_table.h"
#include "rooflint/runtime/report.h"
#include "rooflint/runtime/verify.h"
#include "verify/measurement_json.h"
#include "verify/session.h"

namespace rooflint::runtime {

namespace {

void progress(const verify_options& o, const std::string& line) {
  if (o.progress) std::fprintf(stderr, "rooflint-verify: %s\n", line.c_str());
}

bool write_all(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
  return model::format_duration(std::chrono::duration<double>(d).count());
}

/// @return " (CUPTI passes: core 1, fp 1, tensor 2)", or empty when nothing was counted.
std::string passes_text(const measurement& m) {
  std::string s;
  for (const auto& [group, passes] : m.counters.passes) s += (s.empty() ? "" : ", ") + group + " " + std::to_string(passes);
  return s.empty() ? s : " (CUPTI passes: " + s + ")";
}

/// Runs @p cases in child processes (forked before any CUDA call here): one child measures cases in
/// order until one faults (its CUDA context may be dead), then a fresh child goes on with the next.
std::vector<measurement> run_isolated(const std::vector<const case_definition*>& cases, const verify_options& o) {
  const std::size_t n = cases.size();
  std::vector<measurement> results(n);
  std::vector<bool> done(n, false);
  std::size_t next = 0;
  while (next < n) {
    int fds[2];
    if (::pipe(fds) != 0) {
      for (std::size_t j = next; j < n; ++j)
        results[j] = {cases[j]->name, run_status::crashed, std::string("pipe() failed: ") + std::strerror(errno)};
      break;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
      for (std::size_t j = next; j < n; ++j)
        results[j] = {cases[j]->name, run_status::crashed, std::string("fork() failed: ") + std::strerror(errno)};
      ::close(fds[0]);
      ::close(fds[1]);
      break;
    }
    if (pid == 0) {  // child: CUDA is initialised here, never in the parent
      ::close(fds[0]);
      {
        verify_session session(o);
        for (std::size_t j = next; j < n; ++j) {
          if (!write_all(fds[1], "B " + std::to_string(j) + "\n")) break;
          const measurement m = session.measure(*cases[j]);
          if (!write_all(fds[1], "R " + std::to_string(j) + " " + measurement_to_json(m) + "\n")) break;
          if (m.status == run_status::faulted) break;  // the context may be dead: a fresh process goes on
        }
      }
      ::close(fds[1]);
      std::fflush(stderr);
      ::_exit(0);
    }
    ::close(fds[1]);
    std::string buffer;
    long current = -1;
    bool killed = false;
    auto started = std::chrono::steady_clock::now();
    for (;;) {
      pollfd p{fds[0], POLLIN, 0};
      const int ready = ::poll(&p, 1, o.timeout_s * 1000);
      if (ready == 0) {
        ::kill(pid, SIGKILL);
        killed = true;
        break;
      }
      if (ready < 0) {
        if (errno == EINTR) continue;
        break;
      }
      char chunk[65536];
      const ssize_t got = ::read(fds[0], chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      buffer.append(chunk, static_cast<std::size_t>(got));
      for (std::size_t eol; (eol = buffer.find('\n')) != std::string::npos;) {
        const std::string line = buffer.substr(0, eol);
        buffer.erase(0, eol + 1);
        if (line.rfind("B ", 0) == 0) {
          current = std::stol(line.substr(2));
          started = std::chrono::steady_clock::now();
          progress(o, "[" + std::to_string(current + 1) + "/" + std::to_string(n) + "] " + cases[current]->name + ": measuring");
        } else if (line.rfind("R ", 0) == 0) {
          const std::size_t space = line.find(' ', 2);
          const long j = std::stol(line.substr(2, space - 2));
          auto m = measurement_from_json(line.substr(space + 1));
          results[j] = m ? std::move(*m) : measurement{cases[j]->name, run_status::crashed, m.err().message};
          done[j] = true;
          progress(o, "[" + std::to_string(j + 1) + "/" + std::to_string(n) + "] " + cases[j]->name + ": " +
                          std::string(name(results[j].status)) + " in " + seconds_text(std::chrono::steady_clock::now() - started) +
                          passes_text(results[j]) + (results[j].error.empty() ? "" : ": " + results[j].error));
        }
      }
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (current >= 0 && !done[current]) {
      results[current] = {cases[current]->name, run_status::crashed,
                          killed ? "case '" + cases[current]->name + "' reported nothing for " + std::to_string(o.timeout_s) +
                                       " s and was killed (a hung kernel?)"
                                 : "the process measuring case '" + cases[current]->name + "' " + describe_exit(status)};
      done[current] = true;
      progress(o, "[" + std::to_string(current + 1) + "/" + std::to_string(n) + "] " + cases[current]->name + ": " + results[current].error);
    }
    const std::size_t before = next;
    while (next < n && done[next]) ++next;
    if (next == before) {  // the child died before starting a case: do not loop forever
      for (std::size_t j = next; j < n; ++j)
        results[j] = {cases[j]->name, run_status::crashed, "the measuring process " + describe_exit(status) + " before case '" + cases[j]->name + "'"};
      break;
    }
  }
  return results;
}

std::vector<measurement> run_in_process(const std::vector<const case_definition*>& cases, const verify_options& o) {
  std::vector<measurement> results;
  verify_session session(o);
  bool dead = false;
  for (std::size_t j = 0; j < cases.size(); ++j) {
    const std::string tag = "[" + std::to_string(j + 1) + "/" + std::to_string(cases.size()) + "] " + cases[j]->name;
    if (dead) {
      results.push_back({cases[j]->name, run_status::crashed, "not run: an earlier case faulted and the CUDA context is unusable (run without --no-isolation)"});
      continue;
    }
    progress(o, tag + ": measuring");
    const auto t0 = std::chrono::steady_clock::now();
    results.push_back(session.measure(*cases[j]));
    progress(o, tag + ": " + std::string(name(results.back().status)) + " in " + seconds_text(std::chrono::steady_clock::now() - t0) +
                    passes_text(results.back()) + (results.back().error.empty() ? "" : ": " + results.back().error));
    dead = results.back().status == run_status::faulted;
  }
  return results;
}

}  // namespace

namespace {

result<std::optional<ceilings::ceilings_file>> load_ceilings(const verify_options& o) {
  if (o.ceilings_path.empty()) return std::optional<ceilings::ceilings_file>{};
  std::string why;
  auto file = ceilings::load(o.ceilings_path, why);
  if (!file) return error{error_code::invalid_argument, "cannot use --ceilings '" + o.ceilings_path + "': " + why};
  return std::optional<ceilings::ceilings_file>(std::move(*file));
}

/// Compares every measurement with its case's spec and decides the exit code.
run_report make_report(const std::vector<const case_definition*>& cases, const std::vector<measurement>& measured,
                       const verify_options& o, const std::optional<ceilings::ceilings_file>& ceilings) {
  run_report run;
  if (ceilings) run.ceilings_clocks = ceilings->clocks;
  for (const auto& m : measured)
    if (!m.device.name.empty()) {
      run.device = m.device.name;
      break;
    }
  if (ceilings) {
    run.peaks = ceilings->peaks();
    run.peaks_device = ceilings->device.name;
    run.peaks_label = "measured (" + o.ceilings_path + ")";
    for (const auto& note : ceilings->notes) run.warnings.push_back(note);
    if (!run.device.empty() && ceilings->device.name != run.device)
      run.warnings.push_back("the ceilings file was measured on '" + ceilings->device.name + "', this is '" + run.device +
                             "'; the verdicts use another GPU's ceilings");
  } else if (auto p = model::find_peaks(run.device); p && !run.device.empty()) {
    run.peaks = *p;
    run.peaks_device = std::string(p->device);
    run.peaks_label = "datasheet (" + run.peaks_device + "): spec-sheet peaks, this classification may be wrong at your clocks";
    run.warnings.push_back("no --ceilings file: using datasheet peaks for '" + run.peaks_device +
                           "'; measure them with rooflint-ceilings for verdicts at your clocks");
  } else if (!run.device.empty()) {
    run.warnings.push_back("no peaks for '" + run.device + "' (not in the datasheet table) and no --ceilings file; "
                           "roofline verdicts are not possible: measure the ceilings with rooflint-ceilings");
    run.peaks_label = "none";
  } else {
    run.peaks_label = "none (no device)";
  }
  run.peaks.device = run.peaks_device;

  bool counted = false;
  std::string why_not_counted;
  for (std::size_t j = 0; j < cases.size(); ++j) {
    const case_definition& c = *cases[j];
    const auto bound = c.spec->bind(std::span<const dsl::size_binding>(c.sizes.data(), c.sizes.size()));
    const measurement& m = measured[j];
    case_report r = compare({c.name, c.spec, bound.bound}, m, run.peaks, tolerances_for(*c.spec, o.tolerance));
    r.file = c.file;
    r.line = c.line;
    if (m.status == run_status::measured) {
      if (std::string w = clock_warning(m.timing, m.counters, run.ceilings_clocks, r.bands.clock_mismatch); !w.empty())
        r.findings.push_back({severity::warning, std::string(diagnostics::clock_state.name), w});
      counted = counted || m.counters.available;
      if (!m.counters.available && why_not_counted.empty()) why_not_counted = m.counters.unavailable_reason;
    }
    run.cases.push_back(std::move(r));
  }
  const bool any_measured = std::any_of(measured.begin(), measured.end(),
                                        [](const measurement& m) { return m.status == run_status::measured; });
  run.counters_mode = counted ? "CUPTI range profiler (auto range, kernel replay)"
                      : !any_measured ? "none (nothing was measured)"
                                      : "timing only" + (why_not_counted.empty() ? std::string() : ": " + why_not_counted);
  if (run.device.empty()) {  // say why once, here; each case only says that it was not measured
    std::string why = "no usable CUDA device";
    for (const auto& m : measured)
      if (m.status == run_status::no_device && !m.error.empty()) { why = m.error; break; }
    run.warnings.push_back("nothing was measured (exit code 3): " + why);
  }
  if (!counted && !why_not_counted.empty()) run.warnings.push_back("traffic not measured: " + why_not_counted);

  bool failed = false, cannot_measure = false;
  for (const auto& r : run.cases) {
    failed = failed || r.status == case_status::failed;
    cannot_measure = cannot_measure || r.status == case_status::error || r.status == case_status::skipped;
  }
  // Counters were required (no --no-counters) but none could be read: the traffic check did not happen.
  if (o.counters && !counted) cannot_measure = true;
  run.exit_code = cannot_measure ? exit_cannot_measure : failed ? exit_failed : exit_passed;
  return run;
}

}  // namespace

result<run_report> verify(const verify_options& o) {
  std::regex filter;
  try {
    filter = std::regex(o.filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return error{error_code::invalid_argument, "invalid --filter regex '" + o.filter + "': " + e.what()};
  }
  std::vector<const case_definition*> cases;
  for (const auto& c : registered_cases())
    if (std::regex_search(c.name, filter)) cases.push_back(&c);
  if (cases.empty())
    return error{error_code::invalid_argument, registered_cases().empty()
                                                   ? std::string("no verification case is registered in this program")
                                                   : "no case matches --filter '" + o.filter + "'; see --list"};
  auto ceilings = load_ceilings(o);
  if (!ceilings) return ceilings.err();
  const std::vector<measurement> measured = o.isolate ? run_isolated(cases, o) : run_in_process(cases, o);
  return make_report(cases, measured, o, *ceilings);
}

result<run_report> verify_in_process(const std::string& case_name, const verify_options& o) {
  const case_definition* found = nullptr;
  for (const auto& c : registered_cases())
    if (c.name == case_name) found = &c;
  if (!found) return error{error_code::invalid_argument, "no verification case named '" + case_name + "' is registered"};
  auto ceilings = load_ceilings(o);
  if (!ceilings) return ceilings.err();
  const std::vector<const case_definition*> cases{found};
  return make_report(cases, run_in_process(cases, o), o, *ceilings);
}

namespace {

const char* const usage_text =
    R"(usage: %s [options]

Runs the registered verification cases on the GPU: counts each kernel's DRAM and L2 traffic and FP work
with CUPTI, times it with CUDA events (cold L2, median of many runs), and compares both with its spec.

options:
  --filter REGEX      run the cases whose name matches REGEX (ECMAScript, search; default: all)
  --list              list the registered cases and exit
  --ceilings FILE     measured peaks from rooflint-ceilings (default: datasheet peaks, labelled as such)
  --tolerance X       largest acceptable observed/compulsory bytes ratio where the spec sets none (default 1.10)
  --repetitions N     timed cold runs per case (default 30)
  --warmup N          unmeasured runs before counting and timing (default 3)
  --no-counters       timing only: do not use CUPTI
  --no-fp-counters    skip the SASS FP instruction counters (they can cost ~80x an FFMA-dense kernel's time)
  --no-isolation      run every case in this process (a faulting kernel then stops the run)
  --timeout S         a case that reports nothing for S seconds is killed (default 600)
  --json FILE         write the JSON report
  --junit FILE        write JUnit XML
  --svg FILE          write the SVG roofline chart
  --quiet             no progress lines on stderr
  --help              this text

exit codes: 0 every verdict passed; 1 a verdict failed; 2 bad usage; 3 could not measure (no GPU, no
counter permission while counters were required, a case faulted, crashed or hung)
)";

bool write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "rooflint-verify: error: cannot write the %s report to '%s'\n", what, path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int verify_main(int argc, char** argv) {
  verify_options o;
  std::string json_path, junit_path, svg_path;
  bool list = false;
  const char* program = argc > 0 ? argv[0] : "rooflint-verify";
  const auto usage_error = [&](const std::string& message) {
    std::fprintf(stderr, "rooflint-verify: error: %s; see '%s --help'\n", message.c_str(), program);
    return static_cast<int>(exit_usage);
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    const auto take = [&](std::string& out) {
      if (has_value) { out = value; return true; }
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    const auto take_number = [&](double& out, double lo) {
      std::string text;
      if (!take(text)) return false;
      char* end = nullptr;
      out = std::strtod(text.c_str(), &end);
      // Finite and at most a million: the counts and seconds become ints (--timeout in ms for poll()).
      return end && *end == '\0' && !text.empty() && out >= lo && out <= 1e6;
    };
    double number = 0;
    if (arg == "--help" || arg == "-h") {
      std::printf(usage_text, program);
      return exit_passed;
    } else if (arg == "--list") {
      list = true;
    } else if (arg == "--no-counters") {
      o.counters = false;
    } else if (arg == "--no-fp-counters") {
      o.fp_counters = false;
    } else if (arg == "--no-isolation") {
      o.isolate = false;
    } else if (arg == "--quiet") {
      o.progress = false;
    } else if (arg == "--filter") {
      if (!take(o.filter)) return usage_error("'--filter' needs a regex");
    } else if (arg == "--ceilings") {
      if (!take(o.ceilings_path)) return usage_error("'--ceilings' needs a file");
    } else if (arg == "--json") {
      if (!take(json_path)) return usage_error("'--json' needs a file");
    } else if (arg == "--junit") {
      if (!take(junit_path)) return usage_error("'--junit' needs a file");
    } else if (arg == "--svg") {
      if (!take(svg_path)) return usage_error("'--svg' needs a file");
    } else if (arg == "--tolerance") {
      if (!take_number(number, 1)) return usage_error("'--tolerance' needs a ratio of at least 1 (1.10 allows 10% extra bytes)");
      o.tolerance = number;
    } else if (arg == "--repetitions") {
      if (!take_number(number, 1)) return usage_error("'--repetitions' needs a positive count");
      o.repetitions = static_cast<int>(number);
    } else if (arg == "--warmup") {
      if (!take_number(number, 0)) return usage_error("'--warmup' needs a count");
      o.warmup = static_cast<int>(number);
    } else if (arg == "--timeout") {
      if (!take_number(number, 1)) return usage_error("'--timeout' needs seconds");
      o.timeout_s = static_cast<int>(number);
    } else {
      return usage_error("unknown option '" + arg + "'");
    }
  }

  if (list) {
    std::regex filter;
    try {
      filter = std::regex(o.filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return usage_error("invalid --filter regex '" + o.filter + "'");
    }
    for (const auto& c : registered_cases()) {
      if (!std::regex_search(c.name, filter)) continue;
      std::string sizes;
      for (const auto& b : c.sizes) sizes += (sizes.empty() ? "" : ", ") + std::string(b.dim.view()) + "=" + std::to_string(b.size);
      std::printf("%s  kernel '%s'  %s  %s:%d\n", c.name.c_str(), std::string(c.spec->kernel_name.view()).c_str(),
                  sizes.c_str(), c.file.c_str(), c.line);
    }
    return exit_passed;
  }

  auto run = verify(o);
  if (!run) {
    std::fprintf(stderr, "rooflint-verify: error: %s\n", run.err().message.c_str());
    return run.err().code == error_code::invalid_argument ? exit_usage : exit_cannot_measure;
  }
  std::fputs(to_table(*run).c_str(), stdout);
  std::fflush(stdout);
  bool written = true;
  if (!json_path.empty()) written = write_file(json_path, to_json(*run), "JSON") && written;
  if (!junit_path.empty()) written = write_file(junit_path, to_junit(*run), "JUnit") && written;
  if (!svg_path.empty()) written = write_file(svg_path, to_svg(*run), "SVG") && written;
  if (!written) return exit_usage;
  return run->exit_code;
}

}  // namespace rooflint::runtime
