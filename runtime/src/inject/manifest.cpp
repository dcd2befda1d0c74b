// Reading the analyzer's manifests (docs/manifest-schema.md, versions 2 to 4) and binding a launch's sizes
// with the manifest's parameter layout.

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "rooflint/model/describe.h"
#include "rooflint/model/dtype.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

namespace {

using nlohmann::json;

/// Reads fields with checks; the first failure names the field.
struct reader {
  std::string where;  ///< "manifest 'x.json', kernel 'saxpy'"
  std::string failure;

  const json& at(const json& o, const char* key) {
    static const json null_value;
    if (!failure.empty()) return null_value;
    if (!o.is_object() || !o.contains(key)) {
      failure = where + ": field '" + key + "' is missing";
      return null_value;
    }
    return o.at(key);
  }
  std::string text(const json& o, const char* key) {
    const json& v = at(o, key);
    if (!failure.empty()) return {};
    if (!v.is_string()) { failure = where + ": field '" + key + "' is not a string"; return {}; }
    return v.get<std::string>();
  }
  double number(const json& o, const char* key) {
    const json& v = at(o, key);
    if (!failure.empty()) return 0;
    if (!v.is_number()) { failure = where + ": field '" + key + "' is not a number"; return 0; }
    return v.get<double>();
  }
  bool flag(const json& o, const char* key) {
    const json& v = at(o, key);
    if (!failure.empty()) return false;
    if (!v.is_boolean()) { failure = where + ": field '" + key + "' is not true or false"; return false; }
    return v.get<bool>();
  }
  const json& array(const json& o, const char* key, std::size_t most) {
    const json& v = at(o, key);
    if (!failure.empty()) return v;
    if (!v.is_array()) failure = where + ": field '" + key + "' is not an array";
    else if (v.size() > most) failure = where + ": field '" + key + "' has more than " + std::to_string(most) + " entries";
    return v;
  }
  dsl::name_t name(const json& o, const char* key) {
    const std::string s = text(o, key);
    if (failure.empty() && s.size() >= dsl::name_capacity) failure = where + ": name '" + s + "' in '" + key + "' is too long";
    return dsl::name_t(s);
  }
  dsl::poly poly(const json& o, const char* key) {
    dsl::poly p;
    const json& v = at(o, key);
    const json& dims = array(v, "dims", dsl::max_dims);
    const json& terms = array(v, "terms", dsl::max_terms);
    if (!failure.empty()) return p;
    for (const json& d : dims) {
      if (!d.is_string()) { failure = where + ": a dimension of '" + key + "' is not a string"; return p; }
      p.dims[p.dim_count++] = dsl::name_t(d.get<std::string>());
    }
    for (const json& t : terms) {
      dsl::monomial m;
      m.coefficient = number(t, "coefficient");
      const json& e = array(t, "exponents", dsl::max_dims);
      if (!failure.empty()) return p;
      for (std::size_t i = 0; i < e.size(); ++i) m.exponents[i] = static_cast<std::uint8_t>(e[i].get<int>());
      p.terms[p.term_count++] = m;
    }
    return p;
  }
};

template <class Enum, std::size_t N>
bool enum_from(const std::string& text, const std::array<std::string_view, N>& names, Enum& out) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == text) { out = static_cast<Enum>(i); return true; }
  return false;
}

bool dtype_from(const std::string& text, model::dtype& out) {
  for (std::size_t i = 0; i < model::dtype_count; ++i)
    if (model::name(static_cast<model::dtype>(i)) == text) { out = static_cast<model::dtype>(i); return true; }
  return false;
}

bool mode_from(const std::string& text, model::math_mode& out) {
  for (std::size_t i = 0; i < model::math_mode_count; ++i)
    if (model::name(static_cast<model::math_mode>(i)) == text) { out = static_cast<model::math_mode>(i); return true; }
  return false;
}

