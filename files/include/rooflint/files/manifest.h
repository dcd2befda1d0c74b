#pragma once
/// @file manifest.h
/// The analyzer's manifest (docs/manifest-schema.md): what `rooflint` found in a build, read back by the
/// verifiers (`rooflint-verify`, a harness) and `rooflint-summary`. One typed record: the analyzer fills
/// it and saves it, the others load it; the writer, the reader and the tests walk the same field tables
/// (manifest_tables.h), and the version rules are the constants and functions below, nowhere else.
///
/// Host C++, std-only API (the JSON library stays inside the library's sources).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/dsl/spec.h"
#include "rooflint/files/diagnostics.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"

namespace rooflint::manifest {

// ---------------------------------------------------------------------------------------------------
// Versions: what this rooflint writes and reads (docs/manifest-schema.md, "Versioning")

/// The version this rooflint writes. 2 added what a verifier needs to bind launches (parameters, launch,
/// spec_value); 3 regions of kernels; 4 the predicted traffic; 5 typed predictions (a value, a range or
/// not predicted, per level), the accesses they rest on, the launch and the GPU they assume; 6 launch
/// sizes read as a power of two (pow2(arg<I>): an older reader would bind the exponent as the size).
inline constexpr int version = 6;
/// The oldest version this rooflint reads.
inline constexpr int oldest_version = 1;
/// @return Whether a manifest of version @p v says how each kernel's launches bind its sizes.
constexpr bool has_launches(int v) { return v >= 2; }
/// The schema name every manifest carries.
inline constexpr const char* schema_name = "rooflint-manifest";

// ---------------------------------------------------------------------------------------------------
// The records

/// A source position.
struct position {
  std::string file;
  int line = 0, column = 0;
};

/// The peaks the build-time verdicts used.
struct peaks_used {
  std::string device;  ///< as matched in the datasheet table or recorded in the ceilings file
  model::peak_source source = model::peak_source::datasheet;
  double dram_bytes_per_s = 0;                ///< bytes/s
  model::per_math_mode<double> flops_per_s{}; ///< FLOP/s per math mode; 0: none

