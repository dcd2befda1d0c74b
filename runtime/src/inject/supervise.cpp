// Running the program under rooflint-verify (supervise.h): its own process group, a time limit, the
// forwarded signals, and a wait that always ends.

#include "supervise.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

extern char** environ;

namespace rooflint::runtime::inject {

namespace {

using steady = std::chrono::steady_clock;

sigset_t saved_mask;  ///< the mask before block_forwarded_signals(): the program's
bool mask_saved = false;

sigset_t forwarded_set() {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : forwarded_signals) sigaddset(&set, s);
  return set;
}

/// The environment of the program: this process's, with @p set added or replaced. Built before fork,
/// so that the child only calls async-signal-safe functions.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& set) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const bool replaced = std::any_of(set.begin(), set.end(), [&](const auto& kv) { return entry.rfind(kv.first + "=", 0) == 0; });
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [key, value] : set) env.push_back(key + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

/// Sends @p sig to the program's process group; to the program alone when it left the group (setsid).
/// A stopped program (one that read the terminal from a background group) is continued, so that the
/// signal takes effect.
void signal_group(pid_t pid, int sig) {
  if (::kill(-pid, sig) != 0) ::kill(pid, sig);
  if (sig != SIGKILL && (::kill(-pid, SIGCONT) != 0)) ::kill(pid, SIGCONT);
}

timespec until(steady::time_point when) {
  const auto left = std::max(steady::duration::zero(), when - steady::now());
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
  return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

/// The supervision of a started program: the limits, and what has been done to it.
struct watch {
  pid_t pid;
  steady::duration grace;
  steady::time_point deadline;                ///< the timeout
  std::optional<steady::time_point> kill_at;  ///< SIGKILL after a SIGTERM or a passed-on signal
  std::optional<steady::time_point> give_up;  ///< after SIGKILL: stop waiting (a process stuck in the kernel)
  program_end end;

  /// The next time something is due (the deadline, SIGKILL, giving up).
  steady::time_point next() const {
    if (give_up) return *give_up;
    if (kill_at) return *kill_at;
    return deadline;
  }

  /// Acts on the time limits. @return false when waiting is given up.
  bool on_time() {
    const auto now = steady::now();
    if (give_up && now >= *give_up) return false;
    if (kill_at && now >= *kill_at) {
      signal_group(pid, SIGKILL);
      end.killed = true;
      kill_at.reset();
      give_up = now + grace;
    } else if (!end.timed_out && !kill_at && now >= deadline) {
      end.timed_out = true;
      signal_group(pid, SIGTERM);
      kill_at = now + grace;
    }
    return true;
  }

  void on_signal(int sig) {
    if (end.interrupted_by == 0) end.interrupted_by = sig;
    signal_group(pid, sig);
    if (!kill_at && !give_up) kill_at = steady::now() + grace;
  }

  bool exited() const {
    siginfo_t info{};
    // WNOWAIT: the program stays a zombie, so its process group's id cannot be reused before we are done.
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
  }
};

/// Waits for the started program under @p w's limits, then reaps it.
program_end wait_for(watch& w) {
  sigset_t set = forwarded_set();
  sigaddset(&set, SIGCHLD);
  bool waiting = true;
  while (waiting && !w.exited()) {
    const timespec left = until(w.next());
    siginfo_t info{};
    const int sig = ::sigtimedwait(&set, &info, &left);
    if (sig > 0 && sig != SIGCHLD) w.on_signal(sig);
    else if (sig < 0 && errno == EAGAIN) waiting = w.on_time();
  }
  if (!waiting) {  // SIGKILL did not end it within the grace period (stuck in the kernel): not reaped
    w.end.status = SIGKILL;  // reported as killed by SIGKILL, which is what ends it
    return w.end;
  }
  if (w.end.timed_out || w.end.interrupted_by) ::kill(-w.pid, SIGKILL);  // what is left of its group
  while (::waitpid(w.pid, &w.end.status, 0) < 0 && errno == EINTR) {
  }
  return w.end;
}

/// In the child: its own process group, the signal mask and SIGCHLD action it had, then exec. exec's
/// errno goes to @p report_fd (close-on-exec: closed unwritten when exec succeeds).
[[noreturn]] void exec_child(const std::string& path, char* const* argv, char* const* envp, int report_fd,
                             const struct sigaction& child_action, bool discard_output) {
  ::setpgid(0, 0);
  if (discard_output) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, STDOUT_FILENO);
      ::dup2(null, STDERR_FILENO);
      if (null > STDERR_FILENO) ::close(null);
    }
  }
  ::sigaction(SIGCHLD, &child_action, nullptr);
  ::sigprocmask(SIG_SETMASK, &saved_mask, nullptr);
  ::execve(path.c_str(), argv, envp);
  const int error = errno;
  [[maybe_unused]] const ssize_t n = ::write(report_fd, &error, sizeof error);
  ::_exit(127);
}

