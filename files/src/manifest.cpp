// The manifest (docs/manifest-schema.md): saved and loaded through its field tables
// (rooflint/files/manifest_tables.h), older versions mapped onto the current record in one place
// (upgrade), and every reference inside a kernel checked once (check_kernel).

#include "rooflint/files/manifest.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

// The tables (and the enums' names) before the codec that walks them: a name the codec looks up must be
// declared where the codec's templates are defined.
#include "rooflint/files/manifest_tables.h"
#include "json_codec.h"
#include "rooflint/files/atomic_file.h"
#include "rooflint/files/input_file.h"

namespace rooflint::manifest {

namespace {

using files::json_codec::json;
using files::json_codec::reader;

/// The largest manifest read: a build of thousands of kernels writes a few MiB.
constexpr std::size_t max_manifest_bytes = std::size_t(256) << 20;

// ---------------------------------------------------------------------------------------------------
// Versions: the schema, the version, and what an older version's fields become

/// Checks the schema and the version of @p doc. @return The version, or 0 with @p error set.
int read_version(const json& doc, std::string& error) {
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || schema->get<std::string>() != schema_name) {
    error = "not a rooflint manifest: 'schema' is " +
            (schema == doc.end() ? std::string("missing") : schema->dump()) + ", not \"" + schema_name + "\"";
    return 0;
  }
  const auto v = doc.find("version");
  if (v == doc.end() || !v->is_number_integer()) {
    error = "'version' must be an integer, not " + (v == doc.end() ? std::string("missing") : files::json_codec::type_of(*v));
    return 0;
  }
  // At full width: 4294967298 is no version, not 2.
  const bool known = v->is_number_unsigned() ? v->get<std::uint64_t>() >= std::uint64_t(oldest_version) &&
                                                   v->get<std::uint64_t>() <= std::uint64_t(version)
                                             : v->get<std::int64_t>() >= oldest_version && v->get<std::int64_t>() <= version;
  if (!known) {
    error = "unsupported version " + v->dump() + " (this rooflint reads versions " + std::to_string(oldest_version) +
            " to " + std::to_string(version) + "); analyse the sources again with this rooflint";
    return 0;
  }
  return static_cast<int>(v->get<std::int64_t>());
}

/// Version 4's predicted_traffic as version 5's. Version 4 was written in two forms: the first
/// ({"source", "tensors": [{tensor, param, level, ratio or null, basis, sized}]}) had no kinds: a ratio
/// above 0 reads as a value, anything else as not predicted, and its levels rest on the H200's cache
/// figures, the only geometry its analyzer had; the later one already has each entry's kind, low and high,
/// and the gpu, launch, note and accesses, which are kept as written (and checked as version 5's). In the
/// first form an entry without a tensor or a level (strings) says nothing and is left out; a missing
/// basis is empty, a missing sized false.
json upgrade_prediction(const json& old, bool& untyped) {
  if (!old.is_object()) return old;  // the reader names the type error
  json levels = json::array();
  if (const auto t = old.find("tensors"); t != old.end() && t->is_array())
    for (const json& e : *t) {
      if (e.is_object() && e.contains("kind")) {
        levels.push_back(e);
        continue;
      }
      if (!e.is_object() || !e.contains("tensor") || !e["tensor"].is_string() || !e.contains("level") ||
          !e["level"].is_string())
        continue;
      untyped = true;
      json level = e;
      const auto ratio = e.find("ratio");
      const bool value = ratio != e.end() && ratio->is_number() && ratio->get<double>() > 0;
      level["kind"] = value ? "value" : "not_predicted";
      level["ratio"] = value ? *ratio : json(nullptr);
      level["low"] = level["ratio"];
      level["high"] = level["ratio"];
      if (!level.contains("param")) level["param"] = -1;
      if (!level.contains("basis")) level["basis"] = "";
      if (!level.contains("sized")) level["sized"] = false;
      levels.push_back(std::move(level));
    }
  json out = json::object();
  out["source"] = old.contains("source") ? old["source"] : json("");
  out["launch"] = old.contains("launch") ? old["launch"] : json(nullptr);
  out["gpu"] = old.contains("gpu") ? old["gpu"] : json("H200");
  out["note"] = old.contains("note") ? old["note"] : json("");
  out["tensors"] = std::move(levels);
  out["accesses"] = old.contains("accesses") ? old["accesses"] : json::array();
  return out;
}

/// Maps the fields an older version wrote differently onto the current ones (fields an older version
/// lacks are the tables' `since` rules).
void upgrade(json& doc, int from, std::vector<std::string>& notes) {
  if (from >= 5) return;
  const auto kernels = doc.find("kernels");
  if (kernels == doc.end() || !kernels->is_array()) return;
  bool untyped = false;
  for (json& k : *kernels)
    if (k.is_object() && k.contains("predicted_traffic") && !k["predicted_traffic"].is_null())
      k["predicted_traffic"] = upgrade_prediction(k["predicted_traffic"], untyped);
  if (untyped)
    notes.push_back("manifest of version " + std::to_string(from) +
                    ": its predicted ratios read as values (a null ratio as not predicted), resting on the H200's "
                    "cache figures; analyse the sources again for predictions on the GPU the peaks are about");
}

// ---------------------------------------------------------------------------------------------------
// References inside a kernel: checked once, here, so that no reader meets an index out of range

struct checker {
  const kernel& k;
  std::string error;

