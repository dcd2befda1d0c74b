#pragma once
/// @file CudaSetup.h
/// Making clang 19 parse a project's CUDA the way its real build does, with only the user's flags:
/// clang's resource directory, the CUDA toolkit (--cuda-path, include/cccl), host-side parsing once
/// (--cuda-host-only), an empty texture_fetch_functions.h (removed in CUDA 12, still included by
/// clang 19's CUDA wrapper), and nvcc-only flags from compile databases translated or dropped.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

namespace rooflint::analyzer {

struct CudaEnvironment {
  std::string ToolkitPath;  ///< empty when no toolkit was found
  std::string ResourceDir;  ///< clang's resource directory (builtin and CUDA wrapper headers)
};

/// Finds the toolkit: $CUDA_PATH, $CUDA_HOME, /usr/local/cuda, then nvcc on PATH; and the resource dir.
CudaEnvironment detectEnvironment();

/// The directory of the in-memory headers the analyzer supplies.
inline constexpr llvm::StringLiteral VirtualIncludeDir = "/rooflint-virtual/include";

/// @return In-memory files (path, contents) every run maps: the empty texture_fetch_functions.h.
const std::vector<std::pair<std::string, std::string>> &virtualFiles();

/// @return Whether @p File is CUDA by its extension (.cu, .cuh).
bool isCudaFile(llvm::StringRef File);

/// Rewrites a compile command line (argv[0] first) for the analyzer: nvcc-only flags translated
/// (-Xcompiler A,B -> A B; -x cu -> -x cuda; --options-file F -> its contents) or dropped
/// (-gencode, -arch, --expt-relaxed-constexpr, -rdc, --use_fast_math, ...), each with a line in @p Notes;
/// then the CUDA settings (for CUDA files) and the resource directory added.
std::vector<std::string> adjustCommandLine(const std::vector<std::string> &Args, llvm::StringRef Directory,
                                           llvm::StringRef File, const CudaEnvironment &Env,
                                           std::vector<std::string> &Notes);

/// A compilation database that returns @p Base's commands rewritten by adjustCommandLine.
std::unique_ptr<clang::tooling::CompilationDatabase>
makeCudaDatabase(const clang::tooling::CompilationDatabase &Base, CudaEnvironment Env,
                 std::vector<std::string> &Notes);

}  // namespace rooflint::analyzer
