// The comparison of a case's measurement with its spec: traffic ratios, the measured dot, the verdicts.
// Pure host code: tested on recorded H200 numbers (tests/runtime/verify_compare_test.cpp).

#include <algorithm>
#include <cmath>
#include <string>

#include "rooflint/files/diagnostics.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/comparison.h"
#include "report/format.h"

namespace rooflint::runtime {

std::string_view name(run_status s) {
  switch (s) {
    case run_status::measured: return "measured";
    case run_status::no_device: return "no_device";
    case run_status::faulted: return "faulted";
    case run_status::crashed: return "crashed";
    case run_status::bad_case: return "bad_case";
    case run_status::not_measured: return "not_measured";
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

double counter_values::simt_flops(fp_precision precision) const {
  double sum = 0;
  for (const auto& c : sass_fp_counters)
    if (const auto it = fp_instructions.find(c.op); c.precision == precision && it != fp_instructions.end())
      sum += c.flops_per_instruction * it->second;
  return sum;
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
    case run_status::not_measured: return diagnostics::not_measured;
    default: return diagnostics::case_bad_case;
  }
}

double ratio(double observed, double compulsory) { return compulsory > 0 ? observed / compulsory : 0; }

bool is_tensor(model::math_mode m) { return m != model::math_mode::fp32_simt && m != model::math_mode::fp64; }

std::string_view op_name(dsl::op_kind k) {
  switch (k) {
    case dsl::op_kind::matmul: return "matmul";
    case dsl::op_kind::bmm: return "bmm";
    case dsl::op_kind::addmm: return "addmm";
    case dsl::op_kind::linear: return "linear";
    case dsl::op_kind::conv: return "convolution";
    case dsl::op_kind::attention: return "attention";
    case dsl::op_kind::elementwise: return "elementwise operation";
    case dsl::op_kind::reduction: return "reduction";
    case dsl::op_kind::softmax: return "softmax";
    case dsl::op_kind::layernorm: return "layernorm";
    case dsl::op_kind::custom: return "custom operation";
  }
  return "operation";
}

/// @return Which compute roof the spec's kernel meets and why (model::math_mode_by_operation).
std::string mode_reason(const dsl::spec& spec) {
  const std::string label(model::label(spec.mode));
  const std::string roof = label + (!is_tensor(spec.mode) ? " SIMT roof" : label.find("tensor") == std::string::npos ? " tensor roof" : " roof");
  if (spec.mode_chosen) return roof + ": chosen by the spec (.math)";
  if (spec.op.precision_stated)
    return roof + ": a " + std::string(op_name(spec.op.kind)) + " computing in " + std::string(model::name(spec.op.compute)) +
           " (accumulating in " + std::string(model::name(spec.op.accumulate)) + "), as the spec states (.precision)";
  std::string dtype = "f32";
  for (const auto& t : spec.tensor_list())
    if (t.access == dsl::role::read || t.access == dsl::role::read_write) {
      dtype = std::string(model::name(t.dtype));
      break;
    }
  const std::string what = "a " + std::string(op_name(spec.op.kind)) + " on " + dtype + " data";
  if (dsl::is_contraction(spec.op.kind))
    return roof + ": " + what + (is_tensor(spec.mode) ? " runs on tensor cores" : " runs on CUDA cores");
  return roof + ": " + what + " does its arithmetic on CUDA cores (no tensor-core path), in " +
         std::string(model::label(spec.mode)) + "; .math() chooses another roof";
}

/// The tensor-path metric that counts math mode @p m's operations (cupti.h's tensor_base_metrics).
std::string_view tensor_metric_of(model::math_mode m) {
  switch (m) {
    case model::math_mode::fp64_tensor: return "sm__ops_path_tensor_src_fp64.sum";
    case model::math_mode::tf32_tensor: return "sm__ops_path_tensor_src_tf32_dst_fp32.sum";
    case model::math_mode::fp16_tensor: return "sm__ops_path_tensor_src_fp16.sum";
    case model::math_mode::bf16_tensor: return "sm__ops_path_tensor_src_bf16_dst_fp32.sum";
    case model::math_mode::fp8_tensor: return "sm__ops_path_tensor_src_fp8.sum";
    case model::math_mode::int8_tensor: return "sm__ops_path_tensor_src_int8.sum";
    default: return {};
  }
}

/// Executed tensor precision against the declared one: an error when more than 1% of the tensor FLOPs
/// ran on another path than the spec's math mode.
void check_precision(case_report& r, const counter_values& k) {
  const prediction& p = r.predicted;
  if (!k.tensor_available || !is_tensor(p.mode)) return;
  const double total = k.tensor_flops();
  const std::string_view want = tensor_metric_of(p.mode);
  if (total <= 0) {
    if (p.flops > 0)
      add(r, severity::warning, diagnostics::precision,
          "kernel '" + r.kernel + "' executed no tensor-core operations, but the spec's roof is the " +
              std::string(model::label(p.mode)) + " tensor roof: its arithmetic ran on CUDA cores");
    return;
  }
  const auto it = k.tensor_ops.find(std::string(want));
  const double same = it == k.tensor_ops.end() ? 0 : it->second;
  if (same >= 0.99 * total) return;
  std::string other;
  double other_flops = 0;
  for (const auto& [metric, ops] : k.tensor_ops)
    if (metric != want && ops > other_flops) other = metric, other_flops = ops;
  add(r, severity::error, diagnostics::precision,
      "precision differs from the spec: " + format_significant(100 * (total - same) / total, 3) + "% of the " +
          detail::count_text(total, "FLOP") + " of tensor-core operations ran outside " + std::string(want) + " (most on " +
          other + "), but the spec declares the " + std::string(model::label(p.mode)) + " tensor roof");
}

std::string roof_text(model::memory_level level, const model::mix_roof& roof) {
  if (roof.bytes_per_s <= 0) return "no " + std::string(model::label(level)) + " ceiling measured";
  const char* which = roof.kind == model::mix_kind::read_only    ? "read"
                      : roof.kind == model::mix_kind::write_only ? "write"
                                                                 : "read/write-mix";
  return std::string(model::label(level)) + " " + which + " roof " + detail::rate_text(roof.bytes_per_s, "B") + " (" +
         std::string(model::name(roof.kind)) + ", " + format_significant(100 * roof.write_fraction, 3) + "% of the bytes written)";
}

/// Fills the per-level traffic of @p r from the counters: bytes, ratio, roof, intensity and floor.
void measure_levels(case_report& r, const counter_values& k, const model::peaks& peaks) {
  const prediction& p = r.predicted;
  comparison& c = r.compared;
  for (const model::memory_level level : model::memory_levels) {
    level_traffic t;
    t.level = level;
    t.ideal_read_bytes = p.read_bytes;
    t.ideal_write_bytes = p.written_bytes;
    switch (level) {
      case model::memory_level::dram:
        t.measured = k.available;
        t.read_bytes = k.dram_read_bytes;
        t.write_bytes = k.dram_write_bytes;
        break;
      case model::memory_level::l2:
        t.measured = k.available;
        t.read_bytes = k.l2_read_bytes();
        t.write_bytes = k.l2_write_bytes();
        break;
      case model::memory_level::l1:
        t.measured = k.available && k.l1_available;
        t.read_bytes = k.l1_read_bytes();
        t.write_bytes = k.l1_write_bytes();
        break;
    }
    if (!t.measured) continue;
    t.ratio = ratio(t.bytes(), t.ideal_bytes());
    t.roof = model::level_roof(peaks, level, t.read_bytes, t.write_bytes);
    t.roof_text = roof_text(level, t.roof);
    t.intensity = t.bytes() > 0 ? p.flops / t.bytes() : 0;
    t.floor_s = t.roof.bytes_per_s > 0 ? t.bytes() / t.roof.bytes_per_s : 0;
    c.levels.push_back(std::move(t));
  }
}

/// @return "bound by L2: floor 3.1 ms (compute 2.1 ms, DRAM 1.2 ms, L2 3.1 ms, L1 0.8 ms)".
std::string binding_text(const comparison& c, const prediction& p) {
  std::string out = "bound by " + c.binding_text() + ": floor " + format_duration(c.binding_floor_s) + " (compute " +
                    format_duration(p.bound.compute_time_s);
  if (c.levels.empty()) out += ", DRAM " + format_duration(p.bound.memory_time_s) + " at compulsory bytes";
  for (const auto& t : c.levels)
    out += ", " + std::string(model::label(t.level)) + " " + (t.floor_s > 0 ? format_duration(t.floor_s) : std::string("no ceiling"));
  return out + ")";
}

/// The binding level: the largest floor among compute time and each level's floor.
void find_binding(comparison& c, const prediction& p, const model::peaks& peaks) {
  c.binding.reset();
  c.binding_floor_s = p.bound.compute_time_s;
  const level_traffic* bind = nullptr;
  for (const auto& t : c.levels)
    if (t.floor_s > c.binding_floor_s) {
      c.binding_floor_s = t.floor_s;
      c.binding = t.level;
      bind = &t;
    }
  // The measured dot at the binding level (DRAM when compute binds): ideal FLOPs over that level's bytes,
  // against that level's roof for the mix.
  const level_traffic* dot = bind ? bind : c.level(model::memory_level::dram);
  if (!dot) return;
  model::peaks at_level = peaks;
  if (dot->roof.bytes_per_s > 0) at_level.dram_bytes_per_s = dot->roof.bytes_per_s;
  if (at_level.dram_bytes_per_s > 0) c.measured_bound = model::classify({p.flops, dot->bytes(), p.mode}, at_level);
}

void check_levels(case_report& r, const model::peaks& peaks) {
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

  const double t_min = p.bound.t_min_s;
  for (const level_traffic& t : c.levels) {
    const std::string lv = std::string(model::label(t.level));
    const bool excess = t.bytes() > b.total_ratio * t.ideal_bytes() + 2 * b.slack_bytes;
    if (!excess) continue;
    std::string what = kernel + " moves " + bytes_text(t.bytes()) + " at " + lv + " (reads " + bytes_text(t.read_bytes) +
                       ", writes " + bytes_text(t.write_bytes) + "), " + ratio_text(t.ratio) + " its " +
                       bytes_text(t.ideal_bytes()) + " of compulsory bytes (tolerance " +
                       format_significant(b.total_ratio) + "x)";
    if (t.floor_s <= 0) {
      add(r, severity::note, diagnostics::ideal_traffic,
          what + "; " + roof_text(t.level, t.roof) + ", so its floor at " + lv + " is unknown (rooflint-ceilings measures it)");
      continue;
    }
    const std::string floor = "its " + lv + " floor " + format_duration(t.floor_s) + " = " + bytes_text(t.bytes()) + " / " +
                              t.roof_text;
    if (t.floor_s > b.total_ratio * t_min) {
      std::string why;
      if (p.bound.verdict == model::bound::compute)
        why = "the dot crosses the ridge at " + lv + ": intensity " + format_significant(t.intensity) + " FLOP/byte there, so " +
              lv + " time becomes the floor instead of compute time " + format_duration(p.bound.compute_time_s);
      else
        why = "the memory-bound floor rises from " + format_duration(t_min) + " at compulsory DRAM traffic to " +
              format_duration(t.floor_s) + " at " + lv;
      add(r, severity::error, diagnostics::ideal_traffic,
          what + "; " + floor + ", above the predicted floor t_min " + format_duration(t_min) + " on " +
              std::string(peaks.device) + ": " + why);
    } else {
      add(r, severity::note, diagnostics::ideal_traffic,
          what + "; " + floor + " stays under the predicted floor t_min " + format_duration(t_min) + " (" +
              (p.bound.verdict == model::bound::compute ? "compute-bound" : "memory-bound at DRAM") + "), so it is unchanged");
    }
  }
}

}  // namespace

case_report compare(const case_input& in, const measurement& m, const model::peaks& peaks, const tolerances& bands) {
  case_report r;
  r.name = in.name;
  r.measured = m;
  r.bands = bands;
  const dsl::spec& spec = *in.spec;
  r.kernel = std::string(spec.kernel_name.view());
  r.sizes = dsl::sizes_text(spec, in.sizes);

  prediction& p = r.predicted;
  p.flops = spec.flops_at(in.sizes);
  p.read_bytes = spec.read_bytes_at(in.sizes);
  p.written_bytes = spec.written_bytes_at(in.sizes);
  p.mode = spec.mode;
  p.mode_reason = mode_reason(spec);
  p.dram_roof = model::level_roof(peaks, model::memory_level::dram, p.read_bytes, p.written_bytes);
  p.dram_roof_text = roof_text(model::memory_level::dram, p.dram_roof);
  // The predicted dot meets the DRAM roof of its compulsory read/write mix.
  const model::peaks dram_peaks = model::peaks_at_mix(peaks, p.read_bytes, p.written_bytes);
  const bool have_peaks = dram_peaks.dram_bytes_per_s > 0 && peaks.has(p.mode);  // a ridge needs both roofs
  if (have_peaks) p.bound = model::classify({p.flops, p.bytes(), p.mode}, dram_peaks);

  switch (m.status) {
    case run_status::measured: break;
    case run_status::no_device:
      r.status = case_status::skipped;
      add(r, severity::remark, diagnostics::no_device, "not measured: no device (the reason is in the run's warnings)");
      return r;
    case run_status::faulted:
    case run_status::crashed:
    case run_status::bad_case:
    case run_status::not_measured:
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
    c.observed_bytes = c.observed_read_bytes + c.dram_write_bytes;  // the DRAM level only
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
  c.measured_bound = p.bound;  // without counters (or not cold): the compulsory dot
  c.binding_floor_s = p.bound.t_min_s;
  c.binding = p.bound.verdict == model::bound::compute ? std::nullopt : std::optional(model::memory_level::dram);
  if (k.available) {
    measure_levels(r, k, peaks);
    check_levels(r, peaks);
    if (c.cold) find_binding(c, p, peaks);
    else c.levels.clear();  // the traffic check is void: judge the bound on compulsory bytes
  }
  add(r, severity::remark, diagnostics::binding, binding_text(c, p));
  for (const auto& note : k.notes) add(r, severity::remark, diagnostics::counters, note);

  check_precision(r, k);
  if (k.fp_available || k.tensor_available) {
    c.observed_flops = k.flops();
    c.flop_ratio = ratio(c.observed_flops, p.flops);
    if (p.flops > 0)
      add(r, severity::remark, diagnostics::flops,
          "executed " + detail::count_text(c.observed_flops, "FLOP") + ", " + ratio_text(c.flop_ratio) + " the " +
              detail::count_text(p.flops, "FLOP") + " ideal (" + dsl::flop_basis(spec) + ")");
    else if (c.observed_flops > 0)
      add(r, severity::remark, diagnostics::flops,
          "executed " + detail::count_text(c.observed_flops, "FLOP") + "; the spec counts 0 ideal FLOP (" +
              dsl::flop_basis(spec) + ")");
  }

  c.t_measured_s = m.timing.available ? m.timing.median_s : (k.available ? k.duration_s : 0);
  if (c.t_measured_s > 0) {
    const double t = c.t_measured_s;
    c.roofline_fraction = model::roofline_fraction(p.bound.t_min_s, t);
    c.achieved_flops_per_s = p.flops / t;
    c.achieved_bytes_per_s = (k.available ? c.observed_bytes : p.bytes()) / t;
    if (peaks.flops_per_s[p.mode] > 0) c.flops_fraction_of_peak = c.achieved_flops_per_s / peaks.flops_per_s[p.mode];
    if (dram_peaks.dram_bytes_per_s > 0) c.bytes_fraction_of_peak = c.achieved_bytes_per_s / dram_peaks.dram_bytes_per_s;
    if (t < bands.faster_than_roof * p.bound.t_min_s)
      add(r, severity::error, diagnostics::faster_than_roof,
          "kernel '" + r.kernel + "' ran in " + format_duration(t) + ", below its floor t_min " +
              format_duration(p.bound.t_min_s) + " on " + std::string(peaks.device) + " (" +
              std::string(model::name(peaks.source)) + " peaks, " + p.dram_roof_text + "); the ceilings or the spec are wrong");
  }

  if (const auto expected = dsl::expected_verdict(spec.expected.bound)) {
    const model::bound want = *expected;
    if (c.measured_bound.verdict != want)
      add(r, severity::error, diagnostics::expectation,
          "kernel '" + r.kernel + "' is expected " + std::string(model::name(want)) + " but its measured dot is " +
              std::string(model::name(c.measured_bound.verdict)) + " (bound by " + c.binding_text() + "; intensity " +
              format_significant(c.measured_bound.intensity) + " FLOP/byte, ridge " +
              format_significant(c.measured_bound.ridge) + " FLOP/byte" +
              (!c.binding ? std::string() : " at " + c.binding_text()) + ")");
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
