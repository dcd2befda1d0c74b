// rooflint-verify: the command line, the run over registered cases (each batch of cases in a child
// process forked before any CUDA call here, so that a faulting kernel ends only its child), the
// comparison and the reports.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <range/v3/view/transform.hpp>

#include "rooflint/files/diagnostics.h"
#include "rooflint/files/ceilings_file.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/model/describe.h"
#include "rooflint/model/peaks_table.h"
#include "rooflint/runtime/ceilings_check.h"
#include "rooflint/runtime/report.h"
#include "cli.h"
#include "rooflint/files/atomic_file.h"
#include "rooflint/files/input_file.h"
#include "rooflint/process/child.h"
#include "rooflint/runtime/inject.h"
#include "rooflint/runtime/verify.h"
#include "measure/lines.h"
#include "report/measurement_json.h"
#include "measure/session.h"

namespace rooflint::runtime {

namespace {

void progress(const verify_options& o, const std::string& line) {
  if (o.progress) fmt::print(stderr, "{}: {}\n", o.tool, line);
}

/// Runs a forked child's @p body: an exception it throws is said on stderr, as the parent's own handler
/// would, and ends the child with exit_cannot_measure (it must not unwind into the parent's code).
int in_child(const verify_options& o, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    cli::print_error(o.tool, std::string("internal error: ") + e.what());
    return exit_cannot_measure;
  }
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

std::string seconds_text(std::chrono::steady_clock::duration d) {
  return model::format_duration(std::chrono::duration<double>(d).count());
}

/// @return " (CUPTI passes: core 1, fp 1, tensor 2)", or empty when nothing was counted.
std::string passes_text(const measurement& m) {
  if (m.counters.passes.empty()) return "";
  const auto text = [](const auto& group_passes) { return group_passes.first + " " + std::to_string(group_passes.second); };
  return fmt::format(" (CUPTI passes: {})", fmt::join(m.counters.passes | ranges::views::transform(text), ", "));
}

/// Without a device, every case after @p j is skipped for the same reason as case @p j, without trying it
/// (each would only find no device again). @return How many cases were skipped.
std::size_t skip_without_device(const std::vector<const case_definition*>& cases, std::vector<measurement>& results,
                                std::vector<bool>& done, std::size_t j) {
  std::size_t skipped = 0;
  for (std::size_t k = j + 1; k < cases.size(); ++k)
    if (!done[k]) {
      results[k] = {cases[k]->name, run_status::no_device, results[j].error};
      done[k] = true;
      ++skipped;
    }
  return skipped;
}

/// How a child process ended: its wait status, and whether it was killed for writing nothing.
struct child_end {
  int status = 0;
  bool killed = false;
};

/// Reads @p child's output until it closes it, handing each whole line to @p on_line; a child that
/// writes nothing for @p timeout_s seconds is killed. Reaps the child. The one supervision loop of the
/// case processes and the per-line processes.
child_end drain_child(process::child& child, int timeout_s, const std::function<void(const std::string&)>& on_line) {
  child_end end;
  std::string buffer;
  for (;;) {
    const auto got = child.read_some(buffer, process::clock::now() + std::chrono::seconds(timeout_s));
    if (got == process::read_status::timed_out) {
      child.kill();
      end.killed = true;
      break;
    }
    if (got == process::read_status::closed) break;
    for (std::size_t eol; (eol = buffer.find('\n')) != std::string::npos;) {
      const std::string line = buffer.substr(0, eol);
      buffer.erase(0, eol + 1);
      on_line(line);
    }
  }
  child.close_output();
  end.status = child.wait();
  return end;
}

/// "pipe() failed: ...", "fork() failed: ...": why no child process could be forked.
std::string fork_failure(const process::start_failure& f) {
  return std::string(f.at == process::start_failure::step::pipe ? "pipe() failed: " : "fork() failed: ") + std::strerror(f.error);
}

/// Runs @p cases in child processes (forked before any CUDA call here): one child measures cases in
/// order until one faults (its CUDA context may be dead), then a fresh child goes on with the next.
std::vector<measurement> run_isolated(const std::vector<const case_definition*>& cases, const verify_options& o) {
  const std::size_t n = cases.size();
  std::vector<measurement> results(n);
  std::vector<bool> done(n, false);
  std::size_t next = 0;
  while (next < n) {
    auto child = process::child::fork([&](int out) {  // the child: CUDA is initialised here, never in the parent
      return in_child(o, [&] {
        verify_session session(o);
        for (std::size_t j = next; j < n; ++j) {
          if (!write_all(out, "B " + std::to_string(j) + "\n")) break;
          const measurement m = session.measure(*cases[j]);
          if (!write_all(out, "R " + std::to_string(j) + " " + measurement_to_json(m) + "\n")) break;
          if (m.status == run_status::faulted) break;  // the context may be dead: a fresh process goes on
          if (m.status == run_status::no_device) break;  // no device now, none for the next case either
        }
        return 0;
      });
    });
    if (!child) {
      for (std::size_t j = next; j < n; ++j) results[j] = {cases[j]->name, run_status::crashed, fork_failure(child.failure())};
      break;
    }
    long current = -1;
    auto started = std::chrono::steady_clock::now();
    const child_end end = drain_child(*child, o.timeout_s, [&](const std::string& line) {
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
        const std::size_t skipped = results[j].status == run_status::no_device ? skip_without_device(cases, results, done, j) : 0;
        progress(o, "[" + std::to_string(j + 1) + "/" + std::to_string(n) + "] " + cases[j]->name + ": " +
                        std::string(name(results[j].status)) + " in " + seconds_text(std::chrono::steady_clock::now() - started) +
                        passes_text(results[j]) + (results[j].error.empty() ? "" : ": " + results[j].error) +
                        (skipped ? "; the " + std::to_string(skipped) + " other cases are not run" : ""));
      }
    });
    if (current >= 0 && !done[current]) {
      results[current] = {cases[current]->name, run_status::crashed,
                          end.killed ? "case '" + cases[current]->name + "' reported nothing for " + std::to_string(o.timeout_s) +
                                           " s and was killed (a hung kernel?)"
                                     : "the process measuring case '" + cases[current]->name + "' " + process::describe_status(end.status)};
      done[current] = true;
      progress(o, "[" + std::to_string(current + 1) + "/" + std::to_string(n) + "] " + cases[current]->name + ": " + results[current].error);
    }
    const std::size_t before = next;
    while (next < n && done[next]) ++next;
    if (next == before) {  // the child died before starting a case: do not loop forever
      for (std::size_t j = next; j < n; ++j)
        results[j] = {cases[j]->name, run_status::crashed,
                      "the measuring process " + process::describe_status(end.status) + " before case '" + cases[j]->name + "'"};
      break;
    }
  }
  return results;
}

/// The per-line pass (--lines): for each measured case, one more child process (forked before any CUDA
/// call in it) that sets the case up and observes one launch under CUPTI's SASS metrics, after every
/// case's counters and timing. The child sends one "L <json>" line; its wall time is the pass's cost.
/// Nothing here fails a case: every failure is the case's not_available reason.
std::vector<line_report> run_lines_isolated(const std::vector<const case_definition*>& cases,
                                            const std::vector<measurement>& measured, const std::vector<bool>& wanted,
                                            const verify_options& o, const predicted_by_kernel& predicted) {
  const std::size_t n = cases.size();
  std::vector<line_report> reports(n);
  const bool show_always = o.lines == lines_mode::all;
  for (std::size_t j = 0; j < n; ++j) {
    if (measured[j].status != run_status::measured || !wanted[j]) continue;  // nothing to look at per line
    const std::string tag = "[" + std::to_string(j + 1) + "/" + std::to_string(n) + "] " + cases[j]->name;
    const auto kernel = predicted.find(std::string(cases[j]->spec->kernel_name.view()));
    const std::vector<predicted_access> none;
    const std::vector<predicted_access>& accesses = kernel == predicted.end() ? none : kernel->second;
    line_observation observation;
    const auto t0 = std::chrono::steady_clock::now();
    auto child = process::child::fork([&](int out) {  // the child: CUDA and CUPTI are initialised here, for this one case
      return in_child(o, [&] {
        write_all(out, "L " + line_observation_to_json(observe_lines(*cases[j])) + "\n");
        return 0;
      });
    });
    if (!child) {
      observation.not_available = fork_failure(child.failure());
    } else {
      std::string first;  // the child's one line
      bool any = false;
      const child_end end = drain_child(*child, o.timeout_s, [&](const std::string& line) {
        if (!any) first = line;
        any = true;
      });
      if (any && first.rfind("L ", 0) == 0) {
        auto got = line_observation_from_json(first.substr(2));
        if (got) observation = std::move(*got);
        else observation.not_available = got.err().message;
      } else {
        observation.not_available = end.killed ? "the per-line process reported nothing for " + std::to_string(o.timeout_s) + " s and was killed"
                                               : "the per-line process " + process::describe_status(end.status) + " before reporting";
      }
    }
    const double cost_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    reports[j] = line_report_of(observation, accesses, cost_s, show_always);
    progress(o, tag + ": per-line traffic " +
                    (observation.not_available.empty()
                         ? "in " + model::format_duration(cost_s) + " (the window " + model::format_duration(observation.window_s) +
                               "; " + std::to_string(observation.observed.size()) + " lines)"
                         : "not available: " + observation.not_available));
  }
  return reports;
}

/// The analyzer's predicted traffic of each case's kernel, as rooflint-verify -- program shows it: the
/// lines per tensor, and the kernel's ratio per level at the case's sizes (kernel_predicted_ratios).
void attach_predictions(run_report& run, const std::vector<const case_definition*>& cases,
                        const std::vector<inject::manifest_kernel>& analyzed) {
  for (std::size_t j = 0; j < cases.size() && j < run.cases.size(); ++j) {
    const std::string_view kernel = cases[j]->spec->kernel_name.view();
    const auto k = std::find_if(analyzed.begin(), analyzed.end(), [&](const inject::manifest_kernel& m) {
      return m.kernel_name == kernel && m.traffic_predicted;
    });
    if (k == analyzed.end()) continue;
    case_report& r = run.cases[j];
    r.predicted_traffic = inject::predicted_traffic_lines(k->predicted);
    // The case's sizes bound by name into the manifest's own spec (its dimensions' order), and only when
    // they bind there: a manifest of another spec of the same kernel name gets no ratio.
    const auto& sizes = cases[j]->sizes;
    const dsl::binding_result bound = k->spec.bind(std::span<const dsl::size_binding>(sizes.data(), sizes.size()));
    if (bound.ok()) r.predicted_ratio = inject::kernel_predicted_ratios(*k, bound.bound);
  }
}

std::vector<measurement> run_in_process(const std::vector<const case_definition*>& cases, const verify_options& o) {
  std::vector<measurement> results(cases.size());
  std::vector<bool> done(cases.size(), false);
  verify_session session(o);
  bool dead = false;
  for (std::size_t j = 0; j < cases.size(); ++j) {
    if (done[j]) continue;  // skipped: no device
    const std::string tag = "[" + std::to_string(j + 1) + "/" + std::to_string(cases.size()) + "] " + cases[j]->name;
    done[j] = true;
    if (dead) {
      results[j] = {cases[j]->name, run_status::crashed, "not run: an earlier case faulted and the CUDA context is unusable (run without --no-isolation)"};
      continue;
    }
    progress(o, tag + ": measuring");
    const auto t0 = std::chrono::steady_clock::now();
    results[j] = session.measure(*cases[j]);
    const std::size_t skipped = results[j].status == run_status::no_device ? skip_without_device(cases, results, done, j) : 0;
    progress(o, tag + ": " + std::string(name(results[j].status)) + " in " + seconds_text(std::chrono::steady_clock::now() - t0) +
                    passes_text(results[j]) + (results[j].error.empty() ? "" : ": " + results[j].error) +
                    (skipped ? "; the " + std::to_string(skipped) + " other cases are not run" : ""));
    dead = results[j].status == run_status::faulted;
  }
  return results;
}

}  // namespace

