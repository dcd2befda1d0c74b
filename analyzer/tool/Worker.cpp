#include "Worker.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <csignal>
#include <cstring>

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Outputs.h"
#include "rooflint/analyzer/PchCache.h"

extern char **environ;

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
  clang::TextDiagnosticPrinter Printer(OS, DiagOpts);
  json::Array Segments;
  std::string Group;
  size_t Cut = 0;
  const auto cutAt = [&](const std::string &Next) {
    if (Text.size() > Cut) Segments.push_back(json::Object{{"group", Group}, {"text", Text.substr(Cut)}});
    Cut = Text.size();
    Group = Next;
  };
  Results.OnGroup = cutAt;

  clang::tooling::ClangTool Tool(*Database, {File});
  ParseWatcher Watcher(allowParseErrors(), Printer, OS);  // one note when clang cannot parse the file
  Tool.setDiagnosticConsumer(&Watcher);
  Tool.setPrintErrorMessage(false);
  for (const auto &[Path, Contents] : virtualFiles()) Tool.mapVirtualFile(Path, Contents);
  auto Factory = makeActionFactory(Options, Results);
  // The CUDA headers every file starts with come precompiled from the cache (PchCache.h).
  PchUse Pch;
  auto Action = makePrefixPchAction(*Factory, pchCacheSettings(), Results.Dependencies, Pch);
  const int Status = Watcher.endFile(File, Tool.run(Action.get()));
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
  int Pipe[2];
  // Close-on-exec, so a worker started by another thread at the same moment does not hold this
  // pipe's write end open (its reader would wait for that worker too).
  if (pipe2(Pipe, O_CLOEXEC) != 0) {
    R.Reason = std::string("cannot create a pipe: ") + std::strerror(errno);
    return R;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char *> Argv;
  for (const std::string &A : Args) Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  pid_t Pid = 0;
  const int SpawnError = posix_spawn(&Pid, Program.c_str(), &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (SpawnError != 0) {
    close(Pipe[0]);
    R.Reason = "cannot start '" + Program + "': " + std::strerror(SpawnError);
    return R;
  }
  R.Started = true;
  char Buffer[65536];
  for (;;) {
    const ssize_t N = read(Pipe[0], Buffer, sizeof Buffer);
    if (N > 0) R.Output.append(Buffer, static_cast<size_t>(N));
    else if (N == 0 || errno != EINTR) break;
  }
  close(Pipe[0]);
  int WaitStatus = 0;
  while (waitpid(Pid, &WaitStatus, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(WaitStatus)) {
    R.Signalled = true;
    R.Reason = strsignal(WTERMSIG(WaitStatus));
  } else {
    R.ExitCode = WEXITSTATUS(WaitStatus);
  }
  return R;
}

}  // namespace rooflint::analyzer
