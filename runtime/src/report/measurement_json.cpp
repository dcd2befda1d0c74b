// A measurement as JSON: the line a case's child process sends to the parent, and the "measured"
// part of the JSON report. Units are in the keys.

#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "rooflint/files/atomic_file.h"
#include "report/json_detail.h"
#include "report/measurement_json.h"

namespace rooflint::runtime {

namespace {

// Each part of a measurement is a table of (key, member) pairs: the writer and the reader walk the same
// table, so a field is named once. Numbers are doubles; NaN (a figure not measured) is written as null
// and read back as NaN. Derived figures (l2_read_bytes, fp32_flops, ...) are written for readers of the
// report and not read back: they follow from the fields.
template <class S>
using member = std::variant<double S::*, int S::*, bool S::*, std::string S::*, std::vector<std::string> S::*,
                            std::map<std::string, double> S::*, std::map<std::string, int> S::*>;

template <class S>
struct field {
  const char* key;
  member<S> at;
  bool since_l1 = false;  ///< absent in measurements recorded before the L1 level: left at its default
};

const field<device_snapshot> device_fields[] = {
    {"name", &device_snapshot::name},
    {"uuid", &device_snapshot::uuid},
    {"driver_version", &device_snapshot::driver_version},
    {"chip", &device_snapshot::chip},
    {"sm_count", &device_snapshot::sm_count},
    {"l2_bytes", &device_snapshot::l2_bytes},
    {"l2_flush_bytes", &device_snapshot::flush_bytes},
};

const field<counter_values> counter_fields[] = {
    {"available", &counter_values::available},
    {"unavailable_reason", &counter_values::unavailable_reason},
    {"permission_denied", &counter_values::permission_denied},
    {"dram_read_bytes", &counter_values::dram_read_bytes},
    {"dram_write_bytes", &counter_values::dram_write_bytes},
    {"l2_bytes", &counter_values::l2_bytes},
    {"l2_read_sectors", &counter_values::l2_read_sectors},
    {"l2_write_sectors", &counter_values::l2_write_sectors},
    {"l1_available", &counter_values::l1_available, true},
    {"l1_read_sectors", &counter_values::l1_read_sectors, true},
    {"l1_write_sectors", &counter_values::l1_write_sectors, true},
    {"duration_s", &counter_values::duration_s},
    {"sm_clock_hz", &counter_values::sm_clock_hz},
    {"fp_available", &counter_values::fp_available},
    {"fp_thread_instructions", &counter_values::fp_instructions},
    {"tensor_available", &counter_values::tensor_available},
    {"tensor_flops_by_metric", &counter_values::tensor_ops},
    {"passes", &counter_values::passes},
    {"ranges_per_group", &counter_values::ranges_expected},
    {"notes", &counter_values::notes},
    {"batched_user_range", &counter_values::batched_user_range, true},
};

const field<timing_values> timing_fields[] = {
    {"available", &timing_values::available},
    {"warmup_runs", &timing_values::warmup},
    {"repetitions", &timing_values::repetitions},
    {"median_s", &timing_values::median_s},
    {"min_s", &timing_values::min_s},
    {"max_s", &timing_values::max_s},
    {"clock_available", &timing_values::clock_available},
    {"sm_mhz_min", &timing_values::sm_mhz_min},
    {"sm_mhz_max", &timing_values::sm_mhz_max},
    {"sm_mhz_mean", &timing_values::sm_mhz_mean},
    {"throttle_reasons", &timing_values::throttle_reasons},
};

/// A number as written: null is NaN (not measured).
double number(const nlohmann::json& v) {
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

template <class S, std::size_t N>
nlohmann::json write_fields(const S& s, const field<S> (&fields)[N]) {
  nlohmann::json out = nlohmann::json::object();
  for (const field<S>& f : fields) std::visit([&](auto m) { out[f.key] = s.*m; }, f.at);
  return out;
}

/// Reads every field of @p fields from @p j (throws nlohmann's exception on a missing key or a wrong type).
template <class S, std::size_t N>
void read_fields(const nlohmann::json& j, S& s, const field<S> (&fields)[N]) {
  for (const field<S>& f : fields) {
    if (f.since_l1 && !j.contains(f.key)) continue;
    const nlohmann::json& v = j.at(f.key);
    std::visit(
        [&](auto m) {
          using T = std::remove_reference_t<decltype(s.*m)>;
          if constexpr (std::is_same_v<T, double>) {
            s.*m = number(v);
          } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
            for (const auto& [k, x] : v.items()) (s.*m)[k] = number(x);
          } else {
            s.*m = v.get<T>();
          }
        },
        f.at);
  }
}

}  // namespace

namespace detail {

nlohmann::json to_json_value(const measurement& m) {
  using nlohmann::json;
  const counter_values& k = m.counters;
  json device = write_fields(m.device, device_fields);
  device["compute_capability"] = std::to_string(m.device.cc_major) + "." + std::to_string(m.device.cc_minor);
  json counters = write_fields(k, counter_fields);
  counters["l2_read_bytes"] = k.l2_read_bytes();
  counters["l2_write_bytes"] = k.l2_write_bytes();
  counters["fp32_flops"] = k.fp32_flops();
  counters["fp64_flops"] = k.fp64_flops();
  counters["fp16_flops"] = k.fp16_flops();
  counters["tensor_flops"] = k.tensor_flops();
  return {
      {"case", m.case_name},
      {"run_status", std::string(name(m.status))},
      {"error", m.error},
      {"device", device},
      {"counters", counters},
      {"timing", write_fields(m.timing, timing_fields)},
  };
}

}  // namespace detail

std::string measurement_to_json(const measurement& m) {
  const nlohmann::json value = detail::to_json_value(m);
  // NaN is a figure not measured (written as null, read back as NaN); an infinity would read back as
  // NaN too and silently become "not measured": the case is reported as an error instead.
  if (const auto where = io::find_non_finite(value, io::nan_is_null)) {
    measurement refused{m.case_name, run_status::faulted,
                        "the measurement of case '" + m.case_name + "' holds an infinity at '" + *where + "'"};
    refused.device = m.device;
    return detail::to_json_value(refused).dump();
  }
  return value.dump();
}

result<measurement> measurement_from_json(const std::string& text) {
  using nlohmann::json;
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return error{error_code::internal, "malformed measurement from a case process"};
  try {
    measurement m;
    m.case_name = j.at("case").get<std::string>();
    const std::string status = j.at("run_status").get<std::string>();
    bool known = false;
    for (auto s : {run_status::measured, run_status::no_device, run_status::faulted, run_status::crashed, run_status::bad_case,
                   run_status::not_measured})
      if (name(s) == status) {
        m.status = s;
        known = true;
      }
    // Never "measured" by default: a status this parent does not know is an error.
    if (!known) return error{error_code::internal, "malformed measurement from a case process: unknown run_status '" + status + "'"};
    m.error = j.at("error").get<std::string>();
    const json& d = j.at("device");
    read_fields(d, m.device, device_fields);
    const std::string cc = d.at("compute_capability").get<std::string>();
    std::sscanf(cc.c_str(), "%d.%d", &m.device.cc_major, &m.device.cc_minor);
    read_fields(j.at("counters"), m.counters, counter_fields);
    read_fields(j.at("timing"), m.timing, timing_fields);
    return m;
  } catch (const json::exception& e) {
    return error{error_code::internal, std::string("malformed measurement from a case process: ") + e.what()};
  }
}

}  // namespace rooflint::runtime
