// rooflint-ceilings' command line, run as a program, without a GPU: the output path is checked
// before any probe runs, flags take no value, and errors say why.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

struct outcome {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr together
};

outcome run_tool(const std::string& args) {
  outcome o;
  FILE* pipe = ::popen((std::string(ROOFLINT_CEILINGS_TOOL) + " " + args + " 2>&1").c_str(), "r");
  if (!pipe) return o;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) o.output.append(buffer, n);
  const int status = ::pclose(pipe);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

}  // namespace

TEST(CeilingsCli, AnUnwritableOutputFailsBeforeAnyProbe) {
  const outcome o = run_tool("--quick -o /nonexistent/dir/c.json");
  EXPECT_EQ(o.exit_code, 1) << o.output;  // 1: the ceilings file could not be written (not 3, no GPU)
  EXPECT_EQ(o.output, "rooflint-ceilings: error: cannot write '/nonexistent/dir/c.json': cannot create a file in "
                      "'/nonexistent/dir': " + std::string(std::strerror(ENOENT)) + "\n");
}

TEST(CeilingsCli, AFlagGivenAValueIsAUsageError) {
  const outcome o = run_tool("--quick=1");
  EXPECT_EQ(o.exit_code, 2) << o.output;
  EXPECT_NE(o.output.find("rooflint-ceilings: error: '--quick' is a flag and takes no value"), std::string::npos) << o.output;
}

TEST(CeilingsCli, UnknownOptionsAndProbesAreUsageErrors) {
  EXPECT_EQ(run_tool("--frobnicate").exit_code, 2);
  const outcome o = run_tool("--probes=bandwidth,fp7 -o /nonexistent/dir/c.json");
  EXPECT_EQ(o.exit_code, 2) << o.output;
  EXPECT_NE(o.output.find("unknown probe 'fp7'"), std::string::npos) << o.output;
  EXPECT_EQ(run_tool("--device -1").exit_code, 2);
  EXPECT_EQ(run_tool("--output").exit_code, 2);
  const outcome device = run_tool("--device abc -o c.json");
  EXPECT_EQ(device.exit_code, 2) << device.output;
  EXPECT_NE(device.output.find("rooflint-ceilings: error: --device: needs a CUDA device index (0 to 1024), not 'abc'"),
            std::string::npos)
      << device.output;
}

// --version: the tool and rooflint's version (the CMake project's), on stdout, exit 0, before anything
// else is checked (no --output needed).
TEST(CeilingsCli, VersionIsRooflints) {
  const outcome o = run_tool("--version");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_EQ(o.output, "rooflint-ceilings (rooflint) " ROOFLINT_VERSION "\n");
}

TEST(CeilingsCli, HelpListsTheOptionsAndExitCodes) {
  const outcome o = run_tool("--help");
  EXPECT_EQ(o.exit_code, 0);
  for (const char* text : {"-o,--output FILE", "--probes LIST", "--device N", "--quick", "--thorough", "5  a probe named in --probes"})
    EXPECT_NE(o.output.find(text), std::string::npos) << text << " not in:\n" << o.output;
}
