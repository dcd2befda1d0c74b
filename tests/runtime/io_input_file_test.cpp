// rooflint::io::read_regular_file: inputs read whole, and refused before any read when they are not
// regular files (a directory, a FIFO, a character device). Host only (no CUDA).

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "rooflint/io/input_file.h"
#include "io_limits.h"

namespace fs = std::filesystem;
using rooflint::io::read_regular_file;
using rooflint::test::scratch_dir;

TEST(InputFile, ReadsARegularFileWhole) {
  const std::string path = (scratch_dir("regular") / "m.json").string();
  const std::string text(200000, 'x');  // more than one read(2) chunk of 64 KiB
  std::ofstream(path, std::ios::binary) << text;
  std::string got = "stale";
  EXPECT_EQ(read_regular_file(path, got), std::nullopt);
  EXPECT_EQ(got, text);
}

TEST(InputFile, AMissingFileGivesTheSystemsReason) {
  std::string got;
  EXPECT_EQ(read_regular_file("/nonexistent/m.json", got),
            "cannot read '/nonexistent/m.json': " + std::string(std::strerror(ENOENT)));
}

TEST(InputFile, ADirectoryIsRefused) {
  const std::string dir = scratch_dir("dir").string();
  std::string got;
  EXPECT_EQ(read_regular_file(dir, got), "cannot read '" + dir + "': " + std::string(std::strerror(EISDIR)));
}

// Opened without O_NONBLOCK, a FIFO without a writer would block this test for ever (CTest's timeout).
TEST(InputFile, AFifoIsRefusedWithoutBlocking) {
  const std::string fifo = (scratch_dir("fifo") / "m.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::string got;
  EXPECT_EQ(read_regular_file(fifo, got), "cannot read '" + fifo + "': not a regular file (a FIFO, socket or device)");
}

// /dev/zero never ends: read, it would fill memory.
TEST(InputFile, ACharacterDeviceIsRefused) {
  std::string got;
  EXPECT_EQ(read_regular_file("/dev/zero", got), "cannot read '/dev/zero': not a regular file (a FIFO, socket or device)");
  EXPECT_EQ(got, "");
}

TEST(InputFile, AFileAboveTheLimitIsRefusedUnread) {
  const std::string path = (scratch_dir("large") / "m.json").string();
  std::ofstream(path, std::ios::binary) << std::string(11, 'x');
  std::string got;
  EXPECT_EQ(read_regular_file(path, got, 10), "cannot read '" + path + "': larger than 10 bytes");
  EXPECT_EQ(got, "");
  EXPECT_EQ(read_regular_file(path, got, 11), std::nullopt);  // the limit itself is allowed
}
