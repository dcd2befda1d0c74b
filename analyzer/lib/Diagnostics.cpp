#include "rooflint/analyzer/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

namespace rooflint::analyzer {

namespace {

/// The registry's entries in DiagKind order.
constexpr std::array<const diagnostics::diagnostic *, DiagKindCount> Registry{
    &diagnostics::bound,           &diagnostics::expectation,     &diagnostics::param_name,
    &diagnostics::uncovered_param, &diagnostics::read_only_written, &diagnostics::datasheet_peaks,
    &diagnostics::uncoalesced,     &diagnostics::spec_evaluation, &diagnostics::kernel_binding,
    &diagnostics::reread,          &diagnostics::traffic_bound,   &diagnostics::not_predicted,
    &diagnostics::size_binding};
static_assert(diagnostics::count(diagnostics::tool::analyzer) == DiagKindCount,
              "every analyzer diagnostic of the registry needs a DiagKind");

constexpr Severity severity(diagnostics::level L) {
  return L == diagnostics::level::error ? Severity::Error
         : L == diagnostics::level::warning ? Severity::Warning
                                            : Severity::Remark;
}

llvm::StringRef ref(std::string_view S) { return llvm::StringRef(S.data(), S.size()); }

}  // namespace

const std::array<DiagInfo, DiagKindCount> &allDiagnostics() {
  static const std::array<DiagInfo, DiagKindCount> All = [] {
    std::array<DiagInfo, DiagKindCount> A{};
    for (unsigned I = 0; I < DiagKindCount; ++I) {
      const diagnostics::diagnostic &D = *Registry[I];
      A[I] = DiagInfo{static_cast<DiagKind>(I), ref(D.name), severity(D.default_level), ref(D.summary), ref(D.doc)};
    }
    return A;
  }();
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
  if (S == Severity::Warning && (WarningsAsErrors || WarningAsError[I]) && Promotion[I] == 0) return Severity::Error;
  return S;
}

bool globMatches(llvm::StringRef Pattern, llvm::StringRef Name) {
  // Only '*' is special: the parts between stars must appear in order, the first at the start and
  // the last at the end.
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Pattern.split(Parts, '*');
  if (Parts.size() == 1) return Pattern == Name;
  if (!Name.consume_front(Parts.front())) return false;
  if (!Name.consume_back(Parts.back())) return false;
  for (size_t I = 1; I + 1 < Parts.size(); ++I) {
    const size_t At = Name.find(Parts[I]);
    if (At == llvm::StringRef::npos) return false;
    Name = Name.drop_front(At + Parts[I].size());
  }
  return true;
}

llvm::Expected<GlobList> GlobList::parse(llvm::StringRef Text, llvm::StringRef Origin) {
  GlobList L;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Text.split(Items, ',');
  for (llvm::StringRef Line : Items) {
    llvm::SmallVector<llvm::StringRef, 2> Pieces;  // the config file may list one glob a line
    Line.split(Pieces, '\n');
    for (llvm::StringRef Item : Pieces) {
      Item = Item.trim();
      if (Item.empty()) {
        if (Items.size() == 1 && Pieces.size() == 1) break;  // an empty list
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       Origin.str() + ": empty check name in '" + Text.str() + "'");
      }
      const bool Positive = !Item.consume_front("-");
      Item = Item.trim();
      bool Any = false;
      for (const DiagInfo &D : allDiagnostics()) Any = Any || globMatches(Item, D.Name);
      if (!Any) {
        std::string Known;
        for (const DiagInfo &D : allDiagnostics()) Known += (Known.empty() ? "'" : ", '") + D.Name.str() + "'";
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       Origin.str() + ": '" + Item.str() + "' matches no rooflint check; known checks: " + Known);
      }
      L.Globs.push_back({Positive, Item.str()});
    }
  }
  return L;
}

std::optional<bool> GlobList::matches(llvm::StringRef Name) const {
  std::optional<bool> Result;
  for (const Glob &G : Globs)
    if (globMatches(G.Pattern, Name)) Result = G.Positive;
  return Result;
}

void DiagnosticSettings::applyChecks(const GlobList &Checks) {
  for (const DiagInfo &D : allDiagnostics())
    if (std::optional<bool> On = Checks.matches(D.Name)) Enabled[static_cast<unsigned>(D.Kind)] = *On;
}

void DiagnosticSettings::applyWarningsAsErrors(const GlobList &Globs) {
  for (const DiagInfo &D : allDiagnostics())
    if (std::optional<bool> On = Globs.matches(D.Name)) WarningAsError[static_cast<unsigned>(D.Kind)] = *On;
}

