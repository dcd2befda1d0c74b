// Per-line traffic of rooflint-verify -- program, the parent's side without a GPU (inject/program_lines.h):
// which cases a mode reruns the program for, the environment of a rerun, its observation joined into the
// case's report, and the reruns that give "not available" (nothing written, a non-zero exit, past
// --timeout) without touching the exit code. The program is a shell script standing in for the program
// under the injection library's lines mode: it appends a recorded observation to $ROOFLINT_LINES_OUT.
//
// Where the figures come from: data/gather-lines.observation.json is the observation of the examples'
// gather_strided at N = 2^26 on the H200 (2026-12-02, docs/measurements/h200-2026-12-02/lines/lines.json
// and verify-lines-all.txt): gather.cu:27 loads x in N / 32 = 2097152 warp requests of 32 lanes 132 bytes
// apart, one 32-byte sector each: 32 sectors per request (67108864) against the 4 its 128 bytes need
// (8388608); its store of y is coalesced, 4 against 4; the window took 14.8 ms. The analyzer predicted
// both in the same run's manifest: the load 32 of 4 sectors per request (8x), the store 4 of 4 (1x).

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inject/program_lines.h"
#include "report/report_lines.h"

using namespace rooflint;
using namespace rooflint::runtime;
using namespace rooflint::runtime::inject;

