#pragma once
/// @file Diagnostics.h
/// rooflint's diagnostics: their names (the CLI flag, the doc page docs/diagnostics/NAME.md and the
/// test input tests/analyzer/inputs/NAME.cu), default severities and summaries (all from the one
/// registry, rooflint/diagnostics.h, which the verifier shares), the user's settings (check globs,
/// -W flags, warnings as errors, the header filter), the NOLINT comments, and emission through
/// Clang's DiagnosticsEngine with the name in brackets.

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include "rooflint/files/diagnostics.h"

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
  ReRead,           ///< rooflint-reread: a tensor read in passes that miss the cache (warning)
  TrafficBound,     ///< rooflint-traffic-bound: the predicted traffic sets a higher floor (remark)
  NotPredicted,     ///< rooflint-not-predicted: tensors and levels without a traffic figure, and why (remark)
  SizeBinding,      ///< rooflint-size-binding: a size read from a parameter the kernel shifts by past the width (warning)
};

inline constexpr unsigned DiagKindCount = 13;

/// What a diagnostic is by default.
enum class Severity : unsigned char { Remark, Warning, Error };

struct DiagInfo {
  DiagKind Kind;
  llvm::StringRef Name;
  Severity Default;
  llvm::StringRef Summary;  ///< first sentence of the doc page
  llvm::StringRef Doc;      ///< the doc page, relative to the repository root
};

/// @return The analyzer's diagnostics, in DiagKind order, read from the registry.
const std::array<DiagInfo, DiagKindCount> &allDiagnostics();
const DiagInfo &info(DiagKind K);
std::optional<DiagKind> findDiagnostic(llvm::StringRef Name);
llvm::StringRef name(Severity S);

/// A clang-tidy check list: globs separated by commas (or newlines), `*` matching any text, a
/// leading `-` removing what the glob matches; the last glob that matches a name decides.
class GlobList {
public:
  /// Fails on an empty glob ("rooflint-bound,,") or one that matches no analyzer diagnostic
  /// (a typo would otherwise silently do nothing), naming @p Origin ("--checks", a config file).
  static llvm::Expected<GlobList> parse(llvm::StringRef Text, llvm::StringRef Origin);
  /// @return true/false when a glob matches @p Name (the last one decides), nullopt when none does.
  std::optional<bool> matches(llvm::StringRef Name) const;
  bool empty() const { return Globs.empty(); }

private:
  struct Glob {
    bool Positive;
    std::string Pattern;
  };
  std::vector<Glob> Globs;
};

/// @return Whether the glob @p Pattern (only `*` is special) matches all of @p Name.
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Name);

/// The user's choices: --checks=GLOBS, -Wno-NAME / --disable=NAME, -WNAME / --enable=NAME,
/// -Werror=NAME, -Wno-error=NAME, --warnings-as-errors[=GLOBS], --header-filter=REGEX.
/// NAME "rooflint" means every rooflint diagnostic. Later settings override earlier ones.
class DiagnosticSettings {
public:
  DiagnosticSettings();
  /// Applies one -W flag given without its "-W" ("no-rooflint-bound", "error=rooflint-uncoalesced").
  llvm::Error applyWarningFlag(llvm::StringRef Flag);
  llvm::Error setEnabled(llvm::StringRef Name, bool Enabled);
  /// Enables or disables each diagnostic a glob of @p Checks matches (clang-tidy's --checks).
  void applyChecks(const GlobList &Checks);
  /// Reports the warnings a glob of @p Globs matches as errors (clang-tidy's WarningsAsErrors).
  void applyWarningsAsErrors(const GlobList &Globs);
  void setWarningsAsErrors(bool On) { WarningsAsErrors = On; }
  /// Diagnostics in headers are reported only when the header's path matches (clang-tidy's
  /// --header-filter); without a filter, all are. Diagnostics in the main file always are.
  llvm::Error setHeaderFilter(llvm::StringRef Regex);
  bool showsHeader(llvm::StringRef Path) const;
  /// @return The severity @p K is reported at, or nullopt when it is disabled.
  std::optional<Severity> effective(DiagKind K) const;

private:
  llvm::Error forEach(llvm::StringRef Name, llvm::function_ref<void(unsigned)> F);
  std::array<bool, DiagKindCount> Enabled{};
  std::array<int, DiagKindCount> Promotion{};  ///< +1 error, -1 never error, 0 default
  std::array<bool, DiagKindCount> WarningAsError{};  ///< a warning the WarningsAsErrors globs name
  bool WarningsAsErrors = false;
  std::shared_ptr<llvm::Regex> HeaderFilter;
};

/// @return Whether a NOLINT comment silences diagnostic @p Name at @p Loc, as clang-tidy reads them:
/// `// NOLINT` or `// NOLINT(names)` on its line, `// NOLINTNEXTLINE[(names)]` on the line before, or a
/// `// NOLINTBEGIN[(names)]` ... `// NOLINTEND[(names)]` region around it (a BEGIN without its END
/// silences nothing). Names are comma-separated globs (`rooflint-*`); without them, every name.
bool silencedByNolint(const clang::SourceManager &SM, clang::SourceLocation Loc, llvm::StringRef Name);

/// The name of the file @p P is in, as clang prints it with absolute paths (-fdiagnostics-absolute-paths):
/// the real path without `.` or `..`, whether a header came from its -I path or from a PCH; a name no
/// file has (a #line directive's) as written.
std::string presumedFileName(const clang::SourceManager &SM, const clang::PresumedLoc &P);

/// "file:line:column" of @p Loc's expansion, the file as presumedFileName names it; empty where it has
/// none.
std::string presumedPosition(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// One emitted diagnostic, kept for the manifest and SARIF.
struct DiagRecord {
  std::string Group;  ///< what it is about ("spec:file:line:col"): a run reports each group once
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
  /// Starts a group of diagnostics (a spec, a kernel body): every report until the next call carries
  /// @p G, and OnGroup (when set) hears it first, so the text printed can be cut at the same place.
  void setGroup(std::string G);
  const std::string &group() const { return Group; }
  std::function<void(const std::string &)> OnGroup;

private:
  DiagRecord locate(clang::SourceLocation Loc) const;
  /// Whether the header filter and NOLINT comments let @p K at @p Loc through.
  bool shown(DiagKind K, clang::SourceLocation Loc) const;
  clang::DiagnosticsEngine &Diags;
  const clang::SourceManager &SM;
  const DiagnosticSettings &Settings;
  std::vector<DiagRecord> &Records;
  bool LastEmitted = false;
  std::string Group;
  /// What was reported (name, place, text): the instantiations of a kernel template say the same of the
  /// same line, which is said once (a copy's notes go with it).
  std::set<std::tuple<unsigned, unsigned, std::string>> Said;
};

}  // namespace rooflint::analyzer
