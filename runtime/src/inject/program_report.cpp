// The parent's report of a program run: measured launches grouped into cases, compared through the
// harness verifier's compare_cases, plus what only a program run has (launches seen, kernels never
// launched, launches whose sizes did not bind).

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <span>

#include "rooflint/files/diagnostics.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// One case: a kernel at one set of sizes, with every measured launch of it, or why none was.
struct grouped_case {
  const manifest_kernel* kernel = nullptr;
  std::string sizes;
  std::string gpu;  ///< the UUID of the GPU its launches were measured on (several GPUs: a case each)
  std::optional<launch_shape> shape;  ///< the first measured launch's grid, block and dynamic shared memory
  dsl::sizes values;
  std::vector<const measurement*> launches;
  long seen = 0;             ///< bound launches seen at these sizes
  std::string not_measured;  ///< why the first launch left unmeasured was (a busy window, a graph, a fork)
};

/// Where @p second states another spec for @p first's kernel (another spec variable or another place, not
/// the same spec read from two manifests): what the run says, since the injection library and the report
/// judge a kernel's launches against its first spec only. "" when it is the same spec.
std::string second_spec_warning(const manifest_kernel& first, const manifest_kernel& second) {
  if (first.spec_name == second.spec_name && first.file == second.file && first.line == second.line) return "";
  const auto where = [](const manifest_kernel& k) { return "'" + k.spec_name + "' (" + k.file + ":" + std::to_string(k.line) + ")"; };
  return "kernel '" + first.kernel_name + "' (" + first.mangled_name + ") has two specs, " + where(first) + " and " + where(second) +
         ": its launches are judged against the first; give the kernel one spec";
}

/// "kernel [N=1024]"; in a program that ran on several GPUs, "kernel [N=1024] on GPU-01234567", the
/// start of the card's UUID (nvidia-smi -L prints it whole).
std::string case_name(const grouped_case& g, bool several_gpus) {
  const std::string name = g.kernel->kernel_name + " [" + g.sizes + "]";
  if (!several_gpus || g.gpu.empty()) return name;
  const std::string id = g.gpu.rfind("GPU-", 0) == 0 ? g.gpu.substr(4, 8) : g.gpu.substr(0, 8);
  return name + std::string(gpu_suffix) + id;
}

/// Whether @p at are the spec's declared sizes (.at(...)), at which the analyzer predicted: a size of 0
/// (not bound) does not count against it.
bool at_declared_sizes(const dsl::spec& spec, const dsl::sizes& at) {
  const dsl::sizes declared = spec.declared().bound;
  for (std::size_t i = 0; i < spec.dims.size(); ++i)
    if (at.values[i] > 0 && std::fabs(at.values[i] - declared.values[i]) > 0.5) return false;
  return true;
}

std::string extent_text(const std::int64_t* v) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
}

/// How the launch that @p ran, at the spec's declared sizes, differs from the one the prediction evaluated
/// there, @p predicted: its block, its grid, and the dynamic shared memory and registers where the spec
/// states them. ""
/// when it does not. (The manifest holds that launch's figures at the declared sizes; a spec's block, grid
/// or shared memory may follow the sizes.)
std::string blocks_text(int blocks) { return std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " per SM"; }

std::string launch_mismatch(const manifest::launch_assumption& predicted, const launch_shape& ran) {
  std::vector<std::string> differ;
  if (!std::equal(predicted.block.begin(), predicted.block.end(), ran.block))
    differ.push_back("block " + extent_text(ran.block) + " ran, " + extent_text(predicted.block.data()) + " predicted");
  if (!std::equal(predicted.grid.begin(), predicted.grid.end(), ran.grid))
    differ.push_back("grid " + extent_text(ran.grid) + " ran, " + extent_text(predicted.grid.data()) + " predicted");
  if (predicted.dynamic_shared && *predicted.dynamic_shared != ran.shared_bytes)
    differ.push_back(std::to_string(ran.shared_bytes) + " bytes of dynamic shared memory ran, " +
                     std::to_string(*predicted.dynamic_shared) + " predicted");
  // Stated registers set the blocks an SM holds: another count of blocks is another launch.
  if (predicted.registers && predicted.blocks_per_sm && ran.blocks_per_sm > 0 && ran.blocks_per_sm != *predicted.blocks_per_sm)
    differ.push_back(blocks_text(ran.blocks_per_sm) + " ran (" + std::to_string(ran.registers) + " registers a thread), " +
                     std::to_string(*predicted.blocks_per_sm) + " predicted (" + std::to_string(*predicted.registers) + " stated)");
  return model::and_list(differ);
}