  /// @return The model's peaks; their device name views this record's.
  model::peaks view() const;
};

/// The peaks of one kernel's verdict: its math mode's rate only.
struct kernel_peaks {
  std::string device;
  model::peak_source source = model::peak_source::datasheet;
  double dram_bytes_per_s = 0;  ///< bytes/s
  double flops_per_s = 0;       ///< FLOP/s of the kernel's math mode; 0: unknown
};

/// A parameter's kind, as a launch's argument buffer holds it.
enum class param_kind : std::uint8_t { integer, boolean, pointer, floating, enumeration, record, other };

/// A kernel parameter, laid out as the launch's argument buffer holds it.
struct parameter {
  int index = 0;  ///< its position (checked against it)
  std::string name, type;
  param_kind kind = param_kind::other;
  bool is_signed = false;
  int size_bytes = 0, align_bytes = 0, offset_bytes = 0;  ///< bytes
};

struct convention {
  std::string name;
  bool count_elementwise = false, halve_causal = false;
};

/// A dimension and its sizes (human-readable summary; the exact ones are in the spec).
struct dim_sizes {
  std::string name;
  std::optional<double> static_size, declared_size, size;
};

/// A tensor as a reader of the manifest sees it (summary; the exact one is in the spec).
struct tensor_summary {
  std::string name;
  int arg = -1;
  dsl::role role = dsl::role::read;
  model::dtype dtype = model::dtype::f32;
  std::vector<std::string> shape;  ///< dimension names
  std::string elements;            ///< formula
  bool partial = false, extra = false;
};

struct formulas {
  std::string flops, read_bytes, written_bytes, bytes, intensity;
};

struct expectations {
  std::optional<model::bound> bound;  ///< "any" in files when none
  double max_traffic_ratio = 0, min_roofline_fraction = 0;
};

/// FLOPs and bytes at the declared sizes.
struct values {
  double flops = 0, read_bytes = 0, written_bytes = 0, bytes = 0, intensity = 0;
};

struct verdict {
  model::bound bound = model::bound::memory;
  double intensity = 0, ridge = 0;                        ///< FLOP/byte
  double compute_time_s = 0, memory_time_s = 0, t_min_s = 0;  ///< s
  std::string sentence;
};

/// Where the verdict changes along the spec's one free dimension.
struct verdict_change {
  std::string dim;
  double size = 0;
  model::bound bound_from = model::bound::compute;
};

/// Whether an entry is a spec of one kernel or of a region of kernels.
enum class entry_kind : std::uint8_t { kernel, region };

/// One kernel of a region, in launch order.
struct region_member {
  dsl::kernel_match match = dsl::kernel_match::function;
  std::string pattern;                 ///< library: a substring of the kernel's symbol
  std::string function, mangled_name; ///< function
  position location;                   ///< function
  std::vector<parameter> parameters;   ///< function
};

/// What kind of figure a predicted ratio is.
enum class prediction_kind : std::uint8_t {
  value,          ///< one figure: ratio (low == high == ratio)
  range,          ///< between low and high, ratio the point estimate inside (absent: no point estimate)
  not_predicted,  ///< no figure; basis says why
};

/// The predicted bytes of one tensor at one level over its compulsory bytes.
struct level_prediction {
  std::string tensor;
  int param = -1;
  model::memory_level level = model::memory_level::dram;
  prediction_kind kind = prediction_kind::not_predicted;
  std::optional<double> ratio, low, high;  ///< absent when not predicted; ratio absent for a range without a point
  std::string basis;                       ///< what the figure rests on, or why there is none
  bool sized = false;                      ///< holds at the spec's declared sizes only
};

/// One source access the prediction rests on.
struct access {
  std::string file;
  int line = 0, column = 0;
  std::string tensor;  ///< may be empty
  int param = -1;      ///< -1 when none
  bool store = false, atomic = false;
  std::optional<double> requests;  ///< warp requests over the whole launch; absent when not evaluated
  double sectors_per_request = 0, ideal_sectors_per_request = 0;
  std::optional<double> amplification;  ///< absent when not evaluated
  std::string note;
};

/// The launch a prediction assumed.
struct launch_assumption {
  std::array<std::int64_t, 3> block{1, 1, 1}, grid{1, 1, 1};
  bool stated = false;  ///< the spec states the launch (else assumed)
  std::string text;     ///< the assumption as printed
  /// The dynamic shared memory per block the spec states (.dynamic_shared), bytes; absent when it states none.
  std::optional<std::int64_t> dynamic_shared;
  /// The registers a thread the spec states (.registers), which set the blocks an SM holds; absent when it states none.
  std::optional<int> registers;
  /// The blocks an SM holds as the prediction took them (from threads, shared memory and the registers
  /// where stated); absent where no block was evaluated.
  std::optional<int> blocks_per_sm;
};

/// A region's kernels.
struct region {
  std::vector<region_member> kernels;  ///< in launch order, 1 to dsl::max_region_kernels
};

/// The analyzer's traffic prediction for one kernel.
struct predicted_traffic {
  std::string source;
  std::optional<launch_assumption> launch;  ///< absent when no launch was evaluated
  std::string gpu;                          ///< the device whose geometry the prediction used
  std::string note;                         ///< why nothing was evaluated, or how the blocks were sampled
  std::vector<level_prediction> levels;     ///< "tensors" in files: per tensor of the spec and level
  std::vector<access> accesses;
};

/// One analysed spec and its kernel (or region).
struct kernel {
  std::string spec;  ///< the spec variable's name
  std::string name;  ///< the spec's kernel name
  std::string function, mangled_name;
  position location, spec_location;
  std::string operation;
  model::math_mode math_mode = model::math_mode::fp32_simt;
  manifest::convention convention;
  std::vector<dim_sizes> dims;
  std::vector<tensor_summary> tensors;
  manifest::formulas formulas;
  expectations expected;
  std::optional<manifest::values> values;  ///< absent when a dimension has no declared size
  std::optional<std::string> missing_size;  ///< that dimension
  std::optional<manifest::verdict> verdict;
  std::optional<manifest::verdict_change> verdict_change;
  std::vector<parameter> parameters;   ///< version 2
  dsl::spec spec_value;                ///< version 2 ("spec_value" and "launch")
  entry_kind kind = entry_kind::kernel;        ///< version 3
  std::optional<manifest::region> region;      ///< version 3: a region's kernels; absent for a kernel
  std::optional<manifest::predicted_traffic> predicted;  ///< version 4; absent when the IR was not analysed
  kernel_peaks peaks;

