#include "test_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/model/peaks_table.h"

namespace rooflint::analyzer::testing {

namespace {

llvm::StringRef levelName(clang::DiagnosticsEngine::Level L) {
  switch (L) {
  case clang::DiagnosticsEngine::Remark: return "remark";
  case clang::DiagnosticsEngine::Note: return "note";
  case clang::DiagnosticsEngine::Warning: return "warning";
  case clang::DiagnosticsEngine::Ignored: return "ignored";
  default: return "error";  // Error, Fatal
  }
}

/// Hands each diagnostic to the printer (the text a user sees) and records it (what verify() reads).
class RecordingConsumer : public clang::DiagnosticConsumer {
public:
  RecordingConsumer(clang::DiagnosticConsumer &Printer, std::vector<PrintedDiagnostic> &Out)
      : Printer(Printer), Out(Out) {}
  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void finish() override { Printer.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L, const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);  // the error and warning counts
    Printer.HandleDiagnostic(L, Info);
    PrintedDiagnostic D;
    D.Level = levelName(L).str();
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    D.Text = Text.str().str();
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      const clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Info.getLocation()));
      if (P.isValid()) {
        D.File = P.getFilename();
        D.Line = P.getLine();
        D.Column = P.getColumn();
      }
    }
    Out.push_back(std::move(D));
  }

private:
  clang::DiagnosticConsumer &Printer;
  std::vector<PrintedDiagnostic> &Out;
};

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '-'; }

/// Reads an unsigned number at the front of @p S (consumed); false when there is none.
bool consumeNumber(llvm::StringRef &S, unsigned &N) {
  const size_t Digits = S.find_if_not(llvm::isDigit);
  if (Digits == 0) return false;
  if (S.take_front(Digits).getAsInteger(10, N)) return false;
  S = S.drop_front(Digits);
  return true;
}

/// Reads a directive's "@..." location (after the kind) on source line @p Line into @p E.
/// @return An error message, or empty.
std::string consumeLocation(llvm::StringRef &S, unsigned Line, ExpectedDiagnostic &E) {
  E.Line = Line;
  if (!S.consume_front("@")) return "";
  if (S.consume_front("*")) {
    E.Line = 0;
    return "";
  }
  const bool Plus = S.consume_front("+"), Minus = !Plus && S.consume_front("-");
  unsigned N = 0;
  if (consumeNumber(S, N)) {
    if (Minus && N >= Line) return "'@-" + std::to_string(N) + "' points above the first line";
    E.Line = Plus ? Line + N : Minus ? Line - N : N;
    if (E.Line == 0) return "line 0 does not exist";
  } else if (Plus || Minus) {
    return "a number must follow '@+' or '@-'";
  }
  if (S.consume_front(":") && (!consumeNumber(S, E.Column) || E.Column == 0))
    return "a column (1 or more) must follow ':'";
  return "";
}

std::string where(const std::string &File, unsigned Line, unsigned Column, const std::string &MainFile) {
  if (Line == 0) return File.empty() ? "(no location)" : File;
  std::string W = File == MainFile || File.empty() ? "line " + std::to_string(Line)
                                                   : llvm::sys::path::filename(File).str() + ":" + std::to_string(Line);
  if (Column) W += ", column " + std::to_string(Column);
  return W;
}

bool meets(const ExpectedDiagnostic &E, const PrintedDiagnostic &P, const std::string &MainFile) {
  return P.Level == E.Level && P.Text == E.Text && (E.Line == 0 || (P.File == MainFile && P.Line == E.Line)) &&
         (E.Column == 0 || P.Column == E.Column);
}

}  // namespace

Expectations parseExpectations(llvm::StringRef Code) {
  Expectations Result;
  llvm::SmallVector<llvm::StringRef> Lines;
  Code.split(Lines, '\n');
  for (unsigned Index = 0; Index < Lines.size(); ++Index) {
    const unsigned Line = Index + 1;
    const llvm::StringRef Text = Lines[Index];
    const size_t Comment = Text.find("//");
    if (Comment == llvm::StringRef::npos) continue;
    for (size_t At = Text.find("expected-", Comment); At != llvm::StringRef::npos; At = Text.find("expected-", At)) {
      if (isIdentifierChar(Text[At - 1])) {  // "rooflint-expected-bound" is a name, not a directive
        At += 9;
        continue;
      }
      llvm::StringRef Rest = Text.drop_front(At + 9);
      const auto Fail = [&](const std::string &Why) {
        Result.Errors.push_back("line " + std::to_string(Line) + ": malformed directive: " + Why);
      };
      if (Rest.consume_front("no-diagnostics")) {
        Result.NoDiagnostics = true;
        At = Text.size() - Rest.size();
        continue;
      }
      ExpectedDiagnostic E;
      E.DirectiveLine = Line;
      for (llvm::StringRef Kind : {"warning", "error", "remark", "note"})
        if (Rest.starts_with(Kind) && (Rest.size() == Kind.size() || !isIdentifierChar(Rest[Kind.size()]))) {
          E.Level = Kind.str();
          Rest = Rest.drop_front(Kind.size());
        }
      if (E.Level.empty()) {
        // Prose ("expected-value") is not a directive; a misspelt kind followed by a location or text is.
        const llvm::StringRef Word = Rest.take_while(isIdentifierChar);
        if (Rest.drop_front(Word.size()).ltrim().starts_with("{{") || Rest.drop_front(Word.size()).starts_with("@"))
          Fail("unknown kind 'expected-" + Word.str() + "' (error, warning, remark, note or no-diagnostics)");
        At += 9;
        continue;
      }
      if (std::string Why = consumeLocation(Rest, Line, E); !Why.empty()) {
        Fail(Why);
        break;
      }
      Rest = Rest.ltrim();
      const size_t Close = Rest.find("}}");
      if (!Rest.consume_front("{{") || Close == llvm::StringRef::npos) {
        Fail("the expected text must follow in {{...}}");
        break;
      }
      E.Text = Rest.take_front(Close - 2).str();
      Result.Diagnostics.push_back(std::move(E));
      At = Text.size() - Rest.size() + Close;
    }
  }
  return Result;
}