/// What to state where the registers the function ran with are not the spec's: stated others that hold as
/// many blocks an SM (launch_mismatch names those that do not), or none stated where the launch held fewer
/// blocks an SM than the prediction took from threads and shared memory. "" else.
std::string occupancy_note(const manifest::launch_assumption& predicted, const launch_shape& ran) {
  if (ran.registers <= 0) return "";
  if (predicted.registers)
    return ran.registers == *predicted.registers
               ? ""
               : std::to_string(ran.registers) + " registers a thread ran, " + std::to_string(*predicted.registers) +
                     " stated, the same blocks per SM: state .registers(" + std::to_string(ran.registers) + ") in the spec";
  if (!predicted.blocks_per_sm || ran.blocks_per_sm <= 0 || ran.blocks_per_sm >= *predicted.blocks_per_sm) return "";
  return "the prediction took " + std::to_string(*predicted.blocks_per_sm) + " blocks per SM, as threads and shared memory allow; " +
         "the launch held " + std::to_string(ran.blocks_per_sm) + " (" + std::to_string(ran.registers) +
         " registers a thread): state .registers(" + std::to_string(ran.registers) + ") in the spec for the waves it runs";
}

/// The counters of the first launch that has them (in a program of several processes one may have
/// waited in vain for the GPU's counters); the timing over all measured launches (median, min, max).
measurement merge(const grouped_case& g, const std::string& name) {
  const auto counted = std::find_if(g.launches.begin(), g.launches.end(), [](const measurement* l) { return l->counters.available; });
  measurement m = **(counted != g.launches.end() ? counted : g.launches.begin());
  m.case_name = name;
  std::vector<double> times;
  for (const measurement* l : g.launches)
    if (l->timing.available) times.push_back(l->timing.median_s);
  if (!times.empty()) {
    m.timing.available = true;
    m.timing.repetitions = static_cast<int>(times.size());
    m.timing.median_s = median_of(times);
    m.timing.min_s = *std::min_element(times.begin(), times.end());
    m.timing.max_s = *std::max_element(times.begin(), times.end());
  }
  return m;
}

/// A (kernel, sizes) the program launched but whose launches were all left unmeasured: it could not be
/// measured, and says why (never a silent absence from the report).
measurement never_measured(const grouped_case& g, const std::string& name) {
  measurement m;
  m.case_name = name;
  m.status = run_status::not_measured;
  m.error = std::to_string(g.seen) + (g.seen == 1 ? " launch" : " launches") + " of kernel '" + g.kernel->kernel_name +
            "' at " + g.sizes + " seen, none measured: " +
            (g.not_measured.empty() ? std::string("no window was opened for them") : g.not_measured);
  return m;
}

}  // namespace

std::vector<std::string> predicted_traffic_lines(const std::vector<manifest::level_prediction>& entries) {
  struct line { std::string tensor, text, basis; };
  std::vector<line> lines;
  for (const manifest::level_prediction& e : entries) {
    const auto x = [](double v) { return model::format_significant(v, 3) + "x"; };
    const std::string figure = e.kind == manifest::prediction_kind::range && e.low && e.high
                                   ? x(*e.low) + " to " + x(*e.high) + (e.ratio ? " (point " + x(*e.ratio) + ")" : " (no point)")
                                   : e.kind != manifest::prediction_kind::not_predicted && e.ratio ? x(*e.ratio) : "";
    const std::string ratio = figure.empty() ? std::string("not predicted")
                                             : figure + (e.sized ? " at the declared sizes" : "");
    auto it = std::find_if(lines.begin(), lines.end(), [&](const line& l) { return l.tensor == e.tensor; });
    if (it == lines.end()) {
      lines.push_back({e.tensor, e.tensor + ":", ""});
      it = lines.end() - 1;
    } else {
      it->text += ",";
    }
    it->text += " " + std::string(model::label(e.level)) + " " + ratio;
    if (!e.basis.empty() && e.basis != it->basis) it->text += " (" + e.basis + ")";
    it->basis = e.basis;
  }
  std::vector<std::string> out;
  for (auto& l : lines) out.push_back(std::move(l.text));
  return out;
}

