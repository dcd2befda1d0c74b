// rooflint::verify_main's command line and exit codes, without a GPU.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "rooflint/runtime/verify.h"
#include "verify_recorded.h"

using namespace rooflint::runtime;

namespace {

using rooflint::verify_test::N;

// A case whose launch enqueues nothing: enough for the command line; never measured without a GPU.
ROOFLINT_VERIFY_CASE(cli_saxpy_n1M, rooflint::verify_test::saxpy_spec, N(1 << 20)) {
  return launcher{.launch = [](cudaStream_t) {}};
}

int run(std::vector<std::string> args) {
  args.insert(args.begin(), "rooflint-verify");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return verify_main(static_cast<int>(argv.size()), argv.data());
}

/// Asked in a child process, so that this process's CUDA stays uninitialised for verify's fork.
bool device_present_in_child() {
  const pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    _exit(cudaGetDeviceCount(&n) == cudaSuccess && n > 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

TEST(VerifyMain, HelpExitsZero) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--help"}), exit_passed);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("--ceilings FILE"), std::string::npos);
}

TEST(VerifyMain, UnknownOptionIsAUsageError) { EXPECT_EQ(run({"--frobnicate"}), exit_usage); }

TEST(VerifyMain, ToleranceBelowOneIsAUsageError) { EXPECT_EQ(run({"--tolerance", "0.5"}), exit_usage); }

TEST(VerifyMain, MissingOptionValueIsAUsageError) { EXPECT_EQ(run({"--json"}), exit_usage); }

TEST(VerifyMain, FilterMatchingNothingIsAUsageError) { EXPECT_EQ(run({"--filter", "^no_such_case$", "--quiet"}), exit_usage); }

TEST(VerifyMain, InvalidRegexIsAUsageError) { EXPECT_EQ(run({"--filter", "(", "--quiet"}), exit_usage); }

TEST(VerifyMain, UnreadableCeilingsFileIsAUsageError) {
  EXPECT_EQ(run({"--ceilings", "/nonexistent/ceilings.json", "--quiet"}), exit_usage);
}

// The gate is refused before the run, never silently off: a baseline that cannot be read, or is no
// rooflint-verify report, is a usage error.
TEST(VerifyMain, ABaselineThatIsNoReportIsAUsageErrorBeforeTheRun) {
  EXPECT_EQ(run({"--baseline", "/nonexistent/base.json", "--quiet"}), exit_usage);
  const std::string not_a_report = ::testing::TempDir() + "rooflint-not-a-report.json";
  std::FILE* f = std::fopen(not_a_report.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("{\"schema\": \"rooflint-manifest\", \"version\": 5}", f);
  std::fclose(f);
  EXPECT_EQ(run({"--baseline", not_a_report, "--quiet"}), exit_usage);
  std::remove(not_a_report.c_str());
}

TEST(VerifyMain, ListPrintsRegisteredCases) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--list", "--filter=cli_"}), exit_passed);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("cli_saxpy_n1M  kernel 'saxpy'  N=1048576"), std::string::npos) << out;
}

TEST(VerifyMain, WithoutADeviceEveryCaseIsSkippedAndTheExitCodeIsThree) {
  if (device_present_in_child()) GTEST_SKIP() << "a CUDA device is present; this test covers machines without one";
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--filter", "cli_", "--quiet"}), exit_cannot_measure);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("SKIP"), std::string::npos) << out;
  EXPECT_NE(out.find("[rooflint-no-device]"), std::string::npos) << out;
}

TEST(VerifyMain, ListWithAFilterThatMatchesNothingIsAUsageError) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--list", "--filter=^no_such_case$"}), exit_usage);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("no case matches --filter '^no_such_case$'"), std::string::npos);
}

TEST(VerifyMain, AFlagGivenAValueIsAUsageError) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--list=1"}), exit_usage);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("'--list' is a flag and takes no value"), std::string::npos);
  EXPECT_EQ(run({"--quiet=0", "--list"}), exit_usage);
}

TEST(VerifyMain, BothValueFormsWork) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--list", "--filter", "cli_"}), exit_passed);
  const std::string spaced = testing::internal::GetCapturedStdout();
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--list", "--filter=cli_"}), exit_passed);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), spaced);
  EXPECT_NE(spaced.find("cli_saxpy_n1M"), std::string::npos);
}

// Checked before any case runs: no table is printed, and the reason is given.
TEST(VerifyMain, AnUnwritableReportPathFailsBeforeTheRun) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--filter", "cli_", "--quiet", "--json", "/nonexistent/dir/r.json"}), exit_usage);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "rooflint-verify: error: the JSON report: cannot write '/nonexistent/dir/r.json': cannot create a file in "
            "'/nonexistent/dir': " + std::string(std::strerror(ENOENT)) + "\n");
}

TEST(VerifyMain, AReportThatCannotBeWrittenGivesTheReason) {
  if (device_present_in_child()) GTEST_SKIP() << "a CUDA device is present; this test covers machines without one";
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--filter", "cli_", "--quiet", "--junit", "/dev/full"}), exit_usage);
  testing::internal::GetCapturedStdout();
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "rooflint-verify: error: the JUnit report: cannot write '/dev/full': " + std::string(std::strerror(ENOSPC))),
            std::string::npos);
}

// `--ceilings "$CEILINGS"` with the variable unset: refused, never read as "datasheet peaks".
TEST(VerifyMain, AnEmptyFileValueIsAUsageError) {
  for (const char* option : {"--ceilings", "--json", "--junit", "--svg"}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(run({option, "", "--filter", "cli_", "--quiet"}), exit_usage) << option;
    EXPECT_NE(testing::internal::GetCapturedStderr().find(std::string(option) + ": needs a file, not an empty value"), std::string::npos)
        << option;
  }
}

// --lines (per-line traffic, docs/verifier.md): one of failing, all, off; --manifest must name a manifest
// or a directory, checked before anything is measured.
TEST(VerifyMain, LinesTakesFailingAllOrOff) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--lines=sometimes", "--quiet"}), exit_usage);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("needs one of failing, all or off, not 'sometimes'"), std::string::npos) << err;
  EXPECT_EQ(run({"--lines", "--quiet"}), exit_usage);  // a value is needed
}

TEST(VerifyMain, HelpNamesLinesAndManifest) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--help"}), exit_passed);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("--lines WHEN"), std::string::npos) << out;
  EXPECT_NE(out.find("--manifest PATH"), std::string::npos) << out;
}

TEST(VerifyMain, AManifestThatIsNothingIsAUsageErrorBeforeMeasuring) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--filter", "cli_", "--manifest", "/nonexistent/manifests", "--quiet"}), exit_usage);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("/nonexistent/manifests"), std::string::npos) << err;
  // Read with the per-line pass off too: the manifests' predictions stand beside each case's counts.
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--filter", "cli_", "--manifest", "/nonexistent/manifests", "--lines=off", "--quiet"}), exit_usage);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("/nonexistent/manifests"), std::string::npos);
}