void read_spec_value(reader& r, const json& v, dsl::spec& s) {
  s.kernel_name = r.name(v, "kernel_name");
  const json& op = r.at(v, "op");
  s.op.kind = static_cast<dsl::op_kind>(static_cast<int>(r.number(op, "kind")));
  s.op.name = r.name(op, "name");
  s.op.flops = r.poly(op, "flops");
  s.op.zero_under_torch = r.flag(op, "zero_under_torch");
  s.op.causal = r.flag(op, "causal");
  const json& derived = r.array(op, "derived", s.op.derived.size());
  const json& constraints = r.array(op, "constraints", s.op.constraints.size());
  if (!r.failure.empty()) return;
  for (const json& d : derived)
    s.op.derived[s.op.derived_count++] = {r.name(d, "name"), r.name(d, "source"), r.name(d, "window"),
                                          static_cast<std::int64_t>(r.number(d, "stride")),
                                          static_cast<std::int64_t>(r.number(d, "padding")),
                                          static_cast<std::int64_t>(r.number(d, "dilation"))};
  for (const json& c : constraints)
    s.op.constraints[s.op.constraint_count++] = {r.name(c, "lhs"), static_cast<std::int64_t>(r.number(c, "factor")),
                                                 r.name(c, "rhs")};
  // The stated precision (operation::precision()), newer than version 2's first manifests: absent means not stated.
  if (op.contains("precision_stated")) {
    s.op.precision_stated = r.flag(op, "precision_stated");
    for (auto [key, out] : {std::pair{"compute", &s.op.compute}, std::pair{"accumulate", &s.op.accumulate}})
      if (const std::string d = r.text(op, key); r.failure.empty() && !dtype_from(d, *out))
        r.failure = r.where + ": unknown " + key + " dtype '" + d + "'";
  }
  const json& dims = r.array(v, "dims", dsl::max_dims);
  const json& tensors = r.array(v, "tensors", dsl::max_tensors);
  if (!r.failure.empty()) return;
  for (const json& d : dims) {
    dsl::dim_info& info = s.dims[s.dim_count++];
    info.name = r.name(d, "name");
    info.static_size = r.number(d, "static_size");
    info.declared_size = r.number(d, "declared_size");
  }
  for (const json& t : tensors) {
    dsl::tensor_info& info = s.tensors[s.tensor_count++];
    info.name = r.name(t, "name");
    if (const std::string d = r.text(t, "dtype"); r.failure.empty() && !dtype_from(d, info.dtype))
      r.failure = r.where + ": unknown dtype '" + d + "'";
    const std::string access = r.text(t, "access");
    if (r.failure.empty() && !enum_from(access, std::array<std::string_view, 4>{"read", "write", "read_write", "not_counted"}, info.access))
      r.failure = r.where + ": unknown tensor access '" + access + "'";
    info.arg = static_cast<decltype(info.arg)>(r.number(t, "arg"));
    const json& shape = r.array(t, "shape", dsl::max_rank);
    if (!r.failure.empty()) return;
    info.rank = static_cast<std::uint8_t>(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) info.shape[i] = static_cast<std::int8_t>(shape[i].get<int>());
    info.elements = r.poly(t, "elements");
    info.partial = r.flag(t, "partial");
    // "extra" (operation::with) is newer than version 2's first manifests: absent means false.
    info.extra = t.contains("extra") && r.flag(t, "extra");
  }
  s.convention.count_elementwise = r.flag(v, "count_elementwise");
  s.convention.halve_causal = r.flag(v, "halve_causal");
  if (const std::string m = r.text(v, "math_mode"); r.failure.empty() && !mode_from(m, s.mode))
    r.failure = r.where + ": unknown math mode '" + m + "'";
  const std::string bound = r.text(v, "expected_bound");
  if (r.failure.empty() && !enum_from(bound, std::array<std::string_view, 3>{"any", "memory", "compute"}, s.expected.bound))
    r.failure = r.where + ": unknown expected bound '" + bound + "'";
  s.expected.max_traffic_ratio = r.number(v, "max_traffic_ratio");
  s.expected.min_roofline_fraction = r.number(v, "min_roofline_fraction");
  s.flops = r.poly(v, "flops");
  s.read_bytes = r.poly(v, "read_bytes");
  s.written_bytes = r.poly(v, "written_bytes");
  // min, max and ceil_div terms (dsl/poly.h), newer than version 2's first manifests: absent means none.
  if (!r.failure.empty() || !v.contains("size_terms")) return;
  const json& terms = r.array(v, "size_terms", dsl::max_size_terms);
  if (!r.failure.empty()) return;
  for (const json& t : terms) {
    dsl::size_term& term = s.size_terms.terms[s.size_terms.count++];
    term.name = r.name(t, "name");
    const std::string op = r.text(t, "op");
    if (r.failure.empty() && !enum_from(op, std::array<std::string_view, 4>{"min", "max", "ceil_div", "div"}, term.op))
      r.failure = r.where + ": unknown size term operation '" + op + "'";
    term.lhs = r.poly(t, "lhs");
    term.rhs = r.poly(t, "rhs");
    if (r.failure.empty() && s.dim_index(term.name) < 0)
      r.failure = r.where + ": size term '" + std::string(term.name.view()) + "' is not one of the spec's dimensions";
  }
}

