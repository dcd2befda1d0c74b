// Per-line traffic: one launch under CUPTI's SASS metrics in a process of its own (a registered case's,
// or a program's under the injection library's lines mode), the observation it sends back, and the join
// with the manifests' predicted accesses (measure/lines.h).

#include "measure/lines.h"

#include <cuda_runtime.h>

#include <cmath>
#include <exception>
#include <filesystem>
#include <memory>
#include <set>
#include <span>

#include <nlohmann/json.hpp>

#include "cupti/sass_lines.h"
#include "cupti/source_correlation.h"
#include "rooflint/files/manifest.h"
#include "report/report_lines.h"

namespace rooflint::runtime {

std::string_view name(lines_mode m) {
  switch (m) {
    case lines_mode::off: return "off";
    case lines_mode::failing: return "failing";
    case lines_mode::all: return "all";
  }
  return "failing";
}

std::optional<lines_mode> parse_lines_mode(std::string_view text) {
  for (const lines_mode m : {lines_mode::off, lines_mode::failing, lines_mode::all})
    if (text == name(m)) return m;
  return std::nullopt;
}

namespace {

std::string cuda_text(cudaError_t s) { return std::string(cudaGetErrorName(s)) + " (" + cudaGetErrorString(s) + ")"; }

/// A correlation over the cubins whose CRC a record names: the first cubin that has the function.
correlate_fn correlation_over(const std::vector<std::shared_ptr<const std::vector<char>>>& cubins) {
  std::vector<correlate_fn> each;
  for (const auto& c : cubins) each.push_back(cupti::correlation_of(c));
  return [each = std::move(each)](const std::string& function, std::uint32_t pc) -> result<source_location> {
    for (const correlate_fn& f : each) {
      result<source_location> where = f(function, pc);
      if (where || where.err().code != error_code::invalid_argument) return where;
    }
    return error{error_code::invalid_argument, "no captured cubin has the function '" + function + "'"};
  };
}

line_observation observe(const case_definition& c) {
  line_observation out;
  const auto unavailable = [&](std::string why) {
    out.not_available = std::move(why);
    return out;
  };
  // Before any CUDA call: the kernel's module must load while the callback listens.
  auto capture = cupti::cubin_capture::create();
  if (!capture) return unavailable("capturing the kernel's cubin (CUPTI's module-loaded callback): " + capture.err().message);
  const auto binding = c.spec->bind(std::span<const dsl::size_binding>(c.sizes.data(), c.sizes.size()));
  if (!binding.ok()) return unavailable("the case's sizes do not bind its spec");
  int devices = 0;
  if (const cudaError_t s = cudaGetDeviceCount(&devices); s != cudaSuccess || devices == 0)
    return unavailable("no usable CUDA device" + (s != cudaSuccess ? ": " + cuda_text(s) : std::string()));
  if (const cudaError_t s = cudaSetDevice(0); s != cudaSuccess) return unavailable("cudaSetDevice(0) failed: " + cuda_text(s));
  if (const cudaError_t s = cudaFree(nullptr); s != cudaSuccess) return unavailable("creating the CUDA context failed: " + cuda_text(s));
  cudaStream_t stream = nullptr;
  if (const cudaError_t s = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); s != cudaSuccess)
    return unavailable("cudaStreamCreate failed: " + cuda_text(s));

  case_context ctx(*c.spec, binding.bound, 42);
  launcher l;
  try {
    l = c.body(ctx);
  } catch (const std::exception& e) {
    return unavailable(std::string("preparing the case failed: ") + e.what());
  }
  if (const cudaError_t s = cudaDeviceSynchronize(); s != cudaSuccess) return unavailable("preparing the case failed: " + cuda_text(s));
  if (!l.launch) return unavailable("the case's launcher has no 'launch'");
  const int launches = l.launches > 0 ? l.launches : std::max(1, c.spec->launches());
  if (launches != 1)
    return unavailable("a launch of this case makes " + std::to_string(launches) +
                       " kernel launches; the SASS metrics collect the first kernel of a window, one window per process");

