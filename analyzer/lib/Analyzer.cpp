#include "rooflint/analyzer/Analyzer.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/KernelChecks.h"
#include "rooflint/analyzer/Traffic.h"
#include "rooflint/analyzer/SpecReader.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/model/describe.h"

using namespace clang;

namespace rooflint::analyzer {
namespace {

std::string quoted(llvm::StringRef S) { return "'" + S.str() + "'"; }

/// @return Whether @p P has both roofs a verdict in @p Mode needs (a ridge needs both).
bool knowsMode(const model::peaks &P, model::math_mode Mode) { return P.has(Mode) && P.dram_bytes_per_s > 0; }

SourcePosition position(const SourceManager &SM, SourceLocation Loc) {
  SourcePosition P;
  if (Loc.isInvalid()) return P;
  const PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isInvalid()) return P;
  P.File = presumedFileName(SM, PL);
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  return P;
}

std::string key(llvm::StringRef Kind, const SourcePosition &P) {
  return Kind.str() + ":" + P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

std::string mangledName(const FunctionDecl &F) {
  ASTContext &Ctx = F.getASTContext();
  std::unique_ptr<MangleContext> MC(ItaniumMangleContext::create(Ctx, Ctx.getDiagnostics()));
  if (!MC->shouldMangleDeclName(&F)) return F.getNameAsString();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  // The device-side symbol (what cuModuleGetFunction and CUPTI report), not the host stub.
  const GlobalDecl GD = F.hasAttr<CUDAGlobalAttr>() ? GlobalDecl(&F, KernelReferenceKind::Kernel) : GlobalDecl(&F);
  MC->mangleName(GD, OS);
  return OS.str();
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  std::vector<const VarDecl *> Specs;
  std::vector<const FunctionDecl *> Kernels;
  std::vector<const FunctionTemplateDecl *> KernelTemplates;

  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *TD) {
    if (const FunctionDecl *FD = TD->getTemplatedDecl();
        FD && FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() && !FD->isInvalidDecl())
      KernelTemplates.push_back(TD);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (isa<ParmVarDecl>(VD) || VD->isInvalidDecl() || !VD->hasInit() || VD->getDeclContext()->isDependentContext() ||
        VD->isTemplated() || VD->getType()->isDependentType() || VD->getType()->isReferenceType())
      return true;
    // Specs are constants; a local non-constexpr copy (`dsl::spec s = other;` in run-time code) is not one.
    if (VD->hasLocalStorage() && !VD->isConstexpr()) return true;
    // A spec template's implicit instantiation is the spec of the variable named after it
    // (`axpy_f32 = axpy_spec<float>`, docs/dsl.md): that variable is the spec, once.
    if (const auto *S = dyn_cast<VarTemplateSpecializationDecl>(VD); S && S->getSpecializationKind() == TSK_ImplicitInstantiation)
      return true;
    if (isSpecType(VD->getType())) Specs.push_back(VD);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() && !FD->isInvalidDecl() &&
        !FD->isDependentContext() && !FD->isTemplated())
      Kernels.push_back(FD);
    return true;
  }
};

/// The sizes with every dimension in @p Free set to @p Size, through the spec's own binding.
std::optional<dsl::sizes> sizesAlong(const dsl::spec &S, const std::vector<int> &Free, double Size) {
  std::array<dsl::size_binding, dsl::max_dims> List{};
  std::size_t N = 0;
  for (int D : Free) List[N++] = {S.dims[D].name, static_cast<std::int64_t>(Size)};
  const dsl::binding_result B = S.bind(std::span<const dsl::size_binding>(List.data(), N));
  if (!B.ok()) return std::nullopt;
  return B.bound;
}

