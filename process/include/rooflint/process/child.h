#pragma once
/// @file child.h
/// rooflint::process: the child processes of rooflint's tools, started (or forked), their output read,
/// ended and reaped in one place: the analyzer's workers, the verifier binaries' case processes and the
/// program rooflint-verify runs. C++20 and POSIX only, so the analyzer (LLVM) and the runtime (CUDA)
/// both link it.
///
/// Words used below:
///   group   the child's own process group (launch::own_group), whose id is its pid: a signal to the
///           group also reaches what the child started (a shell script's `sleep`)
///   grace   how long a child has to exit after SIGTERM (or after a signal its caller passed on) before
///           SIGKILL
///   reaped  waited for; until then an ended child is a zombie, and its pid and group id are not reused,
///           so signalling its group stays safe after it exited

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rooflint::process {

using clock = std::chrono::steady_clock;

/// Where a child's stdout or stderr goes.
enum class stream {
  inherit,  ///< this process's
  pipe,     ///< a pipe this process reads (child::read_some); for stderr, the same pipe as stdout
  discard,  ///< /dev/null
};

/// What to start.
struct launch {
  std::string path;               ///< the file executed, as given (no PATH search)
  std::vector<std::string> argv;  ///< argv[0] first
  std::vector<std::pair<std::string, std::string>> environment;  ///< added to this process's (replacing a same name)
  stream output = stream::inherit;  ///< its stdout
  stream errors = stream::inherit;  ///< its stderr
  bool own_group = false;           ///< a process group of its own, which signal() and kill() then reach
  std::optional<sigset_t> signal_mask;  ///< the signal mask it starts with; the calling thread's when unset
  /// Signal actions set in it before exec: one its parent changed for its own waiting, given back.
  std::vector<std::pair<int, struct sigaction>> signal_actions;
};

/// Why a child was not started: the step that failed, and its errno.
struct start_failure {
  enum class step {
    pipe,  ///< a pipe could not be created
    fork,  ///< no process could be created
    exec,  ///< the process could not execute launch::path (it never ran; it has been reaped)
  };
  step at = step::fork;
  int error = 0;
};

/// How a read of a child's output ended.
enum class read_status {
  data,       ///< bytes were appended
  closed,     ///< end of file: every writer closed the pipe (or the read failed); the child may still run
  timed_out,  ///< the deadline passed first
};

/// How a wait under time limits ended (child::wait with a deadline, limits).
struct ending {
  int status = 0;          ///< the wait status; a "killed by SIGKILL" one when not reaped
  bool timed_out = false;  ///< it ran past its deadline and was sent SIGTERM
  bool killed = false;     ///< it was sent SIGKILL after the grace period
  bool reaped = true;      ///< false: SIGKILL did not end it within a grace period (stuck in the kernel)
};

class started;

/// A child process of this one. Move-only; its destructor closes the output pipe and, when the child
/// was not reaped, sends it SIGKILL and reaps it if that ended it already, never blocking (a child stuck
/// in the kernel stays a zombie until this process ends).
class child {
 public:
  /// Starts @p l by fork and exec. Between the two the child makes async-signal-safe calls only, and
  /// every descriptor this creates is close-on-exec, so several threads may start children at once
  /// without one holding another's pipe open. exec's failure is reported by the child through a pipe.
  static started start(const launch& l);

  /// Forks this process: the child runs @p body with the write end of a pipe this process reads, then
  /// closes it, flushes stderr and _exits with what @p body returned (no atexit handler, no destructor
  /// of this process runs there); an exception out of @p body ends the child through std::terminate.
  /// stdout and stderr are flushed before the fork, so nothing buffered is written twice; stdout is not
  /// flushed in the child: it stays the parent's.
  static started fork(const std::function<int(int out_fd)>& body);

  child(child&& other) noexcept;
  child& operator=(child&& other) noexcept;
  child(const child&) = delete;
  child& operator=(const child&) = delete;
  ~child();

  pid_t pid() const { return pid_; }  ///< -1 once reaped

  /// Waits until output arrives, the pipe closes or @p deadline passes, and appends what came to
  /// @p into (one read: at most 64 KiB). Without a pipe (none asked for, or closed): closed at once.
  read_status read_some(std::string& into, clock::time_point deadline = clock::time_point::max());

  /// read_some until the pipe closes or @p deadline passes. @return closed or timed_out.
  read_status read_to_end(std::string& into, clock::time_point deadline = clock::time_point::max());

  /// Closes this process's end of the output pipe (a child writing more then gets SIGPIPE).
  void close_output();

  /// Sends @p sig to its group (to it alone when it has none, or left it: setsid) and, unless @p sig is
  /// SIGKILL, SIGCONT after it: a stopped child (one that read the terminal from a background group)
  /// would not act on the signal.
  void signal(int sig) const;

  /// signal(SIGKILL).
  void kill() const { signal(SIGKILL); }

  /// SIGKILL to what is left of its group once it has exited (not reaped yet, so the group's id is still
  /// its pid); nothing without a group of its own.
  void kill_group() const;

  /// @return Whether it has ended; it is not reaped (see kill_group).
  bool exited() const;

  /// Waits for it to end and reaps it. @return Its wait status (0 when it was reaped already).
  int wait();

  /// Waits for it within time limits (limits): past @p deadline its group gets SIGTERM, @p grace later
  /// SIGKILL, and @p grace after that the wait is given up. After a timeout, what is left of its group
  /// gets SIGKILL once it ended; then it is reaped. Polls (no signal handler, no SIGCHLD), so any thread
  /// may call this.
  ending wait(clock::time_point deadline, clock::duration grace);

  /// Ends it now: wait(now, grace) (SIGTERM to its group; SIGKILL after @p grace).
  ending stop(clock::duration grace) { return wait(clock::now(), grace); }

 private:
  child(pid_t pid, int output_fd, bool own_group) : pid_(pid), output_(output_fd), own_group_(own_group) {}
  void release();  ///< the destructor's work

  pid_t pid_ = -1;    ///< -1 once reaped or moved from
  int output_ = -1;   ///< the read end of its output pipe, or -1
  bool own_group_ = false;
};

/// A started child, or why none was.
class started {
 public:
  started(child c) : child_(std::move(c)) {}
  started(start_failure f) : failure_(f) {}
  explicit operator bool() const { return child_.has_value(); }
  child& operator*() { return *child_; }
  child* operator->() { return &*child_; }
  const start_failure& failure() const { return failure_; }

 private:
  std::optional<child> child_;
  start_failure failure_;
};

/// The time limits of a child under a caller's own wait (rooflint-verify waits in sigtimedwait, so that
/// it also takes the signals it passes on): past the deadline the child's group gets SIGTERM; a grace
/// period after that, or after a signal the caller passed on (start_grace), SIGKILL; a grace period
/// after SIGKILL the wait is to be given up. The caller waits until next() and calls on_time().
class limits {
 public:
  limits(const child& c, clock::time_point deadline, clock::duration grace)
      : child_(c), grace_(grace), deadline_(deadline) {}

  /// @return When on_time has something to do: the deadline, SIGKILL, or giving up.
  clock::time_point next() const;

  /// Does what is due now (nothing when nothing is). @return false when the wait is to be given up.
  bool on_time();

  /// SIGKILL a grace period from now (the caller just passed a signal on), unless one is due or sent.
  void start_grace();

  bool timed_out() const { return timed_out_; }
  bool killed() const { return killed_; }

 private:
  const child& child_;
  clock::duration grace_;
  clock::time_point deadline_;
  std::optional<clock::time_point> kill_at_;  ///< SIGKILL after a SIGTERM or a passed-on signal
  std::optional<clock::time_point> give_up_;  ///< after SIGKILL: stop waiting
  bool timed_out_ = false;
  bool killed_ = false;
};

/// @return "exited with code 3", "killed by signal 11 (Segmentation fault)" for the wait status
/// @p status, or "ended abnormally" for one of a process that has not ended (stopped, continued).
std::string describe_status(int status);

/// @return The exit code of @p status, 128 + the signal that killed it (a shell's $?), 1 otherwise.
int exit_code(int status);

/// @return The signal that killed the process of @p status, or 0.
int killed_by(int status);

}  // namespace rooflint::process
