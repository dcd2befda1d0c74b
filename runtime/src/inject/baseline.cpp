// The baseline gate: each case's roofline fraction against a previous JSON report, with a noise band
// from the repetitions of both runs.

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include "rooflint/files/diagnostics.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

double relative_noise(const timing_values& t) {
  if (!t.available || t.repetitions < 2 || t.median_s <= 0) return 0;
  return (t.max_s - t.min_s) / (2 * t.median_s);
}

result<std::vector<baseline_case>> compare_baseline(const run_report& current, const std::string& baseline_json, double floor) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(baseline_json);
  } catch (const nlohmann::json::exception& e) {
    return error{error_code::invalid_argument, std::string("the baseline is not JSON: ") + e.what()};
  }
  if (!doc.is_object() || doc.value("schema", "") != "rooflint-verify" || !doc.contains("cases") || !doc["cases"].is_array())
    return error{error_code::invalid_argument, "the baseline is not a rooflint-verify JSON report (--json)"};
  struct old_case {
    double fraction = 0, noise = 0;
  };
  std::map<std::string, old_case> old;
  for (const auto& c : doc["cases"]) {
    if (!c.is_object() || !c.contains("name")) continue;
    old_case o;
    if (c.contains("compared")) o.fraction = c["compared"].value("roofline_fraction", 0.0);
    if (c.contains("measured") && c["measured"].contains("timing")) {
      const auto& t = c["measured"]["timing"];
      timing_values tv;
      tv.available = t.value("available", false);
      tv.repetitions = t.value("repetitions", 0);
      tv.median_s = t.value("median_s", 0.0);
      tv.min_s = t.value("min_s", 0.0);
      tv.max_s = t.value("max_s", 0.0);
      o.noise = relative_noise(tv);
    }
    old[c["name"].get<std::string>()] = o;
  }
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
    if (b.new_fraction <= 0) {
      b.outcome = baseline_case::verdict::missing;
    } else {
      b.change = b.new_fraction / b.old_fraction - 1;
      b.outcome = b.change < -b.band ? baseline_case::verdict::regression
                  : b.change > b.band ? baseline_case::verdict::improvement
                                      : baseline_case::verdict::no_change;
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
}  // namespace

std::vector<std::pair<std::string, finding>> baseline_findings(const std::vector<baseline_case>& cases) {
  std::vector<std::pair<std::string, finding>> out;
  for (const baseline_case& b : cases) {
    const std::string fractions = "roofline fraction " + percent(b.new_fraction) + ", baseline " + percent(b.old_fraction) +
                                  " (" + (b.change >= 0 ? "+" : "") + percent(b.change) + "; noise band " + percent(b.band) + ")";
    switch (b.outcome) {
      case baseline_case::verdict::regression:
        out.push_back({b.name, {severity::error, std::string(diagnostics::regression.name), "regression against the baseline: " + fractions}});
        break;
      case baseline_case::verdict::improvement:
        out.push_back({b.name, {severity::remark, std::string(diagnostics::baseline.name), "improved against the baseline: " + fractions}});
        break;
      case baseline_case::verdict::no_change:
        out.push_back({b.name, {severity::remark, std::string(diagnostics::baseline.name), "no change against the baseline: " + fractions}});
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