  bool ok() const { return error.empty(); }
  void fail(const std::string& where, const std::string& what) {
    if (ok()) error = "'" + where + "' " + what;
  }

  bool is_dim(dsl::name_t n) const { return k.spec_value.dim_index(n) >= 0; }

  void poly(const dsl::poly& p, const std::string& where) {
    for (int d = 0; d < p.dim_count; ++d)
      if (!is_dim(p.dims[d]))
        fail(where + "/dims/" + std::to_string(d), "is \"" + std::string(p.dims[d].view()) + "\", not a dimension of the spec");
  }

  void tensors() {
    const dsl::spec& s = k.spec_value;
    for (int t = 0; t < s.tensor_count && ok(); ++t) {
      const std::string at = "spec_value/tensors/" + std::to_string(t);
      const dsl::tensor_info& info = s.tensors[t];
      for (int i = 0; i < info.rank; ++i)
        if (info.shape[i] < 0 || info.shape[i] >= s.dim_count)
          fail(at + "/shape/" + std::to_string(i), "is " + std::to_string(info.shape[i]) +
                                                       ", not a dimension of the spec (it has " + std::to_string(s.dim_count) + ")");
      if (!k.parameters.empty() && info.arg >= 0 && static_cast<std::size_t>(info.arg) >= k.parameters.size())
        fail(at + "/arg", "is " + std::to_string(info.arg) + ", not a parameter of the kernel (it has " +
                              std::to_string(k.parameters.size()) + ")");
      poly(info.elements, at + "/elements");
    }
  }

  void operation() {
    const dsl::op_info& op = k.spec_value.op;
    poly(op.flops, "spec_value/op/flops");
    for (int i = 0; i < op.derived_count && ok(); ++i)
      for (const dsl::name_t n : {op.derived[i].name, op.derived[i].source, op.derived[i].window})
        if (!is_dim(n))
          fail("spec_value/op/derived/" + std::to_string(i), "names \"" + std::string(n.view()) + "\", not a dimension of the spec");
    for (int i = 0; i < op.constraint_count && ok(); ++i)
      for (const dsl::name_t n : {op.constraints[i].lhs, op.constraints[i].rhs})
        if (!is_dim(n))
          fail("spec_value/op/constraints/" + std::to_string(i), "names \"" + std::string(n.view()) + "\", not a dimension of the spec");
  }

  void size_terms() {
    const dsl::size_table& terms = k.spec_value.size_terms;
    for (int i = 0; i < terms.count && ok(); ++i) {
      const std::string at = "spec_value/size_terms/" + std::to_string(i);
      if (!is_dim(terms.terms[i].name))
        fail(at + "/name", "is \"" + std::string(terms.terms[i].name.view()) + "\", not one of the spec's dimensions");
      poly(terms.terms[i].lhs, at + "/lhs");
      poly(terms.terms[i].rhs, at + "/rhs");
    }
  }

