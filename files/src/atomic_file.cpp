// Output files written whole or not at all (atomic_file.h): a temporary file beside the target,
// written, fsync'ed, closed and renamed over it; every step's failure names the file and errno's text.

#include "rooflint/files/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace rooflint::io {

namespace {

std::string failure(const std::string& path, const std::string& reason) { return "cannot write '" + path + "': " + reason; }

std::string errno_text(int error) { return std::strerror(error); }

/// The path to write: a symbolic link's target (so that rename replaces the file, not the link).
std::string resolved(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
    const auto target = std::filesystem::weakly_canonical(path, ec);
    if (!ec) return target.string();
  }
  return path;
}

std::string directory_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// Writes all of @p contents to @p fd, retrying short writes (a write past RLIMIT_FSIZE with SIGXFSZ
/// ignored is short, then fails with EFBIG). @return 0, or the errno of the failing write.
int write_all(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    contents.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

/// A new file beside @p target: ".NAME.tmp.PID.N", created exclusively with mode 0666 less the umask.
/// @return Its descriptor (or -1 with errno set) and its name.
std::pair<int, std::string> create_temporary(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path p(target);
  const std::string base = (p.parent_path().empty() ? std::filesystem::path() : p.parent_path()).string();
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = "." + p.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const std::string temp = base.empty() ? name : base + "/" + name;
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return {fd, temp};
  }
  errno = EEXIST;
  return {-1, ""};
}

/// An existing target that is not a regular file, or a directory: written in place, or refused.
std::optional<std::string> write_special(const std::string& path, std::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return failure(path, errno_text(errno));
  const int error = write_all(fd, contents);
  const int closed = ::close(fd) == 0 ? 0 : errno;
  if (error != 0) return failure(path, errno_text(error));
  if (closed != 0) return failure(path, errno_text(closed));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view contents) {
  if (path.empty()) return failure(path, "no file name");
  const std::string target = resolved(path);
  struct stat existing {};
  const bool exists = ::stat(target.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) return failure(path, errno_text(EISDIR));
  if (exists && !S_ISREG(existing.st_mode)) return write_special(target, contents);

  auto [fd, temp] = create_temporary(target);
  if (fd < 0) return failure(path, "cannot create a file in '" + directory_of(target) + "': " + errno_text(errno));
  int error = write_all(fd, contents);
  if (error == 0 && exists && ::fchmod(fd, existing.st_mode & 07777) != 0) error = errno;
  if (error == 0 && ::fsync(fd) != 0) error = errno;  // a full disk can show here first (delayed allocation)
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temp.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temp.c_str());
    return failure(path, errno_text(error));
  }
  return std::nullopt;
}

std::optional<std::string> check_writable(const std::string& path) {
  if (path.empty()) return failure(path, "no file name");
  const std::string target = resolved(path);
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0) {
    if (S_ISDIR(existing.st_mode)) return failure(path, errno_text(EISDIR));
    if (!S_ISREG(existing.st_mode)) return ::access(target.c_str(), W_OK) == 0 ? std::nullopt : std::optional(failure(path, errno_text(errno)));
  }
  auto [fd, temp] = create_temporary(target);
  if (fd < 0) return failure(path, "cannot create a file in '" + directory_of(target) + "': " + errno_text(errno));
  ::close(fd);
  ::unlink(temp.c_str());
  return std::nullopt;
}

}  // namespace rooflint::io