  bool is_region() const { return kind == entry_kind::region; }
};

/// A diagnostic the analyzer emitted.
struct diagnostic {
  std::string name;
  diagnostics::level level = diagnostics::level::warning;
  std::string message, file;
  int line = 0, column = 0;
  std::string group;  ///< the spec's or kernel body's group ("spec:file:line:col")
};

/// A whole manifest.
struct manifest_file {
  int version = manifest::version;
  std::string rooflint_version;
  peaks_used peaks;
  std::vector<kernel> kernels;
  std::vector<diagnostic> diagnostics;
  /// What the reader noticed without refusing the file (an older version's fields mapped); not written.
  std::vector<std::string> notes;
};

/// The prediction of the tensor at parameter @p param at @p level, or null where @p traffic has none.
const level_prediction* prediction_of(const predicted_traffic& traffic, int param, model::memory_level level);

/// Why @p k's traffic has no figure where it has none: one line per reason, with the tensors and levels
/// it holds for ("'A', 'B' at L1, L2, DRAM: line 28: inline assembly ..."), in the order first met; the
/// kernel's own reason when nothing was evaluated; empty when every tensor has a figure at every level.
std::vector<std::string> unpredicted_traffic(const kernel& k);

/// Why @p k's ranges without a point estimate have none, as unpredicted_traffic() groups them ("'B' at
/// DRAM: its sharers may read it once a wave ..."); empty where every range has its point.
std::vector<std::string> unpointed_traffic(const kernel& k);

/// Why a range has no point estimate, as its basis says after "no point estimate: " (the analyzer's
/// words for it), or nullopt where the basis does not say.
std::optional<std::string_view> no_point_reason(std::string_view basis);

// ---------------------------------------------------------------------------------------------------
// Saving and loading

/// @return @p file as JSON text (2-space indent).
std::string to_json(const manifest_file& file);
/// @return One kernel's entry as JSON text (a worker handing its kernels to its parent).
std::string to_json(const kernel& k);

/// Parses @p text, named @p path in messages. Types, ranges and references are checked here, once:
/// on failure returns nullopt and sets @p error to what is wrong and where, naming the file, the kernel
/// and the field ("manifest 'a.json', kernel 'saxpy': 'spec_value/tensors/0/shape/1' is 7, not a
/// dimension of the spec (it has 2)").
std::optional<manifest_file> from_json(const std::string& text, const std::string& path, std::string& error);
/// One kernel's entry, as to_json(const kernel&) wrote it.
std::optional<kernel> kernel_from_json(const std::string& text, std::string& error);

/// Reads and parses @p path; errors as from_json, plus a path that is not a regular file (a directory,
/// /dev/zero) or that cannot be read, refused before anything is read.
std::optional<manifest_file> load(const std::string& path, std::string& error);

/// The name rooflint_analyze() gives a manifest: <target>.rooflint.json.
inline constexpr const char* file_suffix = ".rooflint.json";

/// @return @p path if it is a file (whatever its name), else every "*.rooflint.json" below the directory
/// @p path, sorted (other tools' JSON files in a build directory are left alone); nullopt with @p error
/// set for no such path, or a directory without manifests.
std::optional<std::vector<std::string>> files_named_by(const std::string& path, std::string& error);

/// Writes @p file to @p path whole or not at all; returns false and sets @p error when it cannot (a
/// number that is not finite is refused by its JSON pointer).
bool save(const manifest_file& file, const std::string& path, std::string& error);

/// @return The fields where @p a and @p b differ, as JSON pointers with both values
/// ("/kernels/0/spec_value/dims/1/name: \"K\" vs \"N\""), walking the same tables as the writer and the
/// reader; empty when they agree.
std::vector<std::string> differences(const manifest_file& a, const manifest_file& b);

}  // namespace rooflint::manifest
