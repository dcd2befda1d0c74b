#pragma once
/// @file Outputs.h
/// The analyzer's files beside its diagnostics: the JSON manifest (docs/analyzer.md) that the
/// runtime reads, and SARIF 2.1.0 for code-scanning tools.

#include <string>

#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"

namespace rooflint::analyzer {

/// 2: parameters, launch and spec_value per kernel (docs/manifest-schema.md).
inline constexpr int ManifestVersion = 2;

/// @return The manifest: {"schema": "rooflint-manifest", "version": 2, "peaks": {...}, "kernels": [...]}.
llvm::json::Value manifestJson(const AnalysisResults &Results, const model::peaks &Peaks);

/// @return A SARIF 2.1.0 log with one run: the tool's rules and every emitted diagnostic.
llvm::json::Value sarifJson(const AnalysisResults &Results);

/// Writes @p Value to @p Path (pretty-printed).
llvm::Error writeJson(const llvm::json::Value &Value, llvm::StringRef Path);

}  // namespace rooflint::analyzer
