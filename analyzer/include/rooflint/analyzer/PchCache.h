#pragma once
/// @file PchCache.h
/// The prefix every CUDA translation unit parses the same way, precompiled once and reused across
/// files and runs. rooflint parses CUDA on the device side (CudaSetup.h); before a file's first line the
/// parse reads clang's CUDA runtime wrapper (`__clang_cuda_runtime_wrapper.h`, which includes the
/// toolkit's runtime and math headers and parts of the C++ library) and rooflint's compat header, both
/// `-include`d. That prefix is written as a precompiled header (PCH) into a cache directory and loaded
/// with clang's `-include-pch` mechanism (PreprocessorOptions::ImplicitPCHInclude) instead of being
/// parsed again.
///
/// Correctness rests on clang's own PCH validation, made strict: every input file of the PCH, system
/// headers included, is checked (size and modification time, then content hash) and the language,
/// target and preprocessor options must match; a PCH clang refuses is rebuilt, and when that fails too
/// the file is parsed without one. The file name is a hash of everything else that changes the prefix:
/// clang's version, rooflint's version and in-memory headers, the working directory and the whole cc1
/// command line but the input file (so two files with the same flags share one PCH). Writes go to a
/// temporary file renamed into place, so processes running at once (rooflint -j, parallel builds) never
/// see a partial file. A prefix whose parse reported any diagnostic is never cached, so the output
/// (diagnostics, manifest, depfile) is the same with and without the cache.
///
/// C++20 modules are turned off for a parse that uses the PCH (LangOptions::CPlusPlusModules): with
/// them on, clang 19 merges a __host__ and a __device__ overload of one signature when it reads a PCH
/// (llvm-project issue 106394, fixed after clang 19), which breaks every device-side CUDA PCH. A file
/// that declares or imports a module is parsed without the PCH.

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
  std::string Why;         ///< why none was used (NotApplicable, NotCached)
  double BuildSeconds = 0; ///< writing the PCH (Cold)
  /// One line, e.g. "warm (/home/u/.cache/rooflint/pch/3f...e1.pch)".
  std::string describe() const;
};

/// A tool action that runs @p Inner's frontend actions, for a device-side CUDA file with the prefix
/// PCH (building it on a miss), else as @p Inner alone would. The PCH's headers are added to
/// @p Dependencies, which the analysis fills from the files it parsed (the depfile's list).
std::unique_ptr<clang::tooling::ToolAction> makePrefixPchAction(clang::tooling::FrontendActionFactory &Inner,
                                                                PchCacheSettings Settings,
                                                                llvm::StringSet<> &Dependencies, PchUse &Use);

}  // namespace rooflint::analyzer
