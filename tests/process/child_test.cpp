// rooflint::process (process/include/rooflint/process/child.h) with /bin/sh and coreutils children: what
// each test expects follows from the child's script (its exit code, the signal it gets, the bytes it
// writes) and from Linux's numbering (SIGKILL 9, SIGSEGV 11, SIGTERM 15, SIGUSR1 10, SIGUSR2 12); whether a
// process still runs is read from /proc, independently of the library.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rooflint/process/child.h"

namespace process = rooflint::process;
using namespace std::chrono_literals;

namespace {

process::launch sh(const std::string& script, process::stream output = process::stream::pipe) {
  process::launch l;
  l.path = "/bin/sh";
  l.argv = {"sh", "-c", script};
  l.output = output;
  return l;
}

process::child start(const process::launch& l) {
  auto s = process::child::start(l);
  if (!s) throw std::runtime_error("cannot start '" + l.path + "': errno " + std::to_string(s.failure().error));
  return std::move(*s);
}

/// Whether @p pid runs: it exists and is no zombie (the state after the command's name in /proc/PID/stat).
bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  const auto close = stat.rfind(") ");
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

/// Waits up to @p limit for @p pid to stop running. @return Whether it stopped.
bool ends_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (alive(pid)) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

/// Reads @p c's output until it holds a whole first line. @return That line.
std::string first_line(process::child& c) {
  std::string out;
  while (out.find('\n') == std::string::npos)
    if (c.read_some(out, process::clock::now() + 10s) != process::read_status::data)
      throw std::runtime_error("no first line; got '" + out + "'");
  return out.substr(0, out.find('\n'));
}

/// Whether @p pid was reaped: waitpid no longer knows it as a child of this process.
bool reaped(pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD; }

double seconds_since(process::clock::time_point t) {
  return std::chrono::duration<double>(process::clock::now() - t).count();
}

/// The mask of a "SigBlk:" or "SigIgn:" line of /proc/PID/status (hexadecimal; bit N-1 is signal N).
std::uint64_t status_mask(const std::string& status, const std::string& field) {
  std::istringstream in(status);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1), nullptr, 16);
  throw std::runtime_error("no " + field + " line in /proc/self/status");
}

std::uint64_t bit(int sig) { return std::uint64_t{1} << (sig - 1); }

}  // namespace

TEST(Child, AnExitCodeIsDescribed) {
  process::child c = start(sh("exit 3", process::stream::inherit));
  const pid_t pid = c.pid();
  const int status = c.wait();
  EXPECT_EQ(process::describe_status(status), "exited with code 3");
  EXPECT_EQ(process::exit_code(status), 3);
  EXPECT_EQ(process::killed_by(status), 0);
  EXPECT_TRUE(reaped(pid));
}

