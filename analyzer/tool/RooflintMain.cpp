// rooflint: the roofline verdict of every annotated CUDA kernel, as compiler diagnostics.
//   rooflint -p build/ src/a.cu src/b.cu        (reads build/compile_commands.json)
//   rooflint -p build/ -j 8                     (every file of the database, 8 at a time)
//   rooflint file.cu -- -std=c++20 -Iinclude    (no compilation database)
// Each file is analysed by a worker process (Worker.h); this process schedules them, prints their
// output in the order of the files, and writes the manifest, SARIF and depfile. See docs/analyzer.md.

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "Worker.h"
#include "clang/Basic/Version.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/analyzer/Config.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Outputs.h"
#include "rooflint/analyzer/PchCache.h"
#include "rooflint/model/peaks_table.h"
#include "rooflint/files/ceilings_file.h"

using namespace llvm;
using namespace rooflint;
using namespace rooflint::analyzer;

namespace {

/// rooflint's exit statuses. When several apply, the highest is returned.
enum ExitCode : int {
  Clean = 0,        ///< only remarks and warnings
  Findings = 1,     ///< an error diagnostic in some file
  Usage = 2,        ///< a bad option or configuration file
  NoInput = 3,      ///< no compilation database, or no source file
  BadPeaks = 4,     ///< the ceilings file cannot be used
  OutputFailed = 5, ///< the manifest, SARIF or depfile cannot be written
  Crashed = 6,      ///< the analysis of some file crashed (the others were analysed)
};

constexpr std::pair<int, const char *> ExitCodeMeanings[] = {
    {Clean, "only remarks and warnings (or nothing) were reported"},
    {Findings, "an error was reported: a file that does not parse, a spec that cannot be read, a warning "
               "made an error (--warnings-as-errors, -Werror=NAME, WarningsAsErrors), a compiler flag clang's "
               "driver rejects (also with --allow-parse-errors)"},
    {Usage, "a bad command line or .rooflint file: unknown option or diagnostic, bad glob or regex, "
            "unknown GPU, an option given an empty value (--ceilings=)"},
    {NoInput, "nothing to analyse: no compilation database (-p, or one found from the first source), "
              "no source file, or a source that cannot be read (missing, a directory, not a regular file)"},
    {BadPeaks, "the ceilings file (--ceilings) cannot be read or used"},
    {OutputFailed, "the manifest, SARIF or depfile cannot be written (the old file is kept; a path that is "
                   "a directory is found before the analysis)"},
    {Crashed, "the analysis of a file crashed; the other files were analysed"},
};

std::string exitCodeHelp() {
  std::string S = "\nExit status (the highest that applies):\n";
  for (const auto &[Code, Meaning] : ExitCodeMeanings) S += "  " + std::to_string(Code) + "  " + Meaning + "\n";
  return S;
}

std::string diagnosticsHelp() {
  std::string S = "\nDiagnostics (docs/diagnostics/NAME.md; installed under share/doc/rooflint/docs/diagnostics; each can be enabled,\n"
                  "disabled or made an error):\n";
  for (const DiagInfo &D : allDiagnostics())
    S += formatv("  {0,-28}{1,-8}{2}\n", D.Name, name(D.Default), D.Summary).str();
  S += R"(
  --checks=GLOBS (clang-tidy's: '-*,rooflint-bound'), -Wno-NAME / --disable=NAME, -WNAME /
  --enable=NAME, -Werror=NAME, -Wno-error=NAME; NAME 'rooflint' means all of them. A '// NOLINT',
  '// NOLINT(rooflint-x)', '// NOLINTNEXTLINE(rooflint-x)' or NOLINTBEGIN/NOLINTEND comment silences
  one place. A .rooflint file (YAML: Checks, WarningsAsErrors, HeaderFilterRegex,
  InheritParentConfig) in a source's directory or a parent applies to it, before the command line.

Output:
  --color=auto|always|never   colour the diagnostics (auto: when stdout is a terminal);
                              -fcolor-diagnostics and -fno-color-diagnostics are the same
)";
  return S;
}

const std::string DiagnosticsHelpText = diagnosticsHelp();
const std::string ExitCodeHelpText = exitCodeHelp();

cl::OptionCategory Category("rooflint options");
cl::extrahelp DiagnosticsHelp(DiagnosticsHelpText.c_str());
cl::extrahelp ExitCodeHelp(ExitCodeHelpText.c_str());

cl::list<std::string> Sources(cl::Positional, cl::desc("<source files>"), cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory holding compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg", cl::desc("Append this compiler flag to every command"),
                                cl::value_desc("flag"), cl::cat(Category));
cl::list<std::string> ExtraArgsBefore("extra-arg-before", cl::desc("Prepend this compiler flag to every command"),
                                      cl::value_desc("flag"), cl::cat(Category));
cl::opt<std::string> Gpu("gpu",
                         cl::desc("Classify against this GPU's datasheet peaks (matched longest key first, "
                                  "e.g. 'H200', 'H100 PCIe', 'A100', 'L40S'); ignored with --ceilings"),
                         cl::value_desc("name"), cl::init("H200"), cl::cat(Category));
cl::opt<std::string> Ceilings("ceilings",
                              cl::desc("Classify against the measured ceilings in this file (written by "
                                       "rooflint-ceilings; docs/ceilings-schema.md)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Checks("checks",
                            cl::desc("Comma-separated globs of the checks to run, '-' removing ('-*,rooflint-bound'); "
                                     "applied after .rooflint's Checks, the last match wins"),
                            cl::value_desc("globs"), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks (after .rooflint and --checks) and exit"),
                         cl::cat(Category));
cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                      cl::desc("Report rooflint warnings as errors (exit status 1): all of them, "
                                               "or those the globs match (--warnings-as-errors=rooflint-uncoalesced)"),
                                      cl::value_desc("globs"), cl::ValueOptional, cl::cat(Category));
cl::alias WerrorAlias("werror", cl::desc("Alias for --warnings-as-errors"), cl::aliasopt(WarningsAsErrors), cl::cat(Category));
cl::opt<std::string> HeaderFilter("header-filter",
                                  cl::desc("Report diagnostics in headers only when the header's path matches this "
                                           "regex (default: every header that is not a system header)"),
                                  cl::value_desc("regex"), cl::cat(Category));
cl::list<std::string> Disable("disable", cl::desc("Disable a diagnostic by name (repeatable)"),
                              cl::value_desc("name"), cl::cat(Category));
cl::list<std::string> Enable("enable", cl::desc("Enable a diagnostic by name (repeatable)"), cl::value_desc("name"),
                             cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Analyse this many files at a time (default 1), each evaluating its kernels on its share of the "
                                "cores; the output is the same (also --jobs=N)"),
                       cl::value_desc("N"), cl::init(1), cl::Prefix, cl::cat(Category));
