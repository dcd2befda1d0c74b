#include "rooflint/files/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rooflint::files {

namespace {

/// @return "a directory", "a character device", ... for the file type in @p mode.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

}  // namespace

std::optional<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, const std::string& what,
                                             std::string& error) {
  const std::string named = what + " '" + path + "'";
  // Opened without blocking (a FIFO with no writer would wait forever), then checked on the descriptor
  // itself, so that the file checked is the file read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot read " + named + ": " + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) != 0) {
    error = "cannot read " + named + ": " + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    error = named + " is not a regular file (" + kind_of(st.st_mode) + ")";
  } else if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    error = named + " is " + std::to_string(st.st_size) + " bytes, more than a " + what + " can be (" +
            std::to_string(max_bytes) + ")";
  } else {
    std::string data(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    bool failed = false;
    while (done < data.size() && !failed) {
      const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = "cannot read " + named + ": " + std::strerror(errno);
        failed = true;
      } else if (n == 0) {
        break;  // the file shrank while it was read: what was read is what there is
      } else {
        done += static_cast<std::size_t>(n);
      }
    }
    if (!failed) {
      data.resize(done);
      text = std::move(data);
    }
  }
  ::close(fd);
  return text;
}

}  // namespace rooflint::files
