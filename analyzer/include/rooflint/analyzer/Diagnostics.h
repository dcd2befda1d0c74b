#pragma once
/// @file Diagnostics.h
/// rooflint's diagnostics: their names (the CLI flag, the doc page docs/diagnostics/NAME.md and the
/// test input tests/analyzer/inputs/NAME.cu), default severities, the user's enable/disable/promote
/// settings, and emission through Clang's DiagnosticsEngine with the name in brackets.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace rooflint::analyzer {

enum class DiagKind : unsigned {
  Bound,            ///< rooflint-bound: the verdict (remark)
  Expectation,      ///< rooflint-expectation: the spec's expected bound is contradicted (warning)
  ParamName,        ///< rooflint-param-name: a tensor's name differs from its parameter's (warning)
  UncoveredParam,   ///< rooflint-uncovered-param: a pointer parameter no tensor covers (warning)
  ReadOnlyWritten,  ///< rooflint-read-only-written: a tensor read-only in the spec is written (warning)
  DatasheetPeaks,   ///< rooflint-datasheet-peaks: verdicts use datasheet peaks (remark)
  Uncoalesced,      ///< rooflint-uncoalesced: an access not unit-stride in threadIdx.x (warning)
  SpecEvaluation,   ///< rooflint-spec-evaluation: a spec cannot be evaluated or read (error)
  KernelBinding,    ///< rooflint-kernel-binding: a spec names no kernel function (error)
};

inline constexpr unsigned DiagKindCount = 9;

/// What a diagnostic is by default.
enum class Severity : unsigned char { Remark, Warning, Error };

struct DiagInfo {
  DiagKind Kind;
  llvm::StringLiteral Name;
  Severity Default;
  llvm::StringLiteral Summary;  ///< first sentence of the doc page
};

/// @return All diagnostics, in DiagKind order.
const std::array<DiagInfo, DiagKindCount> &allDiagnostics();
const DiagInfo &info(DiagKind K);
std::optional<DiagKind> findDiagnostic(llvm::StringRef Name);
llvm::StringRef name(Severity S);

/// The user's choices: -Wno-NAME / --disable=NAME, -WNAME / --enable=NAME, -Werror=NAME,
/// -Wno-error=NAME, --warnings-as-errors. NAME "rooflint" means every rooflint diagnostic.
class DiagnosticSettings {
public:
  DiagnosticSettings();
  /// Applies one -W flag given without its "-W" ("no-rooflint-bound", "error=rooflint-uncoalesced").
  llvm::Error applyWarningFlag(llvm::StringRef Flag);
  llvm::Error setEnabled(llvm::StringRef Name, bool Enabled);
  void setWarningsAsErrors(bool On) { WarningsAsErrors = On; }
  /// @return The severity @p K is reported at, or nullopt when it is disabled.
  std::optional<Severity> effective(DiagKind K) const;

private:
  llvm::Error forEach(llvm::StringRef Name, llvm::function_ref<void(unsigned)> F);
  std::array<bool, DiagKindCount> Enabled{};
  std::array<int, DiagKindCount> Promotion{};  ///< +1 error, -1 never error, 0 default
  bool WarningsAsErrors = false;
};

/// One emitted diagnostic, kept for the manifest and SARIF.
struct DiagRecord {
  std::string Name;
  std::string Level;  ///< "remark", "warning", "error", "note"
  std::string Message;
  std::string File;
  unsigned Line = 0, Column = 0;
  std::vector<DiagRecord> Notes;
};

/// Emits rooflint diagnostics through a DiagnosticsEngine and records them.
class Reporter {
public:
  Reporter(clang::DiagnosticsEngine &Diags, const clang::SourceManager &SM, const DiagnosticSettings &Settings,
           std::vector<DiagRecord> &Records)
      : Diags(Diags), SM(SM), Settings(Settings), Records(Records) {}

  /// Reports @p Message (without the name) at @p Loc; @return whether it was emitted (not disabled).
  bool report(DiagKind K, clang::SourceLocation Loc, const std::string &Message, clang::SourceRange Range = {});
  /// Reports @p Message at remark level under @p K's name (whatever its default severity), when @p K is
  /// enabled: what a check could not do (its budget spent), which is no finding and never an error.
  bool remark(DiagKind K, clang::SourceLocation Loc, const std::string &Message);
  /// Adds a note to the last report; dropped when that report was disabled.
  void note(clang::SourceLocation Loc, const std::string &Message);

private:
  DiagRecord locate(clang::SourceLocation Loc) const;
  clang::DiagnosticsEngine &Diags;
  const clang::SourceManager &SM;
  const DiagnosticSettings &Settings;
  std::vector<DiagRecord> &Records;
  bool LastEmitted = false;
};

}  // namespace rooflint::analyzer