TEST(Child, ASignalIsDescribedWithItsNumberAndName) {
  process::child c = start(sh("kill -SEGV $$", process::stream::inherit));
  const int status = c.wait();
  EXPECT_EQ(process::describe_status(status), "killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(process::exit_code(status), 128 + 11);  // as a shell's $? says it
  EXPECT_EQ(process::killed_by(status), 11);
}

TEST(Child, AStatusOfAStoppedProcessEndedAbnormally) {
  const int stopped_by_sigstop = (19 << 8) | 0x7f;  // Linux's encoding of "stopped by signal 19"
  EXPECT_EQ(process::describe_status(stopped_by_sigstop), "ended abnormally");
  EXPECT_EQ(process::exit_code(stopped_by_sigstop), 1);
}

TEST(Child, TheOutputIsReadWhole) {
  // 300000 bytes: several reads of at most 64 KiB, more than a pipe holds at once.
  process::child c = start(sh("head -c 300000 /dev/zero | tr '\\0' x; printf end"));
  std::string out;
  EXPECT_EQ(c.read_to_end(out), process::read_status::closed);
  EXPECT_EQ(out, std::string(300000, 'x') + "end");
  EXPECT_EQ(process::describe_status(c.wait()), "exited with code 0");
}

TEST(Child, StderrIsDiscardedOrJoinsThePipe) {
  process::launch l = sh("echo out; echo err >&2");
  l.errors = process::stream::discard;
  process::child apart = start(l);
  std::string out;
  apart.read_to_end(out);
  EXPECT_EQ(out, "out\n");
  apart.wait();
  l.errors = process::stream::pipe;
  process::child joined = start(l);
  out.clear();
  joined.read_to_end(out);
  EXPECT_EQ(out, "out\nerr\n");
  joined.wait();
}

TEST(Child, DiscardedOutputIsNotInThePipeOfAnother) {
  // A child whose stdout is discarded writes nothing this process reads: read_some says closed at once.
  process::child c = start(sh("echo lost", process::stream::discard));
  std::string out;
  EXPECT_EQ(c.read_some(out), process::read_status::closed);
  EXPECT_EQ(process::describe_status(c.wait()), "exited with code 0");
  EXPECT_EQ(out, "");
}

TEST(Child, TheEnvironmentIsThisProcesssWithTheAdditions) {
  ::setenv("ROOFLINT_PROCESS_TEST_KEPT", "kept", 1);
  ::setenv("ROOFLINT_PROCESS_TEST_SET", "old", 1);
  process::launch l = sh("printf '%s %s %s ' \"$ROOFLINT_PROCESS_TEST_KEPT\" \"$ROOFLINT_PROCESS_TEST_SET\" "
                         "\"$ROOFLINT_PROCESS_TEST_ADDED\"; env | grep -c '^ROOFLINT_PROCESS_TEST_SET='");
  l.environment = {{"ROOFLINT_PROCESS_TEST_SET", "new"}, {"ROOFLINT_PROCESS_TEST_ADDED", "added"}};
  process::child c = start(l);
  std::string out;
  c.read_to_end(out);
  EXPECT_EQ(out, "kept new added 1\n");  // replaced, not set twice
  c.wait();
}

TEST(Child, AFileThatCannotBeExecutedIsAnExecFailureAndLeavesNoChild) {
  process::launch l;
  l.path = "/no/such/program";
  l.argv = {"program"};
  l.output = process::stream::pipe;
  auto missing = process::child::start(l);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.failure().at, process::start_failure::step::exec);
  EXPECT_EQ(missing.failure().error, ENOENT);
  l.path = "/dev/null";  // exists, not executable
  auto not_executable = process::child::start(l);
  ASSERT_FALSE(not_executable);
  EXPECT_EQ(not_executable.failure().at, process::start_failure::step::exec);
  EXPECT_EQ(not_executable.failure().error, EACCES);
  // The child that could not exec was reaped: this process has no child left.
  const pid_t left = ::waitpid(-1, nullptr, WNOHANG);
  const int error = errno;
  EXPECT_EQ(left, -1);
  EXPECT_EQ(error, ECHILD);
}

TEST(Child, ItsOwnGroupIsNamedAfterItsPid) {
  process::launch l = sh("exec sleep 300", process::stream::inherit);
  l.own_group = true;
  process::child grouped = start(l);
  EXPECT_EQ(::getpgid(grouped.pid()), grouped.pid());
  l.own_group = false;
  process::child shared = start(l);
  EXPECT_EQ(::getpgid(shared.pid()), ::getpgrp());
  EXPECT_EQ(process::killed_by(grouped.stop(5s).status), SIGTERM);
  EXPECT_EQ(process::killed_by(shared.stop(5s).status), SIGTERM);
}

TEST(Child, APastDeadlineChildIsEndedAndReapedWithinTheGracePeriod) {
  process::launch l = sh("sleep 300", process::stream::inherit);
  l.own_group = true;
  process::child c = start(l);
  const pid_t pid = c.pid();
  const auto t0 = process::clock::now();
  const process::ending end = c.wait(t0 + 200ms, 10s);
  const double took = seconds_since(t0);
  EXPECT_TRUE(end.timed_out);
  EXPECT_FALSE(end.killed);  // SIGTERM ended it: no SIGKILL
  EXPECT_TRUE(end.reaped);
  EXPECT_EQ(process::describe_status(end.status), "killed by signal 15 (Terminated)");
  EXPECT_GE(took, 0.2);
  EXPECT_LT(took, 5.0) << "far less than the grace period of 10 s";
  EXPECT_TRUE(reaped(pid));
}

