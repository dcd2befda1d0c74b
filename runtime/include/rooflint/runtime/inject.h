#pragma once
/// @file inject.h
/// Verifying a program that was not built for it: `rooflint-verify --manifest build -- ./program args`.
///
/// The parent (runtime/tools/rooflint-verify.cpp) reads the analyzer's manifests (docs/manifest-schema.md,
/// version 2), runs the program with the injection library librooflint-inject.so loaded by the CUDA
/// driver (CUDA_INJECTION64_PATH), and reads back one JSON line per annotated launch. The injection
/// library (runtime/src/inject/injection.cpp) binds each launch's sizes from its own arguments and grid
/// and measures the first launch of each distinct (kernel, sizes) with the verifier's session
/// (verify_session::begin_external / end_external). The comparison and the reports are the harness
/// verifier's (compare_cases, report.h).
///
/// Everything here is host code: no GPU needed, unit-tested on recorded manifests and lines.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/dsl/spec.h"
#include "rooflint/files/manifest.h"
#include "rooflint/runtime/result.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime::inject {

/// The environment the parent sets for the injection library.
inline constexpr const char* env_manifests = "ROOFLINT_INJECT_MANIFESTS";  ///< manifest files, ':'-separated
inline constexpr const char* env_output = "ROOFLINT_INJECT_OUTPUT";        ///< file the library appends lines to
inline constexpr const char* env_launches = "ROOFLINT_INJECT_LAUNCHES";    ///< launches measured per (kernel, sizes)
inline constexpr const char* env_counters = "ROOFLINT_INJECT_COUNTERS";    ///< "0": timing only (--no-counters)
inline constexpr const char* env_batch = "ROOFLINT_INJECT_BATCH";          ///< windows per profiling session; "0": one per launch
inline constexpr const char* env_ranges = "ROOFLINT_INJECT_RANGES";        ///< "auto": every kernel of a batch a range (default: a user range per window)
/// The lines mode of a per-line rerun (inject/program_lines.h): set, the library measures nothing and
/// does nothing else with CUPTI; it observes the first launch of this kernel (its mangled name) at
/// env_lines_sizes under CUPTI's SASS metrics and appends what it saw to env_lines_out.
inline constexpr const char* env_lines_kernel = "ROOFLINT_LINES_KERNEL";
inline constexpr const char* env_lines_sizes = "ROOFLINT_LINES_SIZES";  ///< the sizes, as sizes_text() writes them
inline constexpr const char* env_lines_out = "ROOFLINT_LINES_OUT";      ///< file the observation is appended to (one JSON line)
/// Windows (measured launches or region instances) counted in one profiling session before it is
/// decoded: the Start/Stop cost is paid once per batch, and a program killed by a signal loses the
/// counters of at most this many launches (reported as not measured: launch_event::pending).
inline constexpr int default_batch_capacity = 32;
/// A user range per window in a batch (ROOFLINT_INJECT_RANGES unset); false: auto range, every kernel
/// launched while the batch is open a range. The one default: verify_session::set_external_batch has none.
inline constexpr bool default_batch_user_range = true;

/// A kernel parameter as the manifest lays it out.
struct manifest_param {
  std::string name, type;
  manifest::param_kind kind = manifest::param_kind::other;
  bool is_signed = false;
  unsigned size_bytes = 0, offset_bytes = 0;
};

/// One kernel of a region (manifest version 3, `region.kernels`), in launch order.
struct manifest_region_kernel {
  bool library = false;      ///< matched by `pattern`, a substring of the symbol; else by `mangled_name`
  std::string pattern;
  std::string function, mangled_name;
  std::vector<manifest_param> params;

  /// @return Whether a launch of the kernel named @p symbol (mangled, as CUPTI reports it) is this one.
  bool matches(const std::string& symbol) const {
    return library ? !pattern.empty() && symbol.find(pattern) != std::string::npos : symbol == mangled_name;
  }
};

/// The key of a region in reports and the injection's lines, where a kernel has its mangled name.
inline std::string region_key(const std::string& region_name) { return "region:" + region_name; }

