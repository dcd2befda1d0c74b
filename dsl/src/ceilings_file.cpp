/// @file ceilings_file.cpp
/// Reading and writing the ceilings file (docs/ceilings-schema.md) with nlohmann-json.
///
/// Reading is strict about what the model needs (schema, version, device name, bandwidth, the type of
/// every known key) and lenient about keys it does not know, so that a newer writer of the same version
/// can add fields. Every error names the key by its JSON pointer ("'/compute/fp32_simt/flops_per_s'").

#include "rooflint/ceilings/ceilings_file.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include "rooflint/io/atomic_file.h"

namespace rooflint::ceilings {

namespace {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

constexpr const char* schema_name = "rooflint-ceilings";

json optional_string(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json to_json_value(const device_info& d) {
  return json{{"name", d.name},
              {"uuid", d.uuid},
              {"compute_capability", d.compute_capability},
              {"sm_count", d.sm_count},
              {"l2_bytes", d.l2_bytes},
              {"dram_bytes", d.dram_bytes},
              {"driver_version", d.driver_version},
              {"cuda_runtime_version", d.cuda_runtime_version},
              {"cublas_version", d.cublas_version}};
}

json to_json_value(const clock_state& c) {
  return json{{"sm_mhz_min", c.sm_mhz_min},
              {"sm_mhz_max", c.sm_mhz_max},
              {"memory_mhz", c.memory_mhz},
              {"sm_max_mhz", c.sm_max_mhz},
              {"power_w_max", c.power_w_max},
              {"power_limit_w", c.power_limit_w},
              {"temperature_c_max", c.temperature_c_max},
              {"throttle_reasons", c.throttle_reasons},
              {"persistence_mode", c.persistence_mode},
              {"ecc_enabled", c.ecc_enabled}};
}

json to_json_value(const bandwidth_probe& p) {
  return json{{"name", p.name},
              {"bytes_per_s", p.bytes_per_s},
              {"spread", p.spread},
              {"working_set_bytes", p.working_set_bytes},
              {"grid", p.launch}};
}

json to_json_value(const compute_ceiling& c) {
  return json{{"flops_per_s", c.flops_per_s},
              {"probe", c.probe},
              {"shape", optional_string(c.shape)},
              {"sm_mhz", c.sm_mhz},
              {"sustained", c.sustained}};
}

/// Reads typed fields of one JSON object, remembering the first error with the key's JSON pointer.
class reader {
 public:
  reader(const json& object, std::string path, std::string& error)
      : object_(object), path_(std::move(path)), error_(error) {}

  bool ok() const { return error_.empty(); }
  std::string where(const std::string& key) const { return "'" + path_ + "/" + key + "'"; }

  /// @return The member @p key, or nullptr when absent (or null); fails when @p required and absent.
  const json* member(const std::string& key, bool required) {
    if (!ok()) return nullptr;
    const auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (required) fail(where(key) + " is missing");
      return nullptr;
    }
    return &*it;
  }

  void number(const std::string& key, double& out, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_number()) return fail(where(key) + " must be a number, not " + type_of(*v));
      out = v->get<double>();
    }
  }

  void integer(const std::string& key, int& out, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_number_integer()) return fail(where(key) + " must be an integer, not " + type_of(*v));
      out = v->get<int>();
    }
  }

  void string(const std::string& key, std::string& out, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_string()) return fail(where(key) + " must be a string, not " + type_of(*v));
      out = v->get<std::string>();
    }
  }

  void boolean(const std::string& key, bool& out, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_boolean()) return fail(where(key) + " must be true or false, not " + type_of(*v));
      out = v->get<bool>();
    }
  }

  void strings(const std::string& key, std::vector<std::string>& out) {
    if (const json* v = member(key, false)) {
      if (!v->is_array()) return fail(where(key) + " must be an array of strings, not " + type_of(*v));
      out.clear();
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string())
          return fail(where(key + "/" + std::to_string(i)) + " must be a string, not " + type_of((*v)[i]));
        out.push_back((*v)[i].get<std::string>());
      }
    }
  }

  /// @return The member @p key if it is an object; fails when it is something else or required and absent.
  const json* object(const std::string& key, bool required) {
    const json* v = member(key, required);
    if (v && !v->is_object()) {
      fail(where(key) + " must be an object, not " + type_of(*v));
      return nullptr;
    }
    return v;
  }

  void fail(std::string message) {
    if (ok()) error_ = std::move(message);
  }

  static std::string type_of(const json& v) {
    switch (v.type()) {
      case json::value_t::null: return "null";
      case json::value_t::object: return "an object";
      case json::value_t::array: return "an array";
      case json::value_t::string: return "a string";
      case json::value_t::boolean: return "a boolean";
      case json::value_t::binary: return "binary data";
      case json::value_t::discarded: return "nothing";
      default: return "a number";
    }
  }

  const std::string& path() const { return path_; }

 private:
  const json& object_;
  std::string path_;
  std::string& error_;
};

}  // namespace

