// The baseline gate: each case's roofline fraction against a previous JSON report, with a noise band
// from the repetitions of both runs.

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

#include "rooflint/files/diagnostics.h"
#include "rooflint/files/verify_report.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

double relative_noise(const timing_values& t) {
  if (!t.available || t.repetitions < 2 || t.median_s <= 0) return 0;
  return (t.max_s - t.min_s) / (2 * t.median_s);
}

namespace {

/// The gate's view of one case of a baseline report: its fraction, its noise, its bytes per level.
baseline_entry entry_of(const verify_report::case_entry& c) {
  baseline_entry e;
  e.fraction = c.compared.roofline_fraction;
  for (const verify_report::level& l : c.compared.levels) e.bytes[static_cast<std::size_t>(l.level)] = l.bytes;
  const verify_report::timed_runs& t = c.measured.timing;
  timing_values tv;
  tv.available = t.available;
  tv.repetitions = t.repetitions;
  tv.median_s = t.median_s;
  tv.min_s = t.min_s;
  tv.max_s = t.max_s;
  e.noise = relative_noise(tv);
  e.repetitions = t.available ? t.repetitions : 0;
  return e;
}

/// The levels counted in both runs, each with its change and band.
std::vector<baseline_level> level_changes(const baseline_entry& old, const comparison& now) {
  std::vector<baseline_level> out;
  for (const level_traffic& t : now.levels) {
    const auto& before = old.bytes[static_cast<std::size_t>(t.level)];
    if (!t.measured || !before || *before <= 0) continue;
    out.push_back({t.level, *before, t.bytes(), t.bytes() / *before - 1, counter_band(*before)});
  }
  return out;
}

/// SAME, WORSE, BETTER or UNDECIDED from the counter figures and the time (baseline_case says how).
baseline_case::verdict decide(const baseline_case& b) {
  const bool more_bytes = std::any_of(b.levels.begin(), b.levels.end(), [](const baseline_level& l) { return l.change > l.band; });
  const bool fewer_bytes = std::any_of(b.levels.begin(), b.levels.end(), [](const baseline_level& l) { return l.change < -l.band; });
  const bool slower = b.time_judged && b.change < -b.band, faster = b.time_judged && b.change > b.band;
  if (more_bytes || slower) return baseline_case::verdict::regression;
  if (fewer_bytes || faster) return baseline_case::verdict::improvement;
  if (b.levels.empty() && (!b.time_judged || b.band > undecided_band)) return baseline_case::verdict::undecided;
  return baseline_case::verdict::no_change;
}

}  // namespace

std::string_view name(baseline_case::verdict v) {
  switch (v) {
    case baseline_case::verdict::no_change: return "SAME";
    case baseline_case::verdict::regression: return "WORSE";
    case baseline_case::verdict::improvement: return "BETTER";
    case baseline_case::verdict::undecided: return "UNDECIDED";
    case baseline_case::verdict::new_case: return "NEW";
    case baseline_case::verdict::missing: return "MISSING";
  }
  return "?";
}

double counter_band(double old_bytes) { return old_bytes > 0 ? std::max(0.05, 256.0 * 1024 / old_bytes) : 0.05; }

std::string_view case_without_gpu(std::string_view name) {
  const std::size_t at = name.rfind(gpu_suffix);
  return at != std::string_view::npos && name.size() == at + gpu_suffix.size() + 8 ? name.substr(0, at) : name;
}

namespace {
/// The baseline's case for the current case @p name: of the same name, else of the same kernel and sizes
/// on whichever GPU, one not @p matched yet first (a run on several GPUs names its cases by card, a run on
/// one does not, and a job may get other cards).
std::map<std::string, baseline_entry>::const_iterator baseline_of(const std::map<std::string, baseline_entry>& old,
                                                                  const std::string& name, const std::set<std::string>& matched) {
  if (const auto o = old.find(name); o != old.end()) return o;
  const std::string_view bare = case_without_gpu(name);
  const auto same_work = [&](const auto& entry) { return case_without_gpu(entry.first) == bare; };
  const auto fresh = std::find_if(old.begin(), old.end(), [&](const auto& entry) { return same_work(entry) && !matched.count(entry.first); });
  return fresh != old.end() ? fresh : std::find_if(old.begin(), old.end(), same_work);
}
}  // namespace

result<std::map<std::string, baseline_entry>> read_baseline(const std::string& baseline_json) {
  std::string why;
  const std::optional<verify_report::report> report = verify_report::from_json(baseline_json, "the baseline", why);
  if (!report) return error{error_code::invalid_argument, why};
  std::map<std::string, baseline_entry> cases;
  for (const verify_report::case_entry& c : report->cases) cases.emplace(c.name, entry_of(c));
  return cases;
}