/// One annotated kernel of a manifest, with its spec rebuilt from spec_value; or a region of kernels
/// (`region` not empty; mangled_name is then region_key(kernel_name), and params are those of the
/// kernel its sizes are read at).
struct manifest_kernel {
  std::vector<manifest_region_kernel> region;
  bool is_region() const { return !region.empty(); }
  std::string spec_name, kernel_name, function, mangled_name;
  std::string file;  ///< the spec's file and line
  int line = 0;
  std::string manifest_path;
  dsl::spec spec;
  std::vector<manifest_param> params;
  /// Whether the analyzer predicted the kernel's traffic (manifest version 4 and later), and its
  /// prediction per tensor and level (docs/manifest-schema.md).
  bool traffic_predicted = false;
  std::vector<manifest::level_prediction> predicted;
  std::vector<manifest::access> predicted_accesses;  ///< the accesses the prediction rests on
  std::optional<manifest::launch_assumption> predicted_launch;  ///< the launch the prediction evaluated
  /// Why the kernel's launches are not verified though its entry is valid (more parameters than a
  /// launch's values hold); empty when they are.
  std::string unverifiable;
};

/// The kernel's predicted bytes per level (index: model::memory_level) over its compulsory bytes at
/// the sizes @p at: its tensors' predicted ratios (manifest version 4) weighted by their compulsory
/// bytes: a value, or a range where a tensor's is one; not predicted at a level where a tensor has no
/// prediction (or none was read). A ratio of 0 is a prediction, never its absence.
std::array<predicted_level_ratio, model::memory_level_count> kernel_predicted_ratios(const manifest_kernel& k, const dsl::sizes& at);

/// The predictions as the report prints them, one line per tensor, its levels in the manifest's order
/// ("x: DRAM 1x (basis), L2 8x (basis), L1 8x"; a level without a ratio is "not predicted"; a basis is
/// printed where it differs from the level before).
std::vector<std::string> predicted_traffic_lines(const std::vector<manifest::level_prediction>& entries);

/// Reads a manifest (rooflint/files/manifest.h loads and checks it) and refuses one without launches
/// (manifest::has_launches). Errors (invalid_argument) name the file, the kernel and the field.
result<std::vector<manifest_kernel>> read_manifest(const std::string& path);

/// Reads manifest text (what read_manifest does after reading the file), for tests.
result<std::vector<manifest_kernel>> parse_manifest(const std::string& text, const std::string& path);

/// @return @p path if it is a file (whatever its name), else every "*.rooflint.json" below the directory
/// @p path (the name rooflint_analyze() gives a manifest), sorted.
/// Errors: invalid_argument (no such path, or a directory without manifests).
result<std::vector<std::string>> find_manifests(const std::string& path);

/// @return The kernels of the manifests @p paths name (each a file, or a directory find_manifests
/// searches), in order. Errors (invalid_argument) name the path or the file.
result<std::vector<manifest_kernel>> read_manifests(const std::vector<std::string>& paths);

/// A launch's grid, block, dynamic shared memory and the registers of its function.
struct launch_shape {
  std::int64_t grid[3] = {1, 1, 1};
  std::int64_t block[3] = {1, 1, 1};
  std::int64_t shared_bytes = 0;  ///< dynamic shared memory per block
  int registers = 0;              ///< registers a thread of the function launched (its attribute); 0: unknown
  int blocks_per_sm = 0;          ///< the blocks of this launch an SM holds (the driver's occupancy); 0: unknown
};

/// @return The values a launch provides: the integer (and enum, bool) arguments read through
/// @p kernel_params (one pointer per parameter) or, when that is null, from the packed buffer
/// @p packed of @p packed_size bytes at the manifest's offsets; and the grid and block.
dsl::launch_values launch_values_from(const manifest_kernel& k, void* const* kernel_params, const void* packed,
                                      std::size_t packed_size, const launch_shape& shape);

/// @return "N=1024" / "R=8, C=4096": the spec's dimensions at @p s, in the spec's order.
std::string sizes_text(const dsl::spec& spec, const dsl::sizes& s);

/// @return Why a launch's sizes did not bind, naming the dimension and where it is read from
/// ("dimension 'N' = 4 * argument 3 ('n4') is 0 at this launch; a size must be positive").
std::string binding_problem(const manifest_kernel& k, const dsl::binding_result& r, const dsl::launch_values& v);

