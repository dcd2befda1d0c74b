#include "rooflint/analyzer/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

namespace rooflint::analyzer {

const std::array<DiagInfo, DiagKindCount> &allDiagnostics() {
  static const std::array<DiagInfo, DiagKindCount> All{{
      {DiagKind::Bound, "rooflint-bound", Severity::Remark,
       "States whether a kernel is memory-bound or compute-bound at its spec's declared sizes."},
      {DiagKind::Expectation, "rooflint-expectation", Severity::Warning,
       "Warns when a spec's expected bound is not the verdict the roofline gives."},
      {DiagKind::ParamName, "rooflint-param-name", Severity::Warning,
       "Warns when a tensor's name in a spec differs from the name of the kernel parameter it is bound to."},
      {DiagKind::UncoveredParam, "rooflint-uncovered-param", Severity::Warning,
       "Warns when a pointer parameter of a kernel is neither a tensor of its spec nor marked uncounted."},
      {DiagKind::ReadOnlyWritten, "rooflint-read-only-written", Severity::Warning,
       "Warns when the kernel body writes through a parameter whose tensor the spec declares read-only."},
      {DiagKind::DatasheetPeaks, "rooflint-datasheet-peaks", Severity::Remark,
       "Says that verdicts use datasheet peaks, which may be wrong at the device's clocks."},
      {DiagKind::Uncoalesced, "rooflint-uncoalesced", Severity::Warning,
       "Warns when a global-memory access through a kernel parameter is not unit-stride in threadIdx.x."},
      {DiagKind::SpecEvaluation, "rooflint-spec-evaluation", Severity::Error,
       "Reports a spec whose value the analyzer cannot evaluate or read."},
      {DiagKind::KernelBinding, "rooflint-kernel-binding", Severity::Error,
       "Reports a spec that is not bound to a kernel function the analyzer can find."},
  }};
  return All;
}

const DiagInfo &info(DiagKind K) { return allDiagnostics()[static_cast<unsigned>(K)]; }

std::optional<DiagKind> findDiagnostic(llvm::StringRef Name) {
  for (const DiagInfo &D : allDiagnostics())
    if (D.Name == Name) return D.Kind;
  return std::nullopt;
}

llvm::StringRef name(Severity S) {
  switch (S) {
  case Severity::Remark: return "remark";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "warning";
}

DiagnosticSettings::DiagnosticSettings() { Enabled.fill(true); }

llvm::Error DiagnosticSettings::forEach(llvm::StringRef Name, llvm::function_ref<void(unsigned)> F) {
  if (Name == "rooflint") {
    for (unsigned I = 0; I < DiagKindCount; ++I) F(I);
    return llvm::Error::success();
  }
  if (auto K = findDiagnostic(Name)) {
    F(static_cast<unsigned>(*K));
    return llvm::Error::success();
  }
  std::string Known;
  for (const DiagInfo &D : allDiagnostics()) Known += (Known.empty() ? "'" : ", '") + D.Name.str() + "'";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown diagnostic '" + Name.str() + "'; known diagnostics: " + Known);
}

llvm::Error DiagnosticSettings::setEnabled(llvm::StringRef Name, bool On) {
  return forEach(Name, [&](unsigned I) { Enabled[I] = On; });
}

llvm::Error DiagnosticSettings::applyWarningFlag(llvm::StringRef Flag) {
  if (Flag.consume_front("no-error=")) return forEach(Flag, [&](unsigned I) { Promotion[I] = -1; });
  if (Flag.consume_front("error=")) return forEach(Flag, [&](unsigned I) { Promotion[I] = 1; Enabled[I] = true; });
  if (Flag.consume_front("no-")) return setEnabled(Flag, false);
  return setEnabled(Flag, true);
}

std::optional<Severity> DiagnosticSettings::effective(DiagKind K) const {
  const unsigned I = static_cast<unsigned>(K);
  if (!Enabled[I]) return std::nullopt;
  Severity S = info(K).Default;
  if (Promotion[I] > 0) return Severity::Error;
  if (S == Severity::Warning && WarningsAsErrors && Promotion[I] == 0) return Severity::Error;
  return S;
}

DiagRecord Reporter::locate(clang::SourceLocation Loc) const {
  DiagRecord R;
  if (Loc.isValid()) {
    const clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    if (P.isValid()) {
      R.File = P.getFilename();
      R.Line = P.getLine();
      R.Column = P.getColumn();
    }
  }
  return R;
}

bool Reporter::report(DiagKind K, clang::SourceLocation Loc, const std::string &Message, clang::SourceRange Range) {
  const std::optional<Severity> S = Settings.effective(K);
  LastEmitted = S.has_value();
  if (!S) return false;
  using Level = clang::DiagnosticsEngine::Level;
  const Level L = *S == Severity::Remark ? Level::Remark : *S == Severity::Warning ? Level::Warning : Level::Error;
  const unsigned ID = Diags.getCustomDiagID(L, "%0");
  const std::string Text = Message + " [" + info(K).Name.str() + "]";
  auto Builder = Diags.Report(Loc, ID);
  Builder << Text;
  if (Range.isValid()) Builder << clang::CharSourceRange::getTokenRange(Range);
  DiagRecord R = locate(Loc);
  R.Name = info(K).Name.str();
  R.Level = name(*S).str();
  R.Message = Message;
  Records.push_back(std::move(R));
  return true;
}

bool Reporter::remark(DiagKind K, clang::SourceLocation Loc, const std::string &Message) {
  LastEmitted = Settings.effective(K).has_value();
  if (!LastEmitted) return false;
  const unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Remark, "%0");
  Diags.Report(Loc, ID) << (Message + " [" + info(K).Name.str() + "]");
  DiagRecord R = locate(Loc);
  R.Name = info(K).Name.str();
  R.Level = "remark";
  R.Message = Message;
  Records.push_back(std::move(R));
  return true;
}

void Reporter::note(clang::SourceLocation Loc, const std::string &Message) {
  if (!LastEmitted || Records.empty()) return;
  const unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0");
  Diags.Report(Loc, ID) << Message;
  DiagRecord R = locate(Loc);
  R.Name = Records.back().Name;
  R.Level = "note";
  R.Message = Message;
  Records.back().Notes.push_back(std::move(R));
}

}  // namespace rooflint::analyzer
