#pragma once
// Running the program under rooflint-verify (runtime/tools/rooflint-verify.cpp): in a process group of
// its own, within a time limit, with SIGINT, SIGTERM and SIGHUP passed on to that group, and always
// waited for, so that rooflint-verify still writes its report and removes its files whatever happens.

#include <sys/types.h>

#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime::inject {

/// The signals rooflint-verify passes on to the program's process group (blocked in rooflint-verify
/// from block_forwarded_signals() on, so that none ends it before its report is written).
inline constexpr int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP};

/// How long a program has to exit after SIGTERM (the timeout) or after a passed-on signal, before
/// its process group gets SIGKILL: a program that catches the signal can flush its own output.
inline constexpr int grace_seconds = 10;

/// What to run.
struct program_launch {
  std::string path;                                        ///< resolved: as given with a '/', else found on PATH
  std::vector<std::string> argv;                           ///< argv[0] first
  std::vector<std::pair<std::string, std::string>> environment;  ///< set in the program's environment
  int timeout_s = 3600;                                    ///< then SIGTERM, and SIGKILL after grace_s
  int grace_s = grace_seconds;
  bool discard_output = false;                             ///< its stdout and stderr go to /dev/null
};

/// How the program ended.
struct program_end {
  int status = 0;           ///< its wait status (rooflint::process::describe_status)
  bool timed_out = false;   ///< it ran past timeout_s (and was sent SIGTERM)
  int interrupted_by = 0;   ///< the first forwarded signal rooflint-verify received while it ran, or 0
  bool killed = false;      ///< its process group was sent SIGKILL after the grace period
};

/// Blocks the forwarded signals in this process, so that they are taken by run_supervised (or by
/// take_pending_signal afterwards) instead of ending it. The program gets the mask it had before.
void block_forwarded_signals();

/// @return The first forwarded signal pending now (received after the program ended), or 0.
int take_pending_signal();

/// Starts the program (a process group of its own) and waits for it: a forwarded signal received
/// meanwhile is sent to its group; past the timeout its group gets SIGTERM; after either, SIGKILL
/// once the grace period is over. When the program ends after a signal or the timeout, what is left
/// of its group gets SIGKILL. Errors, when it never ran: internal, it could not be started (no pipe,
/// fork failed); invalid_argument, its exec failed ("cannot run 'x': Exec format error ...").
result<program_end> run_supervised(const program_launch& launch);

/// A file created empty for the injection library to write to (in $TMPDIR, else /tmp), removed when
/// this goes, however the run ends (an error, an exception, an interrupted program).
class temporary_file {
 public:
  temporary_file();
  ~temporary_file();
  temporary_file(const temporary_file&) = delete;
  temporary_file& operator=(const temporary_file&) = delete;
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }  ///< why it could not be created, or empty

 private:
  std::string path_, why_;
};

/// @return "SIGINT", "SIGTERM", "SIGHUP": a forwarded signal by name ("signal N" for another).
std::string signal_name(int sig);

/// @return "cannot run 'PATH': REASON", REASON errno's text and, where it helps, what to check: a
/// script whose interpreter is missing (ENOENT for a file that exists), a file that is no executable
/// for this machine (ENOEXEC).
std::string exec_failure(const std::string& path, int error);

}  // namespace rooflint::runtime::inject
