// rooflint: the roofline verdict of every annotated CUDA kernel, as compiler diagnostics.
//   rooflint -p build/ src/a.cu src/b.cu        (reads build/compile_commands.json)
//   rooflint file.cu -- -std=c++20 -Iinclude    (no compilation database)
// See docs/analyzer.md.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/WithColor.h"
#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Outputs.h"
#include "rooflint/model/peaks_table.h"
#ifdef ROOFLINT_HAVE_CEILINGS_FILE
#include "rooflint/ceilings/ceilings_file.h"
#endif

using namespace llvm;
using namespace rooflint;

namespace {

cl::OptionCategory Category("rooflint options");

cl::extrahelp CommonHelp(clang::tooling::CommonOptionsParser::HelpMessage);
cl::extrahelp MoreHelp(R"(
Diagnostics (each can be enabled, disabled or made an error, like compiler warnings):
  rooflint-bound               remark: memory- or compute-bound at the spec's declared sizes
  rooflint-expectation         warning: the spec's .expect(...) is contradicted
  rooflint-param-name          warning: a tensor's name differs from its parameter's
  rooflint-uncovered-param     warning: a pointer parameter is neither a tensor nor uncounted<>
  rooflint-read-only-written   warning: the body writes through a tensor declared read-only
  rooflint-datasheet-peaks     remark: verdicts use datasheet peaks
  rooflint-uncoalesced         warning: an access is not unit-stride in threadIdx.x
  rooflint-spec-evaluation     error: a spec cannot be evaluated or read
  rooflint-kernel-binding      error: a spec names no kernel function
  -Wno-NAME / --disable=NAME, -WNAME / --enable=NAME, -Werror=NAME, -Wno-error=NAME;
  NAME 'rooflint' means all of them.

Exit status: 0 when there are only remarks and warnings; 1 when there is an error (a parse error, a
spec that cannot be read, a warning promoted by --warnings-as-errors or -Werror=NAME) or a tool
problem (no compilation database, unknown GPU, unreadable ceilings file).
)");

cl::opt<std::string> Gpu("gpu",
                         cl::desc("Classify against this GPU's datasheet peaks (matched longest key first, "
                                  "e.g. 'H200', 'H100 PCIe', 'A100', 'L40S'); ignored with --ceilings"),
                         cl::value_desc("name"), cl::init("H200"), cl::cat(Category));
cl::opt<std::string> Ceilings("ceilings",
                              cl::desc("Classify against the measured ceilings in this file (written by "
                                       "rooflint-ceilings; docs/ceilings-schema.md)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Manifest("manifest", cl::desc("Write the JSON manifest of every analysed kernel here"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Sarif("sarif", cl::desc("Write the diagnostics as SARIF 2.1.0 here"), cl::value_desc("file"),
                           cl::cat(Category));
cl::opt<std::string> Depfile("depfile",
                             cl::desc("Write a Makefile-style dependency file (the manifest depends on every "
                                      "source and header read) for build systems; needs --manifest"),
                             cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> WarningsAsErrors("warnings-as-errors", cl::desc("Report rooflint warnings as errors (exit status 1)"),
                               cl::cat(Category));
cl::alias WerrorAlias("werror", cl::desc("Alias for --warnings-as-errors"), cl::aliasopt(WarningsAsErrors));
cl::list<std::string> Disable("disable", cl::desc("Disable a diagnostic by name (repeatable)"),
                              cl::value_desc("name"), cl::cat(Category));
cl::list<std::string> Enable("enable", cl::desc("Enable a diagnostic by name (repeatable)"), cl::value_desc("name"),
                             cl::cat(Category));

Expected<model::peaks> choosePeaks() {
  if (!Ceilings.empty()) {
#ifdef ROOFLINT_HAVE_CEILINGS_FILE
    static std::optional<ceilings::ceilings_file> File;  // the peaks view its device name
    std::string Error;
    File = ceilings::load(Ceilings, Error);
    if (!File) return createStringError(inconvertibleErrorCode(), "cannot use ceilings file '" + Ceilings + "': " + Error);
    return File->peaks();
#else
    return createStringError(inconvertibleErrorCode(),
                             "this rooflint was built without the ceilings file reader; use --gpu NAME");
#endif
  }
  if (auto P = model::find_peaks(Gpu)) return *P;
  std::string Known;
  for (const auto &Row : model::datasheet_keys()) Known += (Known.empty() ? "'" : ", '") + std::string(Row.key) + "'";
  return createStringError(inconvertibleErrorCode(), "unknown GPU '" + Gpu + "'; known GPUs: " + Known);
}

}  // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  analyzer::addParseOptions(Category);
  // -W flags before "--" are rooflint's (-Wno-rooflint-bound); libLLVM already owns a cl option "W".
  std::vector<const char *> Args;
  std::vector<std::string> WarningFlags;
  bool AfterDashDash = false;
  for (int I = 0; I < argc; ++I) {
    StringRef A(argv[I]);
    AfterDashDash = AfterDashDash || A == "--";
    if (!AfterDashDash && I > 0 && A.starts_with("-W") && A.size() > 2) WarningFlags.push_back(A.drop_front(2).str());
    else Args.push_back(argv[I]);
  }
  int ArgCount = static_cast<int>(Args.size());
  auto Parser = clang::tooling::CommonOptionsParser::create(ArgCount, Args.data(), Category, cl::ZeroOrMore,
                                                            "rooflint: roofline verdicts for annotated CUDA kernels");
  if (!Parser) {
    WithColor::error() << toString(Parser.takeError());
    return 1;
  }

  analyzer::AnalyzerOptions Options;
  auto Peaks = choosePeaks();
  if (!Peaks) {
    WithColor::error() << toString(Peaks.takeError()) << "\n";
    return 1;
  }
  Options.Peaks = *Peaks;
  Options.Diagnostics.setWarningsAsErrors(WarningsAsErrors);
  for (const std::string &N : Disable)
    if (Error E = Options.Diagnostics.setEnabled(N, false)) { WithColor::error() << toString(std::move(E)) << "\n"; return 1; }
  for (const std::string &N : Enable)
    if (Error E = Options.Diagnostics.setEnabled(N, true)) { WithColor::error() << toString(std::move(E)) << "\n"; return 1; }
  for (const std::string &F : WarningFlags)
    if (Error E = Options.Diagnostics.applyWarningFlag(F)) { WithColor::error() << toString(std::move(E)) << "\n"; return 1; }

  // With no source file named, CommonOptionsParser loads no database (and getCompilations() would
  // dereference null): load the -p directory's compile_commands.json here, or say what is missing.
  std::unique_ptr<clang::tooling::CompilationDatabase> OwnDatabase;
  std::vector<std::string> Files = Parser->getSourcePathList();
  const clang::tooling::CompilationDatabase *Compilations = nullptr;
  if (!Files.empty()) {
    Compilations = &Parser->getCompilations();
  } else {
    std::string BuildDir;
    for (size_t I = 1; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if ((A == "-p" || A == "--p") && I + 1 < Args.size()) BuildDir = Args[I + 1];
      else if (A.consume_front("-p=") || A.consume_front("--p=")) BuildDir = A.str();
    }
    if (BuildDir.empty()) {
      WithColor::error() << "no source files to analyse; name them, or pass -p with a compile_commands.json\n";
      return 1;
    }
    std::string LoadError;
    OwnDatabase = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, LoadError);
    if (!OwnDatabase) {
      WithColor::error() << "cannot read a compile database in '" << BuildDir << "': " << LoadError << "\n";
      return 1;
    }
    Compilations = OwnDatabase.get();
    Files = Compilations->getAllFiles();
  }
  if (Files.empty()) {
    WithColor::error() << "no source files to analyse; name them, or pass -p with a compile_commands.json\n";
    return 1;
  }
  std::vector<std::string> Notes;
  auto Database = analyzer::makeCudaDatabase(*Compilations, analyzer::detectEnvironment(), Notes);