  void launch() {
    const dsl::launch_binding& l = k.spec_value.launch;
    const std::size_t sites = k.region ? k.region->kernels.size() : 1;
    for (int i = 0; i < l.size_count && ok(); ++i) {
      const dsl::launch_size& size = l.sizes[i];
      const std::string at = "launch/sizes/" + std::to_string(i);
      if (!is_dim(size.dim)) fail(at + "/dim", "is \"" + std::string(size.dim.view()) + "\", not a dimension of the spec");
      if (size.source != dsl::size_source::argument && (size.index < 0 || size.index > 2))
        fail(at + "/index", "is " + std::to_string(size.index) + ", not an axis (0, 1 or 2)");
      if (size.source == dsl::size_source::argument && size.index < 0)
        fail(at + "/index", "is " + std::to_string(size.index) + ", not a parameter");
      if (size.source != dsl::size_source::argument && size.power_of_two)
        fail(at + "/power_of_two", "is true for a size read from the grid or the block, which holds the size itself");
      if (static_cast<std::size_t>(size.site) >= sites)
        fail(at + "/site", "is " + std::to_string(size.site) + ", not one of the " + std::to_string(sites) +
                               " kernels the sizes can be read at");
      if (k.region && ok() && k.region->kernels[size.site].match == dsl::kernel_match::library)
        fail(at + "/site", "reads the size of '" + std::string(size.dim.view()) + "' at kernel " + std::to_string(size.site) +
                               ", which is not one of the region's kernels given by function (a library kernel's "
                               "arguments are not known)");
    }
  }

  void region() {
    const bool region_kind = k.kind == entry_kind::region;
    if (region_kind != k.region.has_value())
      return fail("region", region_kind ? "is missing for an entry of kind 'region'" : "is given for an entry of kind 'kernel'");
    if (k.spec_value.launch.kind == dsl::binding_kind::region && !region_kind)
      return fail("launch/kind", "is 'region' for an entry of kind 'kernel'");
    if (!k.region) return;
    if (k.region->kernels.empty()) return fail("region/kernels", "is empty");
    for (std::size_t i = 0; i < k.region->kernels.size() && ok(); ++i) {
      const region_member& m = k.region->kernels[i];
      if (m.match == dsl::kernel_match::library && (m.pattern.empty() || m.pattern.size() >= dsl::name_capacity))
        fail("region/kernels/" + std::to_string(i) + "/pattern", "must have 1 to " + std::to_string(dsl::name_capacity - 1) + " characters");
    }
  }

  void parameters(const std::vector<parameter>& params, const std::string& where) {
    for (std::size_t i = 0; i < params.size() && ok(); ++i)
      if (params[i].index != static_cast<int>(i))
        fail(where + "/" + std::to_string(i) + "/index", "is " + std::to_string(params[i].index) + ", not its position " + std::to_string(i));
  }

  void predictions() {
    if (!k.predicted) return;
    const auto& levels = k.predicted->levels;
    for (std::size_t i = 0; i < levels.size() && ok(); ++i) {
      const level_prediction& p = levels[i];
      const std::string at = "predicted_traffic/tensors/" + std::to_string(i);
      const bool figures = p.ratio && p.low && p.high;
      if (p.kind == prediction_kind::not_predicted && (p.ratio || p.low || p.high))
        fail(at, "is not predicted but has a ratio");
      else if (p.kind == prediction_kind::value && !figures)
        fail(at, "is a value without its ratio, low and high");
      else if (p.kind == prediction_kind::range && !(p.low && p.high))
        fail(at, "is a range without its low and high");
      else if (p.kind == prediction_kind::range && !(*p.low <= *p.high))
        fail(at, "is a range whose low is above its high");
      else if (figures && !(*p.low <= *p.ratio && *p.ratio <= *p.high))
        fail(at, "has a ratio outside its range (low <= ratio <= high)");
      else if (figures && p.kind == prediction_kind::value && *p.low != *p.high)
        fail(at, "is a value whose low and high differ");
    }
  }

