// rooflint::io::write_file_atomically and check_writable: outputs written whole or not at all, and
// errors that name the file and the reason. Host only (no CUDA).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rooflint/files/atomic_file.h"
#include "io_limits.h"

namespace fs = std::filesystem;
using rooflint::io::check_writable;
using rooflint::io::write_file_atomically;
using rooflint::test::in_child;
using rooflint::test::read_text;
using rooflint::test::scratch_dir;

TEST(AtomicFile, WritesANewFileAndReplacesAnOldOne) {
  const fs::path dir = scratch_dir("new");
  const std::string path = (dir / "out.json").string();
  EXPECT_EQ(write_file_atomically(path, "first"), std::nullopt);
  EXPECT_EQ(read_text(path), "first");
  EXPECT_EQ(write_file_atomically(path, "second, longer"), std::nullopt);
  EXPECT_EQ(read_text(path), "second, longer");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "a temporary file was left";
}

TEST(AtomicFile, AReplacedFileKeepsItsMode) {
  const fs::path dir = scratch_dir("mode");
  const std::string path = (dir / "out.json").string();
  std::ofstream(path) << "old";
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  ASSERT_EQ(write_file_atomically(path, "new"), std::nullopt);
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(AtomicFile, PastAFileSizeLimitTheOldFileStays) {
  const fs::path dir = scratch_dir("fsize");
  const std::string path = (dir / "out.json").string();
  std::ofstream(path) << "old contents";
  // 100 kB under a 4 kB limit: the write is short, then fails with EFBIG (SIGXFSZ ignored).
  const auto [status, message] = in_child([&] {
    auto e = write_file_atomically(path, std::string(100000, 'x'));
    return e ? *e : std::string();
  }, 4096);
  EXPECT_EQ(message, "cannot write '" + path + "': " + std::strerror(EFBIG));
  EXPECT_EQ(read_text(path), "old contents");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "a temporary file was left";
}

TEST(AtomicFile, AFullDeviceGivesTheReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  EXPECT_EQ(write_file_atomically("/dev/full", "x"), "cannot write '/dev/full': " + std::string(std::strerror(ENOSPC)));
}

TEST(AtomicFile, ASpecialFileIsWrittenInPlace) {
  EXPECT_EQ(write_file_atomically("/dev/null", "x"), std::nullopt);
  EXPECT_TRUE(fs::is_character_file("/dev/null")) << "/dev/null was replaced";
}

TEST(AtomicFile, AMissingDirectoryIsNamed) {
  EXPECT_EQ(write_file_atomically("/nonexistent/dir/out.json", "x"),
            "cannot write '/nonexistent/dir/out.json': cannot create a file in '/nonexistent/dir': " +
                std::string(std::strerror(ENOENT)));
  EXPECT_EQ(check_writable("/nonexistent/dir/out.json"), write_file_atomically("/nonexistent/dir/out.json", "x"));
}

TEST(AtomicFile, AnUnwritableDirectoryKeepsTheOldFile) {
  const fs::path dir = scratch_dir("readonly");
  const std::string path = (dir / "out.json").string();
  std::ofstream(path) << "old contents";
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  // As an unprivileged user (root ignores directory permissions): the child drops to 'nobody'.
  const auto [status, message] = in_child([&] {
    if (::geteuid() == 0 && ::setuid(65534) != 0) return std::string("setuid failed");
    const auto checked = check_writable(path);
    auto e = write_file_atomically(path, "new contents");
    return (checked == e ? std::string() : "check_writable differs: ") + (e ? *e : std::string());
  });
  fs::permissions(dir, fs::perms::owner_all);
  EXPECT_EQ(message, "cannot write '" + path + "': cannot create a file in '" + dir.string() + "': " + std::strerror(EACCES));
  EXPECT_EQ(read_text(path), "old contents");
}

TEST(AtomicFile, ADirectoryIsNotAFile) {
  const fs::path dir = scratch_dir("isdir");
  EXPECT_EQ(check_writable(dir.string()), "cannot write '" + dir.string() + "': " + std::strerror(EISDIR));
  EXPECT_EQ(write_file_atomically(dir.string(), "x"), check_writable(dir.string()));
}

TEST(AtomicFile, CheckWritableLeavesNothingBehind) {
  const fs::path dir = scratch_dir("check");
  EXPECT_EQ(check_writable((dir / "out.json").string()), std::nullopt);
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(AtomicFile, FindNonFiniteNamesThePointer) {
  nlohmann::json j = {{"a", {1.0, {{"b", std::numeric_limits<double>::infinity()}}}}, {"c", nullptr}};
  EXPECT_EQ(rooflint::io::find_non_finite(j), "/a/1/b");
  j["a"][1]["b"] = 2.5;
  EXPECT_EQ(rooflint::io::find_non_finite(j), std::nullopt);
  j["c"] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(rooflint::io::find_non_finite(j), "/c");
}
