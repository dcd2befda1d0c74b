#include "Worker.h"

#include <cstdlib>
#include <cstring>

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/HostBodies.h"
#include "rooflint/analyzer/Outputs.h"
#include "rooflint/analyzer/PchCache.h"
#include "rooflint/process/child.h"

namespace rooflint::analyzer {

namespace json = llvm::json;

int runWorker(const clang::tooling::CompilationDatabase &Base, const std::string &File,
              const AnalyzerOptions &Options, bool Color) {
  std::vector<std::string> Notes;
  auto Database = makeCudaDatabase(Base, detectEnvironment(), Notes);
  AnalysisResults Results;

  // clang's diagnostics and rooflint's, as the user sees them, cut into groups.
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS.enable_colors(Color);
  auto *DiagOpts = new clang::DiagnosticOptions();
  DiagOpts->ShowColors = Color;
  DiagOpts->AbsolutePath = true;  // a header's name is the same whether it came from a PCH or its -I path
  clang::TextDiagnosticPrinter Printer(OS, DiagOpts);
  json::Array Segments;
  llvm::SmallString<256> MainName;  // as clang prints it (DiagnosticOptions::AbsolutePath)
  if (llvm::sys::fs::real_path(File, MainName)) MainName = File;
  std::string Group;
  size_t Cut = 0;
  const auto cutAt = [&](const std::string &Next) {
    if (Text.size() > Cut)
      Segments.push_back(json::Object{{"group", Group}, {"text", withoutPchImportLines(Text.substr(Cut), MainName)}});
    Cut = Text.size();
    Group = Next;
  };
  Results.OnGroup = cutAt;

  ParseWatcher Watcher(allowParseErrors(), Printer, OS);  // one note when clang cannot parse the file
  // The CUDA headers every file starts with come precompiled from the cache (PchCache.h).
  PchUse Pch;
  PchCacheSettings Cache = pchCacheSettings();
  Cache.BuildBeside = Options.EvaluationThreads > 1;  // this file has cores of its own: one writes the PCH
  HostBodyLocator Locate(Watcher);
  const auto analyse = [&](const AnalyzerOptions &With, PchCacheSettings Settings) {
    clang::tooling::ClangTool Tool(*Database, {File});
    prepareTool(Tool, Locate.diagnostics());
    auto Analysis = makeActionFactory(With, Results);
    auto Factory = Locate.wrap(*Analysis);
    auto Action = makePrefixPchAction(*Factory, std::move(Settings), Results.Dependencies, Pch);
    return Tool.run(Action.get());
  };
  int ToolStatus = analyse(Options, Cache);
  // Host code clang does not parse (nvcc may): where all of clang's errors lie in host-only bodies, the
  // file again without them (HostBodies.h), its output instead of the first run's. The cache is read,
  // not written: a PCH without those bodies would hide them from later runs, while a cached one parsed
  // cleanly, so it holds none of them unless it entered their files (a header's template, say).
  // The first parse placed its errors as it ran; past clang's limit a parse of its own places them all.
  HostBodyErrors Found = Watcher.parseFailed() ? Locate.errors() : HostBodyErrors();
  if (Found.What == HostBodyErrors::Kind::Unplaced) Found = findUnparsedHostBodies(*Database, File);
  if (Found.What == HostBodyErrors::Kind::InHostBodies) {
    AnalyzerOptions Retry = Options;
    PchCacheSettings Reading = Cache;
    Reading.ReadOnly = true;
    for (const UnparsedHostBody &B : Found.Bodies) {
      Retry.UnparsedHostBodies.insert(B.Key);
      if (B.File != MainName) Reading.NotLoadedFrom.push_back(B.File);  // a preamble holds no body of the file's
    }
    Watcher.discardFile();
    Text.clear();
    Cut = 0;
    Segments = json::Array();
    Group.clear();
    Results = AnalysisResults{.OnGroup = cutAt};
    ToolStatus = analyse(Retry, Reading);
    if (!Watcher.parseFailed())
      for (const UnparsedHostBody &B : Found.Bodies)
        llvm::WithColor::warning(OS, "rooflint") << "skipped the body of host function '" << B.Function << "' (" << B.Where
                                                 << "), where clang 19 reported errors (the first: " << B.FirstError
                                                 << "); the device side does not need it, and nvcc checks host code\n";
  }
  const int Status = Watcher.endFile(File, ToolStatus);
  if (std::getenv("ROOFLINT_TRAFFIC_TIME")) llvm::errs() << "rooflint: pch: " << Pch.describe() << "\n";
  cutAt("");

  json::Array Kernels, Diagnostics, Dependencies, NoteList;
  for (const KernelRecord &K : Results.Kernels)
    Kernels.push_back(json::Object{{"group", K.Group}, {"kernel", manifest::to_json(manifestKernel(K, Options.Gpu.peaks))}});
  for (const DiagRecord &D : Results.Diagnostics) Diagnostics.push_back(diagnosticJson(D));
  for (const auto &D : Results.Dependencies) Dependencies.push_back(D.getKey().str());
  for (const std::string &N : Notes) NoteList.push_back(N);
  json::Object Out{{"status", Status == 0 ? 0 : 1},   {"segments", std::move(Segments)},
                   {"kernels", std::move(Kernels)},    {"diagnostics", std::move(Diagnostics)},
                   {"dependencies", std::move(Dependencies)}, {"notes", std::move(NoteList)}};
  llvm::outs() << json::Value(std::move(Out)) << "\n";
  llvm::outs().flush();
  return 0;
}

WorkerOutcome runProcess(const std::string &Program, const std::vector<std::string> &Args) {
  WorkerOutcome R;
  process::launch Launch;
  Launch.path = Program;
  Launch.argv = Args;
  Launch.output = process::stream::pipe;
  Launch.errors = process::stream::discard;
  auto Child = process::child::start(Launch);
  if (!Child) {
    const process::start_failure &F = Child.failure();
    R.Reason = F.at == process::start_failure::step::pipe
                   ? std::string("cannot create a pipe: ") + std::strerror(F.error)
                   : "cannot start '" + Program + "': " + std::strerror(F.error);
    return R;
  }
  R.Started = true;
  Child->read_to_end(R.Output);
  Child->close_output();
  const int Status = Child->wait();
  if (const int Signal = process::killed_by(Status)) {
    R.Signalled = true;
    R.Reason = strsignal(Signal);
  } else {
    R.ExitCode = process::exit_code(Status);
  }
  return R;
}

}  // namespace rooflint::analyzer