std::optional<Crossover> findCrossover(const dsl::spec &S, const model::peaks &P) {
  if (!P.has(S.mode) || P.dram_bytes_per_s <= 0) return std::nullopt;
  std::vector<int> Free;
  for (int D = 0; D < S.dim_count; ++D) {
    // A convolution's output size and a min/max/ceil_div term follow from the others.
    bool Derived = S.size_terms.index_of(S.dims[D].name) >= 0;
    for (int I = 0; I < S.op.derived_count; ++I) Derived = Derived || S.op.derived[I].name == S.dims[D].name;
    if (S.dims[D].static_size <= 0 && !Derived) Free.push_back(D);
  }
  if (Free.empty()) return std::nullopt;
  const auto verdictAt = [&](double Size) -> std::optional<model::bound> {
    auto Sizes = sizesAlong(S, Free, Size);
    if (!Sizes) return std::nullopt;
    return model::classify(S.workload_at(*Sizes), P).verdict;
  };
  constexpr double Largest = double(std::int64_t{1} << 40);
  const auto Low = verdictAt(1), High = verdictAt(Largest);
  if (!Low || !High || *Low == *High) return std::nullopt;
  // Smallest size with the large-size verdict (the intensity of a spec is monotone along the diagonal).
  double Lo = 1, Hi = Largest;
  while (Hi - Lo > 1) {
    const double Mid = std::floor((Lo + Hi) / 2);
    auto V = verdictAt(Mid);
    if (!V) return std::nullopt;
    (*V == *High ? Hi : Lo) = Mid;
  }
  // Name only the dimensions the intensity depends on (those left after formula.h cancels common
  // factors: attention's S/4 names S, not B = Nh = S = D); the verdict depends on nothing else.
  const dsl::poly Bytes = S.bytes();
  const dsl::monomial Common = dsl::detail::common_factor(S.flops, Bytes);
  const dsl::poly Num = dsl::detail::divided(S.flops, Common, 1), Den = dsl::detail::divided(Bytes, Common, 1);
  const auto inRatio = [&](int D) {
    for (const dsl::poly *P : {&Num, &Den})
      for (int T = 0; T < P->term_count; ++T)
        if (const int I = P->index_of(S.dims[D].name); I >= 0 && P->terms[T].exponents[I] > 0) return true;
    return false;
  };
  Crossover C;
  for (int D : Free)
    if (inRatio(D)) C.Dim += (C.Dim.empty() ? "" : " = ") + std::string(S.dims[D].name.view());
  if (C.Dim.empty()) return std::nullopt;
  C.Size = Hi;
  C.Above = *High;
  return C;
}

/// @return The spec @p VD holds, read from the value Clang's constant evaluator computed; std::nullopt
/// after reporting why it cannot be read (not constexpr, another spec layout, no kernel to bind).
std::optional<ReadSpec> readSpecOf(const VarDecl &VD, ASTContext &Ctx, Reporter &Report) {
  const std::string SpecName = VD.getNameAsString();
  const APValue *Value = VD.evaluateValue();
  if (!Value || Value->isAbsent()) {
    Report.report(DiagKind::SpecEvaluation, VD.getLocation(),
                  "cannot evaluate spec " + quoted(SpecName) +
                      "; its initializer is not a constant expression (declare it 'constexpr')");
    return std::nullopt;
  }
  llvm::Expected<ReadSpec> Read = readSpec(*Value, VD.getType(), Ctx);
  if (!Read) {
    Report.report(DiagKind::SpecEvaluation, VD.getLocation(),
                  "cannot read spec " + quoted(SpecName) + ": " + llvm::toString(Read.takeError()) +
                      "; this rooflint does not match the spec language's headers");
    return std::nullopt;
  }
  if (Read->HasKernelMember && !Read->Kernel) {
    Report.report(DiagKind::KernelBinding, VD.getLocation(),
                  "spec " + quoted(SpecName) + " is not bound to a kernel function the analyzer can find");
    return std::nullopt;
  }
  // The DSL sees a function pointer, not whether it is a kernel: in CUDA only a __global__ function is
  // one (a host or __device__ function has no launch to bind or measure).
  if (Read->Kernel && Ctx.getLangOpts().CUDA && !Read->Kernel->hasAttr<CUDAGlobalAttr>()) {
    Report.report(DiagKind::KernelBinding, VD.getLocation(),
                  "spec " + quoted(SpecName) + " is bound to " + quoted(Read->Kernel->getQualifiedNameAsString()) +
                      ", which is not a __global__ function (a kernel): bind the spec to the kernel the program "
                      "launches");
    return std::nullopt;
  }
  return std::move(*Read);
}

