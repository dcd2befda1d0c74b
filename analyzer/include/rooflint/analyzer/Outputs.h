#pragma once
/// @file Outputs.h
/// The analyzer's files beside its diagnostics: the JSON manifest (docs/analyzer.md: each spec, its
/// kernel and its values), SARIF 2.1.0 for code scanning (GitHub's rules included), the Makefile-style
/// depfile; each written whole or not at all (a temporary file beside the target, then a rename).

#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"

namespace rooflint::analyzer {

/// 2: parameters, launch and spec_value per kernel (docs/manifest-schema.md).
inline constexpr int ManifestVersion = 4;  // 3: regions, 4: predicted_traffic (docs/manifest-schema.md)

/// @return One kernel's entry of the manifest's "kernels".
llvm::json::Value kernelJson(const KernelRecord &K, const model::peaks &Peaks);

/// @return The manifest: {"schema": "rooflint-manifest", "version": 2, "peaks": {...}, "kernels": [...]}.
llvm::json::Value manifestJson(const AnalysisResults &Results, const model::peaks &Peaks);
/// The same from entries made by kernelJson (a parent merging its workers' kernels).
llvm::json::Value manifestJson(llvm::ArrayRef<llvm::json::Value> Kernels, llvm::ArrayRef<DiagRecord> Diagnostics,
                               const model::peaks &Peaks);

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