  void run() {
    tensors();
    if (ok()) operation();
    if (ok()) size_terms();
    if (ok()) region();
    if (ok()) launch();
    if (ok()) parameters(k.parameters, "parameters");
    if (ok() && k.region)
      for (std::size_t i = 0; i < k.region->kernels.size() && ok(); ++i)
        parameters(k.region->kernels[i].parameters, "region/kernels/" + std::to_string(i) + "/parameters");
    if (ok()) predictions();
  }
};

/// @return "manifest 'a.json', kernel 'saxpy'" (or the entry's index when it has no name).
std::string kernel_place(const std::string& path, const json& k, std::size_t index) {
  const auto name = k.is_object() ? k.find("name") : k.end();
  const std::string which = k.is_object() && name != k.end() && name->is_string() ? "kernel '" + name->get<std::string>() + "'"
                                                                                   : "kernel " + std::to_string(index);
  return "manifest '" + path + "', " + which;
}

/// Reads and checks the kernels of @p doc one by one, so that an error names its kernel.
bool read_kernels(const json& doc, int version, const std::string& path, manifest_file& out, std::string& error) {
  const auto kernels = doc.find("kernels");
  if (kernels == doc.end() || !kernels->is_array()) {
    error = "manifest '" + path + "': 'kernels' must be an array";
    return false;
  }
  if (kernels->size() > (1u << 16)) {
    error = "manifest '" + path + "': 'kernels' has " + std::to_string(kernels->size()) + " entries, more than 65536";
    return false;
  }
  out.kernels.resize(kernels->size());
  for (std::size_t i = 0; i < kernels->size(); ++i) {
    reader r{version, {}};
    files::json_codec::read((*kernels)[i], out.kernels[i], r, "", {});
    std::string problem = r.error;
    if (problem.empty()) {
      checker c{out.kernels[i], {}};
      c.run();
      problem = c.error;
    }
    if (!problem.empty()) {
      error = kernel_place(path, (*kernels)[i], i) + ": " + problem;
      return false;
    }
  }
  return true;
}

std::optional<json> parse(const std::string& text, const std::string& path, std::string& error) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    error = "manifest '" + path + "' is not JSON";
    return std::nullopt;
  }
  if (!doc.is_object()) {
    error = "manifest '" + path + "': the top level is " + files::json_codec::type_of(doc) + ", not an object";
    return std::nullopt;
  }
  return doc;
}

}  // namespace

model::peaks peaks_used::view() const {
  model::peaks p;
  p.device = device;
  p.source = source;
  p.dram_bytes_per_s = dram_bytes_per_s;
  p.flops_per_s = flops_per_s;
  return p;
}

namespace {
json to_json_object(const manifest_file& file) {
  json out = json::object();
  out["schema"] = schema_name;
  out["version"] = version;
  const json fields = files::json_codec::write_record(file);
  for (const auto& [key, value] : fields.items()) out[key] = value;
  return out;
}
}  // namespace

std::string to_json(const manifest_file& file) { return to_json_object(file).dump(2) + "\n"; }

std::string to_json(const kernel& k) { return files::json_codec::write_record(k).dump(); }

std::optional<kernel> kernel_from_json(const std::string& text, std::string& error) {
  const json j = json::parse(text, nullptr, false);
  kernel k;
  reader r{version, {}};
  files::json_codec::read(j, k, r, "", {});
  if (r.ok()) {
    checker c{k, {}};
    c.run();
    r.error = c.error;
  }
  if (!r.ok()) {
    error = "kernel entry: " + r.error;
    return std::nullopt;
  }
  return k;
}

std::optional<manifest_file> from_json(const std::string& text, const std::string& path, std::string& error) {
  error.clear();
  std::optional<json> doc = parse(text, path, error);
  if (!doc) return std::nullopt;
  manifest_file file;
  file.version = read_version(*doc, error);
  if (file.version == 0) {
    error = "manifest '" + path + "': " + error;
    return std::nullopt;
  }
  upgrade(*doc, file.version, file.notes);
  // The top level without its kernels, then each kernel (named in its errors).
  json top = *doc;
  top["kernels"] = json::array();
  reader r{file.version, {}};
  files::json_codec::read(top, file, r, "", {});
  if (!r.ok()) {
    error = "manifest '" + path + "': " + r.error;
    return std::nullopt;
  }
  if (!read_kernels(*doc, file.version, path, file, error)) return std::nullopt;
  return file;
}

std::optional<manifest_file> load(const std::string& path, std::string& error) {
  std::string text;
  if (auto why = io::read_regular_file(path, text, max_manifest_bytes)) {
    error = *why;
    return std::nullopt;
  }
  return from_json(text, path, error);
}