result<std::vector<baseline_case>> compare_baseline(const run_report& current, const std::string& baseline_json, double floor) {
  auto read = read_baseline(baseline_json);
  if (!read) return read.err();
  auto& old = *read;
  std::vector<baseline_case> out;
  std::set<std::string> matched;
  for (const case_report& r : current.cases) {
    baseline_case b;
    b.name = r.name;
    b.new_fraction = r.compared.roofline_fraction;
    const auto o = baseline_of(old, r.name, matched);
    if (o != old.end()) matched.insert(o->first);
    if (o == old.end() || o->second.fraction <= 0) {
      b.outcome = baseline_case::verdict::new_case;
      out.push_back(b);
      continue;
    }
    b.old_fraction = o->second.fraction;
    b.band = std::max(3 * std::max(o->second.noise, relative_noise(r.measured.timing)), floor);
    b.levels = level_changes(o->second, r.compared);
    b.time_judged = o->second.repetitions >= 2 && r.measured.timing.available && r.measured.timing.repetitions >= 2;
    if (b.new_fraction <= 0) {
      b.outcome = baseline_case::verdict::missing;
    } else {
      b.change = b.new_fraction / b.old_fraction - 1;
      b.outcome = decide(b);
    }
    out.push_back(b);
  }
  for (const auto& [name, o] : old) {
    if (matched.count(name)) continue;
    baseline_case b;
    b.name = name;
    b.old_fraction = o.fraction;
    b.outcome = baseline_case::verdict::missing;
    out.push_back(b);
  }
  return out;
}

namespace {
std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

/// "DRAM 1.00x, L2 2.00x the baseline's bytes (band 5.0%); ": the counter figures, or nothing.
std::string levels_text(const baseline_case& b) {
  if (b.levels.empty()) return {};
  std::string out;
  for (const baseline_level& l : b.levels)
    out += (out.empty() ? "" : ", ") + std::string(model::label(l.level)) + " " + fmt::format("{:.2f}x", 1 + l.change);
  return out + " the baseline's bytes (band " + percent(b.levels.front().band) + "); ";
}
}  // namespace

void apply_baseline(run_report& run, const std::vector<baseline_case>& cases) {
  bool regression = false;
  for (const auto& [name, f] : baseline_findings(cases))
    for (case_report& r : run.cases)
      if (r.name == name) {
        r.findings.push_back(f);
        if (f.level == severity::error) {
          if (r.status == case_status::passed) r.status = case_status::failed;  // "could not be measured" stays so
          regression = true;
        }
      }
  for (const baseline_case& b : cases) run.baseline_verdicts.emplace_back(b.name, std::string(name(b.outcome)));
  if (regression && run.exit_code == exit_passed) run.exit_code = exit_failed;
}

std::vector<std::pair<std::string, finding>> baseline_findings(const std::vector<baseline_case>& cases) {
  std::vector<std::pair<std::string, finding>> out;
  for (const baseline_case& b : cases) {
    const std::string fractions =
        levels_text(b) + "roofline fraction " + percent(b.new_fraction) + ", baseline " + percent(b.old_fraction) + " (" +
        (b.change >= 0 ? "+" : "") + percent(b.change) +
        (b.time_judged ? "; noise band " + percent(b.band) : std::string("; time not judged: a run of one timed repetition has no noise estimate")) + ")";
    switch (b.outcome) {
      case baseline_case::verdict::regression:
        out.push_back({b.name, {severity::error, std::string(diagnostics::regression.name), "WORSE than the baseline: " + fractions}});
        break;
      case baseline_case::verdict::improvement:
        out.push_back({b.name, {severity::remark, std::string(diagnostics::baseline.name), "BETTER than the baseline: " + fractions}});
        break;
      case baseline_case::verdict::no_change:
        out.push_back({b.name, {severity::remark, std::string(diagnostics::baseline.name), "SAME as the baseline: " + fractions}});
        break;
      case baseline_case::verdict::undecided:
        out.push_back({b.name, {severity::warning, std::string(diagnostics::baseline.name),
                                "UNDECIDED against the baseline (no counter figures, and a time that cannot tell: a band wider than " +
                                    percent(undecided_band) + " or a single timed run): " + fractions}});
        break;
      case baseline_case::verdict::new_case:
        out.push_back({b.name, {severity::remark, std::string(diagnostics::baseline.name), "not in the baseline (a new case, or not measured there)"}});
        break;
      case baseline_case::verdict::missing:
        out.push_back({b.name, {severity::warning, std::string(diagnostics::baseline.name),
                                b.new_fraction <= 0 && b.old_fraction > 0 && b.change == 0 && b.band > 0
                                    ? "no roofline fraction in this run (not measured); baseline " + percent(b.old_fraction)
                                    : "in the baseline (roofline fraction " + percent(b.old_fraction) + ") but not measured in this run"}});
        break;
    }
  }
  return out;
}

}  // namespace rooflint::runtime::inject
