#pragma once
/// @file CudaSetup.h
/// Making clang 19 parse a project's CUDA the way its real build does, with only the user's flags:
/// clang's resource directory, the CUDA toolkit (--cuda-path, include/cccl), host-side parsing once
/// (--cuda-host-only), an empty texture_fetch_functions.h (removed in CUDA 12, still included by
/// clang 19's CUDA wrapper), and nvcc-only flags from compile databases translated or dropped.

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class ASTContext;
class Decl;
class SourceManager;
}  // namespace clang

namespace rooflint::analyzer {

/// The toolkit's version, as nvcc predefines it (__CUDACC_VER_MAJOR__, _MINOR__, _BUILD__).
struct CudaVersion {
  int Major = 0, Minor = 0, Build = 0;  ///< 13.0.88 for nvcc "V13.0.88"; Build 0 when only cuda.h told
  std::string Source;                   ///< the file it was read from
};

struct CudaEnvironment {
  std::string ToolkitPath;  ///< empty when no toolkit was found
  std::string ResourceDir;  ///< clang's resource directory (builtin and CUDA wrapper headers)
  std::optional<CudaVersion> Version;  ///< the toolkit's nvcc version, when it could be read
};

/// Finds the toolkit: $CUDA_PATH, $CUDA_HOME, /usr/local/cuda, then nvcc on PATH; and the resource dir.
CudaEnvironment detectEnvironment();

/// Reads the version of the toolkit at @p ToolkitPath from, in order: version.json ("cuda_nvcc", as
/// NVIDIA's installers write it), dist-info/nvidia_cuda_nvcc-X.Y.Z.dist-info (a toolkit assembled from
/// NVIDIA's wheels), include/cuda.h's CUDA_VERSION (no build number: 0). nullopt when none tells.
std::optional<CudaVersion> readToolkitVersion(llvm::StringRef ToolkitPath);

/// The directory of the in-memory headers the analyzer supplies.
inline constexpr llvm::StringLiteral VirtualIncludeDir = "/rooflint-virtual/include";

/// @return In-memory files (path, contents) every run maps: the empty texture_fetch_functions.h, the
/// compat header, the empty main file of the precompiled CUDA prefix (PchCache.h).
const std::vector<std::pair<std::string, std::string>> &virtualFiles();

/// Readies @p Tool for a device-side parse of the analysis: clang's diagnostics to @p Diags only, and
/// the virtualFiles() mapped.
void prepareTool(clang::tooling::ClangTool &Tool, clang::DiagnosticConsumer &Diags);

/// @return Whether @p File is CUDA by its extension (.cu, .cuh).
bool isCudaFile(llvm::StringRef File);

/// Rewrites a compile command line (argv[0] first) for the analyzer: nvcc-only flags translated
/// (-Xcompiler A,B -> A B; -x cu -> -x cuda; --options-file F -> its contents; --expt-relaxed-constexpr
/// -> -D__CUDACC_RELAXED_CONSTEXPR__; --extended-lambda, --expt-extended-lambda ->
/// -D__CUDACC_EXTENDED_LAMBDA__) or dropped (-gencode, -arch, -rdc, --use_fast_math, ...), each with a
/// line in @p Notes; then the CUDA settings (for CUDA files: nvcc's version macros from @p Env.Version
/// unless the command defines them) and the resource directory added.
std::vector<std::string> adjustCommandLine(const std::vector<std::string> &Args, llvm::StringRef Directory,
                                           llvm::StringRef File, const CudaEnvironment &Env,
                                           std::vector<std::string> &Notes);

/// Settings of the device-side parse that no command-line flag gives for CUDA: clang checks that a
/// namespace-scope `constexpr` variable (a spec) may be a device constant by evaluating its initializer
/// twice more, beside the evaluation that gives its value: 0.2 s per spec on examples/sgemm/sgemm.cu.
/// GPUAllowDeviceInit skips those checks; nvcc, not the analyzer, diagnoses a device variable whose
/// initializer is not a constant.
/// It also skips the bodies of host-only functions in system headers (skipsBody), which the device side
/// never generates: the C++ library's are much of a harness file's parse.
void prepareDeviceParse(clang::CompilerInvocation &Invocation);

/// Whether @p F is host-only: neither __device__ nor __global__ (explicitly or by a pragma), nor
/// constexpr (constant evaluation needs its body). The device side never generates it.
bool isHostOnly(const clang::FunctionDecl &F);

/// Whether a device-side parse skips @p D's body: a host-only function (clang itself keeps those of a
/// deduced return type) declared in a system header (the C++ library's, the toolkit's, any the build
/// includes with -isystem), or one of @p Unparsed, the bodies where clang reported errors
/// (HostBodies.h: hostBodyKey).
/// The project's own headers and the file keep theirs otherwise: their launchers instantiate kernels,
/// and their errors are reported.
bool skipsBody(const clang::Decl &D, const clang::SourceManager &SM, const std::set<std::string> *Unparsed = nullptr);

/// The consumer that tells a device-side parse which bodies to skip (skipsBody), beside the others in a
/// MultiplexConsumer (which skips a body only where every consumer agrees): the analysis's parse and
/// the PCH's build use it alike.
class BodySkipper : public clang::ASTConsumer {
public:
  explicit BodySkipper(const std::set<std::string> *Unparsed = nullptr) : Unparsed(Unparsed) {}
  void Initialize(clang::ASTContext &Ctx) override;
  bool shouldSkipFunctionBody(clang::Decl *D) override;

private:
  const clang::SourceManager *Sources = nullptr;
  const std::set<std::string> *Unparsed;
};

/// A compilation database that returns @p Base's commands rewritten by adjustCommandLine.
std::unique_ptr<clang::tooling::CompilationDatabase>
makeCudaDatabase(const clang::tooling::CompilationDatabase &Base, CudaEnvironment Env,
                 std::vector<std::string> &Notes);

/// Puts the options of this part (--allow-parse-errors) into @p Category, the tool's option list.
void addParseOptions(llvm::cl::OptionCategory &Category);

/// @return Whether --allow-parse-errors was given: a file clang cannot parse is a warning, exit status 0.
bool allowParseErrors();

/// Passes a file's diagnostics on to @p Inner (clang's text printer) and watches for clang's own
/// errors. When there are some, endFile() says once, on @p OS, what failed and that rooflint parses with
/// clang 19, where nvcc may accept the code; with @p AllowParseErrors clang's errors are passed on as
/// warnings and the file does not fail the run. rooflint's own errors (a spec that cannot be read,
/// -Werror=NAME) and the errors of clang's driver (an unknown argument: the command is wrong, not the
/// code) always do.
class ParseWatcher : public clang::DiagnosticConsumer {
public:
  ParseWatcher(bool AllowParseErrors, clang::DiagnosticConsumer &Inner, llvm::raw_ostream &OS)
      : AllowParseErrors(AllowParseErrors), Inner(Inner), OS(OS) {}
  void BeginSourceFile(const clang::LangOptions &LangOpts, const clang::Preprocessor *PP) override {
    Inner.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Inner.EndSourceFile(); }
  void finish() override { Inner.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override;

  /// Ends @p File's run, whose tool status was @p ToolStatus (0 success): one note (a warning with
  /// --allow-parse-errors) when clang reported errors; when one of them is a spec's failed check, a note
  /// that says so, and the file fails also with --allow-parse-errors. @return The file's status.
  int endFile(llvm::StringRef File, int ToolStatus);

  /// Whether clang reported errors in this file so far, none of them a spec's failed check or the
  /// `#error` of rooflint's headers (a compile command without C++20).
  bool parseFailed() const { return ClangErrors > 0 && SpecErrors == 0 && SetupError.empty(); }

  /// Forgets what this file's run reported, for a run of it again.
  void discardFile();

private:
  bool AllowParseErrors;
  clang::DiagnosticConsumer &Inner;
  llvm::raw_ostream &OS;
  unsigned ClangErrors = 0, OwnErrors = 0, CommandErrors = 0;
  /// Of ClangErrors, those a spec's check raised (its message, "rooflint: ...", in the error or its
  /// notes): the spec is wrong, which nvcc rejects too.
  unsigned SpecErrors = 0;
  /// The latest diagnostic other than a note is a clang error (its notes follow) not yet counted in
  /// SpecErrors: its message and notes are looked at for a spec's.
  bool AwaitingSpecMessage = false;
  std::string FirstError, FirstSpecError, LastErrorWhere;
  /// The header the first error did not find ("rooflint/dsl.h"), or "": an include path to add, not
  /// code to excuse.
  std::string MissingHeader;
  /// The first `#error "rooflint: ..."` of rooflint's headers (C++20 not enabled), where it is: the
  /// compile command is wrong, not a spec.
  std::string SetupError;

  /// Counts the latest clang error as a spec's when @p Message says "rooflint: ..." (the DSL's own).
  void noteSpecMessage(llvm::StringRef Message);
};

}  // namespace rooflint::analyzer