bool save(const manifest_file& file, const std::string& path, std::string& error) {
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

std::vector<std::string> differences(const manifest_file& a, const manifest_file& b) {
  std::vector<std::string> out;
  if (a.version != b.version) out.push_back("/version: " + std::to_string(a.version) + " vs " + std::to_string(b.version));
  files::json_codec::compare(a, b, "", {}, out);
  return out;
}

const level_prediction* prediction_of(const predicted_traffic& traffic, int param, model::memory_level level) {
  for (const level_prediction& l : traffic.levels)
    if (l.param == param && l.level == level) return &l;
  return nullptr;
}

namespace {
/// The levels of @p k's tensors that @p reason_of gives a reason for (a prediction, or null where the
/// tensor has none at that level), grouped by reason: "'x', 'y' at L2, DRAM: why", in the order first met.
std::vector<std::string> levels_by_reason(const kernel& k,
                                          const std::function<std::optional<std::string>(const level_prediction*)>& reason_of) {
  struct reason {
    std::string why;
    std::vector<std::string> levels, tensors;
  };
  std::vector<reason> reasons;  // in the order first met
  for (const dsl::tensor_info& t : k.spec_value.tensor_list()) {
    if (t.arg < 0 || t.access == dsl::role::not_counted) continue;
    std::vector<std::pair<std::string, std::vector<std::string>>> own;  // reason -> this tensor's levels
    for (const model::memory_level level : {model::memory_level::l1, model::memory_level::l2, model::memory_level::dram}) {
      std::optional<std::string> why = reason_of(prediction_of(*k.predicted, t.arg, level));
      if (!why) continue;
      // An inline assembly's text: its last line break closes the quote, the others become spaces.
      for (std::size_t at = why->find("\n'"); at != std::string::npos; at = why->find("\n'", at)) why->erase(at, 1);
      std::replace(why->begin(), why->end(), '\n', ' ');
      auto o = std::find_if(own.begin(), own.end(), [&](const auto& e) { return e.first == *why; });
      if (o == own.end()) o = own.insert(own.end(), {*why, {}});
      o->second.emplace_back(model::label(level));
    }
    for (const auto& [why, levels] : own) {
      auto r = std::find_if(reasons.begin(), reasons.end(), [&](const reason& e) { return e.why == why && e.levels == levels; });
      if (r == reasons.end()) r = reasons.insert(reasons.end(), {why, levels, {}});
      r->tensors.push_back("'" + std::string(t.name.view()) + "'");
    }
  }
  const auto joined = [](const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
  };
  std::vector<std::string> out;
  for (const reason& r : reasons) out.push_back(joined(r.tensors) + " at " + joined(r.levels) + ": " + r.why);
  return out;
}
}  // namespace

std::vector<std::string> unpredicted_traffic(const kernel& k) {
  if (k.is_region()) return {"a region of kernels: its traffic is not predicted (its tensors name no kernel's parameters)"};
  if (!k.predicted) return {"its device code was not analysed"};
  return levels_by_reason(k, [&](const level_prediction* p) -> std::optional<std::string> {
    if (p && p->kind != prediction_kind::not_predicted) return std::nullopt;
    return !p ? (k.predicted->note.empty() ? "no figure" : k.predicted->note) : p->basis;
  });
}

std::vector<std::string> unpointed_traffic(const kernel& k) {
  if (k.is_region() || !k.predicted) return {};
  return levels_by_reason(k, [](const level_prediction* p) -> std::optional<std::string> {
    if (!p || p->kind != prediction_kind::range || p->ratio) return std::nullopt;
    return std::string(no_point_reason(p->basis).value_or(p->basis));
  });
}

std::optional<std::string_view> no_point_reason(std::string_view basis) {
  constexpr std::string_view tag = "no point estimate: ";
  const std::size_t at = basis.find(tag);
  if (at == std::string_view::npos) return std::nullopt;
  return basis.substr(at + tag.size());
}

std::optional<std::vector<std::string>> files_named_by(const std::string& path, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    error = "cannot read '" + path + "': " + (ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "No such file or directory");
    return std::nullopt;
  }
  if (!fs::is_directory(st)) return std::vector<std::string>{path};
  std::vector<std::string> found;
  const std::string_view suffix = file_suffix;
  if (fs::directory_iterator top(path, ec); ec) {  // below it, unreadable directories are skipped
    error = "cannot read '" + path + "': " + ec.message();
    return std::nullopt;
  }
  // Symbolic links to directories are not followed (a link to the build directory itself would loop).
  auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
  for (std::error_code next; !ec && it != fs::recursive_directory_iterator(); it.increment(next)) {
    if (next) break;
    std::error_code kind;
    const std::string name = it->path().filename().string();
    if (it->is_regular_file(kind) && name.size() > suffix.size() && name.ends_with(suffix)) found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  if (found.empty()) {
    error = "'" + path + "': no *.rooflint.json below this directory (is the analyzer installed, and rooflint_analyze() used? "
            "a manifest of another name must be passed as the file itself)";
    return std::nullopt;
  }
  return found;
}

}  // namespace rooflint::manifest
