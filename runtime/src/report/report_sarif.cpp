// The SARIF 2.1.0 log of a run (report.h): what code scanning shows on a pull request, each result at
// the line it is about: a case's verdicts at its spec, the per-line traffic rows at their access.

#include <set>

#include <nlohmann/json.hpp>

#include "rooflint/files/diagnostics.h"
#include "rooflint/runtime/report.h"
#include "report/report_lines.h"

namespace rooflint::runtime {

namespace {

using nlohmann::json;

/// SARIF's levels: "error", "warning", "note" (a remark is a note).
std::string sarif_level(severity s) {
  switch (s) {
    case severity::error: return "error";
    case severity::warning: return "warning";
    default: return "note";
  }
}

/// A case's findings, at the line of its spec (or none, where the case has no source line).
std::vector<json> verdict_results(const case_report& c) {
  std::vector<json> out;
  for (const finding& f : c.findings) {
    json r = {{"ruleId", f.id},
              {"level", sarif_level(f.level)},
              {"message", {{"text", c.name + ": " + f.message}}},
              {"properties", {{"case", c.name}, {"kernel", c.kernel}, {"status", std::string(name(c.status))}}}};
    if (!c.file.empty() && c.line > 0)
      r["locations"] = json::array(
          {{{"physicalLocation", {{"artifactLocation", {{"uri", c.file}}}, {"region", {{"startLine", c.line}}}}}}});
    out.push_back(std::move(r));
  }
  return out;
}

/// The rules the results name, with the registry's description where it has one.
json rules_of(const json& results) {
  std::set<std::string> ids;
  for (const json& r : results) ids.insert(r["ruleId"].get<std::string>());
  json rules = json::array();
  for (const std::string& id : ids) {
    json rule = {{"id", id}};
    for (const diagnostics::diagnostic& d : diagnostics::all)
      if (d.name == id) rule["shortDescription"] = {{"text", std::string(d.summary)}};
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace

std::string to_sarif(const run_report& run, const std::string& tool) {
  json results = json::array();
  for (const case_report& c : run.cases) {
    for (json& r : verdict_results(c)) results.push_back(std::move(r));
    for (json& r : detail::lines_sarif_results(c.lines, c.kernel)) results.push_back(std::move(r));
  }
  json driver = {{"name", tool}, {"version", ROOFLINT_VERSION}, {"informationUri", "https://github.com/rooflint/rooflint"},
                 {"rules", rules_of(results)}};
  const json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                    {"version", "2.1.0"},
                    {"runs", json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return log.dump(2) + "\n";
}

}  // namespace rooflint::runtime
