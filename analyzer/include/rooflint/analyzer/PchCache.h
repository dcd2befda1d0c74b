#pragma once
/// @file PchCache.h
/// The headers a CUDA file starts with, precompiled once and reused across runs. rooflint parses CUDA
/// on the device side (CudaSetup.h); before a file's first line the parse reads clang's CUDA runtime
/// wrapper (`__clang_cuda_runtime_wrapper.h`, which includes the toolkit's runtime and math headers and
/// parts of the C++ library) and rooflint's compat header, both `-include`d: the prefix. Then come the
/// file's own leading directives, its preamble (clang's preamble bounds, as clangd computes them: the
/// #include and #define lines and comments before the first declaration). A PCH of the prefix and the
/// preamble is written into a cache directory and loaded (PreprocessorOptions::ImplicitPCHInclude with
/// the preamble's bytes skipped, as clang's PrecompiledPreamble does) instead of parsing them again.
/// When a preamble cannot be cached, a PCH of the prefix alone, shared by every file with the same
/// flags, is used.
///
/// Correctness rests on clang's own checks, made strict: before a PCH is loaded, its format, clang's
/// version, the language and target options and the macros must match (ASTReader::isAcceptableASTFile
/// with strict matches); the load checks every input file, system headers included (size and
/// modification time, then content hash). A PCH clang refuses is rebuilt, and when that fails too the
/// file is parsed without one. The file name is a hash of everything else that changes it: clang's and
/// rooflint's versions, rooflint's in-memory headers, the working directory, the whole cc1 command line
/// but the input file, and for a preamble the file's path and the preamble's bytes. Writes go to a
/// temporary file renamed into place, so processes running at once (rooflint -j, parallel builds) never
/// see a partial file. A PCH whose parse reported any diagnostic is not cached, and the files its parse
/// entered are kept beside it (NAME.pch.deps) for the depfile, so the output (diagnostics, manifest,
/// depfile, SARIF) is the same with and without the cache.
///
/// C++20 modules are turned off for a parse that uses a PCH (LangOptions::CPlusPlusModules and the
/// Modules it implies): with them on, clang 19 merges a __host__ and a __device__ overload of one
/// signature when it reads a PCH (llvm-project issue 106394, fixed after clang 19), which breaks every
/// device-side CUDA PCH. A file that declares or imports a module is parsed without a PCH.

#include <memory>
#include <string>
#include <vector>

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"

namespace rooflint::analyzer {

/// Where the cache is and whether it is used: --no-pch-cache, --pch-cache-dir, else the environment
/// (ROOFLINT_NO_PCH_CACHE=1, ROOFLINT_PCH_CACHE_DIR), else $XDG_CACHE_HOME/rooflint/pch (~/.cache/...).
struct PchCacheSettings {
  bool Enabled = true;
  std::string Directory;
  /// A core is free for it: a missing PCH is written on another thread while the file is analysed
  /// without one (a cold run then takes about as long as a run without the cache), and the next run
  /// loads it. Otherwise it is written first and loaded at once.
  bool BuildBeside = false;
  /// PCHs are read, never built: a parse whose output must not be cached (HostBodies.h) may still
  /// load what a clean parse cached...
  bool ReadOnly = false;
  /// ... but no PCH that entered one of these files (real paths), which the parse reads differently.
  std::vector<std::string> NotLoadedFrom;
};

/// Puts --no-pch-cache and --pch-cache-dir into @p Category, the tool's option list.
void addPchCacheOptions(llvm::cl::OptionCategory &Category);

/// @return The settings from the command line and the environment.
PchCacheSettings pchCacheSettings();

/// @return The options that give a worker process the same settings (empty when they are the defaults).
std::vector<std::string> pchCacheWorkerArguments();

/// What the cache did for one file; ROOFLINT_TRAFFIC_TIME prints it.
struct PchUse {
  enum class Kind { Off, NotApplicable, Warm, Cold, NotCached } What = Kind::Off;
  std::string Path;        ///< the PCH file (Warm, Cold)
  bool Preamble = false;   ///< it holds the file's preamble too, not the prefix alone
  std::string Why;         ///< why none was used (NotApplicable, NotCached)
  double BuildSeconds = 0; ///< writing the PCH (Cold)
  bool Beside = false;     ///< written beside the analysis, which ran without it (Cold)
  /// What was written beside a run that loaded a later level's PCH (Warm): its describe(), or why not.
  std::string BuiltBeside;
  /// One line, e.g. "warm (/home/u/.cache/rooflint/pch/3f...e1.pch)".
  std::string describe() const;
};

/// A tool action that runs @p Inner's frontend actions, for a device-side CUDA file with the prefix
/// PCH (building it on a miss), else as @p Inner alone would. The PCH's headers are added to
/// @p Dependencies, which the analysis fills from the files it parsed (the depfile's list).
std::unique_ptr<clang::tooling::ToolAction> makePrefixPchAction(clang::tooling::FrontendActionFactory &Inner,
                                                                PchCacheSettings Settings,
                                                                llvm::StringSet<> &Dependencies, PchUse &Use);

/// @p Text, clang's printed diagnostics for the main file @p MainFile (named as they name it), less the
/// line a preamble PCH adds to the include stack of its headers: clang reads the PCH's copy of the main
/// file as included from the main file's first line, so the stack of a header (printed outermost
/// first) starts "In file included from MAIN:1:" then "In file included from MAIN:N:". The output with
/// the cache is then the output without it.
std::string withoutPchImportLines(llvm::StringRef Text, llvm::StringRef MainFile);

}  // namespace rooflint::analyzer