/// What the injection library reports about one annotated launch (one JSON line).
struct launch_event {
  std::string mangled_name;
  long pid = 0;
  std::string api;          ///< "cuLaunchKernel", "cuLaunchKernelEx", ...
  std::optional<launch_shape> shape;  ///< the launch's grid, block and dynamic shared memory
  bool bound = false;
  std::string problem;      ///< when not bound: binding_problem()
  std::string sizes;        ///< sizes_text() when bound
  std::vector<double> size_values;  ///< the bound sizes, in the spec's dimension order
  bool measured = false;
  std::string not_measured;  ///< when bound but not measured and this is no repeat: why
  std::optional<measurement> m;
  /// A measured launch whose counters wait for their batch: the library writes a provisional line
  /// (not measured, saying why) at once and the measured line when the batch is decoded, both with this
  /// token, so that a program killed before the decoding still shows the launch (settle_pending).
  std::string pending;
};

std::string to_json_line(const launch_event& e);

/// @return @p events without the provisional lines whose measured line arrived (same `pending` token):
/// one line per launch, the measured one when there is one.
std::vector<launch_event> settle_pending(std::vector<launch_event> events);

// ---------------------------------------------------------------------------------------------------
// Regions of several kernels in a program: which launches form one instance

/// One kernel launch as the injection library sees it at the launch API's entry.
struct launch_record {
  std::string symbol;        ///< the kernel's mangled name
  std::uint64_t stream = 0;  ///< the launch's stream (its handle; 0: the legacy default stream)
  std::uint64_t thread = 0;  ///< the launching thread
  bool annotated = false;    ///< a kernel spec of the manifests names this symbol (library patterns skip it)
};

/// What one launch means for the regions (region_tracker::on_launch).
struct region_step {
  int region = -1;       ///< the region this launch belongs to, or -1: none
  int position = -1;     ///< its index among the region's kernels
  bool begins = false;   ///< it opens an instance (position 0)
  bool completes = false;  ///< it closes the instance (the region's last kernel): measure up to its completion
  /// The instance that was open before this launch and that this launch ends unfinished.
  int abandoned = -1;
  std::string abandoned_reason;
};

/// Groups a program's launches into instances of regions. An instance of a region with kernels
/// k_0 .. k_{n-1} is a run of n consecutive kernel launches of the process, the i-th a launch of k_i,
/// all on the stream and from the thread of the first: it opens at the launch of k_0 and closes with
/// the launch of k_{n-1} (measured to that kernel's completion). Any other launch while an instance is
/// open (another kernel, or the next kernel on another stream or thread) abandons the instance and is
/// then considered afresh. A launch of k_0 opens an instance of the first region (in manifest order)
/// that starts with it. A library pattern does not match a kernel that a kernel spec annotates.
/// What the injection library does with its counting window at one launch of a region's instance.
struct region_window {
  bool open = false;            ///< open the window now (begin_external for all the region's kernels)
  bool close_unused = false;    ///< close it unused (the sizes, read at a later kernel, do not bind or are a repeat)
  bool count = false;           ///< this instance is measured: count its (region, sizes) towards --launches
  bool busy_elsewhere = false;  ///< another launch holds the window: the instance is seen, not measured
};

/// The window decision at a launch that is kernel @p step.position of an instance whose sizes are read at
/// kernel @p site: @p bound and @p repeat (its (region, sizes) already measured --launches times) are
/// known from the site on; @p measuring: some window is open; @p counting: this instance holds it. The
/// window opens at the first kernel unless the sizes are known there (site 0) and say not to measure.
region_window plan_region_window(const region_step& step, int site, bool bound, bool repeat, bool measuring,
                                 bool counting);

class region_tracker {
 public:
  region_tracker() = default;
  explicit region_tracker(std::vector<std::vector<manifest_region_kernel>> regions) : regions_(std::move(regions)) {}

  region_step on_launch(const launch_record& launch);
  /// @return The region whose instance is open (-1: none), as at the end of a program.
  int open_region() const { return open_ ? open_region_ : -1; }
  bool empty() const { return regions_.empty(); }