TEST(Child, AChildIgnoringSigtermGetsSigkillAfterTheGracePeriod) {
  // The trap is set before "ready"; sleep inherits SIGTERM ignored.
  process::launch l = sh("trap '' TERM; echo ready; while :; do sleep 1; done");
  l.own_group = true;
  process::child c = start(l);
  ASSERT_EQ(first_line(c), "ready");
  const auto t0 = process::clock::now();
  const process::ending end = c.wait(t0 + 100ms, 500ms);
  const double took = seconds_since(t0);
  EXPECT_TRUE(end.timed_out);
  EXPECT_TRUE(end.killed);
  EXPECT_TRUE(end.reaped);
  EXPECT_EQ(process::describe_status(end.status), "killed by signal 9 (Killed)");
  EXPECT_GE(took, 0.6);  // the deadline, then the grace period
  EXPECT_LT(took, 5.0);
}

TEST(Child, AGrandchildInTheGroupIsKilledToo) {
  // The inner shell ignores SIGTERM, says its pid, and becomes sleep (which keeps SIGTERM ignored); the
  // outer shell waits for it and dies of SIGTERM. What is left of the group then gets SIGKILL.
  process::launch l = sh("sh -c 'trap \"\" TERM; echo $$; exec sleep 300' & wait");
  l.own_group = true;
  process::child c = start(l);
  const pid_t grandchild = std::stoi(first_line(c));
  ASSERT_TRUE(alive(grandchild));
  EXPECT_EQ(::getpgid(grandchild), c.pid());
  const auto t0 = process::clock::now();
  const process::ending end = c.stop(10s);
  EXPECT_FALSE(end.killed);  // the child itself ended on SIGTERM
  EXPECT_EQ(process::killed_by(end.status), SIGTERM);
  EXPECT_TRUE(ends_within(grandchild, 2000ms)) << "the grandchild " << grandchild << " still runs";
  EXPECT_LT(seconds_since(t0), 5.0);
}

TEST(Child, AChildThatClosesItsOutputButRunsOnIsStillRunning) {
  process::launch l = sh("echo bye; exec >&-; exec sleep 300");
  l.own_group = true;
  process::child c = start(l);
  const auto t0 = process::clock::now();
  std::string out;
  EXPECT_EQ(c.read_to_end(out, t0 + 10s), process::read_status::closed);
  EXPECT_LT(seconds_since(t0), 5.0);  // the end of the pipe, not the deadline
  EXPECT_EQ(out, "bye\n");
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(c.exited());
  EXPECT_TRUE(alive(c.pid()));
  const process::ending end = c.stop(5s);
  EXPECT_EQ(process::killed_by(end.status), SIGTERM);
}

TEST(Child, AReadPastItsDeadlineTimesOutAndTheChildCanBeKilled) {
  process::child c = start(sh("echo first; exec sleep 300"));
  EXPECT_EQ(first_line(c), "first");
  const auto t0 = process::clock::now();
  std::string out;
  EXPECT_EQ(c.read_some(out, t0 + 200ms), process::read_status::timed_out);
  EXPECT_GE(seconds_since(t0), 0.2);
  EXPECT_EQ(out, "");
  c.kill();
  c.close_output();
  EXPECT_EQ(process::describe_status(c.wait()), "killed by signal 9 (Killed)");
}

TEST(Child, AForkedChildWritesItsLinesAndExitsWithItsCode) {
  auto s = process::child::fork([](int fd) {
    const std::string text = "B 0\nR 0 {}\n";
    return ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) ? 4 : 1;
  });
  ASSERT_TRUE(s);
  std::string out;
  EXPECT_EQ(s->read_to_end(out), process::read_status::closed);
  EXPECT_EQ(out, "B 0\nR 0 {}\n");
  EXPECT_EQ(process::describe_status(s->wait()), "exited with code 4");
}

