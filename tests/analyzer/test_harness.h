#pragma once
/// @file test_harness.h
/// Runs the analyzer in-process on a source (clang-tidy's runCheckOnCode pattern): an in-memory file
/// system holds the source; the mock CUDA header and the dsl headers come from the source tree.

#include <string>
#include <vector>

#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"

namespace rooflint::analyzer::testing {

struct AnalysisRun {
  AnalysisResults Results;
  std::string Output;  ///< what clang printed (diagnostics as a user sees them)
  bool Parsed = false; ///< the tool invocation succeeded (no errors)
};

struct RunOptions {
  std::string Gpu = "H200";
  std::vector<std::string> Flags;          ///< -Wno-..., -Werror=... as the CLI takes them
  bool WarningsAsErrors = false;
  bool RealToolkit = false;                ///< parse with the CUDA toolkit instead of the mock header
  std::vector<std::string> CompilerArgs;   ///< extra compiler flags
};

/// @return The contents of tests/analyzer/inputs/@p Name.
std::string readInput(const std::string &Name);

/// Analyses @p Code as file @p FileName (its extension decides CUDA or C++).
AnalysisRun analyze(const std::string &Code, const std::string &FileName = "input.cu", const RunOptions &Options = {});

/// @return The diagnostics named @p Name.
std::vector<DiagRecord> named(const AnalysisRun &R, const std::string &Name);

/// @return The first diagnostic named @p Name whose message contains @p Containing, or null.
const DiagRecord *diagnosticContaining(const AnalysisRun &R, llvm::StringRef Name, llvm::StringRef Containing);

/// @return The kernel (or region) named @p Name in manifest @p Manifest; a test failure (and an empty
/// object) when it has none.
const llvm::json::Object &manifestKernel(const llvm::json::Value &Manifest, llvm::StringRef Name);

}  // namespace rooflint::analyzer::testing