namespace {

const std::string recorded_observation = std::string(ROOFLINT_TEST_DATA_DIR) + "/gather-lines.observation.json";

constexpr double gather_requests = (1 << 26) / 32.0;  // 2097152: one request per warp of N = 2^26 threads

// The cases of the example program (examples/program/program.cu) this file works with.
const std::string gather_case = "gather_strided [N=67108864]";   // m = 1 << 26
const std::string saxpy_case = "saxpy [N=268435456]";            // n = 1 << 28
const std::string softmax_case = "softmax_naive [R=65536, C=4096]";  // a region of 3 kernels (examples/softmax)

case_report a_case(const std::string& name, const std::string& kernel, case_status status,
                   run_status measured = run_status::measured) {
  case_report r;
  r.name = name;
  r.kernel = kernel;
  r.status = status;
  r.measured.status = measured;
  return r;
}

/// The example program's report as the measured run leaves it: gather failed, saxpy passed, the softmax
/// region failed, and a launch whose sizes did not bind (an error, nothing measured).
program_report example_report() {
  program_report p;
  p.run.cases = {a_case(gather_case, "gather_strided", case_status::failed),
                 a_case(saxpy_case, "saxpy", case_status::passed),
                 a_case(softmax_case, "softmax_naive", case_status::failed),
                 a_case("saxpy [sizes did not bind]", "saxpy", case_status::error, run_status::bad_case)};
  p.run.exit_code = exit_failed;
  p.case_launches[gather_case] = {"_Z14gather_stridediPKfPf", "N=67108864", 1};  // gather_strided(int, const float*, float*)
  p.case_launches[saxpy_case] = {"_Z5saxpyifPKfPf", "N=268435456", 1};
  p.case_launches[softmax_case] = {region_key("softmax_naive"), "R=65536, C=4096", 3};
  return p;
}

/// The analyzer's predicted accesses of gather.cu:27 (the record's manifest: columns 21 and 19).
predicted_by_kernel gather_predicted() {
  predicted_access load;
  load.file = "/work/main/examples/gather/gather.cu";
  load.line = 27;
  load.column = 21;
  load.tensor = "x";
  load.param = 1;
  load.requests = gather_requests;
  load.sectors_per_request = 32;
  load.ideal_sectors_per_request = 4;
  predicted_access store = load;
  store.column = 19;
  store.tensor = "y";
  store.param = 2;
  store.store = true;
  store.sectors_per_request = 4;
  return {{"gather_strided", {load, store}}};
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A scratch directory with the stand-in program, fake.sh BEHAVIOUR: it notes its environment and where
/// its stdout goes, says something on stdout and stderr, then: observe (appends the recorded observation
/// and exits 0), nothing (exits 0, writes nothing), fail (appends it, exits 3), hang (sleeps 60 s).
class ProgramLines : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("rooflint-program-lines-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "fake.sh") << "#!/bin/sh\n"
                                    << "env > '" << (dir_ / "env.txt").string() << "'\n"
                                    << "out=$(readlink /proc/$$/fd/1); echo \"$out\" > '" << (dir_ / "stdout.txt").string() << "'\n"
                                    << "echo 'the program speaks'; echo 'and complains' >&2\n"
                                    << "case $1 in\n"
                                    << "  observe) cat '" << recorded_observation << "' >> \"$ROOFLINT_LINES_OUT\" ;;\n"
                                    << "  fail) cat '" << recorded_observation << "' >> \"$ROOFLINT_LINES_OUT\"; exit 3 ;;\n"
                                    << "  hang) exec sleep 60 ;;\n"
                                    << "esac\n";
    std::filesystem::permissions(dir_ / "fake.sh", std::filesystem::perms::owner_all);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// The reruns of fake.sh @p behaviour, with --timeout @p timeout_s; progress lines kept in progress_.
  rerun_setup setup(const std::string& behaviour, int timeout_s = 60) {
    rerun_setup s;
    s.program = (dir_ / "fake.sh").string();
    s.argv = {s.program, behaviour};
    s.library = "/opt/rooflint/lib/librooflint-inject.so";  // not loaded: the stand-in uses no CUDA
    s.manifest_list = "/b/gather.rooflint.json:/b/saxpy.rooflint.json";
    s.timeout_s = timeout_s;
    s.progress = [this](const std::string& line) { progress_ += line + "\n"; };
    return s;
  }
  bool ran() const { return std::filesystem::exists(dir_ / "env.txt"); }
  std::string env() const { return text_of((dir_ / "env.txt").string()); }

  std::filesystem::path dir_;
  std::string progress_;
};

TEST_F(ProgramLines, FailingChoosesTheFailedCasesAndAllEveryMeasuredOne) {
  const program_report p = example_report();
  EXPECT_EQ(cases_for_lines(p, lines_mode::failing), (std::vector<std::size_t>{0, 2}));  // gather, softmax
  EXPECT_EQ(cases_for_lines(p, lines_mode::all), (std::vector<std::size_t>{0, 1, 2}));  // not the unbound one
  EXPECT_TRUE(cases_for_lines(p, lines_mode::off).empty());
}

TEST_F(ProgramLines, ARegionSaysNoRerunObservesItsSeveralLaunches) {
  EXPECT_EQ(why_no_rerun({"_Z14gather_stridediPKfPf", "N=67108864", 1}), "");
  const std::string why = why_no_rerun({region_key("softmax_naive"), "R=65536, C=4096", 3});
  EXPECT_NE(why.find("makes 3 kernel launches"), std::string::npos) << why;
  EXPECT_NE(why.find("one window per process"), std::string::npos) << why;
}

TEST_F(ProgramLines, TheRerunsEnvironmentAsksTheInjectionForTheCasesLaunch) {
  const auto env = lines_environment("/lib/librooflint-inject.so", "/b/a.rooflint.json:/b/b.rooflint.json",
                                     {"_Z14gather_stridediPKfPf", "N=67108864", 1}, "/tmp/rooflint-verify-abc");
  const std::vector<std::pair<std::string, std::string>> want{
      {"CUDA_INJECTION64_PATH", "/lib/librooflint-inject.so"},
      {"ROOFLINT_INJECT_MANIFESTS", "/b/a.rooflint.json:/b/b.rooflint.json"},
      {"ROOFLINT_LINES_KERNEL", "_Z14gather_stridediPKfPf"},
      {"ROOFLINT_LINES_SIZES", "N=67108864"},
      {"ROOFLINT_LINES_OUT", "/tmp/rooflint-verify-abc"}};
  EXPECT_EQ(env, want);  // no ROOFLINT_INJECT_OUTPUT: nothing is measured in a rerun
}

TEST_F(ProgramLines, AnObservationIsJoinedIntoTheCasesReport) {
  program_report p = example_report();
  collect_program_lines(p, lines_mode::failing, setup("observe"), gather_predicted());

  const line_report& l = p.run.cases[0].lines;
  ASSERT_TRUE(l.collected) << l.not_available;
  EXPECT_FALSE(l.show_always);  // failing: printed because the case failed
  EXPECT_GT(l.cost_s, 0);       // the rerun's wall time
  ASSERT_EQ(l.rows.size(), 2u);
  EXPECT_EQ(l.rows[0].status, line_status::agrees);  // 32 of 4 sectors per request, 8x as predicted
  EXPECT_EQ(l.rows[1].status, line_status::agrees);  // the store: 4 of 4, 1x
  ASSERT_TRUE(l.rows[0].observed);
  EXPECT_EQ(l.rows[0].observed->requests, gather_requests);
  EXPECT_EQ(l.rows[0].observed->sectors_per_request(), 32);
  const std::string text = detail::lines_text(l);
  EXPECT_NE(text.find("gather.cu:27 load x: predicted 8x, observed 8.0x (32.0 sectors per request against an ideal 4.0, "
                      "2097152 requests)"),
            std::string::npos)
      << text;

  // The region is not rerun (it says why); the passed saxpy is left alone under failing.
  EXPECT_NE(p.run.cases[2].lines.not_available.find("3 kernel launches"), std::string::npos);
  EXPECT_FALSE(p.run.cases[1].lines.collected);
  EXPECT_TRUE(p.run.cases[1].lines.not_available.empty());
  EXPECT_EQ(p.run.exit_code, exit_failed);  // the verdicts' exit code, as it was
  EXPECT_EQ(p.interrupted_by, 0);

  // The rerun's environment, as the program saw it, and its output discarded.
  EXPECT_NE(env().find("ROOFLINT_LINES_KERNEL=_Z14gather_stridediPKfPf\n"), std::string::npos) << env();
  EXPECT_NE(env().find("ROOFLINT_LINES_SIZES=N=67108864\n"), std::string::npos) << env();
  EXPECT_NE(env().find("CUDA_INJECTION64_PATH=/opt/rooflint/lib/librooflint-inject.so\n"), std::string::npos);
  EXPECT_EQ(text_of((dir_ / "stdout.txt").string()), "/dev/null\n");
  EXPECT_NE(progress_.find("per-line traffic of " + gather_case + " (rerun 1 of 1)...\n"), std::string::npos) << progress_;
  EXPECT_NE(progress_.find("per-line traffic of " + gather_case + ": in "), std::string::npos) << progress_;
  EXPECT_NE(progress_.find("(the window 14.8 ms; 2 lines)"), std::string::npos) << progress_;
}

TEST_F(ProgramLines, AllRerunsForEveryMeasuredCaseAndShowsItsRows) {
  program_report p = example_report();
  collect_program_lines(p, lines_mode::all, setup("observe"), gather_predicted());
  EXPECT_TRUE(p.run.cases[0].lines.show_always);
  // saxpy's rerun wrote gather's recorded observation (the stand-in writes one file whatever is asked):
  // joined with no predicted access of saxpy, its lines are observed, not compared.
  EXPECT_TRUE(p.run.cases[1].lines.collected);
  EXPECT_TRUE(p.run.cases[1].lines.rows.empty());
  EXPECT_EQ(p.run.cases[1].lines.observed.size(), 2u);
  EXPECT_NE(progress_.find("(rerun 2 of 2)"), std::string::npos) << progress_;  // the region is not rerun
}

TEST_F(ProgramLines, ARerunThatWritesNothingSaysSoAndLeavesTheExitCode) {
  program_report p = example_report();
  collect_program_lines(p, lines_mode::failing, setup("nothing"), gather_predicted());
  const line_report& l = p.run.cases[0].lines;
  EXPECT_FALSE(l.collected);
  EXPECT_NE(l.not_available.find("the rerun wrote no observation: it did not launch kernel 'gather_strided' at N=67108864"),
            std::string::npos)
      << l.not_available;
  EXPECT_NE(detail::lines_text(l).find("per-line traffic: not available: the rerun wrote no observation"), std::string::npos);
  EXPECT_EQ(p.run.exit_code, exit_failed);
  EXPECT_FALSE(p.program_failed);
  EXPECT_NE(progress_.find(": not available: the rerun wrote no observation"), std::string::npos) << progress_;
}

TEST_F(ProgramLines, ARerunThatExitsNonZeroIsNotAvailableEvenWithAnObservation) {
  program_report p = example_report();
  collect_program_lines(p, lines_mode::failing, setup("fail"), gather_predicted());
  const line_report& l = p.run.cases[0].lines;
  EXPECT_FALSE(l.collected);
  EXPECT_EQ(l.not_available.rfind("the rerun exited with code 3", 0), 0u) << l.not_available;
  EXPECT_EQ(p.run.exit_code, exit_failed);
  EXPECT_FALSE(p.program_failed);
}

TEST_F(ProgramLines, ARerunThatExitsAsTheMeasuredRunDidCounts) {
  // A program that exits 3 by design (its own test failed), measured so and rerun so: its rows count.
  program_report p = example_report();
  p.program_status = 3;
  collect_program_lines(p, lines_mode::failing, setup("fail"), gather_predicted());
  EXPECT_TRUE(p.run.cases[0].lines.collected) << p.run.cases[0].lines.not_available;
  // Exiting otherwise than the measured run did is not the same run: not available, both codes named.
  p = example_report();
  p.program_status = 1;
  collect_program_lines(p, lines_mode::failing, setup("fail"), gather_predicted());
  EXPECT_EQ(p.run.cases[0].lines.not_available.rfind("the rerun exited with code 3 where the measured run exited with code 1", 0), 0u)
      << p.run.cases[0].lines.not_available;
}

TEST_F(ProgramLines, ARerunPastTheTimeoutIsStoppedAndSaysSo) {
  program_report p = example_report();
  const auto t0 = std::chrono::steady_clock::now();
  collect_program_lines(p, lines_mode::failing, setup("hang", 1), gather_predicted());
  // SIGTERM after --timeout 1 s ends the sleep at once (the grace period of 10 s is not needed).
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  const line_report& l = p.run.cases[0].lines;
  EXPECT_FALSE(l.collected);
  EXPECT_EQ(l.not_available.rfind("the rerun ran past --timeout 1 s and was stopped", 0), 0u) << l.not_available;
  EXPECT_EQ(p.run.exit_code, exit_failed);
  EXPECT_FALSE(p.timed_out);  // the measured run's timeout, not a rerun's
}

TEST_F(ProgramLines, AnInterruptedRunStartsNoRerun) {
  program_report p = example_report();
  p.interrupted_by = SIGINT;  // the measured run was interrupted
  collect_program_lines(p, lines_mode::failing, setup("observe"), gather_predicted());
  EXPECT_FALSE(ran());
  EXPECT_EQ(p.run.cases[0].lines.not_available, "rooflint-verify was interrupted (SIGINT) before its rerun");
}

TEST(ProgramLinesObservation, TheFirstWrittenWithFiguresIsTaken) {
  // Two processes of the program observed: one without figures (its own reason), then one with them.
  const case_launch gather{"_Z14gather_stridediPKfPf", "N=67108864", 1};
  line_observation reason;
  reason.not_available = "the rerun never launched kernel 'gather_strided' at N=67108864 outside a CUDA graph";
  rerun_result r;
  r.written = line_observation_to_json(reason) + "\n" + text_of(recorded_observation);
  const line_observation o = observation_of_rerun(r, "gather_strided", gather, 60, 0);
  EXPECT_EQ(o.not_available, "");
  EXPECT_EQ(o.observed.size(), 2u);
  EXPECT_EQ(o.window_s, 0.0148);
  // Only a reason: it is the case's.
  r.written = line_observation_to_json(reason) + "\n";
  EXPECT_EQ(observation_of_rerun(r, "gather_strided", gather, 60, 0).not_available, reason.not_available);
}

TEST(ProgramLinesObservation, WhatCannotBeReadOrStartedSaysWhy) {
  const case_launch gather{"_Z14gather_stridediPKfPf", "N=67108864", 1};
  rerun_result r;
  r.written = "{\"not_available\": \"\"}\n";  // fields missing
  EXPECT_EQ(observation_of_rerun(r, "gather_strided", gather, 60, 0).not_available.rfind("the rerun's observation could not be read: ", 0), 0u);
  r.written.clear();
  r.unreadable = "cannot read '/tmp/x': not a regular file (a FIFO, socket or device)";
  EXPECT_EQ(observation_of_rerun(r, "gather_strided", gather, 60, 0).not_available,
            "the rerun's observation could not be read: " + r.unreadable);
  r.end = error{error_code::invalid_argument, "cannot run './p': No such file or directory"};
  EXPECT_EQ(observation_of_rerun(r, "gather_strided", gather, 60, 0).not_available,
            "the rerun could not start: cannot run './p': No such file or directory");
}

TEST(ProgramLinesOff, AFailedCaseSaysHowToCollectItsLines) {
  program_report p = example_report();
  hint_lines_of_failed_cases(p.run);
  EXPECT_EQ(p.run.cases[0].lines.not_available, lines_off_in_program_mode);
  EXPECT_TRUE(p.run.cases[1].lines.not_available.empty());  // passed: nothing to say
  EXPECT_TRUE(p.run.cases[3].lines.not_available.empty());  // not measured: no lines to get
  const std::string text = detail::lines_text(p.run.cases[0].lines);
  EXPECT_NE(text.find("--lines=failing reruns the program once per failing kernel"), std::string::npos) << text;
}

}  // namespace