model::peaks ceilings_file::peaks() const {
  model::peaks p;
  p.device = device.name;
  p.dram_bytes_per_s = bandwidth_bytes_per_s;
  for (std::size_t i = 0; i < model::math_mode_count; ++i) {
    const auto m = static_cast<model::math_mode>(i);
    p.flops_per_s[m] = compute[m] ? compute[m]->flops_per_s : 0;
  }
  p.source = model::peak_source::measured;
  return p;
}

namespace {
json to_json_object(const ceilings_file& file) {
  json probes = json::array();
  for (const auto& p : file.bandwidth_probes) probes.push_back(to_json_value(p));
  json compute = json::object();
  for (std::size_t i = 0; i < model::math_mode_count; ++i) {
    const auto m = static_cast<model::math_mode>(i);
    if (file.compute[m]) compute[std::string(model::name(m))] = to_json_value(*file.compute[m]);
  }
  json out;
  out["schema"] = schema_name;
  out["version"] = file.version;
  out["created_utc"] = file.created_utc;
  out["rooflint_version"] = file.rooflint_version;
  out["mode"] = file.mode;
  out["device"] = to_json_value(file.device);
  out["clocks"] = file.clocks ? to_json_value(*file.clocks) : json(nullptr);
  out["bandwidth"] = {{"bytes_per_s", file.bandwidth_bytes_per_s},
                      {"probe", file.bandwidth_probe_name},
                      {"probes", probes}};
  out["compute"] = compute;
  return out;
}
}  // namespace

std::string to_json(const ceilings_file& file) { return to_json_object(file).dump(2) + "\n"; }

