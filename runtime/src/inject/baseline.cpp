// The baseline gate: each case's roofline fraction against a previous JSON report, with a noise band
// from the repetitions of both runs.

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include "rooflint/files/diagnostics.h"
#include "rooflint/files/model_names.h"
#include "rooflint/files/record.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

double relative_noise(const timing_values& t) {
  if (!t.available || t.repetitions < 2 || t.median_s <= 0) return 0;
  return (t.max_s - t.min_s) / (2 * t.median_s);
}

namespace {

using nlohmann::json;

/// Reads a baseline report's fields with checks of type and range; the first failure names the case
/// and the field. A figure a report did not measure is written as null (or left out): it reads as 0.
struct baseline_reader {
  std::string where = "the baseline";
  std::string failure;

  void fail(const std::string& field, const std::string& what) {
    if (failure.empty()) failure = where + ": field '" + field + "' " + what;
  }
  /// An object, or nullptr when @p key is absent or null.
  const json* object(const json& o, const char* key, const std::string& field) {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return nullptr;
    if (!it->is_object()) fail(field, "is not an object");
    return it->is_object() ? &*it : nullptr;
  }
  double figure(const json& o, const char* key, const std::string& field) {
    const auto it = o.find(key);
    if (it == o.end() || it->is_null()) return 0;
    const double x = it->is_number() ? it->get<double>() : -1;
    if (!it->is_number() || !std::isfinite(x) || x < 0) fail(field, "is not a finite number of at least 0");
    return failure.empty() ? x : 0;
  }
  timing_values timing(const json& t) {
    timing_values tv;
    const auto available = t.find("available");
    if (available != t.end() && !available->is_boolean()) fail("measured.timing.available", "is not true or false");
    tv.available = available != t.end() && available->is_boolean() && available->get<bool>();
    const double repetitions = figure(t, "repetitions", "measured.timing.repetitions");
    if (repetitions != std::floor(repetitions) || repetitions > 1e9) fail("measured.timing.repetitions", "is not a count");
    tv.repetitions = failure.empty() ? static_cast<int>(repetitions) : 0;
    tv.median_s = figure(t, "median_s", "measured.timing.median_s");
    tv.min_s = figure(t, "min_s", "measured.timing.min_s");
    tv.max_s = figure(t, "max_s", "measured.timing.max_s");
    if (tv.available && !(tv.min_s <= tv.median_s && tv.median_s <= tv.max_s)) fail("measured.timing", "has min_s, median_s, max_s out of order");
    return tv;
  }
  /// compared.levels (version 2): the bytes of each level counted.
  void read_levels(const json& compared, baseline_entry& e) {
    const auto levels = compared.find("levels");
    if (levels == compared.end() || levels->is_null()) return;
    if (!levels->is_array()) return fail("compared.levels", "is not an array");
    for (const json& l : *levels) {
      const auto name = l.is_object() ? l.find("level") : l.end();
      model::memory_level level{};
      if (name == l.end() || !name->is_string() || !files::parse_name(name->get<std::string>(), level))
        return fail("compared.levels", "has an entry without a known 'level'");
      e.bytes[static_cast<std::size_t>(level)] = figure(l, "bytes", "compared.levels.bytes");
    }
  }
  /// One case: its name, fraction and noise.
  std::pair<std::string, baseline_entry> entry(const json& c, std::size_t index) {
    where = "the baseline: case " + std::to_string(index);
    if (!c.is_object()) {
      failure = where + " is not an object";
      return {};
    }
    const auto name = c.find("name");
    if (name == c.end() || !name->is_string() || name->get<std::string>().empty()) {
      fail("name", "is missing or not a non-empty string");
      return {};
    }
    where = "the baseline: case '" + name->get<std::string>() + "'";
    baseline_entry e;
    if (const json* compared = object(c, "compared", "compared")) {
      e.fraction = figure(*compared, "roofline_fraction", "compared.roofline_fraction");
      read_levels(*compared, e);
    }
    if (const json* measured = object(c, "measured", "measured"))
      if (const json* t = object(*measured, "timing", "measured.timing")) {
        const timing_values tv = timing(*t);
        e.noise = relative_noise(tv);
        e.repetitions = tv.available ? tv.repetitions : 0;
      }
    return {name->get<std::string>(), e};
  }
};

/// The report's schema and version: a rooflint-verify JSON report of version 1 or 2.
std::string header_problem(const json& doc) {
  if (!doc.is_object()) return "the baseline is not a JSON object";
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || schema->get<std::string>() != "rooflint-verify")
    return "the baseline is not a rooflint-verify JSON report (--json): its 'schema' is not \"rooflint-verify\"";
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || *version < 1 || *version > 2)
    return "the baseline is a rooflint-verify report of a version this rooflint-verify does not read (it reads 1 and 2)";
  const auto cases = doc.find("cases");
  if (cases == doc.end() || !cases->is_array()) return "the baseline has no 'cases' array";
  return "";
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

result<std::map<std::string, baseline_entry>> read_baseline(const std::string& baseline_json) {
  const json doc = json::parse(baseline_json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return error{error_code::invalid_argument, "the baseline is not JSON"};
  if (std::string problem = header_problem(doc); !problem.empty()) return error{error_code::invalid_argument, problem};
  std::map<std::string, baseline_entry> cases;
  baseline_reader r;
  for (std::size_t i = 0; i < doc["cases"].size(); ++i) {
    auto [name, e] = r.entry(doc["cases"][i], i);
    if (!r.failure.empty()) return error{error_code::invalid_argument, r.failure};
    if (!cases.emplace(name, e).second) return error{error_code::invalid_argument, r.where + " appears twice"};
  }
  return cases;
}

result<std::vector<baseline_case>> compare_baseline(const run_report& current, const std::string& baseline_json, double floor) {
  auto read = read_baseline(baseline_json);
  if (!read) return read.err();
  auto& old = *read;
  std::vector<baseline_case> out;
  for (const case_report& r : current.cases) {
    baseline_case b;
    b.name = r.name;
    b.new_fraction = r.compared.roofline_fraction;
    const auto o = old.find(r.name);
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
    old.erase(o);
  }
  for (const auto& [name, o] : old) {
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