  const auto run_once = [&]() -> result<void> {
    l.launch(stream);
    cudaError_t s = cudaGetLastError();
    if (s == cudaSuccess) s = cudaStreamSynchronize(stream);
    if (s != cudaSuccess) return error{error_code::internal, "the kernel's launch failed: " + cuda_text(s)};
    return success();
  };
  // A warm-up launch loads the kernel's module (its cubin captured) before the window.
  if (l.restore) l.restore(stream);
  if (auto warm = run_once(); !warm) return unavailable(warm.err().message);
  if (l.restore) {
    l.restore(stream);
    if (const cudaError_t s = cudaStreamSynchronize(stream); s != cudaSuccess) return unavailable("restoring inputs failed: " + cuda_text(s));
  }

  out = observation_of(cupti::collect_sass_lines(0, run_once), **capture);
  cudaStreamDestroy(stream);
  return out;
}

using nlohmann::json;

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
double number_of(const json& j) { return j.is_number() ? j.get<double>() : NAN; }

std::optional<memory_op> op_named(const std::string& text) {
  for (const memory_op op : {memory_op::load, memory_op::store, memory_op::atomic, memory_op::reduction})
    if (text == name(op)) return op;
  return std::nullopt;
}

/// observation_of's work, which may throw.
line_observation observe_collection(const result<cupti::sass_collection>& got, const cupti::cubin_capture& capture) {
  line_observation out;
  const auto unavailable = [&](std::string why) {
    out.not_available = std::move(why);
    return out;
  };
  if (!got) return unavailable(got.err().message);
  // Dropped records would undercount lines' sectors: no figures rather than short ones.
  if (got->dropped > 0)
    return unavailable("CUPTI dropped " + std::to_string(got->dropped) + " SASS metric records at the end of the window");
  out.window_s = got->window_s;
  out.metrics = got->metrics;
  const std::vector<instruction_traffic> instructions = instructions_from_sass(got->records);
  if (instructions.empty())
    return unavailable("the SASS metrics saw no global load, store or atomic instruction execute (" +
                       std::to_string(got->records.size()) + " patched instructions)");

  // The cubins the records name (their CRC), for the PCs' lines.
  std::set<std::uint32_t> crcs;
  for (const sass_record& r : got->records) crcs.insert(r.cubin_crc);
  const auto captured = capture.cubins();
  std::vector<std::shared_ptr<const std::vector<char>>> matching;
  for (const auto& cubin : captured)
    if (auto crc = cupti::cubin_crc(*cubin); crc && crcs.count(static_cast<std::uint32_t>(*crc))) matching.push_back(cubin);
  if (matching.empty())
    return unavailable(captured.empty() ? std::string("CUPTI's module-loaded callback handed over no cubin, so PCs cannot be mapped to lines")
                                        : "none of the " + std::to_string(captured.size()) +
                                              " captured cubins has the CRC the SASS records name");
  auto table = build_line_table(instructions, correlation_over(matching));
  if (!table) return unavailable("mapping PCs to lines failed: " + table.err().message);
  out.line_info = table->has_line_info();
  out.observed = observed_lines(instructions, *table, &out.unmapped);
  return out;
}

}  // namespace

line_observation observe_lines(const case_definition& c) {
  try {
    return observe(c);
  } catch (const std::exception& e) {  // a failure no check foresaw: said, never a crash of the case
    line_observation o;
    o.not_available = std::string("internal error: ") + e.what();
    return o;
  }
}

line_observation observation_of(const result<cupti::sass_collection>& got, const cupti::cubin_capture& capture) {
  try {
    return observe_collection(got, capture);
  } catch (const std::exception& e) {  // a failure no check foresaw: said, never the end of the process
    line_observation o;
    o.not_available = std::string("internal error: ") + e.what();
    return o;
  }
}

