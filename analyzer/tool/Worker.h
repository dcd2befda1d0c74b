#pragma once
/// @file Worker.h
/// rooflint analyses each source file in a child process of its own (a worker: rooflint itself, run
/// with --rooflint-worker and one file), so a crash inside clang (a stack overflow on a deep
/// expression) costs that file only, and -j N runs N of them at once. The worker prints nothing for
/// the user: it writes one JSON object to its stdout, which its parent reads through a pipe:
///   {"status": 0|1, "segments": [{"group", "text"}], "kernels": [{"group", "kernel": its manifest entry as text}],
///    "diagnostics": [...], "dependencies": [...], "notes": [...]}
/// `segments` is the diagnostic text clang printed, cut where a group (a spec, a kernel body) starts,
/// so the parent prints what a header reports once per run, as one process would.

#include <string>
#include <vector>

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/JSON.h"
#include "rooflint/analyzer/Analyzer.h"

namespace rooflint::analyzer {

/// Analyses @p File in this process and writes the worker's JSON to stdout. @return 0 once written.
int runWorker(const clang::tooling::CompilationDatabase &Database, const std::string &File,
              const AnalyzerOptions &Options, bool Color);

/// How a worker ended.
struct WorkerOutcome {
  bool Started = false;     ///< the process could be started
  bool Signalled = false;   ///< killed by a signal (a crash)
  int ExitCode = 0;         ///< when it exited
  std::string Reason;       ///< why it did not start, or the signal's name
  std::string Output;       ///< what it wrote to stdout
};

/// Runs @p Program with @p Args (Args[0] is the program's name), stdout into a pipe, stderr to
/// /dev/null (rooflint::process); waits for it. Safe to call from several threads at once.
WorkerOutcome runProcess(const std::string &Program, const std::vector<std::string> &Args);

}  // namespace rooflint::analyzer
