// Per-line traffic in the reports: text rows, the "lines" JSON object, SARIF results at the line, and the
// manifest's predicted accesses (docs/verifier.md, "Per-line traffic").

#include "report/report_lines.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "report/format.h"

namespace rooflint::runtime::detail {

namespace {

using nlohmann::json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

/// "A", "A, B" or "(no tensor of the spec)" for the row's accesses.
std::string tensors_text(const line_row& row) {
  std::string out;
  for (const predicted_access& a : row.predicted) {
    const std::string t = a.tensor.empty() ? std::string("(no tensor of the spec)") : a.tensor;
    if (out.find(t) == std::string::npos) out += (out.empty() ? "" : ", ") + t;
  }
  return out;
}

std::string file_line(const source_location& where) {
  return std::filesystem::path(where.file).filename().string() + ":" + std::to_string(where.line);
}

/// "8x" for a prediction (3 significant digits, as the analyzer states it).
std::string predicted_text(double amplification) { return model::format_significant(amplification, 3) + "x"; }

/// The observed figures: "32.0 sectors per request against an ideal 4.0, 32768 requests". Beside a
/// prediction the ideal is the analyzer's, which the row's amplification uses, and the chip's follows
/// where it differs ("against an ideal 1.5 (the chip's 2.0)").
std::string observed_figures(const observed_line& o, double predicted_ideal = 0) {
  const double chip = o.ideal_sectors_per_request();
  std::string ideal;
  if (predicted_ideal > 0) {
    ideal = fmt::format("an ideal {:.1f}", predicted_ideal);
    if (!std::isnan(chip) && std::abs(chip - predicted_ideal) > 0.05) ideal += fmt::format(" (the chip's {:.1f})", chip);
  } else {
    ideal = std::isnan(chip) ? std::string("no ideal (the chip counts no ideal sectors and no data bytes)")
                             : fmt::format("an ideal {:.1f}", chip);
  }
  return fmt::format("{:.1f} sectors per request against {}, {} requests", o.sectors_per_request(), ideal,
                     model::format_significant(o.requests, 6));
}

std::string accesses_note(const line_row& row) {
  if (row.predicted.size() < 2) return {};
  std::vector<std::string> columns;
  for (const auto& access : row.predicted) columns.push_back(std::to_string(access.column));
  return fmt::format("; {} accesses on this line (columns {}), compared together: the line table has no columns",
                     row.predicted.size(), model::and_list(columns));
}

}  // namespace

std::string line_row_text(const line_row& row) {
  const std::string what = std::string(name(row.op)) + (row.predicted.empty() ? "" : " " + tensors_text(row));
  const observed_line* o = row.observed ? &*row.observed : nullptr;
  // Beside a prediction, on the analyzer's scale (line_row::observed_amplification); else the chip's.
  const auto observed_amp = [&]() {
    if (!std::isnan(row.observed_amplification())) return fmt::format("{:.1f}x", row.observed_amplification());
    return std::isnan(o->amplification()) ? fmt::format("{:.1f} sectors per request", o->sectors_per_request())
                                          : fmt::format("{:.1f}x", o->amplification());
  };
  switch (row.status) {
    case line_status::agrees:
      return fmt::format("{}: predicted {}, observed {} ({}){}", what, predicted_text(row.predicted_amplification()),
                         observed_amp(), observed_figures(*o, row.predicted_ideal_sectors_per_request), accesses_note(row));
    case line_status::differs:
      return fmt::format("{}: observed {} where {} was predicted ({}; predicted {:.1f} of {:.1f} sectors per request){}", what,
                         observed_amp(), predicted_text(row.predicted_amplification()),
                         observed_figures(*o, row.predicted_ideal_sectors_per_request),
                         row.predicted_sectors_per_request, row.predicted_ideal_sectors_per_request, accesses_note(row));
    case line_status::not_observed:
      return fmt::format("{}: predicted {}, not observed (no {} instruction on this line executed){}", what,
                         predicted_text(row.predicted_amplification()), name(row.op), accesses_note(row));
    case line_status::not_evaluated: {
      // The first access without figures is why the line has none.
      const auto unevaluated = std::find_if(row.predicted.begin(), row.predicted.end(), [](const predicted_access& a) { return !a.evaluated(); });
      const std::string why = unevaluated == row.predicted.end() || unevaluated->note.empty() ? std::string("the analyzer gave no figures")
                                                                                              : unevaluated->note;
      return o ? fmt::format("{}: not predicted ({}), observed {} ({}){}", what, why, observed_amp(), observed_figures(*o),
                             accesses_note(row))
               : fmt::format("{}: not predicted ({}), not observed{}", what, why, accesses_note(row));
    }
    case line_status::not_predicted:
      return fmt::format("{}: no access predicted, observed {} ({}; {} excess sectors, {})", what, observed_amp(),
                         observed_figures(*o), model::format_significant(o->excess_sectors(), 6),
                         bytes_text(32 * o->excess_sectors()));
  }
  return what;
}

std::string lines_text(const line_report& report, const std::string& indent) {
  if (!report.collected)
    return report.not_available.empty() ? std::string()
                                        : indent + "per-line traffic: not available: " + report.not_available + "\n";
  if (!report.line_info)
    return indent + "per-line traffic: not available: the binary has no line information; build it with -lineinfo\n";
  std::string out = indent + fmt::format("per-line traffic (SASS metrics, their own replay: {}):\n",
                                         model::format_significant(1e3 * report.cost_s, 3) + " ms");
  for (const line_row& r : report.rows) out += indent + "  " + file_line(r.where) + " " + line_row_text(r) + "\n";
  if (report.rows.empty() && report.unpredicted.empty() && report.unplaced.empty())  // nothing to compare, nothing in excess
    out += indent + fmt::format("  no predicted access (the manifests give none for this kernel, or --manifest was not given) "
                                "and no line with excess sectors; {} lines observed\n",
                                report.observed.size());
  if (!report.unpredicted.empty()) {
    out += indent + "  lines with no predicted access, most excess sectors first:\n";
    for (const line_row& r : report.unpredicted) out += indent + "    " + file_line(r.where) + " " + line_row_text(r) + "\n";
  }
  if (!report.unmapped.empty())
    out += indent + fmt::format("  {} global memory instructions have no line in the line table\n", report.unmapped.size());
  if (!report.unplaced.empty())
    out += indent + fmt::format("  {} predicted {} no line in the analyzer's debug information (their traffic is in the "
                                "kernel's figures, not in a row)\n",
                                report.unplaced.size(), report.unplaced.size() == 1 ? "access has" : "accesses have");
  if (!report.not_available.empty()) out += indent + "  note: " + report.not_available + "\n";
  return out;
}

namespace {

json observed_json(const observed_line& o) {
  return {{"instructions", o.instructions},
          {"requests", o.requests},
          {"sectors", o.sectors},
          {"ideal_sectors", number_or_null(o.ideal_sectors)},
          {"sectors_per_request", o.sectors_per_request()},
          {"ideal_sectors_per_request", number_or_null(o.ideal_sectors_per_request())},
          {"amplification", number_or_null(o.amplification())},
          {"excess_sectors", number_or_null(o.excess_sectors())}};
}

json row_json(const line_row& r) {
  json accesses = json::array();
  for (const predicted_access& a : r.predicted) {
    const auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    accesses.push_back({{"column", a.column},
                        {"tensor", a.tensor},
                        {"param", a.param},
                        {"store", a.store},
                        {"atomic", a.atomic},
                        {"requests", opt(a.requests)},
                        {"sectors_per_request", opt(a.sectors_per_request)},
                        {"ideal_sectors_per_request", opt(a.ideal_sectors_per_request)},
                        {"note", a.note}});
  }
  json predicted = nullptr;
  if (r.predicted_ideal_sectors_per_request > 0)
    predicted = {{"sectors_per_request", r.predicted_sectors_per_request},
                 {"ideal_sectors_per_request", r.predicted_ideal_sectors_per_request},
                 {"amplification", r.predicted_amplification()},
                 // The observed sectors over this ideal: what the row's status compares.
                 {"observed_amplification", number_or_null(r.observed_amplification())}};
  return {{"file", r.where.file},
          {"line", r.where.line},
          {"op", std::string(name(r.op))},
          {"status", std::string(name(r.status))},
          {"accesses", accesses},
          {"predicted", predicted},
          {"observed", r.observed ? observed_json(*r.observed) : json(nullptr)}};
}

}  // namespace

json lines_json(const line_report& report) {
  json rows = json::array(), unpredicted = json::array();
  for (const line_row& r : report.rows) rows.push_back(row_json(r));
  for (const line_row& r : report.unpredicted) unpredicted.push_back(row_json(r));
  json observed = json::array();
  for (const observed_line& o : report.observed) {
    json entry = {{"file", o.where.file}, {"line", o.where.line}, {"op", std::string(name(o.op))}};
    entry.update(observed_json(o));
    observed.push_back(std::move(entry));
  }
  return {{"source", "CUPTI SASS metrics: smsp__sass_inst_executed_op_global_*, smsp__sass_sectors_mem_global, "
                     "smsp__sass_sectors_mem_global_ideal or smsp__sass_data_bytes_mem_global_op_*"},
          {"collected", report.collected},
          {"not_available", report.not_available},
          {"line_info", report.line_info},
          {"cost_s", report.cost_s},
          {"rows", rows},
          {"unpredicted", unpredicted},
          {"unmapped_instructions", report.unmapped.size()},
          {"unplaced_accesses", report.unplaced.size()},
          {"observed", observed}};
}

std::vector<json> lines_sarif_results(const line_report& report, const std::string& kernel) {
  std::vector<json> out;
  const auto result_of = [&](const line_row& r) {
    json region = {{"startLine", r.where.line}};
    if (!r.predicted.empty() && r.predicted.front().column > 0) region["startColumn"] = r.predicted.front().column;
    json properties = {{"status", std::string(name(r.status))}, {"kernel", kernel}};
    if (r.observed) properties["observed"] = observed_json(*r.observed);
    if (r.predicted_ideal_sectors_per_request > 0) {
      properties["predicted_amplification"] = r.predicted_amplification();
      properties["observed_amplification"] = number_or_null(r.observed_amplification());  // over the same ideal
    }
    return json{{"ruleId", std::string(line_traffic_rule)},
                {"level", r.status == line_status::differs ? "warning" : "note"},
                {"message", {{"text", "kernel '" + kernel + "': " + line_row_text(r)}}},
                {"locations", json::array({{{"physicalLocation",
                                             {{"artifactLocation", {{"uri", r.where.file}}}, {"region", region}}}}})},
                {"properties", properties}};
  };
  if (!report.collected || !report.line_info) return out;
  for (const line_row& r : report.rows) out.push_back(result_of(r));
  for (const line_row& r : report.unpredicted) out.push_back(result_of(r));
  return out;
}

std::vector<predicted_access> predicted_accesses_of(const std::vector<manifest::access>& accesses) {
  std::vector<predicted_access> out;
  for (const manifest::access& e : accesses) {
    predicted_access a;
    a.file = e.file;
    a.line = static_cast<unsigned>(e.line);
    a.column = static_cast<unsigned>(e.column);
    a.tensor = e.tensor;
    a.param = e.param;
    a.store = e.store;
    a.atomic = e.atomic;
    a.requests = e.requests;
    if (e.requests) {
      a.sectors_per_request = e.sectors_per_request;
      a.ideal_sectors_per_request = e.ideal_sectors_per_request;
    }
    a.note = e.note;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace rooflint::runtime::detail
