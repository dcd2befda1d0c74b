// rooflint::process (child.h): fork and exec, the output pipe, signals to a child's group, waits.

#include "rooflint/process/child.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <thread>

extern char** environ;

namespace rooflint::process {

namespace {

/// This process's environment with @p set added or replaced; built before fork, so that the child
/// makes no allocation.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& set) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry(*e);
    const bool replaced = std::any_of(set.begin(), set.end(), [&](const auto& kv) {
      return entry.size() > kv.first.size() && entry.compare(0, kv.first.size(), kv.first) == 0 && entry[kv.first.size()] == '=';
    });
    if (!replaced) env.emplace_back(entry);
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

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/// Makes @p fd the child's @p target (stdout, stderr): dup2, which leaves close-on-exec clear, or, where
/// the pipe already got that number (this process had it closed), close-on-exec cleared.
void move_to(int fd, int target) {
  if (fd == target) ::fcntl(target, F_SETFD, 0);
  else ::dup2(fd, target);
}

/// In the child, between fork and exec: async-signal-safe calls only (another thread of the parent may
/// have held a lock at the fork). exec's errno goes to @p report_fd, which exec closes when it succeeds.
[[noreturn]] void exec_child(const launch& l, char* const* argv, char* const* envp, int output_fd, int report_fd) {
  if (l.own_group) ::setpgid(0, 0);
  if (output_fd >= 0) {
    if (l.output == stream::pipe) move_to(output_fd, STDOUT_FILENO);
    if (l.errors == stream::pipe) move_to(output_fd, STDERR_FILENO);
  }
  if (l.output == stream::discard || l.errors == stream::discard) {
    // Where /dev/null cannot be opened, the child keeps this process's stream.
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      if (l.output == stream::discard) ::dup2(null, STDOUT_FILENO);
      if (l.errors == stream::discard) ::dup2(null, STDERR_FILENO);
      if (null > STDERR_FILENO) ::close(null);
    }
  }
  for (const auto& [sig, action] : l.signal_actions) ::sigaction(sig, &action, nullptr);
  if (l.signal_mask) ::sigprocmask(SIG_SETMASK, &*l.signal_mask, nullptr);
  ::execve(l.path.c_str(), argv, envp);
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

/// @return Milliseconds from now until @p deadline for poll(), rounded up; -1 (no limit) for max().
/// Runs a forked child's body; noexcept, so that an exception ends the child (std::terminate) instead of
/// unwinding into the code of the parent it was forked from.
int run_body(const std::function<int(int)>& body, int fd) noexcept { return body(fd); }

int poll_timeout_ms(clock::time_point deadline) {
  if (deadline == clock::time_point::max()) return -1;
  const auto left = deadline - clock::now();
  if (left <= clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, INT_MAX));
}

}  // namespace

started child::start(const launch& l) {
  std::vector<std::string> args = l.argv;
  std::vector<std::string> env;
  if (!l.environment.empty()) env = environment_with(l.environment);
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  char* const* environment = l.environment.empty() ? environ : envp.data();

  int output[2] = {-1, -1};
  if ((l.output == stream::pipe || l.errors == stream::pipe) && ::pipe2(output, O_CLOEXEC) != 0)
    return start_failure{start_failure::step::pipe, errno};
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    const int error = errno;
    close_fd(output[0]);
    close_fd(output[1]);
    return start_failure{start_failure::step::pipe, error};
  }
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(l, argv.data(), environment, output[1], report[1]);
  const int fork_error = errno;
  close_fd(output[1]);
  ::close(report[1]);
  if (pid < 0) {
    close_fd(output[0]);
    ::close(report[0]);
    return start_failure{start_failure::step::fork, fork_error};
  }
  // Also here: a signal sent to the group before the child's own setpgid still finds it.
  if (l.own_group) ::setpgid(pid, pid);
  const int failed = exec_errno(report[0]);
  ::close(report[0]);
  if (failed != 0) {
    close_fd(output[0]);
    reap(pid);
    return start_failure{start_failure::step::exec, failed};
  }
  return child(pid, output[0], l.own_group);
}