 private:
  bool member(int region, int position, const launch_record& launch) const;
  std::vector<std::vector<manifest_region_kernel>> regions_;
  bool open_ = false;
  int open_region_ = -1, next_ = 0;
  std::uint64_t stream_ = 0, thread_ = 0;
};
result<launch_event> launch_event_from_json(const std::string& line);

/// What the injection library saw of the launch APIs (the end-of-process line).
struct api_counts {
  long pid = 0;
  std::string command;  ///< the process's command line (/proc/self/cmdline, spaces between arguments)
  std::vector<std::pair<std::string, long>> driver, runtime;  ///< API name -> calls seen (every kernel)
  long measured = 0;  ///< launches this process measured
  /// rooflint's own wall time around those launches, per phase (arm, drain, counters, clock), in s
  std::vector<std::pair<std::string, double>> rooflint_seconds;
  /// Counter batches decoded, by why each was closed ("full", "at exit", "after cuMemFreeAsync", "before
  /// a graph launch", ...): each batch's set-up and Start is most of the "arm" phase.
  std::vector<std::pair<std::string, long>> batches;
};
std::string to_json_line(const api_counts& c);
result<api_counts> api_counts_from_json(const std::string& line);

// ---------------------------------------------------------------------------------------------------
// The parent's report

/// One annotated kernel's launches in the program.
struct kernel_launches {
  std::string kernel;       ///< the spec's kernel name
  std::string mangled_name;
  bool region = false;      ///< a region: seen and measured count its instances
  std::string not_measured; ///< a region: why the first instance left unmeasured was (abandoned, unfinished)
  long seen = 0;            ///< annotated launches seen
  long measured = 0;        ///< of them, measured
  long unbound = 0;         ///< of them, sizes did not bind
};

/// The launches one case of a program stands for, as the injection library named them (launch_event's
/// mangled_name and sizes): what a per-line rerun waits for (inject/program_lines.h).
struct case_launch {
  std::string mangled_name;  ///< the kernel's mangled name, or the region's region_key
  std::string sizes;         ///< sizes_text() at its launches
  int kernels = 1;           ///< kernel launches in one of them: a region's kernels, 1 for a kernel
};

/// The program run and what was measured, around the harness's run_report.
struct program_report {
  run_report run;                        ///< cases (one per measured (kernel, sizes)), findings, exit code
  std::vector<kernel_launches> kernels;  ///< every annotated kernel of the manifests
  std::string program;                   ///< the command
  int program_status = 0;                ///< exit code, or 128 + signal
  std::string program_outcome;           ///< "exited with code 0", "killed by signal 11 (Segmentation fault)"
  bool program_failed = false;
  bool timed_out = false;                ///< the program ran past --timeout and was stopped
  /// Nothing measured, and no usable CUDA device found after the program ended: a failed program's exit
  /// code 4 says that this may be why (most CUDA programs exit non-zero without a GPU).
  bool no_device = false;
  int interrupted_by = 0;                ///< the signal rooflint-verify received and passed on to the program; 0 if none
  std::vector<api_counts> apis;
  std::vector<std::string> remarks;      ///< "kernel 'x' is annotated but was never launched ..." [rooflint-not-launched]
  std::map<std::string, case_launch> case_launches;  ///< by case name: the launches of every case of launches
};

/// Exit code when the program itself failed (non-zero exit or a signal): takes precedence over 3, 1, 0.
inline constexpr int exit_program_failed = 4;

/// A case's name in a program that ran on several GPUs ends in this and the first 8 hex digits of the
/// card's UUID ("saxpy [N=1024] on GPU-5f1e2a7c"; `nvidia-smi -L` prints the whole UUID).
inline constexpr std::string_view gpu_suffix = " on GPU-";
/// @return @p name without a GPU's suffix: the case of the same kernel and sizes on whichever card (the
/// baseline gate matches a case of a run on several GPUs with one of a run on one, and back).
std::string_view case_without_gpu(std::string_view name);

/// Builds the report from the manifests' kernels and the injection's lines: groups measured launches
/// into one case per (kernel, sizes) (counters of the first measured launch, timing over all of them),
/// compares each through compare_cases, adds a remark per kernel with its launches seen and measured,
/// a remark for an annotated kernel never launched, an error finding for each launch whose sizes did not
/// bind, and decides the exit code.
program_report make_program_report(const std::vector<manifest_kernel>& kernels, const std::vector<launch_event>& events,
                                   const verify_options& options, const std::vector<ceilings_source>& ceilings);

