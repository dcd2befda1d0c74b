// The comparison of a case's measurement with its spec: traffic ratios, the measured dot, the verdicts.
// Pure host code: tested on recorded H200 numbers (tests/runtime/verify_compare_test.cpp).

#include <algorithm>
#include <cmath>
#include <string>

#include "rooflint/diagnostics.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/comparison.h"
#include "verify/format.h"

namespace rooflint::runtime {

std::string_view name(run_status s) {
  switch (s) {
    case run_status::measured: return "measured";
    case run_status::no_device: return "no_device";
    case run_status::faulted: return "faulted";
    case run_status::crashed: return "crashed";
    case run_status::bad_case: return "bad_case";
  }
  return "unknown";
}

std::string_view name(severity s) {
  switch (s) {
    case severity::remark: return "remark";
    case severity::note: return "note";
    case severity::warning: return "warning";
    case severity::error: return "error";
  }
  return "unknown";
}

std::string_view name(case_status s) {
  switch (s) {
    case case_status::passed: return "passed";
    case case_status::failed: return "failed";
    case case_status::skipped: return "skipped";
    case case_status::error: return "error";
  }
  return "unknown";
}

namespace {
double get(const std::map<std::string, double>& m, const char* key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}
}  // namespace

double counter_values::fp32_flops() const {
  return get(fp_instructions, "fadd") + get(fp_instructions, "fmul") + 2 * get(fp_instructions, "ffma");
}
double counter_values::fp64_flops() const {
  return get(fp_instructions, "dadd") + get(fp_instructions, "dmul") + 2 * get(fp_instructions, "dfma");
}
double counter_values::fp16_flops() const {
  return 2 * get(fp_instructions, "hadd") + 2 * get(fp_instructions, "hmul") + 4 * get(fp_instructions, "hfma");
}
double counter_values::tensor_flops() const {
  double sum = 0;
  for (const auto& [metric, ops] : tensor_ops) sum += ops;
  return sum;
}

tolerances tolerances_for(const dsl::spec& spec, double override_ratio, tolerances t) {
  const double ratio = spec.expected.max_traffic_ratio > 0 ? spec.expected.max_traffic_ratio : override_ratio;
  if (ratio > 0) t.read_ratio = t.write_ratio = t.total_ratio = ratio;
  return t;
}

namespace {

using detail::bytes_text;
using detail::ratio_text;
using model::format_duration;
using model::format_significant;

// Every id is an entry of the registry (rooflint/diagnostics.h), which the analyzer shares.
void add(case_report& r, severity level, const diagnostics::diagnostic& d, std::string message) {
  r.findings.push_back({level, std::string(d.name), std::move(message)});
}

const diagnostics::diagnostic& case_diagnostic(run_status s) {
  switch (s) {
    case run_status::faulted: return diagnostics::case_faulted;
    case run_status::crashed: return diagnostics::case_crashed;
    default: return diagnostics::case_bad_case;
  }
}

std::string sizes_text(const dsl::spec& spec, const dsl::sizes& s) {
  std::string out;
  for (int i = 0; i < spec.dim_count; ++i) {
    if (!out.empty()) out += ", ";
    out += std::string(spec.dims[i].name.view()) + "=" + format_significant(s[i], 15);
  }
  return out;
}

double ratio(double observed, double compulsory) { return compulsory > 0 ? observed / compulsory : 0; }

void check_traffic(case_report& r, const model::peaks& peaks) {
  const prediction& p = r.predicted;
  comparison& c = r.compared;
  const tolerances& b = r.bands;
  const std::string kernel = "kernel '" + r.kernel + "'";

  if (p.read_bytes > b.slack_bytes && c.observed_read_bytes < b.not_cold_ratio * p.read_bytes) {
    c.cold = false;
    add(r, severity::warning, diagnostics::not_cold,
        "not a cold measurement: " + kernel + " read " + bytes_text(c.observed_read_bytes) + " from DRAM, " +
            ratio_text(c.read_ratio) + " of its " + bytes_text(p.read_bytes) +
            " of compulsory reads; the inputs were resident in L2 (a persisting-L2 window, or a flush that did not "
            "evict them), so the traffic check is void");
    return;
  }
  if (p.written_bytes > b.slack_bytes && c.observed_write_bytes < b.not_cold_ratio * p.written_bytes)
    add(r, severity::warning, diagnostics::missing_writes,
        kernel + " stored " + bytes_text(c.observed_write_bytes) + " to L2, " + ratio_text(c.write_ratio) + " of its " +
            bytes_text(p.written_bytes) + " of compulsory writes; it writes less than the spec says");

  const bool excess_read = c.observed_read_bytes > b.read_ratio * p.read_bytes + b.slack_bytes;
  const bool excess_write = c.observed_write_bytes > b.write_ratio * p.written_bytes + b.slack_bytes;
  const bool excess_total = c.observed_bytes > b.total_ratio * p.bytes() + 2 * b.slack_bytes;
  if (!excess_read && !excess_write && !excess_total) return;

  std::string what = kernel + " moves " + bytes_text(c.observed_bytes) + ", " + ratio_text(c.total_ratio) +
                     " its " + bytes_text(p.bytes()) + " of compulsory bytes (reads " + ratio_text(c.read_ratio) +
                     ", writes " + ratio_text(c.write_ratio) + "; tolerance " + format_significant(b.total_ratio) + "x)";
  const model::bound_result& o = c.measured_bound;
  const std::string ai = "true intensity " + format_significant(o.intensity) + " FLOP/byte";
  const std::string ridge = "the ridge " + format_significant(o.ridge) + " FLOP/byte";
  const bool memory_floor = o.verdict == model::bound::memory;  // the roof that sets t_min (model::floor_roof)
  if (!memory_floor) {
    add(r, severity::note, diagnostics::ideal_traffic,
        what + "; it stays compute-bound (" + ai + " is above " + ridge + ") and its floor " +
            format_duration(p.bound.t_min_s) + " is unchanged");
    return;
  }
  if (p.bound.verdict == model::bound::compute) {
    add(r, severity::error, diagnostics::ideal_traffic,
        what + "; the dot crosses the ridge: " + ai + " is below " + ridge + ", so memory time " +
            format_duration(o.memory_time_s) + " becomes the floor instead of compute time " +
            format_duration(p.bound.compute_time_s) + " on " + std::string(peaks.device));
    return;
  }
  add(r, severity::error, diagnostics::ideal_traffic,
      what + "; the memory-bound floor rises from " + format_duration(p.bound.t_min_s) + " to " +
          format_duration(o.t_min_s) + " (" + ai + ", " + ridge + " on " + std::string(peaks.device) + ")");
}

}  // namespace

case_report compare(const case_input& in, const measurement& m, const model::peaks& peaks, const tolerances& bands) {
  case_report r;
  r.name = in.name;
  r.measured = m;
  r.bands = bands;
  const dsl::spec& spec = *in.spec;
  r.kernel = std::string(spec.kernel_name.view());
  r.sizes = sizes_text(spec, in.sizes);

  prediction& p = r.predicted;
  p.flops = spec.flops_at(in.sizes);
  p.read_bytes = spec.read_bytes_at(in.sizes);
  p.written_bytes = spec.written_bytes_at(in.sizes);
  p.mode = spec.mode;
  const bool have_peaks = peaks.dram_bytes_per_s > 0 && peaks.has(p.mode);  // a ridge needs both roofs
  if (have_peaks) p.bound = model::classify({p.flops, p.bytes(), p.mode}, peaks);

  switch (m.status) {
    case run_status::measured: break;
    case run_status::no_device:
      r.status = case_status::skipped;
      add(r, severity::remark, diagnostics::no_device, "not measured: no usable CUDA device (the reason is above)");
      return r;
    case run_status::faulted:
    case run_status::crashed:
    case run_status::bad_case:
      r.status = case_status::error;
      add(r, severity::error, case_diagnostic(m.status), m.error);
      return r;
  }

  comparison& c = r.compared;
  const counter_values& k = m.counters;
  c.traffic_measured = k.available;
  if (k.available) {
    c.observed_read_bytes = k.dram_read_bytes;
    c.observed_write_bytes = k.l2_write_bytes();
    c.dram_write_bytes = k.dram_write_bytes;
    c.observed_bytes = c.observed_read_bytes + c.observed_write_bytes;
    c.read_ratio = ratio(c.observed_read_bytes, p.read_bytes);
    c.write_ratio = ratio(c.observed_write_bytes, p.written_bytes);
    c.dram_write_ratio = ratio(c.dram_write_bytes, p.written_bytes);
    c.total_ratio = ratio(c.observed_bytes, p.bytes());
  } else {
    add(r, severity::warning, diagnostics::timing_only,
        "traffic not measured; timing-only verdicts: " +
            (k.unavailable_reason.empty() ? std::string("counters unavailable") : k.unavailable_reason));
  }
  if (!have_peaks) {
    r.status = case_status::error;
    add(r, severity::error, diagnostics::no_peaks,
        peaks.dram_bytes_per_s > 0
            ? "no " + std::string(model::label(p.mode)) + " compute ceiling for this device: measure it with rooflint-ceilings, or choose another math mode in the spec"
            : std::string("no peaks for this device: pass --ceilings FILE (rooflint-ceilings)"));
    return r;
  }
  c.measured_bound = model::classify({p.flops, k.available ? c.observed_bytes : p.bytes(), p.mode}, peaks);
  if (k.available) check_traffic(r, peaks);
  if (k.available && !c.cold)  // the traffic check is void: judge the bound on compulsory bytes
    c.measured_bound = model::classify({p.flops, p.bytes(), p.mode}, peaks);
  for (const auto& note : k.notes) add(r, severity::remark, diagnostics::counters, note);

  if (k.fp_available || k.tensor_available) {
    c.observed_flops = k.flops();
    c.flop_ratio = ratio(c.observed_flops, p.flops);
    if (p.flops > 0)
      add(r, severity::remark, diagnostics::flops,
          "executed " + detail::count_text(c.observed_flops, "FLOP") + ", " + ratio_text(c.flop_ratio) + " the " +
              detail::count_text(p.flops, "FLOP") + " ideal (" + dsl::to_string(spec.convention) + ")");
    else if (c.observed_flops > 0)
      add(r, severity::remark, diagnostics::flops,
          "executed " + detail::count_text(c.observed_flops, "FLOP") + "; the spec counts 0 ideal FLOP (" +
              dsl::to_string(spec.convention) + ")");
  }

  c.t_measured_s = m.timing.available ? m.timing.median_s : (k.available ? k.duration_s : 0);
  if (c.t_measured_s > 0) {
    const double t = c.t_measured_s;
    c.roofline_fraction = model::roofline_fraction(p.bound.t_min_s, t);
    c.achieved_flops_per_s = p.flops / t;
    c.achieved_bytes_per_s = (k.available ? c.observed_bytes : p.bytes()) / t;
    if (peaks.flops_per_s[p.mode] > 0) c.flops_fraction_of_peak = c.achieved_flops_per_s / peaks.flops_per_s[p.mode];
    if (peaks.dram_bytes_per_s > 0) c.bytes_fraction_of_peak = c.achieved_bytes_per_s / peaks.dram_bytes_per_s;
    if (t < bands.faster_than_roof * p.bound.t_min_s)
      add(r, severity::error, diagnostics::faster_than_roof,
          "kernel '" + r.kernel + "' ran in " + format_duration(t) + ", below its floor t_min " +
              format_duration(p.bound.t_min_s) + " on " + std::string(peaks.device) + " (" +
              std::string(model::name(peaks.source)) + " peaks); the ceilings or the spec are wrong");
  }

  const auto expected = spec.expected.bound;
  if (expected != dsl::expected_bound::any) {
    const auto want = expected == dsl::expected_bound::memory ? model::bound::memory : model::bound::compute;
    if (c.measured_bound.verdict != want)
      add(r, severity::error, diagnostics::expectation,
          "kernel '" + r.kernel + "' is expected " + std::string(model::name(want)) + " but its measured dot is " +
              std::string(model::name(c.measured_bound.verdict)) + " (intensity " +
              format_significant(c.measured_bound.intensity) + " FLOP/byte, ridge " +
              format_significant(c.measured_bound.ridge) + " FLOP/byte)");
  }
  if (spec.expected.min_roofline_fraction > 0 && c.t_measured_s > 0 &&
      c.roofline_fraction < spec.expected.min_roofline_fraction)
    add(r, severity::error, diagnostics::roofline_fraction,
        "kernel '" + r.kernel + "' reaches " + format_significant(100 * c.roofline_fraction) +
            "% of its roofline (t_min " + format_duration(p.bound.t_min_s) + ", measured " +
            format_duration(c.t_measured_s) + "); the spec expects at least " +
            format_significant(100 * spec.expected.min_roofline_fraction) + "%");

  const bool failed = std::any_of(r.findings.begin(), r.findings.end(),
                                  [](const finding& f) { return f.level == severity::error; });
  r.status = failed ? case_status::failed : case_status::passed;
  return r;
}

std::string clock_warning(const timing_values& t, const counter_values& c,
                          const std::optional<ceilings::clock_state>& ceilings_clocks, double tolerance) {
  if (!ceilings_clocks || ceilings_clocks->sm_mhz_max <= 0) return {};
  const double lo = ceilings_clocks->sm_mhz_min * (1 - tolerance), hi = ceilings_clocks->sm_mhz_max * (1 + tolerance);
  const std::string range = format_significant(ceilings_clocks->sm_mhz_min, 4) + "-" +
                            format_significant(ceilings_clocks->sm_mhz_max, 4) + " MHz";
  if (t.clock_available && (t.sm_mhz_mean < lo || t.sm_mhz_mean > hi))
    return "SM clock during the timed runs was " + format_significant(t.sm_mhz_mean, 4) +
           " MHz (NVML), outside the ceilings' " + range + "; the verdicts compare the kernel and the ceilings at different clocks";
  const double counter_mhz = c.sm_clock_hz / 1e6;
  if (c.available && counter_mhz > 0 && (counter_mhz < lo || counter_mhz > hi))
    return "effective SM clock while counting was " + format_significant(counter_mhz, 4) +
           " MHz (sm__cycles_elapsed.avg.per_second), outside the ceilings' " + range;
  return {};
}

}  // namespace rooflint::runtime