std::vector<std::string> verify(const AnalysisRun &R, llvm::StringRef Code) {
  const Expectations Expected = parseExpectations(Code);
  if (!Expected.Errors.empty()) return Expected.Errors;
  if (Expected.NoDiagnostics && !Expected.Diagnostics.empty())
    return {"expected-no-diagnostics and expected-* directives in one file"};
  if (!Expected.NoDiagnostics && Expected.Diagnostics.empty())
    return {"no expected-* directive in the file (write expected-no-diagnostics where it must print nothing)"};

  std::vector<bool> Matched(R.Printed.size(), false);
  std::vector<std::pair<unsigned, std::string>> Mismatches;  // (line, text), sorted below
  for (const ExpectedDiagnostic &E : Expected.Diagnostics) {
    size_t I = 0;
    while (I < R.Printed.size() && (Matched[I] || !meets(E, R.Printed[I], R.MainFile))) ++I;
    if (I < R.Printed.size()) {
      Matched[I] = true;
      continue;
    }
    std::string Line = where(R.MainFile, E.Line, E.Column, R.MainFile) + ": expected " + E.Level + " not seen: {{" +
                       E.Text + "}}";
    for (size_t J = 0; J < R.Printed.size(); ++J)
      if (!Matched[J] && R.Printed[J].Level == E.Level && R.Printed[J].Text == E.Text) {
        Line += " (seen at " + where(R.Printed[J].File, R.Printed[J].Line, R.Printed[J].Column, R.MainFile) + ")";
        break;
      }
    Mismatches.emplace_back(E.Line, std::move(Line));
  }
  for (size_t I = 0; I < R.Printed.size(); ++I) {
    const PrintedDiagnostic &P = R.Printed[I];
    if (Matched[I]) continue;
    Mismatches.emplace_back(P.File == R.MainFile ? P.Line : 0,
                            where(P.File, P.Line, P.Column, R.MainFile) + ": " + P.Level +
                                " seen but not expected: " + P.Text);
  }
  std::stable_sort(Mismatches.begin(), Mismatches.end(),
                   [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::string> Out;
  for (auto &[Line, Text] : Mismatches) Out.push_back(std::move(Text));
  return Out;
}

std::string readInput(const std::string &Name) {
  std::ifstream In(std::string(ROOFLINT_ANALYZER_INPUTS) + "/" + Name);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

AnalysisRun analyze(const std::string &Code, const std::string &FileName, const RunOptions &Options) {
  AnalysisRun R;
  AnalyzerOptions A;
  A.Gpu = *model::find_gpu(Options.Gpu);
  A.Diagnostics.setWarningsAsErrors(Options.WarningsAsErrors);
  A.EvaluationThreads = Options.EvaluationThreads;
  for (const std::string &F : Options.Flags) llvm::cantFail(A.Diagnostics.applyWarningFlag(F));

  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  const std::string Path = "/rooflint-test/" + FileName;
  R.MainFile = Path;
  Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  for (const auto &[File, Contents] : virtualFiles()) Memory->addFile(File, 0, llvm::MemoryBuffer::getMemBufferCopy(Contents));
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), Overlay);

  CudaEnvironment Env = detectEnvironment();
  std::vector<std::string> Args{"clang++", "-std=c++20", "-fsyntax-only", "-I" ROOFLINT_DSL_INCLUDE,
                                "-I" ROOFLINT_MODEL_INCLUDE, "-I" ROOFLINT_ANALYZER_INPUTS};
  if (!Options.RealToolkit) {
    Env.ToolkitPath.clear();
    Args.push_back("-nocudainc");
    Args.push_back("-nocudalib");
  }
  Args.insert(Args.end(), Options.CompilerArgs.begin(), Options.CompilerArgs.end());
  Args.push_back(Path);
  std::vector<std::string> Notes;
  Args = adjustCommandLine(Args, "/rooflint-test", Path, Env, Notes);

  llvm::raw_string_ostream OS(R.Output);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  clang::TextDiagnosticPrinter Printer(OS, DiagOpts.get());
  RecordingConsumer Recorder(Printer, R.Printed);
  auto Factory = makeActionFactory(A, R.Results);
  clang::tooling::ToolInvocation Invocation(Args, Factory->create(), Files.get());
  Invocation.setDiagnosticConsumer(&Recorder);
  R.Parsed = Invocation.run();
  OS.flush();
  return R;
}

std::vector<DiagRecord> named(const AnalysisRun &R, const std::string &Name) {
  std::vector<DiagRecord> Out;
  for (const DiagRecord &D : R.Results.Diagnostics)
    if (D.Name == Name) Out.push_back(D);
  return Out;
}

const DiagRecord *diagnosticContaining(const AnalysisRun &R, llvm::StringRef Name, llvm::StringRef Containing) {
  for (const DiagRecord &D : R.Results.Diagnostics)
    if (D.Name == Name && llvm::StringRef(D.Message).contains(Containing)) return &D;
  return nullptr;
}

const manifest::kernel &kernelNamed(const manifest::manifest_file &Manifest, llvm::StringRef Name) {
  for (const manifest::kernel &K : Manifest.kernels)
    if (K.name == Name) return K;
  ADD_FAILURE() << "no kernel " << Name.str() << " in the manifest";
  static const manifest::kernel None;
  return None;
}

}  // namespace rooflint::analyzer::testing
