// The GPU's counter turn between processes (runtime/src/support/counter_turn.h): flock(2) locks, so the
// other process is a real one (fork), and the figures are the ones the test sets up: who holds the
// turn, who waits, and for how long.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "support/counter_turn.h"

using namespace rooflint::runtime;
using namespace std::chrono_literals;

namespace {

/// A lock directory of the test's own (ROOFLINT_LOCK_DIR), removed at the end.
class CounterTurn : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("rooflint-CounterTurn-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("ROOFLINT_LOCK_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("ROOFLINT_LOCK_DIR");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

/// Runs @p body in a child process. @return its exit status.
template <class F>
pid_t start_child(F body) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body());
  return pid;
}

int exit_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/// Whether the holder @p turn sees another process wait, within 10 s (the child's start-up).
bool sees_a_waiter(const counter_turn& turn) {
  for (int i = 0; i < 1000; ++i) {
    if (turn.others_waiting()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

constexpr const char* gpu = "GPU-00000000-1111-2222-3333-444444444444";

}  // namespace

TEST_F(CounterTurn, TheLockFileIsNamedAfterTheGpuInTheLockDirectory) {
  EXPECT_EQ(counter_turn::lock_path(gpu), (dir_ / "rooflint-counters-GPU-00000000-1111-2222-3333-444444444444.lock").string());
}

TEST_F(CounterTurn, AProcessAloneTakesTheTurnAtOnceAndSeesNobodyWaiting) {
  counter_turn turn(gpu);
  ASSERT_TRUE(turn.take(0ms).ok());
  EXPECT_TRUE(turn.held());
  EXPECT_FALSE(turn.others_waiting());
  EXPECT_TRUE(turn.take(0ms).ok());  // held already
  turn.give_back();
  EXPECT_FALSE(turn.held());
}

// The holder sees the other process wait, gives the turn back, and the other then takes it.
TEST_F(CounterTurn, TheHolderSeesAWaiterAndTheWaiterGetsTheTurnWhenItIsGivenBack) {
  counter_turn turn(gpu);
  ASSERT_TRUE(turn.take(0ms).ok());
  const pid_t child = start_child([] {
    counter_turn other(gpu);
    return other.take(20s).ok() && other.held() ? 0 : 1;
  });
  EXPECT_TRUE(sees_a_waiter(turn));
  turn.give_back();
  EXPECT_EQ(exit_status(child), 0);
  EXPECT_FALSE(turn.others_waiting());  // nobody waits once the child got its turn (and ended)
}

// A process that waits longer than its limit gives up with the holder's pid in the message; a holder
// that ends (even killed) leaves the turn free.
TEST_F(CounterTurn, AWaitPastTheLimitNamesTheHolderAndADeadHolderLeavesTheTurnFree) {
  counter_turn turn(gpu);
  ASSERT_TRUE(turn.take(0ms).ok());
  const std::string holder = "process " + std::to_string(::getpid());
  const pid_t child = start_child([&] {
    counter_turn other(gpu);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = other.take(200ms);
    const auto waited = std::chrono::steady_clock::now() - t0;
    if (r.ok()) return 1;
    if (r.err().message.find(holder) == std::string::npos) return 2;
    return waited >= 200ms ? 0 : 3;
  });
  EXPECT_EQ(exit_status(child), 0);

  turn.give_back();
  const pid_t dies_holding = start_child([] {
    counter_turn other(gpu);
    if (!other.take(0ms).ok()) return 1;
    ::_exit(0);  // no give_back: the lock ends with the process
  });
  EXPECT_EQ(exit_status(dies_holding), 0);
  EXPECT_TRUE(turn.take(0ms).ok());
}

// A lock directory that cannot be written (a read-only /tmp in a container) must not stop the counting:
// the turn is "taken" without a lock, and unlocked() says why.
TEST_F(CounterTurn, ALockFileThatCannotBeOpenedCountsWithoutTurnsAndSaysWhy) {
  ::setenv("ROOFLINT_LOCK_DIR", "/nonexistent/rooflint-locks", 1);
  counter_turn turn(gpu);
  ASSERT_TRUE(turn.take(0ms).ok());
  EXPECT_FALSE(turn.held());
  EXPECT_NE(turn.unlocked().find("processes on this GPU do not take turns"), std::string::npos) << turn.unlocked();
  EXPECT_FALSE(turn.others_waiting());
}

// The holder hands the turn over: it waits until the waiter holds it, so it cannot take it straight back
// at its next launch (the waiter tries only every few milliseconds).
TEST_F(CounterTurn, HandingOverWaitsUntilTheWaiterHoldsTheTurn) {
  counter_turn turn(gpu);
  ASSERT_TRUE(turn.take(0ms).ok());
  const pid_t child = start_child([] {
    counter_turn other(gpu);
    if (!other.take(20s).ok()) return 1;
    std::this_thread::sleep_for(500ms);  // holds it a while
    return 0;
  });
  ASSERT_TRUE(sees_a_waiter(turn));
  turn.hand_over(2s);
  EXPECT_FALSE(turn.take(0ms).ok());  // the child holds it now
  EXPECT_EQ(exit_status(child), 0);
}

// A child of fork() inherits the holder's lock file; once it lets go of its copies, the holder's death
// frees the turn even while the child lives on.
TEST_F(CounterTurn, AForkedChildDoesNotKeepItsParentsTurn) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t holder = start_child([&] {
    counter_turn turn(gpu);
    if (!turn.take(0ms).ok()) return 1;
    if (::fork() == 0) {  // lives on after the holder: 2 s
      turn.forget_after_fork();
      (void)!::write(ready[1], "r", 1);
      std::this_thread::sleep_for(2s);
      ::_exit(0);
    }
    char c;
    (void)!::read(ready[0], &c, 1);
    ::_exit(0);  // dies holding the turn, without giving it back
  });
  EXPECT_EQ(exit_status(holder), 0);
  counter_turn turn(gpu);
  EXPECT_TRUE(turn.take(0ms).ok());
  ::close(ready[0]);
  ::close(ready[1]);
}