cl::alias JobsAlias("jobs", cl::desc("Alias for -j"), cl::aliasopt(Jobs), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print only diagnostics: no progress lines, no notes about dropped flags or sources the "
                                      "compilation database does not list"),
                    cl::cat(Category));
cl::opt<std::string> Manifest("manifest", cl::desc("Write the JSON manifest of every analysed kernel here"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> Sarif("sarif", cl::desc("Write the diagnostics as SARIF 2.1.0 here"), cl::value_desc("file"),
                           cl::cat(Category));
cl::opt<std::string> SarifRoot("sarif-root",
                               cl::desc("SARIF URIs are relative to this directory (%SRCROOT%; default: the "
                                        "current directory), e.g. the repository's root"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> DocUrlBase("doc-url-base",
                                cl::desc("SARIF rules get helpUri BASE/NAME.md (an absolute URL, e.g. the "
                                         "docs/diagnostics folder on your Git host); default: no helpUri"),
                                cl::value_desc("url"), cl::cat(Category));
cl::opt<std::string> Depfile("depfile",
                             cl::desc("Write a Makefile-style dependency file (the manifest depends on every "
                                      "source and header read) for build systems; needs --manifest"),
                             cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> WorkerMode("rooflint-worker", cl::desc("Internal: analyse one file for a parent rooflint"),
                         cl::Hidden, cl::cat(Category));
cl::opt<unsigned> WorkerThreads("rooflint-evaluation-threads",
                                 cl::desc("Internal: kernels a worker evaluates at a time"), cl::init(1),
                                 cl::Hidden, cl::cat(Category));

/// What argv holds besides llvm::cl's options: -W flags, the colour choice, the flags after "--".
struct RawArguments {
  std::vector<const char *> ForParser;  ///< argv without the rest
  std::vector<std::string> WarningFlags;
  std::optional<std::vector<std::string>> FixedCompileFlags;  ///< after "--"
  std::string Color = "auto";
};

/// -W flags and --color are rooflint's, but libLLVM already owns cl options named "W" and "color".
Expected<RawArguments> splitArguments(int argc, const char **argv) {
  RawArguments R;
  for (int I = 0; I < argc; ++I) {
    StringRef A(argv[I]);
    if (A == "--") {
      R.FixedCompileFlags.emplace(argv + I + 1, argv + argc);
      break;
    }
    if (I > 0 && A.starts_with("-W") && A.size() > 2) R.WarningFlags.push_back(A.drop_front(2).str());
    else if (A == "-fcolor-diagnostics" || A == "--color" || A == "-color") R.Color = "always";
    else if (A == "-fno-color-diagnostics") R.Color = "never";
    else if (A.consume_front("--color=") || A.consume_front("-color=")) {
      if (A != "auto" && A != "always" && A != "never")
        return createStringError(inconvertibleErrorCode(), "--color must be auto, always or never, not '" + A + "'");
      R.Color = A.str();
    } else R.ForParser.push_back(argv[I]);
  }
  return R;
}

raw_ostream &error(bool Color) { return WithColor::error(errs(), "rooflint", !Color); }
raw_ostream &note(bool Color) { return WithColor::note(errs(), "rooflint", !Color); }

void printVersion(raw_ostream &OS) {
  OS << "rooflint version " << ROOFLINT_VERSION << "\n"
     << "  built with " << clang::getClangFullVersion() << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
}

/// @return The GPU the analysis is about: the ceilings file's device (its measured peaks, the geometry it
/// reported), else --gpu's datasheet row.
Expected<model::gpu> chooseGpu(int &Code) {
  if (!Ceilings.empty()) {
    Code = BadPeaks;
    static std::optional<ceilings::ceilings_file> File;  // the peaks view its device name
    std::string Error;
    File = ceilings::load(Ceilings, Error);
    if (!File) return createStringError(inconvertibleErrorCode(), "cannot use ceilings file '" + Ceilings + "': " + Error);
    return File->gpu();
  }
  Code = Usage;
  if (auto G = model::find_gpu(Gpu)) return *G;
  std::string Known;
  for (const auto &Row : model::datasheet_keys()) Known += (Known.empty() ? "'" : ", '") + std::string(Row.key) + "'";
  return createStringError(inconvertibleErrorCode(), "unknown GPU '" + Gpu + "'; known GPUs: " + Known);
}

/// The settings of the command line applied over the configuration @p Config, in this order: Checks
/// (config, then --checks), WarningsAsErrors, --disable, --enable, -W flags, the header filter.
Expected<DiagnosticSettings> makeSettings(const EffectiveConfig &Config, const RawArguments &Raw) {
  DiagnosticSettings S;
  std::string CheckList = Config.Checks;
  if (!Checks.empty()) CheckList += (CheckList.empty() ? "" : ",") + Checks;
  const std::string Origin = Config.Files.empty() ? "--checks" : "--checks (after " + Config.Files.back() + ")";
  auto Globs = GlobList::parse(CheckList, Origin);
  if (!Globs) return Globs.takeError();
  S.applyChecks(*Globs);
  std::string Werror = Config.WarningsAsErrors;
  if (WarningsAsErrors.getNumOccurrences())
    Werror += (Werror.empty() ? "" : ",") + (WarningsAsErrors.empty() ? std::string("*") : WarningsAsErrors);
  auto WerrorGlobs = GlobList::parse(Werror, "--warnings-as-errors");
  if (!WerrorGlobs) return WerrorGlobs.takeError();
  S.applyWarningsAsErrors(*WerrorGlobs);
  for (const std::string &N : Disable)
    if (Error E = S.setEnabled(N, false)) return std::move(E);
  for (const std::string &N : Enable)
    if (Error E = S.setEnabled(N, true)) return std::move(E);
  for (const std::string &F : Raw.WarningFlags)
    if (Error E = S.applyWarningFlag(F)) return std::move(E);
  const std::string Filter = HeaderFilter.getNumOccurrences() ? HeaderFilter : Config.HeaderFilterRegex;
  if (!Filter.empty())
    if (Error E = S.setHeaderFilter(Filter)) return std::move(E);
  return S;
}

int listChecks(const RawArguments &Raw, bool Color) {
  ConfigResolver Resolver;
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  auto Config = Resolver.forDirectory(Cwd);
  if (!Config) {
    error(Color) << toString(Config.takeError()) << "\n";
    return Usage;
  }
  auto Settings = makeSettings(*Config, Raw);
  if (!Settings) {
    error(Color) << toString(Settings.takeError()) << "\n";
    return Usage;
  }
  outs() << "Enabled checks:\n";
  for (const DiagInfo &D : allDiagnostics())
    if (auto S = Settings->effective(D.Kind))
      outs() << "    " << left_justify(D.Name, 28) << left_justify(name(*S), 8) << D.Summary << "\n";
  outs() << "\n";
  return Clean;
}

/// A note for each source named on the command line that @p Database does not list: its command is
/// inferred from a listed file's (clang's interpolation), whose flags may not be the ones it needs.
void noteUnlistedSources(const clang::tooling::CompilationDatabase &Database, bool Color) {
  if (Quiet) return;
  std::set<std::string> Listed;
  for (const std::string &F : Database.getAllFiles()) {
    SmallString<256> Real;
    Listed.insert(sys::fs::real_path(F, Real) ? F : std::string(Real));
  }
  for (const std::string &Source : Sources) {
    SmallString<256> Real;
    if (sys::fs::real_path(Source, Real) || Listed.count(std::string(Real))) continue;  // unreadable: said later
    note(Color) << "'" << Source << "' is not in the compilation database: its compile command is inferred from "
                << "another file's (add it to the build, or pass '" << Source << " -- FLAGS')\n";
  }
}

/// The compilation database: the flags after "--", the -p directory's, or one found from the first
/// source (its directory or a parent, as clang-tidy); then --extra-arg(-before).
Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> loadDatabase(const RawArguments &Raw) {
  std::unique_ptr<clang::tooling::CompilationDatabase> Base;
  std::string Why;
  if (Raw.FixedCompileFlags) {
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    Base = std::make_unique<clang::tooling::FixedCompilationDatabase>(Cwd, *Raw.FixedCompileFlags);
  } else if (!BuildPath.empty()) {
    Base = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Why);
    if (!Base)
      return createStringError(inconvertibleErrorCode(), "no compilation database in '" + BuildPath +
                                                             "': " + StringRef(Why).trim() +
                                                             " (build with CMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  } else if (!Sources.empty()) {
    Base = clang::tooling::CompilationDatabase::autoDetectFromSource(Sources.front(), Why);
    if (!Base)
      return createStringError(inconvertibleErrorCode(),
                               "no compilation database found for '" + Sources.front() +
                                   "'; pass -p BUILD_DIR (with compile_commands.json) or 'FILE -- FLAGS'");
  } else {
    return createStringError(inconvertibleErrorCode(),
                             "no source files to analyse; name them, or pass -p with a compile_commands.json");
  }
  if (!Raw.FixedCompileFlags)
    Base = clang::tooling::inferMissingCompileCommands(
        clang::tooling::expandResponseFiles(std::move(Base), vfs::getRealFileSystem()));
  auto Adjusted = std::make_unique<clang::tooling::ArgumentsAdjustingCompilations>(std::move(Base));
  Adjusted->appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      std::vector<std::string>(ExtraArgsBefore.begin(), ExtraArgsBefore.end()),
      clang::tooling::ArgumentInsertPosition::BEGIN));
  Adjusted->appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      std::vector<std::string>(ExtraArgs.begin(), ExtraArgs.end()), clang::tooling::ArgumentInsertPosition::END));
  return std::unique_ptr<clang::tooling::CompilationDatabase>(std::move(Adjusted));
}

/// The command line a worker gets for @p File: the analysis options, with the configuration already
/// folded into --checks, --warnings-as-errors and --header-filter (a worker reads no config file).
/// @p Threads: kernels the worker evaluates at a time.
std::vector<std::string> workerArguments(const std::string &Self, const std::string &File, const EffectiveConfig &C,
                                         const RawArguments &Raw, bool Color, unsigned Threads) {
  std::vector<std::string> A{Self, "--rooflint-worker", Color ? "--color=always" : "--color=never",
                             "--rooflint-evaluation-threads=" + std::to_string(Threads)};
  if (!Ceilings.empty()) A.push_back("--ceilings=" + Ceilings);
  else A.push_back("--gpu=" + Gpu);
  if (!BuildPath.empty()) A.push_back("-p=" + BuildPath);
  for (const std::string &E : ExtraArgs) A.push_back("--extra-arg=" + E);
  for (const std::string &E : ExtraArgsBefore) A.push_back("--extra-arg-before=" + E);
  std::string CheckList = C.Checks;
  if (!Checks.empty()) CheckList += (CheckList.empty() ? "" : ",") + Checks;
  if (!CheckList.empty()) A.push_back("--checks=" + CheckList);
  std::string Werror = C.WarningsAsErrors;
  if (WarningsAsErrors.getNumOccurrences())
    Werror += (Werror.empty() ? "" : ",") + (WarningsAsErrors.empty() ? std::string("*") : WarningsAsErrors);
  if (!Werror.empty()) A.push_back("--warnings-as-errors=" + Werror);
  const std::string Filter = HeaderFilter.getNumOccurrences() ? HeaderFilter : C.HeaderFilterRegex;
  if (!Filter.empty()) A.push_back("--header-filter=" + Filter);
  for (const std::string &N : Disable) A.push_back("--disable=" + N);
  for (const std::string &N : Enable) A.push_back("--enable=" + N);
  for (const std::string &F : Raw.WarningFlags) A.push_back("-W" + F);
  if (allowParseErrors()) A.push_back("--allow-parse-errors");
  for (std::string &P : pchCacheWorkerArguments()) A.push_back(std::move(P));
  A.push_back(File);
  if (Raw.FixedCompileFlags) {
    A.push_back("--");
    A.insert(A.end(), Raw.FixedCompileFlags->begin(), Raw.FixedCompileFlags->end());
  }
  return A;
}

/// One file's worker, as the parent keeps it until it is printed.
struct FileRun {
  std::string File;
  std::vector<std::string> Args;
  WorkerOutcome Outcome;
  bool Done = false;
};

/// Everything the run has printed and collected, in the order of the files.
struct Collected {
  StringSet<> Groups;  ///< groups already printed (a spec in a header included by several files)
  StringSet<> Notes;
  std::vector<manifest::kernel> Kernels;
  std::vector<DiagRecord> Diagnostics;
  std::vector<std::string> Dependencies;
  int Code = Clean;
};

/// The path as the user would write it: relative to the current directory when under it.
std::string displayPath(StringRef File) {
  SmallString<256> Cwd, Abs(File);
  sys::fs::current_path(Cwd);
  sys::fs::make_absolute(Abs);
  StringRef Rest(Abs);
  if (Rest.consume_front(Cwd) && Rest.consume_front("/")) return Rest.str();
  return File.str();
}

/// Prints what @p Run's worker reported (the groups not printed yet) and collects its records.
void collect(FileRun &Run, size_t Index, size_t Count, bool Color, Collected &C) {
  if (Count > 1 && !Quiet) outs() << "[" << Index + 1 << "/" << Count << "] " << displayPath(Run.File) << "\n";
  const WorkerOutcome &O = Run.Outcome;
  auto Parsed = json::parse(O.Output);
  const json::Object *Result = Parsed ? Parsed->getAsObject() : nullptr;
  if (!Parsed) consumeError(Parsed.takeError());
  if (!O.Started || O.Signalled || O.ExitCode != 0 || !Result) {
    outs().flush();
    const std::string Why = !O.Started ? O.Reason
                            : O.Signalled ? "it crashed (" + O.Reason + ")"
                                          : "its worker ended without a result (exit status " +
                                                std::to_string(O.ExitCode) + ")";
    error(Color) << "the analysis of '" << displayPath(Run.File) << "' failed: " << Why
                 << "; the other files go on\n";
    C.Code = std::max<int>(C.Code, Crashed);
    return;
  }
  std::set<std::string> New;  // this file's groups that no earlier file printed
  const auto isNew = [&](StringRef G) {
    if (G.empty() || New.count(G.str())) return true;
    if (C.Groups.contains(G)) return false;
    New.insert(G.str());
    return true;
  };
  if (const json::Array *Segments = Result->getArray("segments"))
    for (const json::Value &S : *Segments)
      if (const json::Object *O = S.getAsObject(); O && isNew(O->getString("group").value_or("")))
        outs() << O->getString("text").value_or("");
  outs().flush();
  if (const json::Array *Kernels = Result->getArray("kernels"))
    for (const json::Value &K : *Kernels)
      if (const json::Object *O = K.getAsObject(); O && isNew(O->getString("group").value_or("")))
        if (auto Text = O->getString("kernel")) {
          std::string Error;
          if (auto Kernel = manifest::kernel_from_json(Text->str(), Error)) C.Kernels.push_back(std::move(*Kernel));
          else error(Color) << "the analysis of '" << displayPath(Run.File) << "' handed back a kernel the manifest refuses: " << Error << "\n";
        }
  if (const json::Array *Diags = Result->getArray("diagnostics"))
    for (const json::Value &D : *Diags) {
      auto R = diagnosticFromJson(D);
      if (!R) {
        consumeError(R.takeError());
        continue;
      }
      if (isNew(R->Group)) C.Diagnostics.push_back(std::move(*R));
    }
  for (const std::string &G : New) C.Groups.insert(G);
  if (const json::Array *Deps = Result->getArray("dependencies"))
    for (const json::Value &D : *Deps)
      if (auto S = D.getAsString()) C.Dependencies.push_back(S->str());
  if (const json::Array *Notes = Result->getArray("notes"))
    for (const json::Value &N : *Notes)
      if (auto S = N.getAsString(); S && C.Notes.insert(*S).second && !Quiet) note(Color) << *S << "\n";
  if (Result->getInteger("status").value_or(1) != 0) C.Code = std::max<int>(C.Code, Findings);
}

/// Kernels each worker evaluates at a time: the cores the workers running at once leave, shared.
unsigned evaluationThreads(std::size_t Files) {
  const unsigned Workers = unsigned(std::max<std::size_t>(1, std::min<std::size_t>(Jobs, Files)));
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count() / Workers);  // the CPUs this process may run on
}

