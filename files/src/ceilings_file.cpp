/// @file ceilings_file.cpp
/// Reading and writing the ceilings file (docs/ceilings-schema.md) with nlohmann-json.
///
/// Reading is strict about what the model needs (schema, version, device name, bandwidth, the type of
/// every known key) and lenient about keys it does not know, so that a newer writer of the same version
/// can add fields. Every error names the key by its JSON pointer ("'/compute/fp32_simt/flops_per_s'").

#include "rooflint/files/ceilings_file.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>
#include "rooflint/files/atomic_file.h"
#include "rooflint/files/input_file.h"
#include "rooflint/files/model_names.h"
#include "rooflint/model/peaks_table.h"

namespace rooflint::ceilings {

namespace {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

constexpr const char* schema_name = "rooflint-ceilings";

json optional_string(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
/// 0 is "not recorded" (a field the file that was read lacked): written as null, which reads back as absent,
/// never as a 0 that the reader's range check refuses (found by tests/fuzz).
template <class T> json known(T v) { return v == 0 ? json(nullptr) : json(v); }

json to_json_value(const device_info& d) {
  return json{{"name", d.name},
              {"uuid", d.uuid},
              {"compute_capability", d.compute_capability},
              {"sm_count", known(d.sm_count)},
              {"l2_bytes", known(d.l2_bytes)},
              {"dram_bytes", known(d.dram_bytes)},
              {"shared_bytes_per_sm", known(d.shared_bytes_per_sm)},
              {"shared_bytes_per_block", known(d.shared_bytes_per_block)},
              {"reserved_shared_bytes_per_block", known(d.reserved_shared_bytes_per_block)},
              {"max_threads_per_sm", known(d.max_threads_per_sm)},
              {"max_blocks_per_sm", known(d.max_blocks_per_sm)},
              {"registers_per_sm", known(d.registers_per_sm)},
              {"warp_size", known(d.warp_size)},
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

/// @return The direction of a version 1 probe from its name: read_*, write_*, else copy (copy_*, memcpy_d2d).
std::string direction_from_name(const std::string& name) {
  if (name.rfind("read", 0) == 0) return "read";
  if (name.rfind("write", 0) == 0) return "write";
  return "copy";
}

json to_json_value(const bandwidth_probe& p) {
  return json{{"name", p.name},
              {"level", p.level.empty() ? std::string("dram") : p.level},
              {"direction", p.direction.empty() ? direction_from_name(p.name) : p.direction},
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

json to_json_value(const level_ceiling& c) {
  if (c.bytes_per_s <= 0) return json(nullptr);
  return json{{"bytes_per_s", c.bytes_per_s}, {"probe", c.probe}};
}

json to_json_value(const level_ceilings& l) {
  return json{{"read", to_json_value(l.read)}, {"write", to_json_value(l.write)}, {"copy", to_json_value(l.copy)}};
}

/// Plausible ranges (docs/ceilings-schema.md): wide enough for any GPU of the next decade, narrow enough
/// that a truncated, corrupted or hand-edited figure (1e-300 FLOP/s, 5e-324 bytes/s) is refused by name.
struct range {
  double lo, hi;
};
constexpr range bandwidth_range{1e9, 1e15};   // 1 GB/s .. 1 PB/s (an H200's L1 aggregate is ~3e13)
constexpr range flops_range{1e9, 1e18};       // 1 GFLOP/s .. 1 EFLOP/s
constexpr range mhz_range{0, 10000};          // 0 = not sampled
constexpr range watts_range{0, 10000};
constexpr range celsius_range{-100, 200};
constexpr range spread_range{0, 100};         // (max - min) / median
constexpr range bytes_range{0, 1e15};         // memory sizes and working sets, 0 = unknown
constexpr range sm_count_range{1, 10000};
constexpr std::size_t max_name_length = 256;

/// @return The shortest text that reads back as @p v ("1e-300", "4294967297", "5e-324").
std::string number_text(double v) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
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

  /// Reads a number and checks it lies in @p r (inclusive).
  void number(const std::string& key, double& out, range r, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_number()) return fail(where(key) + " must be a number, not " + type_of(*v));
      const double x = v->get<double>();
      if (!(x >= r.lo && x <= r.hi))
        return fail(where(key) + " is " + number_text(x) + ", outside the plausible range " + number_text(r.lo) + " to " +
                    number_text(r.hi));
      out = x;
    }
  }

  /// Reads an integer at full width (a 64-bit value is never truncated to a smaller one) and checks it
  /// lies in @p lo..hi.
  void integer(const std::string& key, int& out, std::int64_t lo, std::int64_t hi, bool required = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_number_integer()) return fail(where(key) + " must be an integer, not " + type_of(*v));
      const bool too_big = v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
      const std::int64_t x = too_big ? hi : v->get<std::int64_t>();
      if (too_big || x < lo || x > hi)
        return fail(where(key) + " is " + v->dump() + ", outside the range " + std::to_string(lo) + " to " + std::to_string(hi));
      out = static_cast<int>(x);
    }
  }

  void string(const std::string& key, std::string& out, bool required = false, bool non_empty = false) {
    if (const json* v = member(key, required)) {
      if (!v->is_string()) return fail(where(key) + " must be a string, not " + type_of(*v));
      out = v->get<std::string>();
      if (non_empty && out.empty()) return fail(where(key) + " is empty");
      if (out.size() > max_name_length)
        return fail(where(key) + " is " + std::to_string(out.size()) + " characters long, more than " +
                    std::to_string(max_name_length));
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
  for (const model::memory_level l : model::memory_levels) {
    const level_ceilings& c = level(l);
    p.level(l) = {c.read.bytes_per_s, c.write.bytes_per_s, c.copy.bytes_per_s};
  }
  for (std::size_t i = 0; i < model::math_mode_count; ++i) {
    const auto m = static_cast<model::math_mode>(i);
    p.flops_per_s[m] = compute[m] ? compute[m]->flops_per_s : 0;
  }
  p.source = model::peak_source::measured;
  return p;
}

model::gpu ceilings_file::gpu() const {
  const std::optional<model::gpu> row = model::find_gpu(device.name);
  model::gpu g{peaks(), row ? row->geometry : model::gpu_geometry{}};
  model::gpu_geometry& geo = g.geometry;
  const auto reported = [](auto& into, double value) {
    if (value > 0) into = static_cast<std::remove_reference_t<decltype(into)>>(value);
  };
  reported(geo.sm_count, device.sm_count);
  reported(geo.l2_bytes, device.l2_bytes);
  reported(geo.max_shared_bytes_per_block, device.shared_bytes_per_block);
  reported(geo.reserved_shared_bytes_per_block, device.reserved_shared_bytes_per_block);
  reported(geo.max_threads_per_sm, device.max_threads_per_sm);
  reported(geo.max_blocks_per_sm, device.max_blocks_per_sm);
  reported(geo.registers_per_sm, device.registers_per_sm);
  reported(geo.warp_size, device.warp_size);
  // The configurations an SM offers are not reported, only the largest: a device whose largest is not the
  // datasheet row's is not that row's GPU, and its configurations are unknown.
  if (device.shared_bytes_per_sm > 0 && static_cast<std::int64_t>(device.shared_bytes_per_sm) != geo.shared.max_bytes())
    geo.shared = {};
  return g;
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
  json levels_json = json::object();
  for (const model::memory_level l : model::memory_levels) levels_json[std::string(model::name(l))] = to_json_value(file.level(l));
  out["levels"] = levels_json;
  return out;
}
}  // namespace

std::string to_json(const ceilings_file& file) { return to_json_object(file).dump(2) + "\n"; }

namespace {

level_ceiling* roof_of(ceilings_file& f, model::memory_level l, const std::string& direction) {
  level_ceilings& c = f.level(l);
  if (direction == "read") return &c.read;
  if (direction == "write") return &c.write;
  if (direction == "copy") return &c.copy;
  return nullptr;
}

std::optional<model::memory_level> parse_level(const std::string& name) {
  model::memory_level level{};
  return files::parse_name(name, level) ? std::optional(level) : std::nullopt;
}

void read_probe(const json& entry, const std::string& path, int version, bandwidth_probe& p, std::string& error) {
  reader pr(entry, path, error);
  pr.string("name", p.name, true, true);
  pr.number("bytes_per_s", p.bytes_per_s, bandwidth_range, true);
  pr.number("spread", p.spread, spread_range);
  pr.number("working_set_bytes", p.working_set_bytes, bytes_range);
  pr.string("grid", p.launch);
  if (version >= 2) {
    pr.string("level", p.level, true);
    pr.string("direction", p.direction, true);
    if (pr.ok() && !parse_level(p.level)) pr.fail(pr.where("level") + " is \"" + p.level + "\", not \"dram\", \"l2\" or \"l1\"");
    if (pr.ok() && p.direction != "read" && p.direction != "write" && p.direction != "copy")
      pr.fail(pr.where("direction") + " is \"" + p.direction + "\", not \"read\", \"write\" or \"copy\"");
  } else {
    p.level = "dram";
    p.direction = direction_from_name(p.name);
  }
}

void read_levels(const json& levels, ceilings_file& file, std::string& error) {
  for (const auto& [key, value] : levels.items()) {
    if (!error.empty()) return;
    const auto level = parse_level(key);
    if (!level) {
      error = "'/levels/" + key + "' is not a memory level; known levels: 'dram', 'l2', 'l1'";
      return;
    }
    if (value.is_null()) continue;
    if (!value.is_object()) {
      error = "'/levels/" + key + "' must be an object, not " + reader::type_of(value);
      return;
    }
    reader lr(value, "/levels/" + key, error);
    for (const char* direction : {"read", "write", "copy"}) {
      const json* roof = lr.object(direction, false);
      if (!roof || !lr.ok()) continue;
      level_ceiling& c = *roof_of(file, *level, direction);
      reader rr(*roof, "/levels/" + key + "/" + direction, error);
      rr.number("bytes_per_s", c.bytes_per_s, bandwidth_range, true);
      rr.string("probe", c.probe);
    }
  }
}

}  // namespace

namespace {

/// Step 1: the text as a JSON object, or an error that names the byte, line and column.
std::optional<json> parse_object(const std::string& text, std::string& error) {
  // A NUL byte ends the text for nlohmann's parser ("unexpected end of input at byte 0"): name it.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    error = "not JSON text: a NUL byte at byte " + std::to_string(nul) + " (a binary, truncated or zero-filled file?)";
    return std::nullopt;
  }
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
  return root;
}

/// Step 2: the schema name and a version this reader knows (the note of an older one), then the
/// provenance strings.
void read_header(reader& top, ceilings_file& file, std::string& error) {
  std::string schema;
  top.string("schema", schema, true);
  if (!top.ok()) return;
  if (schema != schema_name) {
    error = "'schema' is \"" + schema + "\", not \"" + schema_name + "\": not a rooflint ceilings file";
    return;
  }
  // Any integer outside the known versions, at full width (4294967297 is not 1), is a version this
  // rooflint cannot read; a version of another type is a type error, below.
  const auto known_version = [](const json& v) {
    // An unsigned value above INT64_MAX would wrap through int64_t: compare it as unsigned.
    if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(schema_version) &&
                                       v.get<std::uint64_t>() >= static_cast<std::uint64_t>(oldest_schema_version);
    return v.get<std::int64_t>() >= oldest_schema_version && v.get<std::int64_t>() <= schema_version;
  };
  if (const json* v = top.member("version", true); v && v->is_number_integer() && !known_version(*v)) {
    error = "unsupported version " + v->dump() + " (this rooflint reads versions " + std::to_string(oldest_schema_version) +
            " to " + std::to_string(schema_version) + "); measure again with this rooflint's rooflint-ceilings";
    return;
  }
  top.integer("version", file.version, oldest_schema_version, schema_version, true);
  if (!top.ok()) return;
  if (file.version < schema_version)
    file.notes.push_back("ceilings file of version " + std::to_string(file.version) +
                         ": it has DRAM ceilings only (read/write/copy roofs taken from its probe names), no L2 or L1 "
                         "roofs; measure again with rooflint-ceilings for the hierarchical roofline");
  top.string("created_utc", file.created_utc);
  top.string("rooflint_version", file.rooflint_version);
  top.string("mode", file.mode);
}

void read_device(const json& d, device_info& device, std::string& error) {
  reader r(d, "/device", error);
  r.string("name", device.name, true, true);
  r.string("uuid", device.uuid);
  r.string("compute_capability", device.compute_capability);
  r.integer("sm_count", device.sm_count, static_cast<std::int64_t>(sm_count_range.lo),
            static_cast<std::int64_t>(sm_count_range.hi));
  r.number("l2_bytes", device.l2_bytes, bytes_range);
  r.number("dram_bytes", device.dram_bytes, bytes_range);
  // Recorded since the GPU's geometry was: absent in older files of the same version.
  r.number("shared_bytes_per_sm", device.shared_bytes_per_sm, bytes_range);
  r.number("shared_bytes_per_block", device.shared_bytes_per_block, bytes_range);
  r.number("reserved_shared_bytes_per_block", device.reserved_shared_bytes_per_block, bytes_range);
  r.integer("max_threads_per_sm", device.max_threads_per_sm, 0, 100000);
  r.integer("max_blocks_per_sm", device.max_blocks_per_sm, 0, 10000);
  r.integer("registers_per_sm", device.registers_per_sm, 0, 1 << 24);
  r.integer("warp_size", device.warp_size, 0, 1024);
  r.string("driver_version", device.driver_version);
  r.string("cuda_runtime_version", device.cuda_runtime_version);
  r.string("cublas_version", device.cublas_version);
}

clock_state read_clocks(const json& c, std::string& error) {
  clock_state clocks;
  reader r(c, "/clocks", error);
  r.number("sm_mhz_min", clocks.sm_mhz_min, mhz_range);
  r.number("sm_mhz_max", clocks.sm_mhz_max, mhz_range);
  r.number("memory_mhz", clocks.memory_mhz, mhz_range);
  r.number("sm_max_mhz", clocks.sm_max_mhz, mhz_range);
  r.number("power_w_max", clocks.power_w_max, watts_range);
  r.number("power_limit_w", clocks.power_limit_w, watts_range);
  r.number("temperature_c_max", clocks.temperature_c_max, celsius_range);
  r.strings("throttle_reasons", clocks.throttle_reasons);
  r.boolean("persistence_mode", clocks.persistence_mode);
  r.boolean("ecc_enabled", clocks.ecc_enabled);
  if (r.ok() && clocks.sm_mhz_min > clocks.sm_mhz_max)
    r.fail(r.where("sm_mhz_min") + " is " + number_text(clocks.sm_mhz_min) + ", above sm_mhz_max " +
           number_text(clocks.sm_mhz_max));
  return clocks;
}

void read_bandwidth(const json& b, ceilings_file& file, std::string& error) {
  reader r(b, "/bandwidth", error);
  r.number("bytes_per_s", file.bandwidth_bytes_per_s, bandwidth_range, true);
  r.string("probe", file.bandwidth_probe_name);
  const json* probes = r.member("probes", false);
  if (!probes) return;
  if (!probes->is_array()) return r.fail(r.where("probes") + " must be an array, not " + reader::type_of(*probes));
  for (std::size_t i = 0; i < probes->size() && r.ok(); ++i) {
    const std::string path = "/bandwidth/probes/" + std::to_string(i);
    const json& entry = (*probes)[i];
    if (!entry.is_object()) return r.fail("'" + path + "' must be an object, not " + reader::type_of(entry));
    bandwidth_probe p;
    read_probe(entry, path, file.version, p, error);
    file.bandwidth_probes.push_back(std::move(p));
  }
}

void read_compute(const json& c, ceilings_file& file, std::string& error) {
  for (const auto& [key, value] : c.items()) {
    if (!error.empty()) return;
    const auto mode = model::parse_math_mode(key);
    if (!mode) {
      std::string known;
      for (std::size_t i = 0; i < model::math_mode_count; ++i)
        known += std::string(i ? ", '" : "'") + std::string(model::name(static_cast<model::math_mode>(i))) + "'";
      error = "'/compute/" + key + "' is not a math mode; known math modes: " + known;
      return;
    }
    if (value.is_null()) continue;
    if (!value.is_object()) {
      error = "'/compute/" + key + "' must be an object, not " + reader::type_of(value);
      return;
    }
    compute_ceiling ceiling;
    reader r(value, "/compute/" + key, error);
    r.number("flops_per_s", ceiling.flops_per_s, flops_range, true);
    r.string("probe", ceiling.probe);
    r.string("shape", ceiling.shape);
    r.number("sm_mhz", ceiling.sm_mhz, mhz_range);
    r.boolean("sustained", ceiling.sustained);
    file.compute[*mode] = ceiling;
  }
}

/// Version 1 has no levels: its DRAM roofs are the best probe of each direction, named by the probe's name.
void derive_version_one_levels(ceilings_file& file) {
  for (const auto& p : file.bandwidth_probes)
    if (level_ceiling* roof = roof_of(file, model::memory_level::dram, p.direction); roof && p.bytes_per_s > roof->bytes_per_s)
      *roof = {p.bytes_per_s, p.name};
}

}  // namespace

std::optional<ceilings_file> from_json(const std::string& text, std::string& error) {
  error.clear();
  const std::optional<json> root = parse_object(text, error);
  if (!root) return std::nullopt;
  ceilings_file file;
  reader top(*root, "", error);
  read_header(top, file, error);
  // Each step reads only while no error is recorded (reader::member returns nullptr after one).
  if (const json* d = top.object("device", true)) read_device(*d, file.device, error);
  if (const json* c = top.object("clocks", false)) file.clocks = read_clocks(*c, error);
  if (const json* b = top.object("bandwidth", true)) read_bandwidth(*b, file, error);
  if (const json* c = top.object("compute", false)) read_compute(*c, file, error);
  if (!error.empty()) return std::nullopt;
  if (file.version >= 2) {
    if (const json* levels = top.object("levels", true)) read_levels(*levels, file, error);
  } else {
    derive_version_one_levels(file);
  }
  if (!error.empty()) return std::nullopt;
  return file;
}

std::optional<ceilings_file> load(const std::string& path, std::string& error) {
  // A ceilings file is a few KiB: 16 MiB is no ceilings file, and a device (/dev/zero) is refused unread.
  std::string text;
  if (auto why = io::read_regular_file(path, text, std::size_t(16) << 20)) {
    error = *why;
    return std::nullopt;
  }
  auto file = from_json(text, error);
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