std::array<predicted_level_ratio, model::memory_level_count> kernel_predicted_ratios(const manifest_kernel& k,
                                                                                     const dsl::sizes& at) {
  std::array<predicted_level_ratio, model::memory_level_count> out{};
  const std::span<const double> values(at.values.data(), at.values.size());
  // A ratio that holds at the declared sizes only (a footprint against L2, a layer condition) is no
  // prediction at other sizes.
  const bool at_declared = at_declared_sizes(k.spec, at);
  for (const model::memory_level level : model::memory_levels) {
    double predicted = 0, low = 0, high = 0, compulsory = 0;
    bool every = true, range = false, pointed = true;
    for (const dsl::tensor_info& t : k.spec.tensor_list()) {
      if (t.arg < 0 || t.access == dsl::role::not_counted) continue;
      // Compulsory bytes of the tensor: read, written, or both (inout).
      const double bytes = t.elements.evaluate(values) * double(model::size_bytes(t.dtype)) *
                           (t.access == dsl::role::read_write ? 2 : 1);
      const auto p = std::find_if(k.predicted.begin(), k.predicted.end(), [&](const manifest::level_prediction& r) {
        return r.tensor == t.name.view() && r.level == level;
      });
      // The reader checked that a value has its ratio, low and high, and a range its low and high (manifest.h).
      if (p == k.predicted.end() || p->kind == manifest::prediction_kind::not_predicted || !p->low || !p->high ||
          !(bytes > 0) || (p->sized && !at_declared)) {
        every = false;
        break;
      }
      range = range || p->kind == manifest::prediction_kind::range;
      pointed = pointed && p->ratio;  // a tensor's range without a point leaves the kernel's without one
      predicted += p->ratio.value_or(*p->low) * bytes;
      low += *p->low * bytes;
      high += *p->high * bytes;
      compulsory += bytes;
    }
    if (every && compulsory > 0)
      out[static_cast<std::size_t>(level)] = {range ? manifest::prediction_kind::range : manifest::prediction_kind::value,
                                              predicted / compulsory, low / compulsory, high / compulsory, pointed};
  }
  return out;
}

