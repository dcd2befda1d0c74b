// The terminal table and JUnit XML (report.h).

#include <fmt/format.h>

#include <string>

#include "rooflint/files/diagnostics.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/report.h"
#include "report/format.h"
#include "report/report_lines.h"

namespace rooflint::runtime {

using detail::bytes_text;
using detail::ratio_text;
using model::format_duration;
using model::format_significant;

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += ch;
    }
  }
  return out;
}

namespace {

std::string short_bound(model::bound b) { return b == model::bound::memory ? "memory" : "compute"; }

std::string status_text(case_status s) {
  switch (s) {
    case case_status::passed: return "PASS";
    case case_status::failed: return "FAIL";
    case case_status::skipped: return "SKIP";
    case case_status::error: return "ERROR";
  }
  return "?";
}

}  // namespace

namespace {

/// "8.85 GB 11x": a level's observed bytes and their ratio to its ideal; "-" when not measured.
std::string level_cell(const comparison& c, model::memory_level l) {
  const level_traffic* t = c.level(l);
  if (!t) return "-";
  return bytes_text(t->bytes()) + " " + ratio_text(t->ratio);
}

}  // namespace

/// The kernel's predicted ratio per level (its tensors' weighted by their compulsory bytes) beside the
/// observed one: "predicted for the kernel: DRAM 1x (observed 0.994x), L2 4x (observed 4.5x), L1 not
/// predicted (observed 4.5x)".
std::string predicted_against_observed(const case_report& r) {
  std::string out = "predicted for the kernel:";
  bool first = true;
  for (const model::memory_level l : model::memory_levels) {
    const predicted_level_ratio& p = r.predicted_ratio[static_cast<std::size_t>(l)];
    const level_traffic* t = r.compared.level(l);
    const std::string figure = !p.predicted() ? std::string("not predicted")
                               : p.kind == manifest::prediction_kind::range
                                   ? ratio_text(p.low) + " to " + ratio_text(p.high) +
                                         (p.pointed ? " (point " + ratio_text(p.ratio) + ")" : " (no point)")
                                   : ratio_text(p.ratio);
    out += std::string(first ? " " : ", ") + std::string(model::label(l)) + " " + figure;
    if (t && t->measured && t->ratio > 0) out += " (observed " + ratio_text(t->ratio) + ")";
    first = false;
  }
  return out;
}