/// @return The record of spec @p VD: its kernel function (@p F, its definition when there is one), its
/// values at the declared sizes, and its verdict against @p P when both roofs are known.
KernelRecord recordOf(const VarDecl &VD, const SourceManager &SM, const ReadSpec &Read, const model::peaks &P,
                      const FunctionDecl *&F) {
  KernelRecord K;
  K.SpecName = VD.getNameAsString();
  K.SpecLocation = position(SM, VD.getLocation());
  K.Spec = Read.Spec;
  K.KernelName = std::string(K.Spec.kernel_name.view());
  F = nullptr;
  if (Read.Kernel) {
    F = Read.Kernel->getDefinition() ? Read.Kernel->getDefinition() : Read.Kernel;
    K.FunctionName = F->getQualifiedNameAsString();
    K.MangledName = mangledName(*F);
    K.Params = kernelParams(*F);
    K.KernelLocation = position(SM, F->getLocation());
  }
  if (K.Spec.region.is_region()) {
    K.IsRegion = true;
    for (unsigned I = 0; I < K.Spec.region.kernel_count; ++I) {
      RegionKernelRecord R;
      R.Library = K.Spec.region.kernels[I].match == dsl::kernel_match::library;
      R.Pattern = std::string(K.Spec.region.kernels[I].pattern.view());
      if (const FunctionDecl *RF = I < Read.RegionKernels.size() ? Read.RegionKernels[I] : nullptr) {
        RF = RF->getDefinition() ? RF->getDefinition() : RF;
        R.FunctionName = RF->getQualifiedNameAsString();
        R.MangledName = mangledName(*RF);
        R.Location = position(SM, RF->getLocation());
        R.Params = kernelParams(*RF);
      }
      K.RegionKernels.push_back(std::move(R));
    }
    // The sizes are read at one kernel (the site): its parameters are the ones the binding names.
    if (K.Spec.launch.size_count > 0) {
      const auto Site = static_cast<std::size_t>(K.Spec.launch.sizes[0].site);
      if (Site < K.RegionKernels.size()) K.Params = K.RegionKernels[Site].Params;
    }
  }
  const dsl::spec &S = K.Spec;
  const dsl::binding_result B = S.declared();
  K.Sized = B.ok();
  K.MissingDim = std::string(B.missing.view());
  K.Sizes = B.bound;
  if (K.Sized) {
    K.Flops = S.flops_at(K.Sizes);
    K.ReadBytes = S.read_bytes_at(K.Sizes);
    K.WrittenBytes = S.written_bytes_at(K.Sizes);
  }
  if (K.Sized && knowsMode(P, S.mode)) K.Result = model::classify(S.workload_at(K.Sizes), P);
  K.VerdictChange = findCrossover(S, P);
  return K;
}

/// The notes under a bound remark: the formulas and their values, the intensity and where the verdict
/// changes, and which roof sets t_min.
void noteCountsAndFloor(const KernelRecord &K, const model::peaks &P, SourceLocation Loc, Reporter &Report) {
  const dsl::spec &S = K.Spec;
  const std::string Label(model::label(S.mode));
  const dsl::poly Bytes = S.bytes();
  std::string Counts = "ideal FLOPs " + dsl::to_string(S.flops);
  if (K.Sized && !S.flops.is_zero()) Counts += " = " + withSeparators(K.Flops) + " FLOP";
  Counts += " (" + dsl::flop_basis(S) + "); compulsory bytes " + dsl::to_string(Bytes);
  if (K.Sized) Counts += " = " + withSeparators(K.ReadBytes + K.WrittenBytes) + " bytes";
  Counts += " (read " + dsl::to_string(S.read_bytes) + ", written " + dsl::to_string(S.written_bytes) + ")";
  Report.note(Loc, Counts);
  std::string Intensity = "arithmetic intensity " + dsl::ratio_to_string(S.flops, Bytes) + " FLOP/byte";
  if (K.VerdictChange)
    Intensity += "; " + std::string(model::name(K.VerdictChange->Above)) + " from " + K.VerdictChange->Dim + " = " +
                 model::format_significant(K.VerdictChange->Size, 16) + " on " + std::string(P.device) + " " + Label;
  Report.note(Loc, Intensity);
  if (!K.Result) return;
  const model::bound_result &R = *K.Result;
  // The verdict is the roof that sets t_min (model::floor_roof); comparing the times here again
  // would name the other roof just under the ridge.
  if (R.verdict == model::bound::compute)
    Report.note(Loc, "t_min " + model::format_duration(R.t_min_s) + " is set by " + model::format_si(K.Flops, "FLOP") +
                         " at " + model::format_si(P.flops_per_s[S.mode], "FLOP/s") + " " + Label);
  else
    Report.note(Loc, "t_min " + model::format_duration(R.t_min_s) + " is set by " +
                         model::format_si(K.ReadBytes + K.WrittenBytes, "B") + " of compulsory traffic at " +
                         model::format_si(P.dram_bytes_per_s, "B/s"));
}