void read_launch(reader& r, const json& l, dsl::spec& s) {
  if (l.is_null()) return;
  const std::string kind = r.text(l, "kind");
  if (r.failure.empty() && kind != "kernel" && kind != "region") {
    r.failure = r.where + ": launch kind '" + kind + "' is not one this rooflint-verify knows ('kernel', 'region')";
    return;
  }
  s.launch.kind = kind == "region" ? dsl::binding_kind::region : dsl::binding_kind::kernel;
  const json& sizes = r.array(l, "sizes", dsl::max_dims);
  if (!r.failure.empty()) return;
  for (const json& e : sizes) {
    dsl::launch_size& ls = s.launch.sizes[s.launch.size_count++];
    ls.dim = r.name(e, "dim");
    const std::string source = r.text(e, "source");
    if (r.failure.empty() && !enum_from(source, std::array<std::string_view, 3>{"argument", "grid_dim", "block_dim"}, ls.source))
      r.failure = r.where + ": unknown size source '" + source + "'";
    ls.index = static_cast<decltype(ls.index)>(r.number(e, "index"));
    ls.multiplier = static_cast<std::int64_t>(r.number(e, "multiplier"));
    ls.divisor = static_cast<std::int64_t>(r.number(e, "divisor"));
    ls.site = static_cast<std::int8_t>(r.number(e, "site"));
  }
}

/// Version 4's predicted_traffic: its entries, read once (the report's lines below and the kernel's
/// ratios per level both come from these, so they cannot disagree). Optional: absent (versions 2 and 3)
/// or null (a kernel whose IR was not analysed) reads as none. An entry without a tensor or a level
/// (strings) is skipped; a ratio that is not a number above 0 (null: the analyzer could not predict it)
/// reads as 0, not predicted.
std::vector<manifest_kernel::predicted_ratio> read_predicted_ratios(const json& k) {
  std::vector<manifest_kernel::predicted_ratio> out;
  const auto p = k.find("predicted_traffic");
  if (p == k.end() || !p->is_object() || !p->contains("tensors") || !(*p)["tensors"].is_array()) return out;
  for (const json& t : (*p)["tensors"]) {
    if (!t.is_object() || !t.contains("tensor") || !t["tensor"].is_string() || !t.contains("level") || !t["level"].is_string())
      continue;
    const double ratio = t.contains("ratio") && t["ratio"].is_number() ? t["ratio"].get<double>() : 0;
    const bool sized = t.contains("sized") && t["sized"].is_boolean() && t["sized"].get<bool>();
    const std::string basis = t.contains("basis") && t["basis"].is_string() ? t["basis"].get<std::string>() : "";
    out.push_back({t["tensor"].get<std::string>(), t["level"].get<std::string>(), ratio > 0 ? ratio : 0, sized, basis});
  }
  return out;
}

