#pragma once
/// @file Outputs.h
/// The analyzer's files beside its diagnostics: the manifest (docs/manifest-schema.md: each spec, its
/// kernel and its values, as the files library's record), SARIF 2.1.0 for code scanning (GitHub's rules included), the Makefile-style
/// depfile; each written whole or not at all (a temporary file beside the target, then a rename).

#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/files/manifest.h"

namespace rooflint::analyzer {

/// @return One kernel as the manifest records it (rooflint/files/manifest.h); @p Peaks are those its
/// verdict used.
manifest::kernel manifestKernel(const KernelRecord &K, const model::peaks &Peaks);

/// @return The manifest of @p Kernels (a parent merging its workers' kernels), every diagnostic emitted,
/// and the peaks.
manifest::manifest_file manifestOf(std::vector<manifest::kernel> Kernels, llvm::ArrayRef<DiagRecord> Diagnostics,
                                   const model::peaks &Peaks);
/// The same from one run's results.
manifest::manifest_file manifestOf(const AnalysisResults &Results, const model::peaks &Peaks);

/// Writes @p M to @p Path (its directory created first), whole or not at all.
llvm::Error writeManifest(const manifest::manifest_file &M, llvm::StringRef Path);

/// A diagnostic with its notes and group, as a worker hands it to its parent.
llvm::json::Value diagnosticJson(const DiagRecord &D);
/// @return The record diagnosticJson wrote, or an error naming the missing field.
llvm::Expected<DiagRecord> diagnosticFromJson(const llvm::json::Value &V);

struct SarifOptions {
  /// %SRCROOT%: artifact URIs are relative to it (an absolute directory). Files outside it get an
  /// absolute file:// URI.
  std::string SourceRoot;
  /// With it, every rule's helpUri is DocUrlBase + "/" + its doc page's file name; without, none.
  std::string DocUrlBase;
};

/// @return A SARIF 2.1.0 log with one run: the tool's rules (from the registry, with each doc page as
/// help) and every diagnostic, with relative URIs and fingerprints that do not depend on line numbers.
llvm::json::Value sarifJson(llvm::ArrayRef<DiagRecord> Diagnostics, const SarifOptions &Options);
/// The same with %SRCROOT% the current directory and no helpUri.
llvm::json::Value sarifJson(const AnalysisResults &Results);

/// @return @p Path as a relative URI under @p Root ("src/a%20b.cu"), or nullopt when it is outside.
std::optional<std::string> relativeUri(llvm::StringRef Path, llvm::StringRef Root);
/// @return "file:///abs/path" with reserved characters percent-encoded.
std::string fileUri(llvm::StringRef AbsolutePath);

/// @return A Makefile rule: @p Target depends on every path in @p Dependencies (sorted, escaped).
std::string depfileText(llvm::StringRef Target, std::vector<std::string> Dependencies);

/// Writes @p Contents to @p Path whole or not at all (rooflint::io::write_file_atomically, after
/// creating @p Path's directory): into a temporary file in the same directory, then renamed over @p Path. On failure @p Path is unchanged, the temporary file is removed and the
/// error names the file and the reason ("cannot write 'out.json': File too large").
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// @return The JSON pointer of the first number in @p Value that is an infinity or NaN, or nullopt.
std::optional<std::string> firstNonFinite(const llvm::json::Value &Value, const std::string &Where = "");

/// Writes @p Value to @p Path (pretty-printed), atomically; a number that is not finite is an error
/// naming its JSON pointer (JSON has no infinity: llvm::json would print "inf").
llvm::Error writeJson(const llvm::json::Value &Value, llvm::StringRef Path);

}  // namespace rooflint::analyzer