namespace {

/// Compares every measurement with its case's spec and decides the exit code.
run_report make_report(const std::vector<const case_definition*>& cases, const std::vector<measurement>& measured,
                       const verify_options& o, const std::vector<ceilings_source>& ceilings) {
  std::vector<case_source> sources;
  for (const case_definition* c : cases) {
    const auto bound = c->spec->bind(std::span<const dsl::size_binding>(c->sizes.data(), c->sizes.size()));
    sources.push_back({{c->name, c->spec, bound.bound}, c->file, c->line});
  }
  return compare_cases(sources, measured, o, ceilings);
}

/// A case measured while counters were required whose counters could not be read (another profiler on
/// the GPU, another process's turn that outlasted the wait, a batch that was lost): its timing verdicts
/// stand, but it has no traffic verdict, so it never passes: it could not be measured.
void require_counters(case_report& r, const counter_values& k) {
  const std::string why = k.unavailable_reason.empty() ? std::string("counters unavailable") : k.unavailable_reason;
  std::erase_if(r.findings, [](const finding& f) { return f.id == diagnostics::timing_only.name; });
  r.findings.insert(r.findings.begin(), {severity::error, std::string(diagnostics::not_measured.name),
                                         "traffic not counted, so no traffic verdict (counters were required): " + why});
  if (r.status == case_status::passed) r.status = case_status::error;
}

/// The peaks one GPU's cases are judged against, and where they come from.
struct gpu_peaks {
  device_snapshot device;
  model::peaks peaks;  ///< none where refused or unknown
  std::string peaks_device, label;
  std::optional<ceilings::clock_state> clocks;
  std::string refused;  ///< why no --ceilings file applies to it, when files were given
};

const gpu_peaks* gpu_of(const std::vector<gpu_peaks>& gpus, const device_snapshot& d) {
  for (const gpu_peaks& g : gpus)
    if (g.device.name == d.name && g.device.uuid == d.uuid) return &g;
  return nullptr;
}

/// Adds @p w to @p warnings unless it is there (two cards of one model give the same caveat).
void add_once(std::vector<std::string>& warnings, const std::string& w) {
  if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
}

/// The peaks of GPU @p d: the --ceilings file that applies to it; with files given and none that
/// applies, none (its cases get no verdict, never another card's); without files, its datasheet entry.
/// The files' notes and the datasheet's caveat go to @p warnings.
gpu_peaks peaks_of(const device_snapshot& d, const std::vector<ceilings_source>& ceilings, std::vector<std::string>& warnings) {
  gpu_peaks g{.device = d};
  if (!ceilings.empty()) {
    const auto file = ceilings_for(ceilings, device_identity{d.name, d.uuid, d.driver_version});
    if (!file) {
      g.refused = file.err().message;
      g.label = "none: no --ceilings file applies to this GPU";
      return g;
    }
    const ceilings_source& f = **file;
    g.peaks = f.file.gpu().peaks;
    g.peaks_device = f.file.device.name;
    g.label = "measured (" + f.path + ")";
    g.clocks = f.file.clocks;
    for (const auto& note : f.file.notes) add_once(warnings, note);
  } else if (auto sheet = model::find_gpu(d.name)) {
    g.peaks = sheet->peaks;
    g.peaks_device = std::string(sheet->peaks.device);
    g.label = "datasheet (" + g.peaks_device + "): spec-sheet peaks, this classification may be wrong at your clocks";
    add_once(warnings, "no --ceilings file: using datasheet peaks for '" + g.peaks_device +
                           "'; measure them with rooflint-ceilings for verdicts at your clocks");
  } else {
    add_once(warnings, "no peaks for '" + d.name + "' (not in the datasheet table) and no --ceilings file; "
                           "roofline verdicts are not possible: measure the ceilings with rooflint-ceilings");
    g.label = "none";
  }
  return g;
}

/// A case on a GPU that no --ceilings file applies to: no verdict against another card's figures.
void refuse_peaks(case_report& r, const gpu_peaks& gpu) {
  std::erase_if(r.findings, [](const finding& f) { return f.id == diagnostics::no_peaks.name; });
  r.findings.insert(r.findings.begin(), {severity::error, std::string(diagnostics::no_peaks.name),
                                         "no verdict: it ran on '" + gpu.device.name + "' (" + gpu.device.uuid + "), and " +
                                             gpu.refused + " (pass one --ceilings file per GPU)"});
  r.status = case_status::error;
}

}  // namespace