/// The entries as the report prints them, one line per tensor, its levels in the order of the manifest
/// ("x: DRAM 1x (basis), L2 8x (basis), L1 8x"; a level without a ratio is "not predicted"; a basis is
/// printed where it differs from the level before).
std::vector<std::string> predicted_traffic_lines(const std::vector<manifest_kernel::predicted_ratio>& entries) {
  struct line { std::string tensor, text, basis; };
  std::vector<line> lines;
  for (const auto& e : entries) {
    const std::string ratio = e.ratio > 0 ? model::format_significant(e.ratio, 3) + "x" + (e.sized ? " at the declared sizes" : "")
                                          : std::string("not predicted");
    auto it = std::find_if(lines.begin(), lines.end(), [&](const line& l) { return l.tensor == e.tensor; });
    if (it == lines.end()) {
      lines.push_back({e.tensor, e.tensor + ":", ""});
      it = lines.end() - 1;
    } else {
      it->text += ",";
    }
    const std::string& level = e.level;
    it->text += " " + std::string(level == "dram" ? "DRAM" : level == "l2" ? "L2" : level == "l1" ? "L1" : level) + " " + ratio;
    if (!e.basis.empty() && e.basis != it->basis) it->text += " (" + e.basis + ")";
    it->basis = e.basis;
  }
  std::vector<std::string> out;
  for (auto& l : lines) out.push_back(std::move(l.text));
  return out;
}

manifest_param param_from(reader& r, const json& p) {
  return {r.text(p, "name"), r.text(p, "type"), r.text(p, "kind"), r.flag(p, "signed"),
          static_cast<unsigned>(r.number(p, "size_bytes")), static_cast<unsigned>(r.number(p, "offset_bytes"))};
}

/// Version 3: a region's kernels (`region.kernels`), and spec.region from them.
void read_region(reader& r, const json& k, manifest_kernel& m) {
  if (!k.contains("region") || k["region"].is_null()) return;
  const json& kernels = r.array(r.at(k, "region"), "kernels", dsl::max_region_kernels);
  if (!r.failure.empty()) return;
  if (kernels.empty()) { r.failure = r.where + ": field 'region.kernels' is empty"; return; }
  for (const json& e : kernels) {
    manifest_region_kernel rk;
    const std::string match = r.text(e, "match");
    if (!r.failure.empty()) return;
    if (match == "library") {
      rk.library = true;
      rk.pattern = r.text(e, "pattern");
      if (r.failure.empty() && (rk.pattern.empty() || rk.pattern.size() >= dsl::name_capacity))
        r.failure = r.where + ": a library kernel's 'pattern' must have 1 to 31 characters";
    } else if (match == "function") {
      rk.function = r.text(e, "function");
      rk.mangled_name = r.text(e, "mangled_name");
      const json& params = r.array(e, "parameters", dsl::max_launch_args);
      if (r.failure.empty())
        for (const json& p : params) rk.params.push_back(param_from(r, p));
    } else {
      r.failure = r.where + ": unknown region kernel match '" + match + "' ('function', 'library')";
    }
    if (!r.failure.empty()) return;
    dsl::region_kernel& d = m.spec.region.kernels[m.spec.region.kernel_count++];
    d.match = rk.library ? dsl::kernel_match::library : dsl::kernel_match::function;
    d.pattern = dsl::name_t(rk.pattern);
    m.region.push_back(std::move(rk));
  }
  // The sizes are read at one kernel (its `site`): a launch site past the region's kernels cannot bind.
  for (int i = 0; i < m.spec.launch.size_count; ++i)
    if (const int site = m.spec.launch.sizes[i].site; site < 0 || static_cast<std::size_t>(site) >= m.region.size() ||
                                                       m.region[static_cast<std::size_t>(site)].library) {
      r.failure = r.where + ": size of '" + std::string(m.spec.launch.sizes[i].dim.view()) + "' is read at kernel " +
                  std::to_string(site) + ", which is not one of the region's kernels given by function";
      return;
    }
  m.mangled_name = region_key(m.kernel_name);
}

}  // namespace