std::optional<ceilings_file> from_json(const std::string& text, std::string& error) {
  error.clear();
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 3, column 5: <cause>", and e.byte
    // counts the bytes read including the offending one; report its 0-based offset, line and column.
    std::string what = e.what(), position, cause = what;
    if (const auto at = what.find(" at line "); at != std::string::npos) {
      if (const auto colon = what.find(": ", at); colon != std::string::npos) {
        position = " (" + what.substr(at + 4, colon - at - 4) + ")";
        cause = what.substr(colon + 2);
      }
    }
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    error = "malformed JSON at byte " + std::to_string(offset) + position + ": " + cause;
    return std::nullopt;
  } catch (const json::exception& e) {  // a number out of range (1e400) and the like
    error = std::string("malformed JSON: ") + e.what();
    return std::nullopt;
  }
  if (!root.is_object()) {
    error = "not a ceilings file: the top level is " + reader::type_of(root) + ", not an object";
    return std::nullopt;
  }

  ceilings_file file;
  reader top(root, "", error);
  std::string schema;
  top.string("schema", schema, true);
  if (!top.ok()) return std::nullopt;
  if (schema != schema_name) {
    error = "'schema' is \"" + schema + "\", not \"" + schema_name + "\": not a rooflint ceilings file";
    return std::nullopt;
  }
  top.integer("version", file.version, true);
  if (!top.ok()) return std::nullopt;
  if (file.version != schema_version) {
    error = "unsupported version " + std::to_string(file.version) + " (this rooflint reads version " +
            std::to_string(schema_version) + "); measure again with this rooflint's rooflint-ceilings";
    return std::nullopt;
  }
  top.string("created_utc", file.created_utc);
  top.string("rooflint_version", file.rooflint_version);
  top.string("mode", file.mode);

  if (const json* d = top.object("device", true)) {
    reader r(*d, "/device", error);
    r.string("name", file.device.name, true);
    r.string("uuid", file.device.uuid);
    r.string("compute_capability", file.device.compute_capability);
    r.integer("sm_count", file.device.sm_count);
    r.number("l2_bytes", file.device.l2_bytes);
    r.number("dram_bytes", file.device.dram_bytes);
    r.string("driver_version", file.device.driver_version);
    r.string("cuda_runtime_version", file.device.cuda_runtime_version);
    r.string("cublas_version", file.device.cublas_version);
  }

  if (const json* c = top.object("clocks", false)) {
    clock_state clocks;
    reader r(*c, "/clocks", error);
    r.number("sm_mhz_min", clocks.sm_mhz_min);
    r.number("sm_mhz_max", clocks.sm_mhz_max);
    r.number("memory_mhz", clocks.memory_mhz);
    r.number("sm_max_mhz", clocks.sm_max_mhz);
    r.number("power_w_max", clocks.power_w_max);
    r.number("power_limit_w", clocks.power_limit_w);
    r.number("temperature_c_max", clocks.temperature_c_max);
    r.strings("throttle_reasons", clocks.throttle_reasons);
    r.boolean("persistence_mode", clocks.persistence_mode);
    r.boolean("ecc_enabled", clocks.ecc_enabled);
    file.clocks = clocks;
  }

  if (const json* b = top.object("bandwidth", true)) {
    reader r(*b, "/bandwidth", error);
    r.number("bytes_per_s", file.bandwidth_bytes_per_s, true);
    r.string("probe", file.bandwidth_probe_name);
    if (r.ok() && !(file.bandwidth_bytes_per_s > 0))
      r.fail(r.where("bytes_per_s") + " must be positive, not " + std::to_string(file.bandwidth_bytes_per_s));
    if (const json* probes = r.member("probes", false)) {
      if (!probes->is_array()) {
        r.fail(r.where("probes") + " must be an array, not " + reader::type_of(*probes));
      } else {
        for (std::size_t i = 0; i < probes->size() && r.ok(); ++i) {
          const std::string path = "/bandwidth/probes/" + std::to_string(i);
          const json& entry = (*probes)[i];
          if (!entry.is_object()) {
            r.fail("'" + path + "' must be an object, not " + reader::type_of(entry));
            break;
          }
          bandwidth_probe p;
          reader pr(entry, path, error);
          pr.string("name", p.name, true);
          pr.number("bytes_per_s", p.bytes_per_s, true);
          pr.number("spread", p.spread);
          pr.number("working_set_bytes", p.working_set_bytes);
          pr.string("grid", p.launch);
          file.bandwidth_probes.push_back(std::move(p));
        }
      }
    }
  }

  if (const json* c = top.object("compute", false)) {
    for (const auto& [key, value] : c->items()) {
      if (!error.empty()) break;
      const auto mode = model::parse_math_mode(key);
      if (!mode) {
        std::string known;
        for (std::size_t i = 0; i < model::math_mode_count; ++i)
          known += std::string(i ? ", '" : "'") + std::string(model::name(static_cast<model::math_mode>(i))) + "'";
        error = "'/compute/" + key + "' is not a math mode; known math modes: " + known;
        break;
      }
      if (value.is_null()) continue;
      if (!value.is_object()) {
        error = "'/compute/" + key + "' must be an object, not " + reader::type_of(value);
        break;
      }
      compute_ceiling ceiling;
      reader r(value, "/compute/" + key, error);
      r.number("flops_per_s", ceiling.flops_per_s, true);
      if (r.ok() && !(ceiling.flops_per_s > 0))
        r.fail(r.where("flops_per_s") + " must be positive, not " + std::to_string(ceiling.flops_per_s));
      r.string("probe", ceiling.probe);
      r.string("shape", ceiling.shape);
      r.number("sm_mhz", ceiling.sm_mhz);
      r.boolean("sustained", ceiling.sustained);
      file.compute[*mode] = ceiling;
    }
  }

  if (!error.empty()) return std::nullopt;
  return file;
}

std::optional<ceilings_file> load(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto file = from_json(text.str(), error);
  if (!file) error = "'" + path + "': " + error;
  return file;
}

bool save(const ceilings_file& file, const std::string& path, std::string& error) {
  // JSON has no infinity or NaN (nlohmann writes them as null, which readers reject or misread).
  const json value = to_json_object(file);
  if (const auto where = io::find_non_finite(value)) {
    error = "cannot write '" + path + "': '" + *where + "' is not a finite number";
    return false;
  }
  if (auto failed = io::write_file_atomically(path, value.dump(2) + "\n")) {
    error = *failed;
    return false;
  }
  return true;
}

}  // namespace rooflint::ceilings