run_report compare_cases(const std::vector<case_source>& cases, const std::vector<measurement>& measured,
                         const verify_options& o, const std::vector<ceilings_source>& ceilings) {
  run_report run;
  run.tool = o.tool;
  // The peaks of each GPU the cases ran on, in the order met; the first is the run's (its header, the plot).
  std::vector<gpu_peaks> gpus;
  for (const auto& m : measured)
    if (!m.device.name.empty() && !gpu_of(gpus, m.device)) gpus.push_back(peaks_of(m.device, ceilings, run.warnings));
  if (!gpus.empty()) {
    const gpu_peaks& first = gpus.front();
    run.device = first.device.name;
    run.peaks = first.peaks;
    run.peaks_device = first.peaks_device;
    run.peaks_label = first.label;
    run.ceilings_clocks = first.clocks;
  } else {
    run.peaks_label = "none (no device)";
  }
  run.peaks.device = run.peaks_device;
  if (gpus.size() > 1) {
    std::string each;
    for (const gpu_peaks& g : gpus) each += (each.empty() ? "" : "; ") + ("'" + g.device.name + "' (" + g.device.uuid + "): " + g.label);
    run.warnings.push_back("the cases ran on " + std::to_string(gpus.size()) + " GPUs, each judged against its own peaks: " + each +
                           "; the roofline plot draws the first's roofs");
  }

  bool counted = false;
  std::string why_not_counted;
  for (std::size_t j = 0; j < cases.size(); ++j) {
    const case_source& c = cases[j];
    const measurement& m = measured[j];
    // A case that reported no device (it crashed, or never ran) has no verdict; the run's first GPU's
    // peaks give its predicted dot.
    const gpu_peaks* gpu = m.device.name.empty() && !gpus.empty() ? &gpus.front() : gpu_of(gpus, m.device);
    model::peaks peaks = gpu ? gpu->peaks : model::peaks{};
    peaks.device = gpu ? std::string_view(gpu->peaks_device) : std::string_view();
    case_report r = compare(c.input, m, peaks, tolerances_for(*c.input.spec, o.tolerance));
    r.file = c.file;
    r.line = c.line;
    if (gpu && !gpu->refused.empty() && m.status == run_status::measured) refuse_peaks(r, *gpu);
    if (m.status == run_status::measured) {
      if (std::string w = clock_warning(m.timing, m.counters, gpu ? gpu->clocks : std::nullopt, r.bands.clock_mismatch); !w.empty())
        r.findings.push_back({severity::warning, std::string(diagnostics::clock_state.name), w});
      counted = counted || m.counters.available;
      if (!m.counters.available && why_not_counted.empty()) why_not_counted = m.counters.unavailable_reason;
      if (!m.counters.available && o.counters) require_counters(r, m.counters);
    }
    run.cases.push_back(std::move(r));
  }
  const bool any_measured = std::any_of(measured.begin(), measured.end(),
                                        [](const measurement& m) { return m.status == run_status::measured; });
  run.counters_mode = counted ? "CUPTI range profiler (auto range; user replay for one-pass groups, kernel replay for more)"
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

namespace {

/// The cases whose name matches @p filter, or an error (a bad regex, no match).
result<std::vector<const case_definition*>> select_cases(const std::string& filter) {
  std::regex re;
  try {
    re = std::regex(filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return error{error_code::invalid_argument, "invalid --filter regex '" + filter + "': " + e.what()};
  }
  std::vector<const case_definition*> cases;
  for (const auto& c : registered_cases())
    if (std::regex_search(c.name, re)) cases.push_back(&c);
  if (cases.empty())
    return error{error_code::invalid_argument, registered_cases().empty()
                                                   ? std::string("no verification case is registered in this program")
                                                   : "no case matches --filter '" + filter + "'; see --list"};
  return cases;
}

}  // namespace

result<run_report> verify(const verify_options& o) {
  auto selected = select_cases(o.filter);
  if (!selected) return selected.err();
  const std::vector<const case_definition*>& cases = *selected;
  auto ceilings = load_ceilings(o.ceilings_paths);
  if (!ceilings) return ceilings.err();
  // The analyzer's manifests (--manifest): its predictions beside each case's figures, and the accesses
  // the per-line rows compare with.
  auto analyzed = inject::read_manifests(o.manifests);
  if (!analyzed) return analyzed.err();
  const predicted_by_kernel predicted = predicted_accesses_by_kernel(*analyzed);
  const std::vector<measurement> measured = o.isolate ? run_isolated(cases, o) : run_in_process(cases, o);
  run_report run = make_report(cases, measured, o, *ceilings);
  attach_predictions(run, cases, *analyzed);
  pair_references(run, registered_references());
  // The per-line pass for every case (all) or the failed ones (failing): their verdicts are known now.
  std::vector<bool> wanted(cases.size(), false);
  for (std::size_t j = 0; j < cases.size(); ++j)
    wanted[j] = o.lines == lines_mode::all || (o.lines == lines_mode::failing && run.cases[j].status == case_status::failed);
  std::vector<line_report> lines(cases.size());
  if (o.lines != lines_mode::off && o.isolate) lines = run_lines_isolated(cases, measured, wanted, o, predicted);
  if (o.lines != lines_mode::off)
    for (std::size_t j = 0; j < cases.size(); ++j) {
      run.cases[j].lines = std::move(lines[j]);
      if (!o.isolate && wanted[j] && measured[j].status == run_status::measured)
        run.cases[j].lines.not_available = std::string(lines_need_a_process) + "; run without --no-isolation";
      run.cases[j].lines.show_always = o.lines == lines_mode::all;
    }
  return run;
}

result<run_report> verify_in_process(const std::string& case_name, const verify_options& o) {
  const case_definition* found = nullptr;
  for (const auto& c : registered_cases())
    if (c.name == case_name) found = &c;
  if (!found) return error{error_code::invalid_argument, "no verification case named '" + case_name + "' is registered"};
  auto ceilings = load_ceilings(o.ceilings_paths);
  if (!ceilings) return ceilings.err();
  const std::vector<const case_definition*> cases{found};
  const std::vector<measurement> measured = run_in_process(cases, o);
  return make_report(cases, measured, o, *ceilings);
}

namespace {

const char* const description =
    "Runs the registered verification cases on the GPU: counts each kernel's DRAM and L2 traffic and FP work\n"
    "with CUPTI, times it with CUDA events (cold L2, median of many runs), and compares both with its spec.";

const char* const exit_codes_text =
    "exit codes: 0 every verdict passed; 1 a verdict failed (or a case WORSE than --baseline); 2 bad usage (an\n"
    "unknown option, a bad value or an empty one, a --filter that matches nothing, an unreadable --ceilings\n"
    "file or --baseline, an output file that cannot be written); 3 could not measure (no GPU, no counter\n"
    "permission while counters were required, a case faulted, crashed or hung, a case on a GPU that no\n"
    "--ceilings file applies to (measured on another card or under another driver), an internal error)";

/// The report files asked for: what, where, and how to render it.
struct report_file {
  const char* what;
  std::string path;
  std::function<result<std::string>(const run_report&)> render;
};

}  // namespace

namespace {

int run_main(int argc, char** argv) {
  verify_options o;
  bool list = false;
  std::vector<report_file> reports{
      {"JSON", "", [](const run_report& r) { return to_json_checked(r); }},
      {"JUnit", "", [](const run_report& r) -> result<std::string> { return to_junit(r); }},
      {"SVG", "", [](const run_report& r) -> result<std::string> { return to_svg(r); }},
      {"SARIF", "", [](const run_report& r) -> result<std::string> { return to_sarif(r, r.tool); }},
  };
  const std::string program = argc > 0 ? std::string(argv[0]) : "rooflint-verify";
  o.tool = std::filesystem::path(program).filename().string();  // rooflint-examples, a user's harness
  CLI::App app(description, program);
  cli::configure(app, exit_codes_text);
  app.add_option("--filter", o.filter, "run the cases whose name matches REGEX (ECMAScript, search; default: all)")->type_name("REGEX");
  app.add_flag("--list", list, "list the registered cases (those --filter matches) and exit");
  app.add_option("--ceilings", o.ceilings_paths,
                 "measured peaks from rooflint-ceilings; repeat it with one file per GPU (each case is judged against its "
                 "own GPU's file; default: datasheet peaks, labelled as such)")
      ->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_option("--tolerance", o.tolerance, "largest acceptable observed/compulsory bytes ratio where the spec sets none (default 1.10)")
      ->type_name("X")->check(cli::at_least(1, "a ratio of at least 1 (1.10 allows 10% extra bytes)"));
  app.add_option("--repetitions", o.repetitions, "timed cold runs per case (default 30)")->type_name("N")->check(cli::at_least(1, "a positive count"));
  app.add_option("--warmup", o.warmup, "unmeasured runs before counting and timing (default 3)")->type_name("N")->check(cli::at_least(0, "a count"));
  app.add_flag("--no-counters", [&](std::int64_t) { o.counters = false; }, "timing only: do not use CUPTI");
  app.add_flag("--no-fp-counters", [&](std::int64_t) { o.fp_counters = false; },
               "skip the SASS FP instruction counters (they can cost ~80x an FFMA-dense kernel's time)");
  app.add_flag("--no-isolation", [&](std::int64_t) { o.isolate = false; }, "run every case in this process (a faulting kernel then stops the run)");
  app.add_option("--timeout", o.timeout_s, "a case that reports nothing for S seconds is killed (default 600)")->type_name("S")->check(cli::at_least(1, "seconds"));
  std::string baseline_path, baseline_text;
  app.add_option("--baseline", baseline_path,
                 "a previous --json report: per case SAME, BETTER, WORSE or UNDECIDED (bytes per level and time judged "
                 "apart); WORSE fails")
      ->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_option("--json", reports[0].path, "write the JSON report")->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_option("--junit", reports[1].path, "write JUnit XML")->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_option("--svg", reports[2].path, "write the SVG roofline chart")->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_option("--sarif", reports[3].path, "write SARIF 2.1.0 for code scanning: the findings at each case's spec, the per-line traffic rows at their access")
      ->type_name("FILE")->check(cli::non_empty("a file"));
  app.add_flag("--quiet", [&](std::int64_t) { o.progress = false; }, "no progress lines on stderr");
  std::string lines = std::string(name(o.lines));
  app.add_option("--lines", lines,
                 "per-line traffic (CUPTI SASS metrics, one more process per case): failing (default: collected and "
                 "printed for the cases that fail), all (every case) or off")
      ->type_name("WHEN")->check(cli::one_of({"failing", "all", "off"}));
  app.add_option("--manifest", o.manifests,
                 "the analyzer's manifests (a file, or a directory searched for *.rooflint.json): its predicted "
                 "traffic beside each case's counts, and the accesses the per-line rows compare with (repeatable)")
      ->type_name("PATH")->check(cli::non_empty("a file or directory"));
  if (const auto code = cli::parse(app, argc, argv, exit_usage)) return *code;
  o.lines = *parse_lines_mode(lines);
  const auto usage_error = [&](const std::string& message) {
    cli::print_error(program, message);
    return static_cast<int>(exit_usage);
  };

  if (list) {
    auto cases = select_cases(o.filter);
    if (!cases) return usage_error(cases.err().message);
    for (const case_definition* c : *cases) {
      const std::string sizes = dsl::sizes_text(c->sizes);
      fmt::print("{}  kernel '{}'  {}  {}:{}\n", c->name, c->spec->kernel_name.view(), sizes, c->file, c->line);
    }
    return exit_passed;
  }
  // Before the run: an unreadable or empty baseline would turn the gate off.
  if (!baseline_path.empty()) {
    if (const auto why = io::read_regular_file(baseline_path, baseline_text)) return usage_error("--baseline: " + *why);
    if (auto b = inject::read_baseline(baseline_text); !b) return usage_error("--baseline '" + baseline_path + "': " + b.err().message);
  }
  // Before the run, not after minutes of measuring: each report file must be writable.
  for (const report_file& r : reports)
    if (!r.path.empty())
      if (auto why = io::check_writable(r.path)) return usage_error("the " + std::string(r.what) + " report: " + *why);

  auto run = verify(o);
  if (!run) {
    cli::print_error(program, run.err().message);
    return run.err().code == error_code::invalid_argument ? exit_usage : exit_cannot_measure;
  }
  if (!baseline_path.empty()) {
    auto gate = inject::compare_baseline(*run, baseline_text);
    if (!gate) return usage_error("--baseline '" + baseline_path + "': " + gate.err().message);
    inject::apply_baseline(*run, *gate);
  }
  std::fputs(to_table(*run).c_str(), stdout);
  std::fflush(stdout);
  bool written = true;
  for (const report_file& r : reports) {
    if (r.path.empty()) continue;
    auto text = r.render(*run);
    auto why = text ? io::write_file_atomically(r.path, *text) : std::optional<std::string>(text.err().message);
    if (why) {
      cli::print_error(program, "the " + std::string(r.what) + " report: " + *why);
      written = false;
    }
  }
  if (!written) return exit_usage;
  return run->exit_code;
}

}  // namespace

int verify_main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {  // a failure no check foresaw: said, with the documented status
    cli::print_error(argc > 0 ? argv[0] : "rooflint-verify", std::string("internal error: ") + e.what());
    return exit_cannot_measure;
  }
}

}  // namespace rooflint::runtime
