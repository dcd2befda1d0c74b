// Running the program under rooflint-verify (supervise.h): its own process group, a time limit, the
// forwarded signals, and a wait that always ends. Starting, signalling and reaping it, and the time
// limits, are rooflint::process's; the signals passed on are this file's.

#include "supervise.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rooflint/process/child.h"

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

timespec until(steady::time_point when) {
  const auto left = std::max(steady::duration::zero(), when - steady::now());
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
  return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
}

/// Waits for the started program under @p launch's limits, taking the forwarded signals meanwhile and
/// passing each on to its group, then reaps it.
program_end wait_for(process::child& program, const program_launch& launch) {
  process::limits limits(program, steady::now() + std::chrono::seconds(launch.timeout_s), std::chrono::seconds(launch.grace_s));
  program_end end;
  sigset_t set = forwarded_set();
  sigaddset(&set, SIGCHLD);
  bool waiting = true;
  while (waiting && !program.exited()) {
    const timespec left = until(limits.next());
    siginfo_t info{};
    const int sig = ::sigtimedwait(&set, &info, &left);
    if (sig > 0 && sig != SIGCHLD) {
      if (end.interrupted_by == 0) end.interrupted_by = sig;
      program.signal(sig);
      limits.start_grace();
    } else if (sig < 0 && errno == EAGAIN) {
      waiting = limits.on_time();
    }
  }
  end.timed_out = limits.timed_out();
  end.killed = limits.killed();
  if (!waiting) {  // SIGKILL did not end it within the grace period (stuck in the kernel): not reaped
    end.status = SIGKILL;  // reported as killed by SIGKILL, which is what ends it
    return end;
  }
  if (end.timed_out || end.interrupted_by) program.kill_group();  // what is left of its group
  end.status = program.wait();
  return end;
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
  // SIGCHLD must stay pending for the wait below: its default action (not SIG_IGN, which a parent may
  // have left), and blocked, or one that came before sigtimedwait would be discarded.
  struct sigaction dfl {}, old {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &dfl, &old);
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_signal, nullptr);
  process::launch l;
  l.path = launch.path;
  l.argv = launch.argv;
  l.environment = launch.environment;
  l.own_group = true;
  if (launch.discard_output) l.output = l.errors = process::stream::discard;
  l.signal_mask = saved_mask;          // the program gets the mask and the SIGCHLD action it had
  l.signal_actions = {{SIGCHLD, old}};
  auto program = process::child::start(l);
  if (!program) {  // it never ran
    const process::start_failure& f = program.failure();
    if (f.at == process::start_failure::step::exec) return error{error_code::invalid_argument, exec_failure(launch.path, f.error)};
    return error{error_code::internal, std::string(f.at == process::start_failure::step::pipe ? "pipe2 failed: " : "fork failed: ") +
                                           std::strerror(f.error)};
  }
  return wait_for(*program, launch);
}

}  // namespace rooflint::runtime::inject
