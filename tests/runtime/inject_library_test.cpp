// The injection library's host-side pieces (runtime/src/inject/library/injection_support.h): the
// measurement window a batch's closing waits for, the stream a _ptsz launch's null stream is, the
// library's mutex held across fork(), its lines mode's request (line_observer.h), and when the memory a
// program freed has been cleared (freed_memory.h). Host only: no CUDA
// call is made.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "inject/library/freed_memory.h"
#include "inject/library/injection_support.h"
#include "inject/library/line_observer.h"

using namespace rooflint::runtime::inject;
using namespace std::chrono_literals;

// A graph launch or a context's destruction closes the batch; it did so while another thread's launch
// was being counted, so that launch's window lost its range. The closing now waits for the window.
TEST(InjectLibrary, ClosingTheBatchWaitsForAnotherThreadsWindow) {
  std::mutex mutex;
  window_gate gate;
  { std::lock_guard<std::mutex> lock(mutex); gate.set_open(); }  // thread A's launch is being counted
  std::atomic<bool> closed{false};
  std::thread b([&] {  // thread B launches a graph
    std::unique_lock<std::mutex> lock(mutex);
    EXPECT_TRUE(gate.wait_closed(lock));
    closed = true;  // where the batch is closed
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(closed) << "the batch was closed inside another thread's window";
  { std::lock_guard<std::mutex> lock(mutex); gate.set_closed(); }  // A's launch returned
  b.join();
  EXPECT_TRUE(closed);
}

TEST(InjectLibrary, ARegionsWindowIsNotWaitedFor) {
  // A region instance holds the window between its kernels (maybe on the closing thread itself):
  // waiting for it could wait for ever, so the caller's predicate lets the closing go on.
  std::mutex mutex;
  window_gate gate;
  gate.set_open();
  std::unique_lock<std::mutex> lock(mutex);
  EXPECT_FALSE(gate.wait_closed(lock, [] { return true; }));
  EXPECT_TRUE(gate.open());
  // A window that never closes (a launch that does not return) holds the closing up to the limit only.
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(gate.wait_closed(lock, [] { return false; }, 50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 50ms);
  gate.reset_after_fork();
  EXPECT_FALSE(gate.open());
}

// Whether a launch is being captured into a graph is asked of its stream; the _ptsz APIs' null stream
// is the calling thread's per-thread stream, and was asked as 0, the legacy stream.
TEST(InjectLibrary, APerThreadLaunchsNullStreamIsThePerThreadStream) {
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, nullptr), CU_STREAM_PER_THREAD);
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, nullptr), CU_STREAM_PER_THREAD);
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, nullptr), CU_STREAM_PER_THREAD);
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, nullptr), nullptr);  // legacy default stream
  const CUstream own = reinterpret_cast<CUstream>(0x1234);
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, own), own);  // a stream of its own
  EXPECT_EQ(stream_to_query(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, CU_STREAM_LEGACY), CU_STREAM_LEGACY);
}

namespace {
std::mutex library_mutex;  // stands for the library's: one registration per process (pthread_atfork)
std::atomic<int> child_handler_runs{0};
void on_child() { ++child_handler_runs; }
}  // namespace

// pthread_atfork had no prepare handler: a fork while another thread held the library's mutex gave
// the child a copy locked for ever, and the child's first launch hung. Now the fork waits for the mutex
// and the child gets it unlocked. Here another thread holds it for 200 ms across the fork.
TEST(InjectLibrary, AForkWhileAnotherThreadHoldsTheMutexLeavesTheChildsCopyUnlocked) {
  hold_across_fork(library_mutex, on_child);
  std::atomic<bool> holding{false};
  std::thread holder([&] {
    std::lock_guard<std::mutex> lock(library_mutex);
    holding = true;
    std::this_thread::sleep_for(200ms);
  });
  while (!holding) std::this_thread::yield();
  child_handler_runs = 0;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const bool got = library_mutex.try_lock();
    ::_exit(got && child_handler_runs == 1 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  holder.join();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's copy of the mutex was locked (or its handler did not run)";
  EXPECT_TRUE(library_mutex.try_lock());  // the parent's is released after the fork
  library_mutex.unlock();
}

// The lines mode (a per-line rerun of rooflint-verify -- program) is on when ROOFLINT_LINES_KERNEL names a
// kernel, and observes only a launch of that kernel whose sizes bound to exactly those asked for.
TEST(InjectLinesMode, TheRequestIsTheEnvironmentsAndMatchesOnlyItsLaunch) {
  ::unsetenv(env_lines_kernel);
  EXPECT_FALSE(lines_request_from_environment());  // the measuring mode
  ::setenv(env_lines_kernel, "", 1);
  EXPECT_FALSE(lines_request_from_environment());
  ::setenv(env_lines_kernel, "_Z14gather_stridediPKfPf", 1);
  ::setenv(env_lines_sizes, "N=67108864", 1);
  ::setenv(env_lines_out, "/tmp/rooflint-verify-x", 1);
  const auto request = lines_request_from_environment();
  ::unsetenv(env_lines_kernel);
  ::unsetenv(env_lines_sizes);
  ::unsetenv(env_lines_out);
  ASSERT_TRUE(request);
  EXPECT_EQ(request->out_path, "/tmp/rooflint-verify-x");
  EXPECT_TRUE(is_requested_launch(*request, "_Z14gather_stridediPKfPf", "N=67108864"));
  EXPECT_FALSE(is_requested_launch(*request, "_Z14gather_stridediPKfPf", "N=1024"));   // other sizes
  EXPECT_FALSE(is_requested_launch(*request, "_Z14gather_stridediPKfPf", ""));         // sizes that did not bind
  EXPECT_FALSE(is_requested_launch(*request, "_Z5saxpyifPKfPf", "N=67108864"));         // another kernel
}

// A line (an observation of many lines is long) is written to its end, and a file that could not be
// opened is said, never a crash.
TEST(InjectLibrary, ALineIsAppendedWhole) {
  char path[] = "/tmp/rooflint-append-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string line(100000, 'x');
  EXPECT_TRUE(append_whole(fd, line + "\n"));
  EXPECT_EQ(::lseek(fd, 0, SEEK_END), 100001);  // 100000 characters and the newline
  ::close(fd);
  ::unlink(path);
  EXPECT_FALSE(append_whole(-1, "lost\n"));
}

// The wait after a free is the freed allocation's bytes at the assumed clearing rate, 0.2 TB/s: 4 GiB
// (4,294,967,296 bytes) take 21.47 ms, 2 GiB 10.74 ms; frees in a row are cleared one after the other;
// memory freed long ago is no wait (1 MiB a second later: 5.24 microseconds from then).
TEST(InjectLibrary, AWindowAfterAFreeWaitsForItsBytesToBeCleared) {
  using clock = freed_memory::clock;
  const clock::time_point t0 = clock::now();
  const std::size_t four_gib = std::size_t(4) << 30;
  const auto ms = [](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  freed_memory f;
  EXPECT_LE(f.cleared_at(), t0);
  f.freed(four_gib, t0);
  EXPECT_NEAR(ms(f.cleared_at() - t0), 21.47, 0.01);
  f.freed(four_gib / 2, t0 + 1ms);  // while the first is still being cleared: after it
  EXPECT_NEAR(ms(f.cleared_at() - t0), 21.47 + 10.74, 0.01);
  f.freed(1 << 20, t0 + 1s);  // long after: from then
  EXPECT_NEAR(ms(f.cleared_at() - (t0 + 1s)) * 1000, 5.24, 0.01);
}