result<std::vector<manifest_kernel>> parse_manifest(const std::string& text, const std::string& path) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    return error{error_code::invalid_argument, "manifest '" + path + "' is not JSON: " + e.what()};
  }
  // Not json::value(), which throws when a key has another type (a "version" string, as in SARIF).
  const auto schema = doc.is_object() ? doc.find("schema") : doc.end();
  if (!doc.is_object() || schema == doc.end() || !schema->is_string() || *schema != "rooflint-manifest")
    return error{error_code::invalid_argument, "'" + path + "' is not a rooflint manifest (no \"schema\": \"rooflint-manifest\")"};
  const auto version_field = doc.find("version");
  if (version_field == doc.end() || !version_field->is_number_integer())
    return error{error_code::invalid_argument, "manifest '" + path + "' has no integer \"version\""};
  const int version = version_field->get<int>();
  if (version < 2)
    return error{error_code::invalid_argument, "manifest '" + path + "' is version " + std::to_string(version) +
                                                   ", which says nothing about launches; rebuild it with this rooflint (version 2)"};
  std::vector<manifest_kernel> out;
  if (!doc.contains("kernels") || !doc["kernels"].is_array())
    return error{error_code::invalid_argument, "manifest '" + path + "': field 'kernels' is missing"};
  for (const json& k : doc["kernels"]) {
    manifest_kernel m;
    m.manifest_path = path;
    reader r{"manifest '" + path + "', kernel '" + (k.is_object() ? k.value("name", "?") : "?") + "'", {}};
    m.spec_name = r.text(k, "spec");
    m.kernel_name = r.text(k, "name");
    m.function = r.text(k, "function");
    m.mangled_name = r.text(k, "mangled_name");
    const json& where = r.at(k, "spec_location");
    m.file = r.text(where, "file");
    m.line = static_cast<int>(r.number(where, "line"));
    const json& params = r.array(k, "parameters", dsl::max_launch_args);
    if (r.failure.empty())
      for (const json& p : params)
        m.params.push_back(param_from(r, p));
    if (r.failure.empty()) read_spec_value(r, r.at(k, "spec_value"), m.spec);
    if (r.failure.empty()) read_launch(r, r.at(k, "launch"), m.spec);
    if (r.failure.empty() && version >= 3) read_region(r, k, m);
    if (r.failure.empty() && m.spec.launch.kind == dsl::binding_kind::region && !m.is_region())
      r.failure = r.where + ": launch kind 'region' without a 'region' object";
    if (r.failure.empty()) {
      m.predicted_ratios = read_predicted_ratios(k);
      m.predicted_traffic = predicted_traffic_lines(m.predicted_ratios);
    }
    if (!r.failure.empty()) return error{error_code::invalid_argument, r.failure};
    out.push_back(std::move(m));
  }
  return out;
}

result<std::vector<manifest_kernel>> read_manifest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{error_code::invalid_argument, "cannot read manifest '" + path + "': " + std::strerror(errno)};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_manifest(text.str(), path);
}