TEST(Child, AnExceptionInAForkedChildEndsIt) {
  auto s = process::child::fork([](int) -> int { throw std::runtime_error("in the child"); });
  ASSERT_TRUE(s);
  std::string out;
  s->read_to_end(out);
  EXPECT_EQ(process::describe_status(s->wait()), "killed by signal 6 (Aborted)");  // std::terminate
}

TEST(Child, TheSignalMaskAndActionsAreTheOnesGiven) {
  // This thread blocks SIGUSR1, as rooflint-verify blocks the signals it passes on; /proc/self/status of
  // cat (no shell between: a shell may change its own signals) shows what the child started with.
  sigset_t usr1, before;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &usr1, &before), 0);
  process::launch l;
  l.path = "/bin/cat";
  l.argv = {"cat", "/proc/self/status"};
  l.output = process::stream::pipe;
  std::string inherited, given;
  {
    process::child c = start(l);
    c.read_to_end(inherited);
    c.wait();
  }
  sigset_t none;
  sigemptyset(&none);
  l.signal_mask = none;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  l.signal_actions = {{SIGUSR2, ignore}};
  {
    process::child c = start(l);
    c.read_to_end(given);
    c.wait();
  }
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  EXPECT_NE(status_mask(inherited, "SigBlk") & bit(SIGUSR1), 0u);
  EXPECT_EQ(status_mask(inherited, "SigIgn") & bit(SIGUSR2), 0u);
  EXPECT_EQ(status_mask(given, "SigBlk") & bit(SIGUSR1), 0u);
  EXPECT_NE(status_mask(given, "SigIgn") & bit(SIGUSR2), 0u);
}

TEST(Child, ThreadsStartingChildrenAtOnceDoNotHoldEachOthersPipes) {
  // One thread starts long sleeps while another reads quick children to their end: a sleep forked while
  // a quick child's pipe is open must not keep it open (close-on-exec), or that read would take 5 s.
  std::atomic<bool> quick_done{false};
  std::vector<process::child> sleepers;
  std::thread slow([&] {
    process::launch l;
    l.path = "/bin/sleep";
    l.argv = {"sleep", "5"};
    while (!quick_done && sleepers.size() < 200) {
      sleepers.push_back(start(l));
      std::this_thread::sleep_for(2ms);
    }
  });
  double longest = 0;
  for (int i = 0; i < 40; ++i) {
    const auto t0 = process::clock::now();
    process::child c = start(sh("echo $$"));
    const pid_t pid = c.pid();
    std::string out;
    c.read_to_end(out);
    c.wait();
    longest = std::max(longest, seconds_since(t0));
    EXPECT_EQ(out, std::to_string(pid) + "\n");  // its own output, not another's
  }
  quick_done = true;
  slow.join();
  EXPECT_LT(longest, 2.0);
  for (process::child& s : sleepers) s.kill();
  for (process::child& s : sleepers) EXPECT_EQ(process::killed_by(s.wait()), SIGKILL);
}

TEST(Limits, APassedOnSignalStartsTheGracePeriod) {
  // As rooflint-verify waits: its own wait until next(), a signal passed on, then on_time().
  process::launch l = sh("trap '' INT; echo ready; while :; do sleep 1; done");
  l.own_group = true;
  process::child c = start(l);
  ASSERT_EQ(first_line(c), "ready");
  const auto t0 = process::clock::now();
  process::limits limits(c, t0 + 1h, 300ms);
  c.signal(SIGINT);  // ignored by the group
  limits.start_grace();
  bool waiting = true;
  while (waiting && !c.exited()) {
    std::this_thread::sleep_until(std::min(limits.next(), process::clock::now() + 10ms));
    waiting = limits.on_time();
  }
  EXPECT_TRUE(waiting);
  EXPECT_TRUE(limits.killed());
  EXPECT_FALSE(limits.timed_out());
  EXPECT_GE(seconds_since(t0), 0.3);
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_EQ(process::describe_status(c.wait()), "killed by signal 9 (Killed)");
}
