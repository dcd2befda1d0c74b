// A measurement as JSON: the line a case's child process sends to the parent, and the "measured"
// part of the JSON report. Units are in the keys.

#include <limits>
#include <nlohmann/json.hpp>

#include "rooflint/io/atomic_file.h"
#include "verify/json_detail.h"
#include "verify/measurement_json.h"

namespace rooflint::runtime {

namespace detail {

nlohmann::json to_json_value(const measurement& m) {
  using nlohmann::json;
  const counter_values& k = m.counters;
  const timing_values& t = m.timing;
  json fp = json::object(), tensor = json::object(), passes = json::object();
  for (const auto& [op, v] : k.fp_instructions) fp[op] = v;
  for (const auto& [metric, v] : k.tensor_ops) tensor[metric] = v;
  for (const auto& [group, v] : k.passes) passes[group] = v;
  return {
      {"case", m.case_name},
      {"run_status", std::string(name(m.status))},
      {"error", m.error},
      {"device",
       {{"name", m.device.name}, {"uuid", m.device.uuid}, {"driver_version", m.device.driver_version}, {"chip", m.device.chip}, {"compute_capability", std::to_string(m.device.cc_major) + "." + std::to_string(m.device.cc_minor)},
        {"sm_count", m.device.sm_count}, {"l2_bytes", m.device.l2_bytes}, {"l2_flush_bytes", m.device.flush_bytes}}},
      {"counters",
       {{"available", k.available},
        {"unavailable_reason", k.unavailable_reason},
        {"permission_denied", k.permission_denied},
        {"dram_read_bytes", k.dram_read_bytes},
        {"dram_write_bytes", k.dram_write_bytes},
        {"l2_bytes", k.l2_bytes},
        {"l2_read_sectors", k.l2_read_sectors},
        {"l2_write_sectors", k.l2_write_sectors},
        {"l2_read_bytes", k.l2_read_bytes()},
        {"l2_write_bytes", k.l2_write_bytes()},
        {"l1_available", k.l1_available},
        {"l1_read_sectors", k.l1_read_sectors},
        {"l1_write_sectors", k.l1_write_sectors},
        {"duration_s", k.duration_s},
        {"sm_clock_hz", k.sm_clock_hz},
        {"fp_available", k.fp_available},
        {"fp_thread_instructions", fp},
        {"fp32_flops", k.fp32_flops()},
        {"fp64_flops", k.fp64_flops()},
        {"fp16_flops", k.fp16_flops()},
        {"tensor_available", k.tensor_available},
        {"tensor_flops_by_metric", tensor},
        {"tensor_flops", k.tensor_flops()},
        {"passes", passes},
        {"ranges_per_group", k.ranges_expected},
        {"notes", k.notes}}},
      {"timing",
       {{"available", t.available},
        {"warmup_runs", t.warmup},
        {"repetitions", t.repetitions},
        {"median_s", t.median_s},
        {"min_s", t.min_s},
        {"max_s", t.max_s},
        {"clock_available", t.clock_available},
        {"sm_mhz_min", t.sm_mhz_min},
        {"sm_mhz_max", t.sm_mhz_max},
        {"sm_mhz_mean", t.sm_mhz_mean},
        {"throttle_reasons", t.throttle_reasons}}},
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

namespace {
/// A number written by to_json_value: NaN (a figure not measured) is written as null; infinities are refused.
double number(const nlohmann::json& j, const char* key) {
  const auto& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}
}  // namespace

result<measurement> measurement_from_json(const std::string& text) {
  using nlohmann::json;
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return error{error_code::internal, "malformed measurement from a case process"};
  try {
    measurement m;
    m.case_name = j.at("case").get<std::string>();
    const std::string status = j.at("run_status").get<std::string>();
    bool known = false;
    for (auto s : {run_status::measured, run_status::no_device, run_status::faulted, run_status::crashed, run_status::bad_case})
      if (name(s) == status) {
        m.status = s;
        known = true;
      }
    // Never "measured" by default: a status this parent does not know is an error.
    if (!known) return error{error_code::internal, "malformed measurement from a case process: unknown run_status '" + status + "'"};
    m.error = j.at("error").get<std::string>();
    const json& d = j.at("device");
    m.device.name = d.at("name").get<std::string>();
    m.device.uuid = d.at("uuid").get<std::string>();
    m.device.driver_version = d.at("driver_version").get<std::string>();
    m.device.chip = d.at("chip").get<std::string>();
    const std::string cc = d.at("compute_capability").get<std::string>();
    std::sscanf(cc.c_str(), "%d.%d", &m.device.cc_major, &m.device.cc_minor);
    m.device.sm_count = d.at("sm_count").get<int>();
    m.device.l2_bytes = number(d, "l2_bytes");
    m.device.flush_bytes = number(d, "l2_flush_bytes");
    const json& c = j.at("counters");
    counter_values& k = m.counters;
    k.available = c.at("available").get<bool>();
    k.unavailable_reason = c.at("unavailable_reason").get<std::string>();
    k.permission_denied = c.at("permission_denied").get<bool>();
    k.dram_read_bytes = number(c, "dram_read_bytes");
    k.dram_write_bytes = number(c, "dram_write_bytes");
    k.l2_bytes = number(c, "l2_bytes");
    k.l2_read_sectors = number(c, "l2_read_sectors");
    k.l2_write_sectors = number(c, "l2_write_sectors");
    if (c.contains("l1_available")) {  // absent in measurements recorded before the L1 level
      k.l1_available = c.at("l1_available").get<bool>();
      k.l1_read_sectors = number(c, "l1_read_sectors");
      k.l1_write_sectors = number(c, "l1_write_sectors");
    }
    k.duration_s = number(c, "duration_s");
    k.sm_clock_hz = number(c, "sm_clock_hz");
    k.fp_available = c.at("fp_available").get<bool>();
    for (const auto& [op, v] : c.at("fp_thread_instructions").items()) k.fp_instructions[op] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
    k.tensor_available = c.at("tensor_available").get<bool>();
    for (const auto& [metric, v] : c.at("tensor_flops_by_metric").items()) k.tensor_ops[metric] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
    for (const auto& [group, v] : c.at("passes").items()) k.passes[group] = v.get<int>();
    k.ranges_expected = c.at("ranges_per_group").get<int>();
    k.notes = c.at("notes").get<std::vector<std::string>>();
    const json& t = j.at("timing");
    timing_values& tv = m.timing;
    tv.available = t.at("available").get<bool>();
    tv.warmup = t.at("warmup_runs").get<int>();
    tv.repetitions = t.at("repetitions").get<int>();
    tv.median_s = number(t, "median_s");
    tv.min_s = number(t, "min_s");
    tv.max_s = number(t, "max_s");
    tv.clock_available = t.at("clock_available").get<bool>();
    tv.sm_mhz_min = number(t, "sm_mhz_min");
    tv.sm_mhz_max = number(t, "sm_mhz_max");
    tv.sm_mhz_mean = number(t, "sm_mhz_mean");
    tv.throttle_reasons = t.at("throttle_reasons").get<std::vector<std::string>>();
    return m;
  } catch (const json::exception& e) {
    return error{error_code::internal, std::string("malformed measurement from a case process: ") + e.what()};
  }
}

}  // namespace rooflint::runtime
