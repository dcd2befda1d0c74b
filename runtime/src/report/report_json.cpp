// The JSON report (report.h).

#include <nlohmann/json.hpp>

#include "rooflint/files/atomic_file.h"
#include "rooflint/runtime/report.h"
#include "report/json_detail.h"
#include "report/report_lines.h"

namespace rooflint::runtime {

namespace {

nlohmann::json bound_json(const model::bound_result& b) {
  return {{"bound", std::string(model::name(b.verdict))},
          {"intensity_flop_per_byte", b.intensity},
          {"ridge_flop_per_byte", b.ridge},
          {"compute_time_s", b.compute_time_s},
          {"memory_time_s", b.memory_time_s},
          {"t_min_s", b.t_min_s}};
}

nlohmann::json level_roofs_json(const model::peaks& p) {
  nlohmann::json out = nlohmann::json::object();
  for (const model::memory_level l : model::memory_levels) {
    const model::level_roofs& r = p.level(l);
    out[std::string(model::name(l))] = {{"read_bytes_per_s", r.read_bytes_per_s},
                                        {"write_bytes_per_s", r.write_bytes_per_s},
                                        {"copy_bytes_per_s", r.copy_bytes_per_s}};
  }
  return out;
}

nlohmann::json levels_json(const comparison& c) {
  nlohmann::json out = nlohmann::json::array();
  for (const level_traffic& t : c.levels)
    out.push_back({{"level", std::string(model::name(t.level))},
                   {"read_bytes", t.read_bytes},
                   {"write_bytes", t.write_bytes},
                   {"bytes", t.bytes()},
                   {"ideal_read_bytes", t.ideal_read_bytes},
                   {"ideal_write_bytes", t.ideal_write_bytes},
                   {"traffic_ratio", t.ratio},
                   {"roof_bytes_per_s", t.roof.bytes_per_s},
                   {"roof_mix", std::string(model::name(t.roof.kind))},
                   {"write_fraction", t.roof.write_fraction},
                   {"roof", t.roof_text},
                   {"intensity_flop_per_byte", t.intensity},
                   {"floor_s", t.floor_s}});
  return out;
}

}  // namespace

namespace {
/// The kernel's predicted ratio per level (case_report::predicted_ratio): a number (a value, or a range's
/// point estimate), or null (not predicted, or a range without a point).
nlohmann::json predicted_ratio_json(const case_report& r) {
  nlohmann::json out = nlohmann::json::object();
  for (const model::memory_level l : model::memory_levels) {
    const predicted_level_ratio& v = r.predicted_ratio[static_cast<std::size_t>(l)];
    out[std::string(model::name(l))] = v.has_point() ? nlohmann::json(v.ratio) : nlohmann::json(nullptr);
  }
  return out;
}

/// The kernel's predicted range per level: {"low", "high"} (equal for a value), or null when not predicted.
nlohmann::json predicted_range_json(const case_report& r) {
  nlohmann::json out = nlohmann::json::object();
  for (const model::memory_level l : model::memory_levels) {
    const predicted_level_ratio& v = r.predicted_ratio[static_cast<std::size_t>(l)];
    out[std::string(model::name(l))] =
        v.predicted() ? nlohmann::json{{"low", v.low}, {"high", v.high}} : nlohmann::json(nullptr);
  }
  return out;
}

nlohmann::json report_value(const run_report& run) {
  using nlohmann::json;
  json peaks_flops = json::object();
  for (std::size_t i = 0; i < model::math_mode_count; ++i) {
    const auto mode = static_cast<model::math_mode>(i);
    if (run.peaks.has(mode)) peaks_flops[std::string(model::name(mode))] = run.peaks.flops_per_s[mode];
  }
  json cases = json::array();
  for (const case_report& r : run.cases) {
    const prediction& p = r.predicted;
    const comparison& c = r.compared;
    json findings = json::array();
    for (const finding& f : r.findings)
      findings.push_back({{"severity", std::string(name(f.level))}, {"id", f.id}, {"message", f.message}});
    json predicted = bound_json(p.bound);
    predicted["flops"] = p.flops;
    predicted["read_bytes"] = p.read_bytes;
    predicted["written_bytes"] = p.written_bytes;
    predicted["bytes"] = p.bytes();
    predicted["math_mode"] = std::string(model::name(p.mode));
    predicted["math_mode_reason"] = p.mode_reason;
    predicted["dram_roof_bytes_per_s"] = p.dram_roof.bytes_per_s;
    predicted["dram_roof"] = p.dram_roof_text;
    json measured_bound = bound_json(c.measured_bound);
    cases.push_back({
        {"name", r.name},
        {"kernel", r.kernel},
        {"file", r.file},
        {"line", r.line},
        {"sizes", r.sizes},
        {"status", std::string(name(r.status))},
        {"predicted", predicted},
        {"measured", detail::to_json_value(r.measured)},
        {"compared",
         {{"traffic_measured", c.traffic_measured},
          {"cold", c.cold},
          {"observed_read_bytes", c.observed_read_bytes},
          {"observed_write_bytes", c.observed_write_bytes},
          {"observed_bytes", c.observed_bytes},
          {"dram_write_bytes", c.dram_write_bytes},
          {"read_ratio", c.read_ratio},
          {"write_ratio", c.write_ratio},
          {"total_ratio", c.total_ratio},
          {"dram_write_ratio", c.dram_write_ratio},
          {"observed_flops", c.observed_flops},
          {"flop_ratio", c.flop_ratio},
          {"measured_dot", measured_bound},
          {"levels", levels_json(c)},
          {"binding", c.binding_text()},
          {"binding_floor_s", c.binding_floor_s},
          {"t_measured_s", c.t_measured_s},
          {"roofline_fraction", c.roofline_fraction},
          {"achieved_flops_per_s", c.achieved_flops_per_s},
          {"achieved_bytes_per_s", c.achieved_bytes_per_s},
          {"flops_fraction_of_peak", c.flops_fraction_of_peak},
          {"bytes_fraction_of_peak", c.bytes_fraction_of_peak}}},
        {"tolerances",
         {{"read_ratio", r.bands.read_ratio},
          {"write_ratio", r.bands.write_ratio},
          {"total_ratio", r.bands.total_ratio},
          {"slack_bytes", r.bands.slack_bytes},
          {"not_cold_ratio", r.bands.not_cold_ratio}}},
        {"findings", findings},
        // The analyzer's prediction (manifest version 4), beside compared.levels; additive, [] when none.
        {"predicted_traffic", r.predicted_traffic},
        // The kernel's predicted ratio per level ("dram", "l2", "l1"; null: not predicted).
        {"predicted_ratio", predicted_ratio_json(r)},
        {"predicted_range", predicted_range_json(r)},
    });
    // The reference implementation of the same work beside the case (additive: only where one was measured).
    if (r.reference) {
      json ratios = json::object();
      for (const model::memory_level l : model::memory_levels)
        ratios[std::string(model::name(l))] = r.reference->level_ratio[static_cast<std::size_t>(l)] > 0
                                                  ? json(r.reference->level_ratio[static_cast<std::size_t>(l)])
                                                  : json(nullptr);
      cases.back()["reference"] = {{"name", r.reference->name}, {"roofline_fraction", r.reference->roofline_fraction},
                                   {"t_measured_s", r.reference->t_measured_s}, {"traffic_ratio", ratios}};
    }
    // Per-line traffic (report_lines.h), additive: only where it was collected or said why not.
    if (r.lines.collected || !r.lines.not_available.empty()) cases.back()["lines"] = detail::lines_json(r.lines);
  }
  json out = {
      {"schema", "rooflint-verify"},
      {"version", 2},  // 2: per-level traffic (compared.levels), observed_bytes is the DRAM level only
      {"device", run.device},
      {"peaks",
       {{"source", std::string(model::name(run.peaks.source))},
        {"label", run.peaks_label},
        {"device", run.peaks_device},
        {"dram_bytes_per_s", run.peaks.dram_bytes_per_s},
        {"levels", level_roofs_json(run.peaks)},
        {"flops_per_s", peaks_flops}}},
      {"counters_mode", run.counters_mode},
      {"warnings", run.warnings},
      {"exit_code", run.exit_code},
      {"cases", cases},
  };
  if (!run.baseline_verdicts.empty()) {
    json gate = json::array();
    for (const auto& [name, verdict] : run.baseline_verdicts) gate.push_back({{"name", name}, {"verdict", verdict}});
    out["baseline"] = gate;
  }
  if (run.ceilings_clocks)
    out["ceilings_clocks"] = {{"sm_mhz_min", run.ceilings_clocks->sm_mhz_min}, {"sm_mhz_max", run.ceilings_clocks->sm_mhz_max}};
  return out;
}
}  // namespace

std::string to_json(const run_report& run) { return report_value(run).dump(2) + "\n"; }

result<std::string> to_json_checked(const run_report& run) {
  const nlohmann::json value = report_value(run);
  // NaN is a figure not measured and is written as null on purpose; an infinity has no such meaning.
  if (const auto where = io::find_non_finite(value, io::nan_is_null))
    return error{error_code::internal, "'" + *where + "' is not a finite number"};
  return value.dump(2) + "\n";
}

}  // namespace rooflint::runtime