/// Runs the workers, @p Jobs at a time, and collects them in the order of @p Runs.
void runAll(std::vector<FileRun> &Runs, const std::string &Self, unsigned JobCount, bool Color, Collected &C) {
  std::mutex M;
  std::condition_variable Finished;
  std::atomic<size_t> Next{0};
  const auto work = [&] {
    for (size_t I = Next++; I < Runs.size(); I = Next++) {
      WorkerOutcome O = runProcess(Self, Runs[I].Args);
      std::lock_guard<std::mutex> Lock(M);
      Runs[I].Outcome = std::move(O);
      Runs[I].Done = true;
      Finished.notify_all();
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < std::max(1u, std::min<unsigned>(JobCount, Runs.size())); ++T) Threads.emplace_back(work);
  for (size_t I = 0; I < Runs.size(); ++I) {
    {
      std::unique_lock<std::mutex> Lock(M);
      Finished.wait(Lock, [&] { return Runs[I].Done; });
    }
    collect(Runs[I], I, Runs.size(), Color, C);
  }
  for (std::thread &T : Threads) T.join();
}

int writeOutputs(const Collected &C, const model::peaks &Peaks, bool Color) {
  int Code = Clean;
  const auto report = [&](Error E) {
    if (!E) return;
    error(Color) << toString(std::move(E)) << "\n";
    Code = OutputFailed;
  };
  if (!Manifest.empty()) report(writeManifest(manifestOf(C.Kernels, C.Diagnostics, Peaks), Manifest));
  if (!Depfile.empty()) report(writeFileAtomically(Depfile, depfileText(Manifest, C.Dependencies)));
  if (!Sarif.empty()) {
    SarifOptions O;
    SmallString<256> Root(SarifRoot.empty() ? std::string(".") : SarifRoot.getValue());
    sys::fs::make_absolute(Root);
    sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
    O.SourceRoot = Root.str().str();
    O.DocUrlBase = DocUrlBase;
    report(writeJson(sarifJson(C.Diagnostics, O), Sarif));
  }
  return Code;
}

/// The output options are checked before any analysis: --depfile without --manifest, a relative
/// --doc-url-base, an option given an empty value (an unset variable in a build script).
std::optional<std::string> badOutputOption() {
  if (!Depfile.empty() && Manifest.empty()) return std::string("--depfile needs --manifest (the depfile's target)");
  if (!DocUrlBase.empty() && !StringRef(DocUrlBase).contains("://"))
    return "--doc-url-base must be an absolute URL (https://...), not '" + DocUrlBase + "'";
  for (cl::opt<std::string> *O : {&Manifest, &Sarif, &Depfile, &Ceilings})
    if (O->getNumOccurrences() && O->empty())
      return "--" + O->ArgStr.str() + " needs a file; it was given an empty value";
  return std::nullopt;
}

/// An output path that is a directory cannot be written: found before the analysis, not after it.
std::optional<std::string> unwritableOutput() {
  for (const std::string *P : {&Manifest.getValue(), &Sarif.getValue(), &Depfile.getValue()})
    if (!P->empty() && sys::fs::is_directory(*P)) return "cannot write '" + *P + "': Is a directory";
  return std::nullopt;
}

/// The sources are checked before any analysis, with rooflint's own message: clang's driver would say
/// "no such file or directory" as a parse error (which --allow-parse-errors excuses), and a FIFO or
/// a character device would block or never end. Relative paths are the current directory's, as
/// ClangTool resolves them.
std::optional<std::string> unreadableSource(const std::vector<std::string> &Files) {
  for (const std::string &File : Files) {
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(File, Status))
      return "cannot read source '" + File + "': " + EC.message();
    if (Status.type() == sys::fs::file_type::directory_file) return "cannot read source '" + File + "': Is a directory";
    if (Status.type() != sys::fs::file_type::regular_file)
      return "cannot read source '" + File + "': not a regular file";
    int FD = -1;
    if (std::error_code EC = sys::fs::openFileForRead(File, FD)) return "cannot read source '" + File + "': " + EC.message();
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return std::nullopt;
}

int analyzeFiles(const RawArguments &Raw, const model::peaks &Peaks, bool Color, const char *Argv0) {
  auto Database = loadDatabase(Raw);
  if (!Database) {
    error(Color) << toString(Database.takeError()) << "\n";
    return NoInput;
  }
  if (!Raw.FixedCompileFlags) noteUnlistedSources(**Database, Color);
  std::vector<std::string> Files(Sources.begin(), Sources.end());
  if (Files.empty()) {
    Files = (*Database)->getAllFiles();
    std::sort(Files.begin(), Files.end());
  }
  if (Files.empty()) {
    error(Color) << "no source files to analyse: the compilation database lists none\n";
    return NoInput;
  }
  if (auto Why = unreadableSource(Files)) {
    error(Color) << *Why << "\n";
    return NoInput;
  }
  // Every file's configuration and settings are checked before the first analysis starts.
  ConfigResolver Resolver;
  std::vector<FileRun> Runs;
  const std::string Self = sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&printVersion));
  for (const std::string &File : Files) {
    auto Config = Resolver.forFile(File);
    if (!Config) {
      error(Color) << toString(Config.takeError()) << "\n";
      return Usage;
    }
    if (auto S = makeSettings(*Config, Raw); !S) {
      error(Color) << toString(S.takeError()) << "\n";
      return Usage;
    }
    Runs.push_back({File, workerArguments(Self, File, *Config, Raw, Color, evaluationThreads(Files.size())), {}, false});
  }
  Collected C;
  runAll(Runs, Self, Jobs, Color, C);
  return std::max(C.Code, writeOutputs(C, Peaks, Color));
}