// ---------------------------------------------------------------------------------------------------
// The baseline gate

/// One level's observed bytes against the baseline's: counter figures, near-deterministic, so their band
/// is tight (counter_band) where the time's comes from the repetitions.
struct baseline_level {
  model::memory_level level = model::memory_level::dram;
  double old_bytes = 0, new_bytes = 0;
  double change = 0;  ///< new / old - 1
  double band = 0;    ///< relative: a change beyond it is a change of the kernel's traffic
};

/// One case against a previous report: its bytes per level (counters) and its roofline fraction (time).
/// SAME: every figure inside its band; WORSE: a level moves more bytes, or the fraction dropped, beyond
/// the band; BETTER: a figure improved beyond its band and none got worse; UNDECIDED: no counter figure
/// on both sides and a time that cannot tell a change from noise (a band above undecided_band, or a run
/// of a single timed repetition, whose noise is unknown). The time is judged only when both runs timed
/// at least two repetitions.
struct baseline_case {
  std::string name;
  double old_fraction = 0, new_fraction = 0;  ///< t_min / t_measured
  double band = 0;              ///< relative noise band: a drop beyond it is a regression
  double change = 0;            ///< new / old - 1
  std::vector<baseline_level> levels;  ///< the levels counted in both runs
  bool time_judged = false;     ///< both runs timed at least two repetitions: the fraction's change counts
  enum class verdict { no_change, regression, improvement, undecided, new_case, missing } outcome = verdict::no_change;
};

/// "SAME", "WORSE", "BETTER", "UNDECIDED", "NEW", "MISSING".
std::string_view name(baseline_case::verdict v);

/// The relative band of a level's bytes: 5% (counts repeat within it run to run: the same launches on the
/// H200 repeat their DRAM reads within 1%, their DRAM writes within a few per cent), and never less
/// than 256 KiB (the traffic check's own absolute allowance) over the baseline's bytes.
double counter_band(double old_bytes);
/// A time band wider than this (30%) cannot tell a change from noise: without counters, UNDECIDED.
inline constexpr double undecided_band = 0.30;

/// One case of a baseline report, as the gate reads it.
struct baseline_entry {
  double fraction = 0;  ///< its roofline fraction (0: not measured)
  double noise = 0;     ///< relative_noise of its timing
  int repetitions = 0;  ///< its timed repetitions (fewer than 2: its noise is unknown)
  /// Observed bytes per level (index: model::memory_level); a level not counted has none.
  std::array<std::optional<double>, model::memory_level_count> bytes{};
};

/// Reads a baseline report (a rooflint-verify JSON report, read by verify_report::from_json): its cases
/// by name. Every field the gate reads is checked for its type and range, min_s <= median_s <= max_s,
/// names unique. Errors (invalid_argument) begin "the baseline" and name the field by its JSON pointer:
/// "the baseline: '/cases/0/compared/roofline_fraction' must be ...".
result<std::map<std::string, baseline_entry>> read_baseline(const std::string& baseline_json);

/// Relative noise of a timing from its repetitions: half their range over the median,
/// (max - min) / (2 x median), from the figures every report keeps (0 for a single run). See
/// docs/verifier.md.
double relative_noise(const timing_values& t);

/// Compares @p current with the JSON report @p baseline_json (schema rooflint-verify). A case is a
/// regression when its fraction dropped by more than band = max(3 x the larger relative noise of the
/// two runs, @p floor) (default 2%). Errors: invalid_argument (not a rooflint-verify report).
result<std::vector<baseline_case>> compare_baseline(const run_report& current, const std::string& baseline_json,
                                                    double floor = 0.02);

/// @return The findings the gate adds to the run: one per case (regression: error; no change, improvement:
/// remark), and a run-wide sentence.
std::vector<std::pair<std::string, finding>> baseline_findings(const std::vector<baseline_case>& cases);

/// Adds the gate's findings and verdicts to @p run: a WORSE case fails (and a run that passed exits 1).
void apply_baseline(run_report& run, const std::vector<baseline_case>& cases);

}  // namespace rooflint::runtime::inject
