#pragma once
/// @file test_harness.h
/// Runs the analyzer in-process on a source (clang-tidy's runCheckOnCode pattern): an in-memory file
/// system holds the source; the mock CUDA header and the dsl headers come from the source tree.

#include <string>
#include <vector>

#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/files/manifest.h"

namespace rooflint::analyzer::testing {

/// One diagnostic as clang printed it: clang's own (a parse error) and rooflint's alike.
struct PrintedDiagnostic {
  std::string Level;  ///< "remark", "warning", "error", "note"
  std::string File;   ///< empty for a diagnostic without a location
  unsigned Line = 0, Column = 0;
  std::string Text;   ///< as printed after "warning: ", rooflint's with its " [rooflint-...]" name
};

struct AnalysisRun {
  AnalysisResults Results;
  std::string Output;  ///< what clang printed (diagnostics as a user sees them)
  std::vector<PrintedDiagnostic> Printed;  ///< the same, one record each, in the order printed
  std::string MainFile;                    ///< the path the source was analysed as
  bool Parsed = false; ///< the tool invocation succeeded (no errors)
};

struct RunOptions {
  std::string Gpu = "H200";
  std::vector<std::string> Flags;          ///< -Wno-..., -Werror=... as the CLI takes them
  bool WarningsAsErrors = false;
  bool RealToolkit = false;                ///< parse with the CUDA toolkit instead of the mock header
  std::vector<std::string> CompilerArgs;   ///< extra compiler flags
  unsigned EvaluationThreads = 1;          ///< the evaluation's threads (AnalyzerOptions)
};

/// @return The contents of tests/analyzer/inputs/@p Name.
std::string readInput(const std::string &Name);

/// Analyses @p Code as file @p FileName (its extension decides CUDA or C++).
AnalysisRun analyze(const std::string &Code, const std::string &FileName = "input.cu", const RunOptions &Options = {});

/// The expected diagnostics of a source, written in it as clang's -verify reads them:
///   // expected-warning {{text}}       on this line (likewise expected-error, -remark, -note)
///   // expected-warning@+1 {{text}}    on the next line (@-2: two lines up; @12: on line 12)
///   // expected-warning@+1:23 {{text}} ... and at column 23 (a column is checked only where written)
///   // expected-remark@* {{text}}      anywhere, in any file or none
///   // expected-no-diagnostics         nothing at all (and no other directive in the file)
/// Unlike clang's -verify, the text is the whole printed message, not a part of it: rooflint's carry
/// their " [rooflint-...]" name, so the name is checked too. Every diagnostic printed must be expected and
/// every expectation met; a file with no directive is a mistake (write expected-no-diagnostics).
struct ExpectedDiagnostic {
  std::string Level;
  unsigned Line = 0;  ///< 0: any line ('@*')
  unsigned Column = 0;  ///< 0: not checked
  std::string Text;
  unsigned DirectiveLine = 0;  ///< where the directive is written
};

struct Expectations {
  std::vector<ExpectedDiagnostic> Diagnostics;
  bool NoDiagnostics = false;     ///< expected-no-diagnostics
  std::vector<std::string> Errors;  ///< malformed directives, one line each
};

/// Reads the directives in @p Code.
Expectations parseExpectations(llvm::StringRef Code);

/// Compares what @p R printed with the directives in @p Code (the source it analysed).
/// @return One line per mismatch ("line 8: expected warning not seen: ...", "line 9: warning seen but not
/// expected: ..."), in line order; empty when every diagnostic is expected and every expectation met.
std::vector<std::string> verify(const AnalysisRun &R, llvm::StringRef Code);

/// @return The diagnostics named @p Name.
std::vector<DiagRecord> named(const AnalysisRun &R, const std::string &Name);

/// @return The first diagnostic named @p Name whose message contains @p Containing, or null.
const DiagRecord *diagnosticContaining(const AnalysisRun &R, llvm::StringRef Name, llvm::StringRef Containing);

/// @return The kernel (or region) named @p Name in manifest @p Manifest; a test failure (and an empty
/// entry) when it has none.
const manifest::kernel &kernelNamed(const manifest::manifest_file &Manifest, llvm::StringRef Name);

}  // namespace rooflint::analyzer::testing
