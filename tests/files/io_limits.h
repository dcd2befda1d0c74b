#pragma once
// Test helpers for output-file failures: a scratch directory, and running a write in a child process
// under a file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored so that the write fails with EFBIG
// instead of killing the process), its message sent back through a pipe.

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace rooflint::test {

/// @return A fresh, empty directory for the running test (under the system's temporary directory).
inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rooflint-" + std::string(info->test_suite_name()) + "-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(dir, std::filesystem::perms::all);  // readable by the 'nobody' of a child
  return dir;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs @p body in a forked child, with files limited to @p max_file_bytes when > 0.
/// @return The child's wait status and the string @p body returned.
inline std::pair<int, std::string> in_child(const std::function<std::string()>& body, rlim_t max_file_bytes = 0) {
  int fds[2];
  if (::pipe(fds) != 0) return {-1, "pipe failed"};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (max_file_bytes > 0) {
      ::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{max_file_bytes, max_file_bytes};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    const std::string message = body();
    [[maybe_unused]] const ssize_t n = ::write(fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string message;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {status, message};
}

}  // namespace rooflint::test