/// Under a region's bound remark: its kernels in launch order, each where it is declared.
void noteRegionKernels(const KernelRecord &K, const ReadSpec &Read, SourceLocation Loc, Reporter &Report) {
  const std::string Of = " of " + std::to_string(K.RegionKernels.size()) + " of " + K.subject();
  for (std::size_t I = 0; I < K.RegionKernels.size(); ++I) {
    const RegionKernelRecord &R = K.RegionKernels[I];
    const std::string Nth = "kernel " + std::to_string(I + 1) + Of;
    if (R.Library)
      Report.note(Loc, Nth + " is a library kernel, matched by its symbol containing " + quoted(R.Pattern));
    else if (I < Read.RegionKernels.size() && Read.RegionKernels[I])
      Report.note(Read.RegionKernels[I]->getLocation(), Nth + " is " + quoted(R.FunctionName) + ", declared here");
  }
}

/// A region's kernels given by function must be __global__ (C++ cannot tell; the analyzer sees the attribute).
void checkRegionKernels(const KernelRecord &K, const ReadSpec &Read, SourceLocation Loc, Reporter &Report) {
  for (std::size_t I = 0; I < Read.RegionKernels.size(); ++I) {
    const FunctionDecl *F = Read.RegionKernels[I];
    if (!F || F->hasAttr<CUDAGlobalAttr>() || !F->getASTContext().getLangOpts().CUDA) continue;
    if (Report.report(DiagKind::KernelBinding, Loc,
                      "kernel " + std::to_string(I + 1) + " of " + K.subject() + ", " + quoted(F->getNameAsString()) +
                          ", is not a __global__ function"))
      Report.note(F->getLocation(), quoted(F->getNameAsString()) + " is declared here");
  }
}

/// The rooflint-bound remark (the verdict, or why there is none) and its notes.
void reportBound(const KernelRecord &K, const ReadSpec &Read, const model::peaks &P, SourceLocation Loc,
                 const FunctionDecl *F, Reporter &Report) {
  const dsl::spec &S = K.Spec;
  const std::string KernelText = K.subject();
  bool Emitted = false;
  if (K.Result)
    Emitted = Report.report(DiagKind::Bound, Loc, boundSentence(K, P));
  else if (!knowsMode(P, S.mode))
    Emitted = Report.report(DiagKind::Bound, Loc,
                            KernelText + " has no verdict; " + quoted(std::string(P.device)) + " has no known " +
                                std::string(model::label(S.mode)) + " peak (math mode '" +
                                std::string(model::name(S.mode)) + "')");
  else
    Emitted = Report.report(DiagKind::Bound, Loc,
                            KernelText + " has no verdict at declared sizes; dimension " + quoted(K.MissingDim) +
                                " has no size (declare one with .at(" + K.MissingDim + "(...)))");
  if (!Emitted) return;
  noteCountsAndFloor(K, P, Loc, Report);
  if (F) Report.note(F->getLocation(), KernelText + " is declared here");
  noteRegionKernels(K, Read, Loc, Report);
}

/// The rooflint-expectation warning when the verdict is not the bound the spec's .expect() states.
void reportExpectation(const KernelRecord &K, const model::peaks &P, SourceLocation Loc, Reporter &Report) {
  const auto Expected = dsl::expected_verdict(K.Spec.expected.bound);
  if (!K.Result || !Expected || *Expected == K.Result->verdict) return;
  const model::bound Want = *Expected;
  const model::bound_result &R = *K.Result;
  if (Report.report(DiagKind::Expectation, Loc,
                    K.subject() + " is expected to be " + std::string(model::name(Want)) +
                        " but is " + std::string(model::name(R.verdict)) + " on " + quoted(std::string(P.device)) +
                        " at " + sizesText(K) + "; arithmetic intensity " + model::format_significant(R.intensity) +
                        " FLOP/byte is " + (R.verdict == model::bound::memory ? "below" : "above") + " the ridge " +
                        model::format_significant(R.ridge) + " FLOP/byte (" + std::string(model::label(K.Spec.mode)) +
                        ", " + std::string(model::name(P.source)) + " peaks)") &&
      K.VerdictChange && K.VerdictChange->Above == Want)
    Report.note(Loc, "it is " + std::string(model::name(Want)) + " from " + K.VerdictChange->Dim + " = " +
                         model::format_significant(K.VerdictChange->Size, 16));
}

