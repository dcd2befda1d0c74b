#pragma once
/// @file diagnostics.h
/// The one registry of rooflint's diagnostics: every name the analyzer (`rooflint`) and the verifier
/// (`rooflint-verify`, `rooflint-examples`) report, with its default level, the tool that reports it,
/// its one-line summary (the first sentence of its doc page) and that page.
///
/// std only (no LLVM, no CUDA, no nlohmann), so both tools include it. The analyzer's --list-checks,
/// --help, and SARIF rules are generated from it; tests/analyzer/diagnostics_registry_test.cpp checks
/// docs/diagnostics/*.md against it (one page per entry, the summary is the page's first sentence).

#include <array>
#include <cstddef>
#include <string_view>

namespace rooflint::diagnostics {

/// The level a diagnostic is reported at unless the user changes it (-Werror=NAME, --checks).
enum class level : unsigned char { remark, note, warning, error };

/// Which tool reports a diagnostic: the analyzer at build time, the verifier on the GPU, or both.
enum class tool : unsigned char { analyzer, verifier, both };

/// @return Whether a diagnostic reported by @p by is one of @p t's.
constexpr bool reports(tool by, tool t) { return by == tool::both || by == t; }

struct diagnostic {
  std::string_view name;     ///< "rooflint-bound": the flag name, the SARIF rule id, the doc page's stem
  level default_level;       ///< for a diagnostic reported at several levels, the highest
  tool reported_by;
  std::string_view summary;  ///< the first sentence of the doc page
  std::string_view doc;      ///< the doc page, relative to the repository root
};

constexpr std::string_view name(level l) {
  switch (l) {
    case level::remark: return "remark";
    case level::note: return "note";
    case level::warning: return "warning";
    case level::error: return "error";
  }
  return "warning";
}


// clang-format off
// The analyzer's (analyzer/lib/Diagnostics.cpp numbers them in this order).
inline constexpr diagnostic bound{"rooflint-bound", level::remark, tool::analyzer,
    "States whether a kernel is memory-bound or compute-bound at its spec's declared sizes.",
    "docs/diagnostics/rooflint-bound.md"};
/// Both tools: the analyzer on the predicted verdict (a warning), the verifier on the measured dot (an error).
inline constexpr diagnostic expectation{"rooflint-expectation", level::warning, tool::both,
    "Warns when a spec's expected bound is not the verdict the roofline gives.",
    "docs/diagnostics/rooflint-expectation.md"};
inline constexpr diagnostic param_name{"rooflint-param-name", level::warning, tool::analyzer,
    "Warns when a tensor's name in a spec differs from the name of the kernel parameter it is bound to.",
    "docs/diagnostics/rooflint-param-name.md"};
inline constexpr diagnostic uncovered_param{"rooflint-uncovered-param", level::warning, tool::analyzer,
    "Warns when a pointer parameter of a kernel is neither a tensor of its spec nor marked uncounted.",
    "docs/diagnostics/rooflint-uncovered-param.md"};
inline constexpr diagnostic read_only_written{"rooflint-read-only-written", level::warning, tool::analyzer,
    "Warns when the kernel body writes through a parameter whose tensor the spec declares read-only.",
    "docs/diagnostics/rooflint-read-only-written.md"};
inline constexpr diagnostic datasheet_peaks{"rooflint-datasheet-peaks", level::remark, tool::analyzer,
    "Says that verdicts use datasheet peaks, which may be wrong at the device's clocks.",
    "docs/diagnostics/rooflint-datasheet-peaks.md"};
inline constexpr diagnostic uncoalesced{"rooflint-uncoalesced", level::warning, tool::analyzer,
    "Warns when a global-memory access through a kernel parameter is not unit-stride in threadIdx.x.",
    "docs/diagnostics/rooflint-uncoalesced.md"};
inline constexpr diagnostic spec_evaluation{"rooflint-spec-evaluation", level::error, tool::analyzer,
    "Reports a spec whose value the analyzer cannot evaluate or read.",
    "docs/diagnostics/rooflint-spec-evaluation.md"};
inline constexpr diagnostic kernel_binding{"rooflint-kernel-binding", level::error, tool::analyzer,
    "Reports a spec that is not bound to a kernel function the analyzer can find.",
    "docs/diagnostics/rooflint-kernel-binding.md"};
inline constexpr diagnostic reread{"rooflint-reread", level::warning, tool::analyzer,
    "Warns when a kernel reads a tensor in several passes whose rows do not stay in cache between them.",
    "docs/diagnostics/rooflint-reread.md"};
inline constexpr diagnostic traffic_bound{"rooflint-traffic-bound", level::remark, tool::analyzer,
    "States that the traffic the analyzer predicts at a memory level takes longer at its roof than the kernel's floor.",
    "docs/diagnostics/rooflint-traffic-bound.md"};
inline constexpr diagnostic not_predicted{"rooflint-not-predicted", level::remark, tool::analyzer,
    "Says which tensors' traffic the analyzer does not predict, at which memory levels, and why.",
    "docs/diagnostics/rooflint-not-predicted.md"};
inline constexpr diagnostic size_binding{"rooflint-size-binding", level::warning, tool::analyzer,
    "Warns when a size the spec reads from a kernel parameter cannot be what the kernel takes there: a value shifted by the parameter past its width.",
    "docs/diagnostics/rooflint-size-binding.md"};

// The verifier's (runtime/src/compare, runtime/src/inject).
inline constexpr diagnostic ideal_traffic{"rooflint-ideal-traffic", level::error, tool::verifier,
    "Reports a kernel that moves more bytes than its compulsory traffic, and whether that changes its floor.",
    "docs/diagnostics/rooflint-ideal-traffic.md"};
inline constexpr diagnostic not_cold{"rooflint-not-cold", level::warning, tool::verifier,
    "Warns when a kernel read less than its compulsory bytes from DRAM, so the measurement was not cold.",
    "docs/diagnostics/rooflint-not-cold.md"};
inline constexpr diagnostic missing_writes{"rooflint-missing-writes", level::warning, tool::verifier,
    "Warns when a kernel stored fewer bytes than its spec's compulsory writes.",
    "docs/diagnostics/rooflint-missing-writes.md"};
inline constexpr diagnostic faster_than_roof{"rooflint-faster-than-roof", level::error, tool::verifier,
    "Reports a kernel that ran faster than its roofline floor, so the ceilings or the spec are wrong.",
    "docs/diagnostics/rooflint-faster-than-roof.md"};
inline constexpr diagnostic roofline_fraction{"rooflint-roofline-fraction", level::error, tool::verifier,
    "Reports a kernel whose roofline fraction is below the spec's minimum.",
    "docs/diagnostics/rooflint-roofline-fraction.md"};
inline constexpr diagnostic clock_state{"rooflint-clock-state", level::warning, tool::verifier,
    "Warns when the SM clock during a measurement was outside the range the ceilings were measured at.",
    "docs/diagnostics/rooflint-clock-state.md"};
inline constexpr diagnostic timing_only{"rooflint-timing-only", level::warning, tool::verifier,
    "Warns that no hardware counters were read, so only the timing verdicts were given.",
    "docs/diagnostics/rooflint-timing-only.md"};
inline constexpr diagnostic not_measured{"rooflint-not-measured", level::error, tool::verifier,
    "Reports a kernel whose traffic could not be counted while counters were required, so it has no traffic verdict.",
    "docs/diagnostics/rooflint-not-measured.md"};
inline constexpr diagnostic reference{"rooflint-reference", level::warning, tool::verifier,
    "States how far a kernel is from its reference implementation of the same work: both roofline fractions, the time ratio and the bytes per level.",
    "docs/diagnostics/rooflint-reference.md"};
inline constexpr diagnostic flops{"rooflint-flops", level::remark, tool::verifier,
    "States the FLOPs a kernel executed against its spec's ideal FLOPs.",
    "docs/diagnostics/rooflint-flops.md"};
inline constexpr diagnostic counters{"rooflint-counters", level::remark, tool::verifier,
    "Notes something about a group of hardware counters the verifier read.",
    "docs/diagnostics/rooflint-counters.md"};
inline constexpr diagnostic no_device{"rooflint-no-device", level::remark, tool::verifier,
    "Says that a case was not measured because no usable CUDA device was found.",
    "docs/diagnostics/rooflint-no-device.md"};
inline constexpr diagnostic no_peaks{"rooflint-no-peaks", level::error, tool::verifier,
    "Reports a case that has no verdict because the peaks lack the ceiling its math mode needs, or no ceilings file applies to its GPU.",
    "docs/diagnostics/rooflint-no-peaks.md"};
inline constexpr diagnostic case_faulted{"rooflint-case-faulted", level::error, tool::verifier,
    "Reports a case whose kernel faulted on the device.",
    "docs/diagnostics/rooflint-case-faulted.md"};
inline constexpr diagnostic case_crashed{"rooflint-case-crashed", level::error, tool::verifier,
    "Reports a case whose process died or hung before it reported a measurement.",
    "docs/diagnostics/rooflint-case-crashed.md"};
inline constexpr diagnostic binding{"rooflint-binding", level::remark, tool::verifier,
    "States which level of the hierarchical roofline binds a kernel, with each level's floor beside the compute time.",
    "docs/diagnostics/rooflint-binding.md"};
inline constexpr diagnostic precision{"rooflint-precision", level::error, tool::verifier,
    "Reports a kernel whose tensor-core operations ran at another precision than its spec declares.",
    "docs/diagnostics/rooflint-precision.md"};
inline constexpr diagnostic case_bad_case{"rooflint-case-bad-case", level::error, tool::verifier,
    "Reports a case that cannot run as declared, such as sizes that do not bind to its spec.",
    "docs/diagnostics/rooflint-case-bad-case.md"};
// rooflint-verify -- program (docs/verifier.md, "Verifying a program")
inline constexpr diagnostic launches{"rooflint-launches", level::remark, tool::verifier,
    "States how many launches of an annotated kernel the program made and how many were measured.",
    "docs/diagnostics/rooflint-launches.md"};
inline constexpr diagnostic launch_shape{"rooflint-launch-shape", level::warning, tool::verifier,
    "Says that a launch ran with another block, grid, dynamic shared memory or register count than the one its traffic was predicted for.",
    "docs/diagnostics/rooflint-launch-shape.md"};
inline constexpr diagnostic not_launched{"rooflint-not-launched", level::remark, tool::verifier,
    "Says that a kernel the manifests annotate was never launched by the program.",
    "docs/diagnostics/rooflint-not-launched.md"};
inline constexpr diagnostic regression{"rooflint-regression", level::error, tool::verifier,
    "Reports a case whose roofline fraction dropped against the baseline report by more than the noise.",
    "docs/diagnostics/rooflint-regression.md"};
inline constexpr diagnostic baseline{"rooflint-baseline", level::warning, tool::verifier,
    "States how a case compares with the baseline report when it did not regress.",
    "docs/diagnostics/rooflint-baseline.md"};
inline constexpr diagnostic line_traffic{"rooflint-line-traffic", level::warning, tool::verifier,
    "Sets the sectors per request observed at one source line beside the analyzer's prediction for that line.",
    "docs/diagnostics/rooflint-line-traffic.md"};
// clang-format on

inline constexpr std::array all{bound,           expectation,  param_name,       uncovered_param, read_only_written,
                                datasheet_peaks, uncoalesced,  spec_evaluation,  kernel_binding,  ideal_traffic,
                                not_cold,        missing_writes, faster_than_roof, roofline_fraction, clock_state,
                                timing_only,     flops,        counters,         no_device,       no_peaks,
                                case_faulted,    case_crashed, case_bad_case,    launches,        not_launched,
                                regression,      baseline,     binding,          precision,       reread,
                                not_measured,    reference,    line_traffic,     traffic_bound,   not_predicted,
                                size_binding,    launch_shape};

/// @return The entry named @p n, or nullptr.
constexpr const diagnostic* find(std::string_view n) {
  for (const diagnostic& d : all)
    if (d.name == n) return &d;
  return nullptr;
}

/// @return How many diagnostics @p t reports.
constexpr std::size_t count(tool t) {
  std::size_t n = 0;
  for (const diagnostic& d : all) n += reports(d.reported_by, t);
  return n;
}

namespace detail {
constexpr bool names_unique() {
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      if (all[i].name == all[j].name) return false;
  return true;
}
}  // namespace detail
static_assert(detail::names_unique(), "rooflint: two diagnostics in the registry share a name");

}  // namespace rooflint::diagnostics
