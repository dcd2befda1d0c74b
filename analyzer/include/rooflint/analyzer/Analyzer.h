#pragma once
/// @file Analyzer.h
/// rooflint's analysis of one translation unit: finds every spec (a VarDecl whose type derives from
/// rooflint::dsl::spec), evaluates it with Clang's constant evaluator, binds it to its __global__
/// function, classifies it with the model's functions and reports through Clang's diagnostics.
///
/// Glossary (as in rooflint/model): ideal FLOPs, compulsory bytes, arithmetic intensity, ridge,
/// bound, t_min, peak source.

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <array>
#include <string>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/analyzer/LaunchManifest.h"
#include "rooflint/dsl/spec.h"
#include "rooflint/model/gpu.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"

namespace rooflint::analyzer {

/// What the analysis classifies against and how it reports.
struct AnalyzerOptions {
  /// The GPU the verdicts and predictions are about: its peaks (Gpu.peaks.device must outlive the
  /// analysis) and its memory geometry (--gpu's datasheet row, or the ceilings file's device).
  model::gpu Gpu;
  DiagnosticSettings Diagnostics;
  /// Threads the traffic's evaluation uses: kernels at a time, and each kernel's runs of blocks; the
  /// results are the same for any number.
  unsigned EvaluationThreads = 1;
  /// Host-only bodies the parse skips because clang reported errors in them (HostBodies.h: hostBodyKey).
  std::set<std::string> UnparsedHostBodies;
};

struct SourcePosition {
  std::string File;
  unsigned Line = 0, Column = 0;
};

/// Where the verdict changes along the spec's one free dimension ("compute-bound from N = 84").
struct Crossover {
  std::string Dim;
  double Size = 0;           ///< the first size with verdict Above
  model::bound Above = model::bound::compute;
};

/// One kernel of a region (dsl/region.h), in launch order.
struct RegionKernelRecord {
  bool Library = false;        ///< matched by Pattern (a library's kernel), not by its function
  std::string Pattern;         ///< library: a substring of the kernel's symbol
  std::string FunctionName;    ///< function: qualified name
  std::string MangledName;     ///< function: the device-side symbol
  SourcePosition Location;     ///< function: its declaration
  std::vector<manifest::parameter> Params;
};

/// One analysed spec and its kernel (or region of kernels): what the manifest records.
struct KernelRecord {
  std::string Group;           ///< the spec's group ("spec:file:line:col"): a run records it once
  std::string SpecName;
  SourcePosition SpecLocation;
  std::string KernelName;      ///< the spec's kernel_name
  std::string FunctionName;    ///< the bound function's qualified name
  std::string MangledName;     ///< as the CUDA runtime sees it (Itanium)
  SourcePosition KernelLocation;
  std::vector<manifest::parameter> Params;  ///< the bound function's parameters (LaunchManifest.h)
  dsl::spec Spec;
  bool Sized = false;          ///< every dimension has a declared or static size
  std::string MissingDim;      ///< the first dimension without one
  dsl::sizes Sizes;
  double Flops = 0, ReadBytes = 0, WrittenBytes = 0;  ///< FLOP, bytes, bytes at Sizes
  std::optional<model::bound_result> Result;          ///< when Sized and the peaks know the math mode
  std::optional<Crossover> VerdictChange;
  bool IsRegion = false;                        ///< a region (Spec.region): FunctionName, MangledName empty
  std::vector<RegionKernelRecord> RegionKernels;  ///< the region's kernels, in launch order
  /// "kernel 'saxpy'" or "region 'softmax_naive'": how diagnostics name the spec's subject.
  std::string subject() const { return (IsRegion ? "region '" : "kernel '") + KernelName + "'"; }
  /// The device-side traffic prediction (Traffic.h), per tensor and level; empty when not analysed.
  struct PredictedTraffic {
    /// A value, a range (Low..High, Ratio the point estimate in it where Pointed), or no prediction
    /// (Basis says why).
    enum class Kind { Value, Range, NotPredicted };
    std::string Tensor;
    int Param = -1;
    model::memory_level Level = model::memory_level::dram;  ///< dram; l2: sectors L1 requests from L2; l1: sectors the warps request
    double Ratio = 1;    ///< predicted bytes at that level over the tensor's compulsory bytes (a range's point; not one where !Pointed; 0 where not predicted)
    std::string Basis;   ///< why ("load line 49: 8x per warp request")
    bool Sized = false;  ///< the ratio holds at the spec's declared sizes only (footprint, layer condition)
    Kind K = Kind::Value;
    double Low = 0, High = 0;  ///< Range: the bounds; Value: both Ratio
    /// Range: false where the point rests on what the spec does not state (Basis says what): the range only.
    bool Pointed = true;
  };
  /// One global access of the kernel over the evaluated launch (the warnings' and the per-line figures).
  struct PredictedAccess {
    std::string File;
    unsigned Line = 0, Column = 0;
    std::string Tensor;      ///< the spec's tensor name ("" when the access is to no tensor of the spec)
    int Param = -1;
    bool Store = false, Atomic = false;
    bool Drawn = false;      ///< addressed through indices the spec states (`.indices(...)`)
    double Requests = 0;     ///< warp requests over the launch; 0 with Note when not evaluated
    double SectorsPerRequest = 0, IdealSectorsPerRequest = 0;
    std::string Note;
  };
  bool TrafficAnalysed = false;
  std::vector<PredictedTraffic> Predicted;
  std::vector<PredictedAccess> PredictedAccesses;
  /// The launch the prediction evaluated (grid and block), or empty with the reason in PredictionNote.
  std::array<std::int64_t, 3> PredictionGrid{}, PredictionBlock{};
  bool PredictionLaunchStated = false;
  std::string PredictionLaunchText, PredictionNote, PredictionGpu;
  std::optional<std::int64_t> PredictionDynamicShared;  ///< the dynamic shared memory the spec states, bytes
  std::optional<int> PredictionRegisters;               ///< the registers a thread the spec states
  std::optional<int> PredictionBlocksPerSm;             ///< the blocks an SM holds, as the prediction took them
  /// Sizes read from a parameter the kernel shifts a value by past its width at the spec's sizes, each
  /// said as rooflint-size-binding says it.
  std::vector<std::string> SizeBindingProblems;
};

/// Everything a run collects, over all translation units.
struct AnalysisResults {
  std::vector<KernelRecord> Kernels;
  std::vector<DiagRecord> Diagnostics;
  llvm::StringSet<> Seen;  ///< specs and kernels already analysed (headers seen by several files)
  llvm::StringSet<> Dependencies;  ///< every file read (sources and headers), for build-system depfiles
  unsigned FilesAnalyzed = 0;
  /// Called when the analysis starts a group of diagnostics (a spec, a kernel body, "" after them):
  /// a worker cuts its printed text there, so its parent prints each group once per run.
  std::function<void(const std::string &)> OnGroup;
};

struct DeviceTraffic;

/// Analyses one parsed translation unit; @p Device, when given, is the device-side traffic analysis
/// of the same unit (Traffic.h), which then replaces the AST's uncoalesced check for its kernels.
void analyzeTranslationUnit(clang::ASTContext &Ctx, const AnalyzerOptions &Options, AnalysisResults &Results,
                            const DeviceTraffic *Device = nullptr);

/// @return A factory of frontend actions that run analyzeTranslationUnit after parsing.
std::unique_ptr<clang::tooling::FrontendActionFactory> makeActionFactory(const AnalyzerOptions &Options,
                                                                         AnalysisResults &Results);

/// @return The sentence of the bound remark (without the diagnostic name).
std::string boundSentence(const KernelRecord &K, const model::peaks &P);

/// @return "N = 4096, K = 512" for the record's sizes.
std::string sizesText(const KernelRecord &K);

/// @return "'idx' uniform over [0, V)" (with " = 50257" after the bound's name when @p Bound is given):
/// what the spec states of the values of index tensor @p T.
std::string statedIndexText(const dsl::spec &S, const dsl::tensor_info &T, std::optional<std::int64_t> Bound = {});

/// @return The number with thousands separators ("137,438,953,472").
std::string withSeparators(double Value);

}  // namespace rooflint::analyzer