program_report make_program_report(const std::vector<manifest_kernel>& kernels, const std::vector<launch_event>& events,
                                   const verify_options& options, const std::vector<ceilings_source>& ceilings) {
  program_report out;
  std::map<std::string, const manifest_kernel*> by_symbol;
  std::map<std::string, std::size_t> index;  // mangled name -> out.kernels
  std::vector<std::string> spec_warnings;
  for (const manifest_kernel& k : kernels) {
    if (k.spec.launch.kind == dsl::binding_kind::none) continue;  // no .sizes(): its launches cannot bind
    if (const auto first = by_symbol.find(k.mangled_name); first != by_symbol.end()) {
      // One spec in several manifests (a header): once. Two specs of one kernel: the first judges it.
      if (const std::string w = second_spec_warning(*first->second, k);
          !w.empty() && std::find(spec_warnings.begin(), spec_warnings.end(), w) == spec_warnings.end())
        spec_warnings.push_back(w);
      continue;
    }
    by_symbol[k.mangled_name] = &k;
    index[k.mangled_name] = out.kernels.size();
    kernel_launches kl;
    kl.kernel = k.kernel_name;
    kl.mangled_name = k.mangled_name;
    kl.region = k.is_region();
    out.kernels.push_back(std::move(kl));
  }

  std::vector<grouped_case> groups;
  std::vector<std::pair<const manifest_kernel*, std::string>> unbound;  // first problem per kernel
  // Named, not a temporary of the loop: the groups keep pointers to its measurements past the loop.
  const std::vector<launch_event> settled = settle_pending(events);
  for (const launch_event& e : settled) {
    const auto found = by_symbol.find(e.mangled_name);
    if (found == by_symbol.end()) continue;
    const manifest_kernel& k = *found->second;
    kernel_launches& kl = out.kernels[index[e.mangled_name]];
    ++kl.seen;
    if (!e.bound) {
      if (kl.unbound++ == 0) unbound.emplace_back(&k, e.problem);
      continue;
    }
    if (!e.measured && !e.not_measured.empty() && kl.not_measured.empty()) kl.not_measured = e.not_measured;
    // A launch measured on another GPU than the group's is a case of its own: its figures are that card's
    // (launches not measured join the first group of their kernel and sizes).
    const std::string gpu = e.measured && e.m ? e.m->device.uuid : std::string();
    auto g = std::find_if(groups.begin(), groups.end(), [&](const grouped_case& c) {
      return c.kernel == &k && c.sizes == e.sizes && (gpu.empty() || c.gpu.empty() || c.gpu == gpu);
    });
    if (g == groups.end()) {
      grouped_case c;
      c.kernel = &k;
      c.sizes = e.sizes;
      for (std::size_t i = 0; i < e.size_values.size() && i < dsl::max_dims; ++i) c.values.values[i] = e.size_values[i];
      groups.push_back(std::move(c));
      g = groups.end() - 1;
    }
    ++g->seen;
    if (!e.measured && g->not_measured.empty()) g->not_measured = e.not_measured;
    if (!e.measured || !e.m) continue;
    if (g->gpu.empty()) g->gpu = gpu;
    if (!g->shape) g->shape = e.shape;
    ++kl.measured;
    g->launches.push_back(&*e.m);
  }

  std::vector<case_source> sources;
  std::vector<measurement> measured;
  // Each case's kernel (its spec's entry of the manifests) and group: a case's predictions and launch
  // counts are that kernel's, never another's of the same name (two specs of one kernel, overloads).
  std::map<std::string, const manifest_kernel*> kernel_of;
  std::map<std::string, const grouped_case*> group_of;
  std::set<std::string> gpus;
  for (const grouped_case& g : groups)
    if (!g.gpu.empty()) gpus.insert(g.gpu);
  const bool several_gpus = gpus.size() > 1;
  for (const grouped_case& g : groups) {
    // A region's instance left unfinished before its sizes were read has none: its remark says so.
    if (g.launches.empty() && g.sizes.empty()) continue;
    const std::string name = case_name(g, several_gpus);
    out.case_launches.emplace(name, case_launch{g.kernel->mangled_name, g.sizes,
                                                g.kernel->is_region() ? static_cast<int>(g.kernel->region.size()) : 1});
    sources.push_back({{name, &g.kernel->spec, g.values}, g.kernel->file, g.kernel->line});
    measured.push_back(g.launches.empty() ? never_measured(g, name) : merge(g, name));
    kernel_of[name] = g.kernel;
    group_of[name] = &g;
  }
  for (const auto& [k, problem] : unbound) {
    measurement m;
    m.case_name = k->kernel_name + " [sizes did not bind]";
    m.status = run_status::bad_case;
    m.error = "a launch of kernel '" + k->kernel_name + "' (spec '" + k->spec_name + "') did not bind: " + problem;
    sources.push_back({{m.case_name, &k->spec, {}}, k->file, k->line});
    kernel_of[m.case_name] = k;
    measured.push_back(std::move(m));
  }
  out.run = compare_cases(sources, measured, options, ceilings);
  out.run.warnings.insert(out.run.warnings.end(), spec_warnings.begin(), spec_warnings.end());
  // The library's way of counting, when it batched (a field of each launch counted so, not its note's text).
  const bool batched = std::any_of(measured.begin(), measured.end(), [](const measurement& m) { return m.counters.batched_user_range; });
  if (batched)
    out.run.counters_mode = "CUPTI range profiler (batched: one user-replay session over many launches, a user range "
                            "per measured launch or region instance; time from CUDA events)";

  for (case_report& r : out.run.cases) {
    const auto found = kernel_of.find(r.name);
    if (found == kernel_of.end()) continue;
    const manifest_kernel& mk = *found->second;
    const auto g = group_of.find(r.name);
    if (mk.traffic_predicted) {
      r.predicted_traffic = predicted_traffic_lines(mk.predicted);
      if (g != group_of.end()) r.predicted_ratio = kernel_predicted_ratios(mk, g->second->values);
      if (g != group_of.end() && g->second->shape && mk.predicted_launch && at_declared_sizes(mk.spec, g->second->values))
        if (const std::string other = launch_mismatch(*mk.predicted_launch, *g->second->shape); !other.empty()) {
          r.findings.push_back({severity::warning, std::string(diagnostics::launch_shape.name),
                                "the traffic was predicted for another launch: " + other + "; the predicted ratios are not compared"});
          r.predicted_ratio = {};
        } else if (const std::string held = occupancy_note(*mk.predicted_launch, *g->second->shape); !held.empty()) {
          r.findings.push_back({severity::note, std::string(diagnostics::launch_shape.name), held});  // shown for a passing case too
        }
    }
    const auto k = std::find_if(out.kernels.begin(), out.kernels.end(),
                                [&](const kernel_launches& l) { return l.mangled_name == mk.mangled_name; });
    if (k == out.kernels.end()) continue;
    const std::string what = k->region ? "region '" + k->kernel + "': " + std::to_string(k->seen) + " instances seen, "
                                       : "kernel '" + k->kernel + "': " + std::to_string(k->seen) + " annotated launches seen, ";
    r.findings.push_back({severity::remark, std::string(diagnostics::launches.name),
                          what + std::to_string(k->measured) + " measured" +
                              (k->unbound ? ", " + std::to_string(k->unbound) + " whose sizes did not bind" : std::string()) +
                              (k->not_measured.empty() ? std::string() : "; one not measured: " + k->not_measured)});
  }
  // An annotated kernel the program never launched: nothing wrong with the kernel, but the manifest and
  // the program may not match (a stale build, a spec standing for a library call).
  // A kernel with a spec of its own that is also a region's kernel is judged with the region (the
  // injection library hands its launches to the region): say so instead of "never launched".
  std::map<std::string, std::string> region_of;  // member's mangled name -> region
  for (const manifest_kernel& k : kernels)
    if (k.is_region() && k.spec.launch.kind != dsl::binding_kind::none)
      for (const manifest_region_kernel& m : k.region)
        if (!m.library && !region_of.count(m.mangled_name)) region_of[m.mangled_name] = k.kernel_name;
  for (const kernel_launches& k : out.kernels) {
    if (const auto r = region_of.find(k.mangled_name); !k.region && k.seen == 0 && r != region_of.end())
      out.remarks.push_back("kernel '" + k.kernel + "' is a kernel of region '" + r->second +
                            "': its launches are judged with the region, not alone [" +
                            std::string(diagnostics::launches.name) + "]");
    else if (k.seen == 0 && k.region)
      out.remarks.push_back("region '" + k.kernel + "' is annotated but no complete instance of it was launched" +
                            (k.not_measured.empty() ? std::string() : " (" + k.not_measured + ")") + " [" +
                            std::string(diagnostics::not_launched.name) + "]");
    else if (k.region && k.measured == 0 && !k.not_measured.empty())
      out.remarks.push_back("region '" + k.kernel + "': " + std::to_string(k.seen) + " instances seen, none measured: " +
                            k.not_measured + " [" + std::string(diagnostics::launches.name) + "]");
    else if (k.seen == 0)
      out.remarks.push_back("kernel '" + k.kernel + "' is annotated but was never launched by the program (mangled name '" +
                            k.mangled_name + "') [" + std::string(diagnostics::not_launched.name) + "]");
  }
  // No annotated kernel launched at all (no GPU, a program that failed before its kernels): one remark,
  // not one per kernel; the run's warning says why nothing was measured.
  const bool none_launched = std::all_of(out.kernels.begin(), out.kernels.end(), [](const kernel_launches& k) { return k.seen == 0; });
  if (none_launched && out.kernels.size() > 1) {
    std::erase_if(out.remarks, [](const std::string& r) { return r.find(diagnostics::not_launched.name) != std::string::npos; });
    out.remarks.push_back("none of the " + std::to_string(out.kernels.size()) +
                          " annotated kernels and regions was launched by the program [" +
                          std::string(diagnostics::not_launched.name) + "]");
  }
  return out;
}

}  // namespace rooflint::runtime::inject