/// The rooflint-datasheet-peaks remark, once per run, whichever file reports it first.
void reportDatasheetPeaks(const model::peaks &P, SourceLocation Loc, AnalysisResults &Results, Reporter &Report) {
  if (P.source != model::peak_source::datasheet || !Results.Seen.insert("datasheet-peaks").second) return;
  const std::string SpecGroup = Report.group();
  Report.setGroup("datasheet-peaks");
  Report.report(DiagKind::DatasheetPeaks, Loc,
                "verdicts use datasheet peaks of " + quoted(std::string(P.device)) +
                    "; spec-sheet peaks may be wrong at your clocks (pass --ceilings with a file from "
                    "rooflint-ceilings)");
  Report.setGroup(SpecGroup);
}

/// One spec: read it, evaluate it, report its verdict, check its expectation and its binding.
void analyzeSpec(const VarDecl &VD, ASTContext &Ctx, const AnalyzerOptions &Options, AnalysisResults &Results,
                 Reporter &Report) {
  const std::optional<ReadSpec> Read = readSpecOf(VD, Ctx, Report);
  if (!Read) return;
  const FunctionDecl *F = nullptr;
  KernelRecord K = recordOf(VD, Ctx.getSourceManager(), *Read, Options.Gpu.peaks, F);
  const SourceLocation Loc = VD.getLocation();
  reportBound(K, *Read, Options.Gpu.peaks, Loc, F, Report);
  reportExpectation(K, Options.Gpu.peaks, Loc, Report);
  reportDatasheetPeaks(Options.Gpu.peaks, Loc, Results, Report);
  if (F) checkBinding(K.Spec, *F, VD, Report);
  if (K.IsRegion) checkRegionKernels(K, *Read, Loc, Report);
  Results.Kernels.push_back(std::move(K));
}

class Consumer : public ASTConsumer {
public:
  Consumer(const AnalyzerOptions &Options, AnalysisResults &Results, CodeGenerator *Device = nullptr)
      : Options(Options), Results(Results), Device(Device) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The device-side module is complete here: the code generator comes first in the multiplexer.
    const auto Parsed = std::chrono::steady_clock::now();
    std::optional<DeviceTraffic> Traffic;
    if (Device && Device->GetModule()) Traffic = analyzeDeviceModule(*Device->GetModule());
    const auto Optimised = std::chrono::steady_clock::now();
    analyzeTranslationUnit(Ctx, Options, Results, Traffic ? &*Traffic : nullptr);
    // ROOFLINT_TRAFFIC_TIME: the phases' wall time (scripts/bench-analyzer.sh's profile).
    if (std::getenv("ROOFLINT_TRAFFIC_TIME")) {
      const auto S = [](auto A, auto B) { return std::chrono::duration<double>(B - A).count(); };
      llvm::errs() << "rooflint: time: parse and IR generation " << llvm::format("%.3f", S(Created, Parsed))
                   << " s, device IR optimisation and traffic " << llvm::format("%.3f", S(Parsed, Optimised))
                   << " s, spec analysis and reports " << llvm::format("%.3f", S(Optimised, std::chrono::steady_clock::now()))
                   << " s\n";
    }
  }

private:
  const AnalyzerOptions &Options;
  AnalysisResults &Results;
  CodeGenerator *Device;
  std::chrono::steady_clock::time_point Created = std::chrono::steady_clock::now();  // before the parse
};

