// The injection library's lines to the parent: one JSON object per line, written with one write()
// each (O_APPEND), so lines of forked children never interleave.

#include <set>

#include <nlohmann/json.hpp>

#include "rooflint/runtime/inject.h"
#include "report/measurement_json.h"

namespace rooflint::runtime::inject {

std::string to_json_line(const launch_event& e) {
  nlohmann::json j{{"type", "launch"},   {"mangled_name", e.mangled_name}, {"pid", e.pid},
                   {"api", e.api},       {"bound", e.bound},               {"problem", e.problem},
                   {"sizes", e.sizes},   {"size_values", e.size_values},   {"measured", e.measured},
                   {"not_measured", e.not_measured}};
  if (e.m) j["measurement"] = nlohmann::json::parse(measurement_to_json(*e.m));
  if (!e.pending.empty()) j["pending"] = e.pending;
  if (e.shape)
    j["shape"] = {{"grid", e.shape->grid}, {"block", e.shape->block}, {"shared_bytes", e.shape->shared_bytes},
                  {"registers", e.shape->registers}, {"blocks_per_sm", e.shape->blocks_per_sm}};
  return j.dump() + "\n";
}

result<launch_event> launch_event_from_json(const std::string& line) {
  try {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.value("type", "") != "launch") return error{error_code::invalid_argument, "not a launch line"};
    launch_event e;
    e.mangled_name = j.at("mangled_name").get<std::string>();
    e.pid = j.value("pid", 0L);
    e.api = j.value("api", "");
    e.bound = j.at("bound").get<bool>();
    e.problem = j.value("problem", "");
    e.sizes = j.value("sizes", "");
    e.size_values = j.value("size_values", std::vector<double>{});
    e.measured = j.value("measured", false);
    e.not_measured = j.value("not_measured", "");
    e.pending = j.value("pending", "");
    if (j.contains("shape")) {
      const nlohmann::json& s = j.at("shape");
      launch_shape shape;
      for (int i = 0; i < 3; ++i) {
        shape.grid[i] = s.at("grid").at(i).get<std::int64_t>();
        shape.block[i] = s.at("block").at(i).get<std::int64_t>();
      }
      shape.shared_bytes = s.value("shared_bytes", std::int64_t{0});
      shape.registers = s.value("registers", 0);
      shape.blocks_per_sm = s.value("blocks_per_sm", 0);
      e.shape = shape;
    }
    if (j.contains("measurement")) {
      auto m = measurement_from_json(j["measurement"].dump());
      if (!m) return m.err();
      e.m = std::move(*m);
    }
    return e;
  } catch (const nlohmann::json::exception& ex) {
    return error{error_code::invalid_argument, std::string("a line of the injection library is not valid: ") + ex.what()};
  }
}

std::vector<launch_event> settle_pending(std::vector<launch_event> events) {
  std::set<std::string> settled;
  for (const launch_event& e : events)
    if (!e.pending.empty() && e.measured) settled.insert(e.pending);
  std::vector<launch_event> out;
  for (launch_event& e : events)
    if (e.pending.empty() || e.measured || !settled.count(e.pending)) out.push_back(std::move(e));
  return out;
}

std::string to_json_line(const api_counts& c) {
  nlohmann::json driver = nlohmann::json::object(), runtime = nlohmann::json::object(), own = nlohmann::json::object();
  for (const auto& [api, n] : c.driver) driver[api] = n;
  for (const auto& [api, n] : c.runtime) runtime[api] = n;
  for (const auto& [phase, s] : c.rooflint_seconds) own[phase] = s;
  nlohmann::json batches = nlohmann::json::object();
  for (const auto& [why, n] : c.batches) batches[why] = n;
  return nlohmann::json{{"type", "apis"},     {"pid", c.pid},           {"command", c.command},          {"driver", driver},
                        {"runtime", runtime}, {"measured", c.measured}, {"rooflint_seconds", own}, {"batches", batches}}
             .dump() +
         "\n";
}

result<api_counts> api_counts_from_json(const std::string& line) {
  try {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.value("type", "") != "apis") return error{error_code::invalid_argument, "not an API count line"};
    api_counts c;
    c.pid = j.value("pid", 0L);
    c.command = j.value("command", std::string());
    c.measured = j.value("measured", 0L);
    for (const auto& [api, n] : j.at("driver").items()) c.driver.emplace_back(api, n.get<long>());
    for (const auto& [api, n] : j.at("runtime").items()) c.runtime.emplace_back(api, n.get<long>());
    if (j.contains("rooflint_seconds"))
      for (const auto& [phase, s] : j["rooflint_seconds"].items()) c.rooflint_seconds.emplace_back(phase, s.get<double>());
    if (j.contains("batches"))
      for (const auto& [why, n] : j["batches"].items()) c.batches.emplace_back(why, n.get<long>());
    return c;
  } catch (const nlohmann::json::exception& ex) {
    return error{error_code::invalid_argument, std::string("an API count line of the injection library is not valid: ") + ex.what()};
  }
}

}  // namespace rooflint::runtime::inject