int workerMain(const RawArguments &Raw, const AnalyzerOptions &Options) {
  auto Database = loadDatabase(Raw);
  if (!Database || Sources.size() != 1) {
    if (!Database) consumeError(Database.takeError());
    return NoInput;
  }
  return runWorker(**Database, Sources.front(), Options, Raw.Color == "always");
}

bool useColor(StringRef Choice) {
  if (Choice == "always") return true;
  if (Choice == "never") return false;
  return sys::Process::StandardOutIsDisplayed() && sys::Process::StandardOutHasColors();
}

}  // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  addParseOptions(Category);  // --allow-parse-errors (CudaSetup)
  addPchCacheOptions(Category);  // --no-pch-cache, --pch-cache-dir (PchCache)
  // A file-size limit (RLIMIT_FSIZE) must fail the write with EFBIG, which we report, not kill us.
  std::signal(SIGXFSZ, SIG_IGN);
  auto Raw = splitArguments(argc, argv);
  if (!Raw) {
    error(useColor("auto")) << toString(Raw.takeError()) << "\n";
    return Usage;
  }
  const bool Color = useColor(Raw->Color);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(Category);
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(static_cast<int>(Raw->ForParser.size()), Raw->ForParser.data(),
                                   "rooflint: roofline verdicts for annotated CUDA kernels\n", &ErrorStream)) {
    errs() << Errors;
    return Usage;
  }
  if (ListChecks) return listChecks(*Raw, Color);
  if (auto Bad = badOutputOption()) {
    error(Color) << *Bad << "\n";
    return Usage;
  }
  if (auto Bad = unwritableOutput()) {
    error(Color) << *Bad << "\n";
    return OutputFailed;
  }

  AnalyzerOptions Options;
  int GpuCode = Usage;
  auto Chosen = chooseGpu(GpuCode);
  if (!Chosen) {
    error(Color) << toString(Chosen.takeError()) << "\n";
    return GpuCode;
  }
  Options.Gpu = *Chosen;
  if (WorkerMode) {
    auto Settings = makeSettings(EffectiveConfig{}, *Raw);
    if (!Settings) {
      consumeError(Settings.takeError());
      return Usage;
    }
    Options.Diagnostics = std::move(*Settings);
    Options.EvaluationThreads = std::max(1u, unsigned(WorkerThreads));
    return workerMain(*Raw, Options);
  }
  if (auto Settings = makeSettings(EffectiveConfig{}, *Raw); !Settings) {  // the command line alone, early
    error(Color) << toString(Settings.takeError()) << "\n";
    return Usage;
  }
  return analyzeFiles(*Raw, Options.Gpu.peaks, Color, argv[0]);
}