class Action : public ASTFrontendAction {
public:
  Action(const AnalyzerOptions &Options, AnalysisResults &Results) : Options(Options), Results(Results) {}
  /// The device-side parse's settings (CudaSetup.h) on every path; the PCH cache sets them before the
  /// precompiled headers' key, so that their build and their use agree.
  bool BeginInvocation(CompilerInstance &CI) override {
    prepareDeviceParse(CI.getInvocation());
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef InFile) override {
    if (!CI.getLangOpts().CUDA || !CI.getLangOpts().CUDAIsDevice) return std::make_unique<Consumer>(Options, Results);
    // A device-side parse (CudaSetup): the same AST also generates the kernels' IR for the traffic
    // analysis (Traffic.h). Optimised code: at level 0 clang marks every function optnone.
    CodeGenOptions &CGO = CI.getCodeGenOpts();
    CGO.OptimizationLevel = 2;
    CGO.UnrollLoops = true;  // as nvcc compiles device code at -O3 whatever the host's level
    CGO.setInlining(CodeGenOptions::NormalInlining);  // at -O0 every function is marked noinline
    CGO.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
    CGO.DiscardValueNames = false;  // parameter names for the messages
    std::unique_ptr<CodeGenerator> Gen(CreateLLVMCodeGen(CI.getDiagnostics(), InFile, &CI.getVirtualFileSystem(),
                                                         CI.getHeaderSearchOpts(), CI.getPreprocessorOpts(), CGO,
                                                         Context));
    auto Mine = std::make_unique<Consumer>(Options, Results, Gen.get());
    std::vector<std::unique_ptr<ASTConsumer>> List;
    List.push_back(std::move(Gen));
    List.push_back(std::move(Mine));
    List.push_back(std::make_unique<BodySkipper>(&Options.UnparsedHostBodies));
    return std::make_unique<MultiplexConsumer>(std::move(List));
  }

private:
  const AnalyzerOptions &Options;
  AnalysisResults &Results;
  llvm::LLVMContext Context;  // outlives the consumers (and the module), which the compiler instance owns
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const AnalyzerOptions &Options, AnalysisResults &Results) : Options(Options), Results(Results) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(Options, Results); }

private:
  const AnalyzerOptions &Options;
  AnalysisResults &Results;
};

}  // namespace

std::string withSeparators(double Value) {
  if (!std::isfinite(Value) || std::fabs(Value) >= 9e18) return model::format_significant(Value);
  if (std::fabs(Value - std::round(Value)) > 1e-9) return model::format_significant(Value, 6);
  const long long V = std::llround(Value);
  std::string Digits = std::to_string(V < 0 ? -V : V), Out;
  for (std::size_t I = 0; I < Digits.size(); ++I) {
    if (I > 0 && (Digits.size() - I) % 3 == 0) Out += ',';
    Out += Digits[I];
  }
  return (V < 0 ? "-" : "") + Out;
}

std::string sizesText(const KernelRecord &K) {
  return dsl::sizes_text(K.Spec, K.Sizes, " = ");
}

std::string statedIndexText(const dsl::spec &S, const dsl::tensor_info &T, std::optional<std::int64_t> Bound) {
  return "'" + std::string(T.name.view()) +
         (T.indices == dsl::index_distribution::distinct ? "' distinct in [0, " : "' uniform over [0, ") +
         std::string(S.dims[std::size_t(T.index_bound)].name.view()) + (Bound ? " = " + std::to_string(*Bound) : "") + ")";
}

std::string boundSentence(const KernelRecord &K, const model::peaks &P) {
  return K.subject() + " is " + model::describe(*K.Result, P, K.Spec.mode) + " at " + sizesText(K);
}

/// The spec records of the kernel whose device symbol is @p Mangled (several: one spec per shape).
static std::vector<KernelRecord *> recordsFor(AnalysisResults &Results, const std::string &Mangled) {
  std::vector<KernelRecord *> Out;
  for (KernelRecord &K : Results.Kernels)
    if (K.MangledName == Mangled) Out.push_back(&K);
  return Out;
}

/// A kernel (or instantiation) whose device code the unit has, and its group.
struct KernelWithCode {
  const KernelTraffic *Traffic;
  const FunctionDecl *Kernel;
  std::string Key;
};