llvm::Error DiagnosticSettings::setHeaderFilter(llvm::StringRef Pattern) {
  auto R = std::make_shared<llvm::Regex>(Pattern);
  std::string Error;
  if (!R->isValid(Error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid --header-filter regex '" + Pattern.str() + "': " + Error);
  HeaderFilter = std::move(R);
  return llvm::Error::success();
}

bool DiagnosticSettings::showsHeader(llvm::StringRef Path) const { return !HeaderFilter || HeaderFilter->match(Path); }

namespace {

/// One NOLINT directive in a file: its kind, the line it is on and the names it lists.
struct Nolint {
  enum Kind { Line, NextLine, Begin, End } K;
  unsigned LineNo;
  std::string Names;  ///< the text between the parentheses; empty: every name
  bool HasNames;
};

std::vector<Nolint> nolintDirectives(llvm::StringRef Buffer) {
  std::vector<Nolint> Out;
  unsigned LineNo = 1;
  size_t LineStart = 0;
  for (size_t At = Buffer.find("NOLINT"); At != llvm::StringRef::npos; At = Buffer.find("NOLINT", At + 6)) {
    LineNo += Buffer.slice(LineStart, At).count('\n');
    LineStart = At;
    llvm::StringRef Rest = Buffer.drop_front(At + 6);
    Nolint N{Nolint::Line, LineNo, "", false};
    if (Rest.consume_front("NEXTLINE")) N.K = Nolint::NextLine;
    else if (Rest.consume_front("BEGIN")) N.K = Nolint::Begin;
    else if (Rest.consume_front("END")) N.K = Nolint::End;
    if (Rest.starts_with("(")) {
      const size_t Close = Rest.find_first_of(")\n");
      if (Close == llvm::StringRef::npos || Rest[Close] != ')') continue;  // clang-tidy ignores it too
      N.Names = Rest.slice(1, Close).str();
      N.HasNames = true;
    }
    Out.push_back(std::move(N));
  }
  return Out;
}

bool namesMatch(const Nolint &N, llvm::StringRef Name) {
  if (!N.HasNames) return true;
  llvm::SmallVector<llvm::StringRef, 4> Items;
  llvm::StringRef(N.Names).split(Items, ',');
  for (llvm::StringRef Item : Items)
    if (globMatches(Item.trim(), Name)) return true;
  return false;
}

}  // namespace

bool silencedByNolint(const clang::SourceManager &SM, clang::SourceLocation Loc, llvm::StringRef Name) {
  if (Loc.isInvalid()) return false;
  const clang::SourceLocation Expansion = SM.getExpansionLoc(Loc);
  const clang::FileID File = SM.getFileID(Expansion);
  bool Invalid = false;
  const llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || !Buffer.contains("NOLINT")) return false;
  const unsigned Line = SM.getSpellingLineNumber(Expansion);
  const std::vector<Nolint> All = nolintDirectives(Buffer);
  std::vector<const Nolint *> Open;  // BEGINs not yet closed
  for (const Nolint &N : All) {
    if ((N.K == Nolint::Line && N.LineNo == Line) || (N.K == Nolint::NextLine && N.LineNo + 1 == Line))
      if (namesMatch(N, Name)) return true;
    if (N.K == Nolint::Begin) Open.push_back(&N);
    if (N.K == Nolint::End) {
      // An END closes the last BEGIN with the same list, as in clang-tidy.
      for (auto It = Open.rbegin(); It != Open.rend(); ++It)
        if ((*It)->HasNames == N.HasNames && (*It)->Names == N.Names) {
          if ((*It)->LineNo <= Line && Line <= N.LineNo && namesMatch(**It, Name)) return true;
          Open.erase(std::next(It).base());
          break;
        }
    }
  }
  return false;  // an unclosed BEGIN silences nothing
}

void Reporter::setGroup(std::string G) {
  if (OnGroup) OnGroup(G);
  Group = std::move(G);
}

std::string presumedFileName(const clang::SourceManager &SM, const clang::PresumedLoc &P) {
  clang::FileManager &Files = SM.getFileManager();
  if (auto File = Files.getOptionalFileRef(P.getFilename())) return Files.getCanonicalName(*File).str();
  return P.getFilename();
}

std::string presumedPosition(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  if (Loc.isInvalid()) return "";
  const clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid()) return "";
  return presumedFileName(SM, P) + ":" + std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
}

DiagRecord Reporter::locate(clang::SourceLocation Loc) const {
  DiagRecord R;
  if (Loc.isValid()) {
    const clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    if (P.isValid()) {
      R.File = presumedFileName(SM, P);
      R.Line = P.getLine();
      R.Column = P.getColumn();
    }
  }
  return R;
}

bool Reporter::report(DiagKind K, clang::SourceLocation Loc, const std::string &Message, clang::SourceRange Range) {
  std::optional<Severity> S = Settings.effective(K);
  if (S && !shown(K, Loc)) S.reset();
  if (S && !Said.emplace(unsigned(K), SM.getExpansionLoc(Loc).getRawEncoding(), Message).second) S.reset();
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
  R.Group = Group;
  R.Name = info(K).Name.str();
  R.Level = name(*S).str();
  R.Message = Message;
  Records.push_back(std::move(R));
  return true;
}

bool Reporter::shown(DiagKind K, clang::SourceLocation Loc) const {
  if (Loc.isInvalid()) return true;
  const clang::SourceLocation Expansion = SM.getExpansionLoc(Loc);
  if (!SM.isInMainFile(Expansion) && !Settings.showsHeader(SM.getFilename(Expansion))) return false;
  return !silencedByNolint(SM, Loc, info(K).Name);
}

bool Reporter::remark(DiagKind K, clang::SourceLocation Loc, const std::string &Message) {
  LastEmitted = Settings.effective(K).has_value() && shown(K, Loc);
  if (!LastEmitted) return false;
  const unsigned ID = Diags.getCustomDiagID(clang::DiagnosticsEngine::Remark, "%0");
  Diags.Report(Loc, ID) << (Message + " [" + info(K).Name.str() + "]");
  DiagRecord R = locate(Loc);
  R.Group = Group;
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
  R.Group = Group;
  R.Name = Records.back().Name;
  R.Level = "note";
  R.Message = Message;
  Records.back().Notes.push_back(std::move(R));
}

}  // namespace rooflint::analyzer