result<std::vector<std::string>> find_manifests(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return error{error_code::invalid_argument, "--manifest '" + path + "': no such file or directory"};
  if (!fs::is_directory(st)) return std::vector<std::string>{path};
  std::vector<std::string> found;
  for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    // One name: rooflint_analyze() writes <target>.rooflint.json. Other tools' *.manifest.json or *.json
    // files in a build directory are not rooflint's and are left alone.
    const std::string name = it->path().filename().string();
    constexpr std::string_view suffix = ".rooflint.json";
    if (it->is_regular_file(ec) && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  if (found.empty())
    return error{error_code::invalid_argument, "--manifest '" + path + "': no *.rooflint.json below this directory (is the analyzer installed, and rooflint_analyze() used?)"};
  return found;
}

dsl::launch_values launch_values_from(const manifest_kernel& k, void* const* kernel_params, const void* packed,
                                      std::size_t packed_size, const launch_shape& shape) {
  dsl::launch_values v;
  for (std::size_t i = 0; i < 3; ++i) {
    v.grid[i] = shape.grid[i];
    v.block[i] = shape.block[i];
  }
  for (std::size_t i = 0; i < k.params.size() && i < dsl::max_launch_args; ++i) {
    const manifest_param& p = k.params[i];
    if (p.kind != "integer" && p.kind != "enum" && p.kind != "bool") continue;
    if (p.size_bytes != 1 && p.size_bytes != 2 && p.size_bytes != 4 && p.size_bytes != 8) continue;
    const void* at = nullptr;
    if (kernel_params) at = kernel_params[i];
    else if (packed && p.offset_bytes + p.size_bytes <= packed_size) at = static_cast<const char*>(packed) + p.offset_bytes;
    if (!at) continue;
    std::int64_t value = 0;
    switch (p.size_bytes) {
      case 1: { std::uint8_t x; std::memcpy(&x, at, 1); value = p.is_signed ? static_cast<std::int8_t>(x) : x; break; }
      case 2: { std::uint16_t x; std::memcpy(&x, at, 2); value = p.is_signed ? static_cast<std::int16_t>(x) : x; break; }
      case 4: { std::uint32_t x; std::memcpy(&x, at, 4); value = p.is_signed ? static_cast<std::int32_t>(x) : static_cast<std::int64_t>(x); break; }
      default: { std::int64_t x; std::memcpy(&x, at, 8); value = x; break; }
    }
    v.args[i] = value;
    v.has_arg[i] = true;
  }
  return v;
}

std::string sizes_text(const dsl::spec& spec, const dsl::sizes& s) {
  std::string out;
  for (int i = 0; i < spec.dim_count; ++i) {
    out += fmt::format("{}{}={:.17g}", out.empty() ? "" : ", ", spec.dims[i].name.view(), s.values[i]);
  }
  return out;
}

namespace {
/// "argument 3 ('n4')", "4 * argument 3 ('n4')", "gridDim.x / 2".
std::string source_text(const manifest_kernel& k, const dsl::launch_size& l) {
  std::string base;
  if (l.source == dsl::size_source::argument) {
    base = "argument " + std::to_string(l.index);
    if (l.index >= 0 && static_cast<std::size_t>(l.index) < k.params.size() && !k.params[l.index].name.empty())
      base += " ('" + k.params[l.index].name + "')";
  } else {
    base = std::string(l.source == dsl::size_source::grid_dim ? "gridDim." : "blockDim.") + "xyz"[std::clamp<int>(l.index, 0, 2)];
  }
  if (l.multiplier != 1) base = std::to_string(l.multiplier) + " * " + base;
  if (l.divisor != 1) base += " / " + std::to_string(l.divisor);
  return base;
}
}  // namespace

std::string binding_problem(const manifest_kernel& k, const dsl::binding_result& r, const dsl::launch_values& v) {
  if (r.missing.empty() && r.violated.empty() && r.unknown.empty() && !r.too_large.empty())
    return "tensor '" + std::string(r.too_large.view()) + "': the part the spec says the kernel touches (touches()) is larger than the whole tensor at this launch (" +
           sizes_text(k.spec, r.bound) + ")";
  const dsl::name_t dim = !r.violated.empty() ? r.violated : !r.missing.empty() ? r.missing : r.unknown;
  const std::string d = "dimension '" + std::string(dim.view()) + "'";
  const dsl::launch_size* l = k.spec.launch.find(dim);
  if (!l) {
    if (!r.missing.empty()) return d + " has no size at this launch: it is not read from launches and has no static or .at() size";
    return d + " contradicts the operation at this launch (a derived size or a constraint)";
  }
  std::int64_t raw = 0;
  if (!dsl::read_source(*l, v, raw)) {
    if (l->source == dsl::size_source::argument && l->index >= 0 && static_cast<std::size_t>(l->index) < k.params.size())
      return d + " is read from " + source_text(k, *l) + ", of type '" + k.params[l->index].type +
             "', which is not an integer this launch passes";
    return d + " is read from " + source_text(k, *l) + ", which this launch does not have (the kernel has " +
           std::to_string(k.params.size()) + " parameters)";
  }
  const std::int64_t scaled = raw * l->multiplier;
  if (scaled <= 0) return d + " = " + source_text(k, *l) + " is " + std::to_string(scaled) + " at this launch; a size must be positive";
  if (l->divisor > 1 && scaled % l->divisor != 0)
    return d + " = " + source_text(k, *l) + " is not a whole size at this launch (" + std::to_string(scaled) + " / " +
           std::to_string(l->divisor) + ")";
  return d + " = " + source_text(k, *l) + " = " + std::to_string(scaled / l->divisor) +
         " contradicts a static size, a derived size or a constraint of the operation";
}

}  // namespace rooflint::runtime::inject