std::string line_observation_to_json(const line_observation& o) {
  json observed = json::array(), unmapped = json::array();
  for (const observed_line& l : o.observed)
    observed.push_back({{"file", l.where.file}, {"line", l.where.line}, {"op", std::string(name(l.op))},
                        {"instructions", l.instructions}, {"requests", l.requests}, {"sectors", l.sectors},
                        {"ideal_sectors", number(l.ideal_sectors)}});
  for (const instruction_traffic& t : o.unmapped)
    unmapped.push_back({{"function", t.function}, {"pc", t.pc}, {"op", std::string(name(t.op))}, {"requests", t.requests},
                        {"sectors", t.sectors}, {"chip_ideal", number(t.chip_ideal)}, {"data_bytes", number(t.data_bytes)}});
  // A path or function name that is not UTF-8 is written with U+FFFD, never an exception.
  return json{{"not_available", o.not_available}, {"line_info", o.line_info}, {"observed", observed},
              {"unmapped", unmapped}, {"metrics", o.metrics}, {"window_s", o.window_s}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

result<line_observation> line_observation_from_json(const std::string& text) {
  try {
    const json j = json::parse(text);
    line_observation o;
    o.not_available = j.at("not_available").get<std::string>();
    o.line_info = j.at("line_info").get<bool>();
    o.metrics = j.at("metrics").get<std::vector<std::string>>();
    o.window_s = j.at("window_s").get<double>();
    for (const json& e : j.at("observed")) {
      observed_line l;
      l.where = {e.at("file").get<std::string>(), e.at("line").get<unsigned>()};
      const auto op = op_named(e.at("op").get<std::string>());
      if (!op) return error{error_code::invalid_argument, "per-line observation: unknown op '" + e.at("op").get<std::string>() + "'"};
      l.op = *op;
      l.instructions = e.at("instructions").get<int>();
      l.requests = e.at("requests").get<double>();
      l.sectors = e.at("sectors").get<double>();
      l.ideal_sectors = number_of(e.at("ideal_sectors"));
      o.observed.push_back(std::move(l));
    }
    for (const json& e : j.at("unmapped")) {
      instruction_traffic t;
      t.function = e.at("function").get<std::string>();
      t.pc = e.at("pc").get<std::uint32_t>();
      const auto op = op_named(e.at("op").get<std::string>());
      if (!op) return error{error_code::invalid_argument, "per-line observation: unknown op '" + e.at("op").get<std::string>() + "'"};
      t.op = *op;
      t.requests = e.at("requests").get<double>();
      t.sectors = e.at("sectors").get<double>();
      t.chip_ideal = number_of(e.at("chip_ideal"));
      t.data_bytes = number_of(e.at("data_bytes"));
      o.unmapped.push_back(std::move(t));
    }
    return o;
  } catch (const std::exception& e) {
    return error{error_code::invalid_argument, std::string("per-line observation: ") + e.what()};
  }
}

line_report line_report_of(const line_observation& o, const std::vector<predicted_access>& predicted, double cost_s,
                           bool show_always) {
  line_report r;
  if (o.not_available.empty()) r = join_lines(predicted, o.observed);
  else r.not_available = o.not_available;
  r.line_info = o.line_info;
  r.cost_s = cost_s;
  r.show_always = show_always;
  r.unmapped = o.unmapped;
  r.observed = o.observed;
  return r;
}

predicted_by_kernel predicted_accesses_by_kernel(const std::vector<inject::manifest_kernel>& kernels) {
  predicted_by_kernel out;
  for (const inject::manifest_kernel& k : kernels)
    if (k.traffic_predicted && !out.count(k.kernel_name)) out[k.kernel_name] = detail::predicted_accesses_of(k.predicted_accesses);
  return out;
}

result<predicted_by_kernel> read_predicted_accesses(const std::vector<std::string>& paths) {
  auto kernels = inject::read_manifests(paths);
  if (!kernels) return kernels.err();
  return predicted_accesses_by_kernel(*kernels);
}

}  // namespace rooflint::runtime
