// A case beside its reference implementation of the same work (verify.h, pair_references).

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "rooflint/files/diagnostics.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime {

namespace {

bool same_work(const prediction& a, const prediction& b) {
  const auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y)); };
  return close(a.flops, b.flops) && close(a.bytes(), b.bytes());
}

/// The case @p name names: a case of that name, else a case of that kernel at @p sizes.
const case_report* find_case(const run_report& run, const std::string& name, const std::string& sizes) {
  for (const case_report& c : run.cases)
    if (c.name == name) return &c;
  for (const case_report& c : run.cases)
    if (c.kernel == name && c.sizes == sizes) return &c;
  return nullptr;
}

reference_result result_of(const case_report& ref) {
  reference_result out{ref.name, ref.compared.roofline_fraction, ref.compared.t_measured_s, {}};
  for (const level_traffic& l : ref.compared.levels)
    if (l.measured) out.level_ratio[static_cast<std::size_t>(l.level)] = l.ratio;
  return out;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

/// "reference 'sgemm_cublas_n4096' reaches 76.1% of the roofline floor, this kernel 10.8% (its time 7.04x
/// the reference's); bytes over compulsory, this kernel against the reference: DRAM 5.3x / 1.98x, ..."
std::string comparison_text(const case_report& c, const reference_result& ref) {
  std::string s = "reference '" + ref.name + "' reaches " + percent(ref.roofline_fraction) + " of the roofline floor, this kernel " +
                  percent(c.compared.roofline_fraction);
  if (ref.t_measured_s > 0 && c.compared.t_measured_s > 0)
    s += " (its time " + model::format_significant(c.compared.t_measured_s / ref.t_measured_s, 3) + "x the reference's)";
  std::string levels;
  for (const level_traffic& l : c.compared.levels) {
    const double theirs = ref.level_ratio[static_cast<std::size_t>(l.level)];
    if (!l.measured || l.ratio <= 0 || theirs <= 0) continue;
    levels += (levels.empty() ? "" : ", ") + std::string(model::label(l.level)) + " " + model::format_significant(l.ratio, 3) +
              "x / " + model::format_significant(theirs, 3) + "x";
  }
  return levels.empty() ? s : s + "; bytes over compulsory, this kernel / the reference: " + levels;
}

}  // namespace

void pair_references(run_report& run, const std::vector<reference_pair>& pairs) {
  for (const reference_pair& p : pairs)
    for (case_report& c : run.cases) {
      if (c.name != p.candidate && c.kernel != p.candidate) continue;
      if (c.compared.roofline_fraction <= 0) continue;  // not measured: the case says why, nothing to set beside
      const case_report* ref = find_case(run, p.reference, c.sizes);
      const std::string id(diagnostics::reference.name);
      if (!ref || ref->compared.roofline_fraction <= 0) {
        c.findings.push_back({severity::remark, id, "reference '" + p.reference + "' was not measured in this run (not selected, or not launched at " +
                                                        (c.sizes.empty() ? std::string("these sizes") : c.sizes) + ")"});
      } else if (!same_work(c.predicted, ref->predicted)) {
        c.findings.push_back({severity::warning, id,
                              "reference '" + ref->name + "' states other work (" + model::format_significant(ref->predicted.flops, 4) +
                                  " FLOP and " + model::format_significant(ref->predicted.bytes(), 4) + " compulsory bytes, against " +
                                  model::format_significant(c.predicted.flops, 4) + " and " +
                                  model::format_significant(c.predicted.bytes(), 4) + "): not compared"});
      } else {
        c.reference = result_of(*ref);
        c.findings.push_back({severity::remark, id, comparison_text(c, *c.reference)});
      }
    }
}

}  // namespace rooflint::runtime