started child::fork(const std::function<int(int)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return start_failure{start_failure::step::pipe, errno};
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return start_failure{start_failure::step::fork, error};
  }
  if (pid == 0) {
    ::close(fds[0]);
    const int code = run_body(body, fds[1]);
    ::close(fds[1]);
    std::fflush(stderr);
    ::_exit(code);
  }
  ::close(fds[1]);
  return child(pid, fds[0], false);
}

child::child(child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), output_(std::exchange(other.output_, -1)), own_group_(other.own_group_) {}

child& child::operator=(child&& other) noexcept {
  if (this != &other) {
    release();
    pid_ = std::exchange(other.pid_, -1);
    output_ = std::exchange(other.output_, -1);
    own_group_ = other.own_group_;
  }
  return *this;
}

child::~child() { release(); }

void child::release() {
  close_output();
  if (pid_ > 0) {
    kill();
    int status = 0;
    ::waitpid(pid_, &status, WNOHANG);
    pid_ = -1;
  }
}

read_status child::read_some(std::string& into, clock::time_point deadline) {
  if (output_ < 0) return read_status::closed;
  for (;;) {
    pollfd p{output_, POLLIN, 0};
    const int ready = ::poll(&p, 1, poll_timeout_ms(deadline));
    if (ready == 0) return read_status::timed_out;
    if (ready < 0) {
      if (errno == EINTR) continue;
      return read_status::closed;
    }
    char chunk[65536];
    const ssize_t got = ::read(output_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return read_status::closed;
    into.append(chunk, static_cast<std::size_t>(got));
    return read_status::data;
  }
}

read_status child::read_to_end(std::string& into, clock::time_point deadline) {
  read_status status;
  while ((status = read_some(into, deadline)) == read_status::data) {
  }
  return status;
}

void child::close_output() { close_fd(output_); }

void child::signal(int sig) const {
  if (pid_ <= 0) return;
  if (!own_group_ || ::kill(-pid_, sig) != 0) ::kill(pid_, sig);
  if (sig != SIGKILL && (!own_group_ || ::kill(-pid_, SIGCONT) != 0)) ::kill(pid_, SIGCONT);
}

void child::kill_group() const {
  if (pid_ > 0 && own_group_) ::kill(-pid_, SIGKILL);
}

bool child::exited() const {
  if (pid_ <= 0) return true;
  siginfo_t info{};
  // WNOWAIT: it stays a zombie, so that its group's id is not reused before it is reaped.
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
}

int child::wait() {
  if (pid_ <= 0) return 0;
  const int status = reap(pid_);
  pid_ = -1;
  return status;
}

ending child::wait(clock::time_point deadline, clock::duration grace) {
  limits l(*this, deadline, grace);
  ending end;
  // Short pauses at first (most children end soon after a signal), longer ones later.
  auto pause = std::chrono::milliseconds(1);
  while (!exited()) {
    if (!l.on_time()) {
      end.timed_out = l.timed_out();
      end.killed = l.killed();
      end.status = SIGKILL;  // a wait status that reads "killed by signal 9": what ends it, once it can
      end.reaped = false;
      return end;
    }
    const auto now = clock::now();
    std::this_thread::sleep_for(std::min<clock::duration>(pause, std::max(clock::duration::zero(), l.next() - now)));
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  end.timed_out = l.timed_out();
  end.killed = l.killed();
  if (end.timed_out) kill_group();
  end.status = wait();
  return end;
}

clock::time_point limits::next() const {
  if (give_up_) return *give_up_;
  if (kill_at_) return *kill_at_;
  return deadline_;
}

bool limits::on_time() {
  const auto now = clock::now();
  if (give_up_ && now >= *give_up_) return false;
  if (kill_at_ && now >= *kill_at_) {
    child_.signal(SIGKILL);
    killed_ = true;
    kill_at_.reset();
    give_up_ = now + grace_;
  } else if (!timed_out_ && !kill_at_ && !give_up_ && now >= deadline_) {
    timed_out_ = true;
    child_.signal(SIGTERM);
    kill_at_ = now + grace_;
  }
  return true;
}

void limits::start_grace() {
  if (!kill_at_ && !give_up_) kill_at_ = clock::now() + grace_;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

int exit_code(int status) {
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int killed_by(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

}  // namespace rooflint::process