std::string to_table(const run_report& run) {
  std::string out;
  out += fmt::format("{}: {} | peaks: {} | counters: {}\n", run.tool, run.device.empty() ? "no device" : run.device,
                     run.peaks_label, run.counters_mode);
  for (const auto& w : run.warnings) out += "warning: " + w + "\n";
  // The roofs per level: a kernel's bytes at a level meet the roof of their read/write mix.
  std::string roofs;
  for (const model::memory_level l : model::memory_levels) {
    const model::level_roofs& r = run.peaks.level(l);
    if (!r.known()) continue;
    const auto one = [](const char* what, double v) {
      return v > 0 ? std::string(what) + " " + detail::rate_text(v, "B") : std::string();
    };
    std::string parts;
    for (const std::string& p : {one("read", r.read_bytes_per_s), one("write", r.write_bytes_per_s), one("copy", r.copy_bytes_per_s)})
      if (!p.empty()) parts += (parts.empty() ? "" : ", ") + p;
    roofs += (roofs.empty() ? "" : "; ") + std::string(model::label(l)) + " " + parts;
  }
  if (!roofs.empty()) out += "roofs: " + roofs + " (each level's bytes meet the roof of their read/write mix)\n";
  // One column per level, each with that level's bytes and their ratio to its ideal; never a sum of levels.
  constexpr const char* row = "{:<32} {:<6} {:<17} {:<7} {:>20} {:>20} {:>20} {:>10} {:>10} {:>10} {:>6} {:>7}\n";
  out += fmt::format(row, "case", "status", "bound pred->meas", "binds", "DRAM bytes (xideal)", "L2 bytes (xideal)",
                     "L1 bytes (xideal)", "time", "t_min", "floor", "roof%", "FLOP");
  for (const case_report& r : run.cases) {
    const comparison& c = r.compared;
    const prediction& p = r.predicted;
    const bool measured = r.status == case_status::passed || r.status == case_status::failed;
    const std::string bound = p.bound.t_min_s > 0 ? short_bound(p.bound.verdict) + "->" + (measured ? short_bound(c.measured_bound.verdict) : "?")
                                                  : std::string("-");
    const std::string time = c.t_measured_s > 0 ? format_duration(c.t_measured_s) : "-";
    const std::string fraction = c.t_measured_s > 0 ? format_significant(100 * c.roofline_fraction, 3) : "-";
    const std::string flops = c.flop_ratio > 0 ? ratio_text(c.flop_ratio) : "-";
    out += fmt::format(row, r.name, status_text(r.status), bound, measured ? c.binding_text() : std::string("-"),
                       level_cell(c, model::memory_level::dram), level_cell(c, model::memory_level::l2),
                       level_cell(c, model::memory_level::l1), time,
                       p.bound.t_min_s > 0 ? format_duration(p.bound.t_min_s) : std::string("-"),
                       measured && c.binding_floor_s > 0 ? format_duration(c.binding_floor_s) : std::string("-"), fraction, flops);
    // Beside the observed ratios above: what the analyzer predicted from the access pattern.
    for (const std::string& p : r.predicted_traffic) out += "  predicted (access pattern): " + p + "\n";
    if (!r.predicted_traffic.empty()) out += "  " + predicted_against_observed(r) + "\n";
    // Beside its reference implementation (a remark, printed for a passing case too).
    for (const finding& f : r.findings)
      if (f.id == diagnostics::reference.name && f.level == severity::remark && r.status == case_status::passed)
        out += fmt::format("  {}: {} [{}]\n", name(f.level), f.message, f.id);
    // Per-line traffic: for a failed case, or every case when asked (line_report::show_always).
    if (r.status == case_status::failed || r.lines.show_always) out += detail::lines_text(r.lines);
    for (const finding& f : r.findings)
      if (f.level != severity::remark || r.status != case_status::passed)
        out += fmt::format("  {}: {} [{}]\n", name(f.level), f.message, f.id);
  }
  int counts[4] = {};
  for (const case_report& r : run.cases) ++counts[static_cast<int>(r.status)];
  out += fmt::format("{} cases: {} passed, {} failed, {} skipped, {} could not be measured\n", run.cases.size(),
                     counts[0], counts[1], counts[2], counts[3]);
  return out;
}

std::string to_junit(const run_report& run) {
  int failures = 0, errors = 0, skipped = 0;
  double total_s = 0;
  for (const case_report& r : run.cases) {
    failures += r.status == case_status::failed;
    errors += r.status == case_status::error;
    skipped += r.status == case_status::skipped;
    total_s += r.compared.t_measured_s;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"rooflint-verify\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
                     run.cases.size(), failures, errors, skipped);
  out += fmt::format("  <testsuite name=\"rooflint-verify\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">\n",
                     run.cases.size(), failures, errors, skipped, format_significant(total_s, 6));
  out += "    <properties>\n";
  out += fmt::format("      <property name=\"device\" value=\"{}\"/>\n", xml_escape(run.device));
  out += fmt::format("      <property name=\"peaks\" value=\"{}\"/>\n", xml_escape(run.peaks_label));
  out += fmt::format("      <property name=\"counters\" value=\"{}\"/>\n", xml_escape(run.counters_mode));
  out += "    </properties>\n";
  for (const case_report& r : run.cases) {
    out += fmt::format("    <testcase classname=\"rooflint.{}\" name=\"{}\" file=\"{}\" line=\"{}\" time=\"{}\">\n",
                       xml_escape(r.kernel), xml_escape(r.name), xml_escape(r.file), r.line,
                       format_significant(r.compared.t_measured_s, 6));
    std::string failing, all;
    for (const finding& f : r.findings) {
      const std::string line = std::string(name(f.level)) + ": " + f.message + " [" + f.id + "]\n";
      all += line;
      if (f.level == severity::error) failing += line;
    }
    if (r.status == case_status::failed) {
      const std::string first = failing.substr(0, failing.find('\n'));
      out += fmt::format("      <failure message=\"{}\" type=\"rooflint\">{}</failure>\n", xml_escape(first), xml_escape(failing));
    } else if (r.status == case_status::error) {
      out += fmt::format("      <error message=\"{}\" type=\"rooflint\">{}</error>\n", xml_escape(r.measured.error),
                         xml_escape(all));
    } else if (r.status == case_status::skipped) {
      out += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(r.measured.error));
    }
    if (!all.empty()) out += "      <system-out>" + xml_escape(all) + "</system-out>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace rooflint::runtime