/// @return exec's errno as the child reported it, or 0 when exec succeeded (the pipe closed unwritten).
int exec_errno(int report_fd) {
  int error = 0;
  ssize_t n;
  while ((n = ::read(report_fd, &error, sizeof error)) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(sizeof error) ? error : 0;
}

/// @return The interpreter a script names on its '#!' line, or "".
std::string interpreter_of(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  char head[256] = {};
  const ssize_t n = ::read(fd, head, sizeof head - 1);
  ::close(fd);
  if (n < 2 || head[0] != '#' || head[1] != '!') return "";
  std::string line(head + 2, static_cast<std::size_t>(n - 2));
  line = line.substr(0, line.find('\n'));
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_first_of(" \t", first) - first);
}

}  // namespace

void block_forwarded_signals() {
  const sigset_t set = forwarded_set();
  sigset_t old;
  ::sigprocmask(SIG_BLOCK, &set, &old);
  if (!mask_saved) saved_mask = old;
  mask_saved = true;
}

int take_pending_signal() {
  const sigset_t set = forwarded_set();
  const timespec now{0, 0};
  siginfo_t info{};
  const int sig = ::sigtimedwait(&set, &info, &now);
  return sig > 0 ? sig : 0;
}

std::string describe_status(int status, int& code) {
  if (WIFSIGNALED(status)) {
    code = 128 + WTERMSIG(status);
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  }
  code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  return "exited with code " + std::to_string(code);
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
  }
  return "signal " + std::to_string(sig);
}

temporary_file::temporary_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir && *dir ? dir : "/tmp") + "/rooflint-verify-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    why_ = "cannot create a temporary file '" + name + "': " + std::strerror(errno);
    return;
  }
  ::close(fd);
  path_ = name;
}

temporary_file::~temporary_file() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

std::string exec_failure(const std::string& path, int error) {
  std::string text = "cannot run '" + path + "': " + std::strerror(error);
  if (error == ENOENT) {
    const std::string interpreter = interpreter_of(path);
    text += interpreter.empty() ? "; the loader or a library it names does not exist"
                                : "; its interpreter '" + interpreter + "' does not exist";
  } else if (error == ENOEXEC) {
    text += "; it is no executable for this machine (a damaged file, another architecture, or a script without '#!')";
  }
  return text;
}

result<program_end> run_supervised(const program_launch& launch) {
  if (!mask_saved) block_forwarded_signals();
  std::vector<std::string> args = launch.argv, env = environment_with(launch.environment);
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  // SIGCHLD must stay pending for the wait below: its default action (not SIG_IGN, which a parent may
  // have left), and blocked, or one that came before sigtimedwait would be discarded.
  struct sigaction dfl {}, old {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &dfl, &old);
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_signal, nullptr);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return error{error_code::internal, std::string("pipe2 failed: ") + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(report[0]);
    ::close(report[1]);
    return error{error_code::internal, std::string("fork failed: ") + std::strerror(errno)};
  }
  if (pid == 0) exec_child(launch.path, argv.data(), envp.data(), report[1], old, launch.discard_output);
  ::setpgid(pid, pid);  // also here: a signal passed on before the child's own call still finds its group
  ::close(report[1]);
  const int failed = exec_errno(report[0]);
  ::close(report[0]);
  if (failed != 0) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return error{error_code::invalid_argument, exec_failure(launch.path, failed)};
  }
  watch w{pid, std::chrono::seconds(launch.grace_s), steady::now() + std::chrono::seconds(launch.timeout_s), {}, {}, {}};
  return wait_for(w);
}

}  // namespace rooflint::runtime::inject
