// Input files read whole, regular files only (input_file.h).

#include "rooflint/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rooflint::io {

namespace {

std::string failure(const std::string& path, const std::string& reason) { return "cannot read '" + path + "': " + reason; }

/// Why @p st is no input: a directory or another file type that is not a regular file; empty if it is one.
std::string not_regular(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
  if (!S_ISREG(st.st_mode)) return "not a regular file (a FIFO, socket or device)";
  return {};
}

/// Reads @p fd to its end into @p contents. @return 0, or the errno of the failing read.
int read_all(int fd, std::string& contents, std::size_t limit_bytes, bool& too_large) {
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return 0;
    if (contents.size() + static_cast<std::size_t>(n) > limit_bytes) {
      too_large = true;  // the file grew since fstat
      return 0;
    }
    contents.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::optional<std::string> read_regular_file(const std::string& path, std::string& contents, std::size_t limit_bytes) {
  contents.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return failure(path, std::strerror(errno));
  struct stat st {};
  std::string why = ::fstat(fd, &st) != 0 ? std::string(std::strerror(errno)) : not_regular(st);
  bool too_large = why.empty() && static_cast<std::size_t>(st.st_size) > limit_bytes;
  if (why.empty() && !too_large) {
    // A regular file never blocks; clearing O_NONBLOCK keeps read(2) from ever returning EAGAIN.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    contents.reserve(static_cast<std::size_t>(st.st_size));
    if (const int error = read_all(fd, contents, limit_bytes, too_large)) why = std::strerror(error);
  }
  ::close(fd);
  if (too_large) why = "larger than " + std::to_string(limit_bytes) + " bytes";
  if (why.empty()) return std::nullopt;
  contents.clear();
  return failure(path, why);
}

}  // namespace rooflint::io
