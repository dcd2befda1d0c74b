// Reading the analyzer's manifests for a program run: the files library loads and checks them
// (rooflint/files/manifest.h); here each kernel becomes what the injection binds launches with, and a
// launch's sizes are bound with the manifest's parameter layout.

#include <limits>
#include <cstring>
#include <fmt/format.h>

#include "rooflint/files/manifest.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

namespace {

manifest_param param_of(const manifest::parameter& p) {
  return {p.name, p.type, p.kind, p.is_signed, static_cast<unsigned>(p.size_bytes), static_cast<unsigned>(p.offset_bytes)};
}

std::vector<manifest_param> params_of(const std::vector<manifest::parameter>& params) {
  std::vector<manifest_param> out;
  for (const manifest::parameter& p : params) out.push_back(param_of(p));
  return out;
}

manifest_region_kernel region_kernel_of(const manifest::region_member& m) {
  return {m.match == dsl::kernel_match::library, m.pattern, m.function, m.mangled_name, params_of(m.parameters)};
}

/// @return Why a kernel's launches cannot be verified though its manifest entry is valid, or "".
std::string unverifiable(const manifest::kernel& k) {
  if (k.parameters.size() > dsl::max_launch_args)
    return "kernel '" + k.name + "' has " + std::to_string(k.parameters.size()) + " parameters, more than the " +
           std::to_string(dsl::max_launch_args) + " whose values a launch gives rooflint; its launches are not verified";
  return "";
}

manifest_kernel kernel_of(const manifest::kernel& k, const std::string& path) {
  manifest_kernel m;
  m.spec_name = k.spec;
  m.kernel_name = k.name;
  m.function = k.function;
  m.mangled_name = k.is_region() ? region_key(k.name) : k.mangled_name;
  m.file = k.spec_location.file;
  m.line = k.spec_location.line;
  m.manifest_path = path;
  m.spec = k.spec_value;
  m.params = params_of(k.parameters);
  if (k.region)
    for (const manifest::region_member& r : k.region->kernels) m.region.push_back(region_kernel_of(r));
  if (k.predicted) {
    m.traffic_predicted = true;
    m.predicted = k.predicted->levels;
    m.predicted_accesses = k.predicted->accesses;
    m.predicted_launch = k.predicted->launch;
  }
  m.unverifiable = unverifiable(k);
  return m;
}

result<std::vector<manifest_kernel>> kernels_of(const manifest::manifest_file& file, const std::string& path) {
  if (!manifest::has_launches(file.version))
    return error{error_code::invalid_argument, "manifest '" + path + "' is version " + std::to_string(file.version) +
                                                   ", which says nothing about launches; rebuild it with this rooflint"};
  std::vector<manifest_kernel> out;
  for (const manifest::kernel& k : file.kernels) out.push_back(kernel_of(k, path));
  return out;
}

}  // namespace

result<std::vector<manifest_kernel>> parse_manifest(const std::string& text, const std::string& path) {
  std::string problem;
  const std::optional<manifest::manifest_file> file = manifest::from_json(text, path, problem);
  if (!file) return error{error_code::invalid_argument, problem};
  return kernels_of(*file, path);
}

result<std::vector<manifest_kernel>> read_manifest(const std::string& path) {
  std::string problem;
  const std::optional<manifest::manifest_file> file = manifest::load(path, problem);
  if (!file) return error{error_code::invalid_argument, problem};
  return kernels_of(*file, path);
}

result<std::vector<manifest_kernel>> read_manifests(const std::vector<std::string>& paths) {
  std::vector<manifest_kernel> out;
  for (const std::string& p : paths) {
    auto files = find_manifests(p);
    if (!files) return files.err();
    for (const std::string& f : *files) {
      auto kernels = read_manifest(f);
      if (!kernels) return kernels.err();
      for (manifest_kernel& k : *kernels) out.push_back(std::move(k));
    }
  }
  return out;
}

result<std::vector<std::string>> find_manifests(const std::string& path) {
  std::string problem;
  std::optional<std::vector<std::string>> found = manifest::files_named_by(path, problem);
  if (!found) return error{error_code::invalid_argument, "--manifest: " + problem};
  return std::move(*found);
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
    if (p.kind != manifest::param_kind::integer && p.kind != manifest::param_kind::enumeration &&
        p.kind != manifest::param_kind::boolean)
      continue;
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
/// "argument 3 ('n4')", "4 * argument 3 ('n4')", "gridDim.x / 2", "2^argument 2 ('log2N')".
std::string source_text(const manifest_kernel& k, const dsl::launch_size& l) {
  std::string base;
  if (l.source == dsl::size_source::argument) {
    base = "argument " + std::to_string(l.index);
    if (l.index >= 0 && static_cast<std::size_t>(l.index) < k.params.size() && !k.params[l.index].name.empty())
      base += " ('" + k.params[l.index].name + "')";
  } else {
    base = std::string(l.source == dsl::size_source::grid_dim ? "gridDim." : "blockDim.") + "xyz"[std::clamp<int>(l.index, 0, 2)];
  }
  if (l.power_of_two) base = "2^" + base;
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
  const std::string read = d + " = " + source_text(k, *l);
  // The value the expression multiplies: 2^raw for pow2(), where the exponent is in range.
  const auto value = [&] { return l->power_of_two ? std::int64_t{1} << raw : raw; };
  switch (l->read(raw).refused) {
    case dsl::launch_size::refusal::none:
      return read + " = " + std::to_string(l->size_from(raw)) + " contradicts a static size, a derived size or a constraint of the operation";
    case dsl::launch_size::refusal::exponent_out_of_range:
      return read + " has the exponent " + std::to_string(raw) + " at this launch; it must be 0 to " +
             std::to_string(dsl::launch_size::max_exponent);
    case dsl::launch_size::refusal::not_positive: {  // the product as the expression reads, where it fits
      const bool fits = value() >= std::numeric_limits<std::int64_t>::min() / l->multiplier;
      return read + " is " + (fits ? std::to_string(value() * l->multiplier) : std::to_string(value()) + " x " + std::to_string(l->multiplier)) +
             " at this launch; a size must be positive";
    }
    case dsl::launch_size::refusal::past_limit:
      return read + " is past 2^62 at this launch (" + std::to_string(value()) + " x " + std::to_string(l->multiplier) + ")";
    case dsl::launch_size::refusal::not_whole:
      break;
  }
  return read + " is not a whole size at this launch (" + std::to_string(value() * l->multiplier) + " / " +
         std::to_string(l->divisor) + ")";
}

}  // namespace rooflint::runtime::inject