  analyzer::AnalysisResults Results;
  auto Factory = analyzer::makeActionFactory(Options, Results);
  int Status = 0;
  StringSet<> PrintedNotes;  // each dropped flag once per run
  analyzer::ParseWatcher Watcher(analyzer::allowParseErrors());  // one note per file clang cannot parse
  CrashRecoveryContext::Enable();
  for (const std::string &File : Files) {
    clang::tooling::ClangTool Tool(*Database, {File});
    for (const auto &[Path, Contents] : analyzer::virtualFiles()) Tool.mapVirtualFile(Path, Contents);
    Tool.setDiagnosticConsumer(&Watcher);
    // Each file on its own, so a crash in one (clang's or ours) is reported and the others still run.
    CrashRecoveryContext CRC;
    int FileStatus = 0;
    if (!CRC.RunSafely([&] { FileStatus = Tool.run(Factory.get()); })) {
      WithColor::error() << "the analyzer crashed on '" << File << "'; continuing with the other files\n";
      FileStatus = 1;
    }
    FileStatus = Watcher.endFile(File, FileStatus);
    Status = Status || FileStatus;
    for (const std::string &N : Notes)
      if (PrintedNotes.insert(N).second) WithColor::note() << N << "\n";
  }

  if (!Manifest.empty())
    if (Error E = analyzer::writeJson(analyzer::manifestJson(Results, Options.Peaks), Manifest)) {
      WithColor::error() << toString(std::move(E)) << "\n";
      Status = 1;
    }
  if (!Depfile.empty() && !Manifest.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Depfile, EC, sys::fs::OF_Text);
    if (EC) {
      WithColor::error() << "cannot write '" << Depfile << "': " << EC.message() << "\n";
      Status = 1;
    } else {
      const auto escape = [](StringRef Path) {
        std::string Out;
        for (char C : Path) {
          if (C == ' ' || C == '#') Out += '\\';
          if (C == '$') Out += '$';
          Out += C;
        }
        return Out;
      };
      OS << escape(Manifest) << ":";
      std::vector<std::string> Sorted;
      for (const auto &D : Results.Dependencies) Sorted.push_back(D.getKey().str());
      std::sort(Sorted.begin(), Sorted.end());
      for (const std::string &D : Sorted) OS << " \\\n  " << escape(D);
      OS << "\n";
    }
  }
  if (!Sarif.empty())
    if (Error E = analyzer::writeJson(analyzer::sarifJson(Results), Sarif)) {
      WithColor::error() << toString(std::move(E)) << "\n";
      Status = 1;
    }
  return Status ? 1 : 0;
}
