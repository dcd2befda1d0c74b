#include "support/counter_turn.h"

#include "support/process.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace rooflint::runtime {

namespace {

/// Opens (creating) @p path for locking, readable and writable by every user of the machine.
int open_lock_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd >= 0) (void)::fchmod(fd, 0666);  // whatever the umask: another user's process takes turns too
  return fd;
}

/// flock(2), retried when a signal interrupts it.
int lock(int fd, int operation) {
  int r;
  do r = ::flock(fd, operation);
  while (r != 0 && errno == EINTR);
  return r;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// "1234 (python3 train.py)": a process and its command line, as /proc shows it.
std::string process_text(long pid) {
  std::string cmd = command_line_of(pid);
  if (cmd.size() > 120) cmd = cmd.substr(0, 117) + "...";
  return std::to_string(pid) + (cmd.empty() ? std::string() : " (" + cmd + ")");
}

}  // namespace

counter_turn::counter_turn(std::string gpu_uuid) : path_(lock_path(gpu_uuid)) {}

counter_turn::~counter_turn() {
  give_back();
  close_fd(lock_fd_);
  close_fd(waiting_fd_);
  close_fd(probe_fd_);
}

std::string counter_turn::lock_path(const std::string& gpu_uuid) {
  const char* dir = std::getenv("ROOFLINT_LOCK_DIR");
  std::string name = gpu_uuid.empty() ? std::string("unknown-gpu") : gpu_uuid;
  for (char& c : name)
    if (c == '/') c = '_';
  return std::string(dir && *dir ? dir : "/tmp") + "/rooflint-counters-" + name + ".lock";
}

std::chrono::milliseconds counter_turn::default_limit() {
  if (const char* s = std::getenv("ROOFLINT_COUNTER_WAIT_S"); s && *s) {
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end && *end == '\0' && v >= 0 && v < 1e6) return std::chrono::milliseconds(static_cast<long>(v * 1000));
  }
  return std::chrono::seconds(60);
}

result<void> counter_turn::take(std::chrono::milliseconds limit) {
  if (held_) return success();
  if (lock_fd_ < 0) lock_fd_ = open_lock_file(path_);
  if (waiting_fd_ < 0) waiting_fd_ = open_lock_file(path_ + ".waiting");
  if (lock_fd_ < 0 || waiting_fd_ < 0) {
    // Counting goes on without turns (a read-only /tmp in a container must not stop the measurement).
    if (unlocked_.empty())
      unlocked_ = "the GPU's counter lock '" + path_ + "' cannot be opened (" + std::strerror(errno) +
                  "): processes on this GPU do not take turns at its counters (set ROOFLINT_LOCK_DIR to a directory every "
                  "process of the run can write: a file another user made in a sticky /tmp may be refused)";
    return success();
  }
  if (lock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return error{error_code::internal, "flock('" + path_ + "') failed: " + std::strerror(errno)};
    // Said while waiting, so that the holder gives the turn back at its next quiet moment.
    (void)lock(waiting_fd_, LOCK_SH);
    const auto until = std::chrono::steady_clock::now() + limit;
    bool got = false;
    for (auto pause = std::chrono::milliseconds(1);; pause = std::min(pause * 2, std::chrono::milliseconds(20))) {
      if (lock(lock_fd_, LOCK_EX | LOCK_NB) == 0) {
        got = true;
        break;
      }
      if (std::chrono::steady_clock::now() >= until) break;
      std::this_thread::sleep_for(pause);
    }
    (void)lock(waiting_fd_, LOCK_UN);
    if (!got)
      return error{error_code::unavailable, "the GPU's performance counters were held by process " + holder_text() +
                                                " for the " + std::to_string(limit.count() / 1000.0).substr(0, 4) +
                                                " s rooflint waits (ROOFLINT_COUNTER_WAIT_S)"};
  }
  held_ = true;
  // Who holds it, for a process that waits in vain.
  const std::string me = std::to_string(::getpid());
  if (::ftruncate(lock_fd_, 0) == 0) (void)!::pwrite(lock_fd_, me.data(), me.size(), 0);
  return success();
}

bool counter_turn::others_waiting() const {
  if (!held_) return false;
  // A separate open file description: our own waiting lock (none while we hold the turn) is not in the way.
  if (probe_fd_ < 0) probe_fd_ = open_lock_file(path_ + ".waiting");
  if (probe_fd_ < 0) return false;
  if (lock(probe_fd_, LOCK_EX | LOCK_NB) == 0) {
    (void)lock(probe_fd_, LOCK_UN);
    return false;
  }
  return errno == EWOULDBLOCK;
}

void counter_turn::give_back() {
  if (!held_) return;
  (void)lock(lock_fd_, LOCK_UN);
  held_ = false;
}

void counter_turn::hand_over(std::chrono::milliseconds limit) {
  if (!held_) return;
  give_back();
  // The waiter lets go of its shared lock on the waiting file as soon as it holds the turn.
  const auto until = std::chrono::steady_clock::now() + limit;
  while (probe_fd_ >= 0 && std::chrono::steady_clock::now() < until) {
    if (lock(probe_fd_, LOCK_EX | LOCK_NB) == 0) {
      (void)lock(probe_fd_, LOCK_UN);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void counter_turn::forget_after_fork() {
  held_ = false;  // never unlocked here: the lock belongs to the parent's open file
  close_fd(lock_fd_);
  close_fd(waiting_fd_);
  close_fd(probe_fd_);
}

std::string counter_turn::holder_text() const {
  char buf[32] = {};
  const ssize_t n = ::pread(lock_fd_, buf, sizeof buf - 1, 0);
  const long pid = n > 0 ? std::atol(buf) : 0;
  return pid > 0 ? process_text(pid) : std::string("(unknown)");
}

}  // namespace rooflint::runtime