/// Records the kernels' predictions, on @p Options' GPU, in their spec records, then reports each kernel's
/// traffic (whose notes give those figures) in order.
static void traffic(const std::vector<KernelWithCode> &Kernels, Reporter &Report, AnalysisResults &Results,
                    const AnalyzerOptions &Options) {
  std::vector<std::vector<KernelRecord *>> Records;  // each kernel's specs
  std::vector<TrafficPrediction> Work;
  for (const KernelWithCode &K : Kernels) {
    Records.push_back(recordsFor(Results, K.Traffic->MangledName));
    for (KernelRecord *Record : Records.back()) Work.push_back({K.Traffic, K.Kernel, Record});
  }
  predictTraffic(Work, Options.Gpu, Options.EvaluationThreads);
  for (std::size_t I = 0; I < Kernels.size(); ++I) {
    const KernelWithCode &K = Kernels[I];
    Report.setGroup(K.Key);
    // The accesses are reported once, at the first spec's sizes; each spec's own verdicts at the spec.
    reportTraffic(*K.Traffic, *K.Kernel, Report, Records[I].empty() ? nullptr : Records[I].front(), Options.Gpu);
    for (std::size_t S = 1; S < Records[I].size(); ++S)
      reportSpecTraffic(*Records[I][S], K.Kernel->getASTContext().getSourceManager(), Report, Options.Gpu.peaks);
  }
}

void analyzeTranslationUnit(ASTContext &Ctx, const AnalyzerOptions &Options, AnalysisResults &Results,
                            const DeviceTraffic *Device) {
  ++Results.FilesAnalyzed;
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    if (llvm::StringRef Name = It->first.getName(); !Name.starts_with("/rooflint-virtual/") && !Name.starts_with("<"))
      Results.Dependencies.insert(Name);
  Reporter Report(Ctx.getDiagnostics(), SM, Options.Diagnostics, Results.Diagnostics);
  Report.OnGroup = Results.OnGroup;
  // Only the user's declarations: system headers (libstdc++, the CUDA toolkit) hold no specs and most of
  // the AST, and walking them would cost a noticeable part of the parse time.
  Collector C;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation())) C.TraverseDecl(D);
  // A file that did not compile gets no verdicts: a spec whose static_asserts failed (a dtype that does
  // not match its parameter, say) still has a value, and its numbers would be confidently wrong.
  const bool Compiled = !Ctx.getDiagnostics().hasUncompilableErrorOccurred();
  for (const VarDecl *VD : C.Specs) {
    if (!Compiled) break;
    if (SM.isInSystemHeader(VD->getLocation())) continue;
    const std::string Key = key("spec", position(SM, VD->getLocation()));
    if (!Results.Seen.insert(Key).second) continue;
    Report.setGroup(Key);  // what it reports is printed and recorded once per run (headers)
    const size_t Before = Results.Kernels.size();
    analyzeSpec(*VD, Ctx, Options, Results, Report);
    for (size_t I = Before; I < Results.Kernels.size(); ++I) Results.Kernels[I].Group = Key;
  }
  std::vector<KernelWithCode> Kernels;
  for (const FunctionDecl *F : C.Kernels) {
    if (SM.isInSystemHeader(F->getLocation())) continue;
    const std::string Key = key("kernel", position(SM, F->getLocation()));
    if (!Results.Seen.insert(Key).second) continue;
    // A kernel without device code (a file whose device-side parse failed) gets no traffic figures.
    if (const KernelTraffic *T = Device ? Device->find(mangledName(*F)) : nullptr) Kernels.push_back({T, F, Key});
  }
  // Kernel templates: each instantiation the unit uses, from the device-side analysis.
  for (const FunctionTemplateDecl *TD : C.KernelTemplates) {
    if (!Device || SM.isInSystemHeader(TD->getLocation())) continue;
    for (const FunctionDecl *F : TD->specializations()) {
      const KernelTraffic *T = Device->find(mangledName(*F));
      if (!T) continue;
      const std::string Key = key("kernel", position(SM, TD->getLocation())) + ":" + T->MangledName;
      if (!Results.Seen.insert(Key).second) continue;
      Kernels.push_back({T, F, Key});
    }
  }
  traffic(Kernels, Report, Results, Options);
  Report.setGroup("");
}

std::unique_ptr<tooling::FrontendActionFactory> makeActionFactory(const AnalyzerOptions &Options,
                                                                  AnalysisResults &Results) {
  return std::make_unique<Factory>(Options, Results);
}

}  // namespace rooflint::analyzer
