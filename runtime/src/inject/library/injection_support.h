#pragma once
// Pieces of the injection library (injection.cpp, line_observer.cpp) that need no GPU, apart so that
// host tests reach them (tests/runtime/inject_library_test.cpp): the measurement window's gate, the
// stream a launch API's null stream stands for, holding the library's mutex across fork(), and the
// write of one line to a file other processes append to.

#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <utility>

#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

/// The process's one measurement window (a launch's, or a region instance's across its kernels; one at
/// a time), guarded by the library's mutex. Closing the batch (a graph launch, a context about to go)
/// waits for it: closing while another thread's launch is counted would end the batch before that
/// launch's kernel ran, and the window would lose its range.
class window_gate {
 public:
  bool open() const { return open_; }
  void set_open() { open_ = true; }
  void set_closed() {
    open_ = false;
    cv_->notify_all();
  }
  /// Waits until no window is open, or @p stop_waiting (checked under the lock) says to go on anyway,
  /// or @p limit passed (a launch that never returns, a thread stopped inside one at exit: the closing
  /// goes on as it did before the gate); @p lock (of the mutex that guards the gate) is released while
  /// waiting. @return Whether the window is closed.
  bool wait_closed(std::unique_lock<std::mutex>& lock, const std::function<bool()>& stop_waiting = [] { return false; },
                   std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    return cv_->wait_for(lock, limit, [&] { return !open_ || stop_waiting(); }) && !open_;
  }
  /// In a child of fork(): no window, and a fresh condition variable (the parent's may list waiters,
  /// threads the child does not have; the old one is left, never destroyed).
  void reset_after_fork() {
    open_ = false;
    cv_ = new std::condition_variable;
  }

 private:
  bool open_ = false;
  std::condition_variable* cv_ = new std::condition_variable;  // never deleted: see reset_after_fork
};

/// @return @p function as a CUfunction of the current context: the runtime launches through a CUkernel
/// (a library's kernel), which the driver turns into the context's function; null where there is none.
inline CUfunction function_in_context(CUfunction function) {
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_LOADED;
  if (!function || cuFuncIsLoaded(&state, function) != CUDA_ERROR_INVALID_HANDLE) return function;
  CUfunction in_context = nullptr;  // not a CUfunction: a CUkernel
  return cuKernelGetFunction(&in_context, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS ? in_context : nullptr;
}

/// Loads @p function in the current context when lazy loading (CUDA's default) has not yet, and waits for
/// the device: a module's first load writes hundreds of MB of device memory (the H200, 2026-12-04: 434 MB
/// of DRAM writes in the window of the first kernel launched from llm.c's layernorm file, 3 MB with
/// CUDA_MODULE_LOADING=EAGER, 5 MB under ncu), which are not the kernel's. Before the window, as after a
/// harness's warm-up launch; its cubin is then captured for the per-line observation too. The runtime
/// launches through a CUkernel (a library's kernel), which the driver turns into the context's function
/// first.
/// Once per function and context, the first time it succeeds. It synchronises the context inside the
/// launch callback, as a window's start does already; a child of fork() never gets here (its callers
/// return first), so the guard needs no care across fork().
inline void load_before_window(CUfunction function) {
  static auto* prepared = new std::set<std::pair<CUfunction, CUcontext>>;  // never destroyed: used until exit
  static auto* guard = new std::mutex;  // the counting and the per-line observation both call it
  std::lock_guard<std::mutex> lock(*guard);
  CUcontext context = nullptr;
  if (!function || cuCtxGetCurrent(&context) != CUDA_SUCCESS || prepared->count({function, context})) return;
  const CUfunction in_context = function_in_context(function);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_LOADED;
  if (!in_context || cuFuncIsLoaded(&state, in_context) != CUDA_SUCCESS) return;
  if (state != CU_FUNCTION_LOADING_STATE_LOADED && cuFuncLoad(in_context) != CUDA_SUCCESS) return;
  if (cuCtxSynchronize() == CUDA_SUCCESS) prepared->insert({function, context});  // what the load wrote, done
}

/// Sets @p shape's registers a thread (as ptxas allocated them) and the blocks an SM holds of its launch
/// of @p function, where the driver says (after load_before_window: the function is loaded).
inline void add_occupancy(CUfunction function, launch_shape& shape) {
  const CUfunction f = function_in_context(function);
  if (!f) return;
  int registers = 0, blocks = 0;
  if (cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) shape.registers = registers;
  const std::int64_t threads = shape.block[0] * shape.block[1] * shape.block[2];
  if (cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, static_cast<int>(threads), static_cast<std::size_t>(shape.shared_bytes)) ==
      CUDA_SUCCESS)
    shape.blocks_per_sm = blocks;
}

/// Whether @p cbid is a launch API of the per-thread default stream (the _ptsz ones: what a program
/// built with --default-stream per-thread calls), where a null stream means that thread's stream.
inline bool per_thread_stream_api(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: return true;
    default: return false;
  }
}

/// @return The stream to ask about a launch of @p cbid on @p stream (cuStreamIsCapturing): a null
/// stream in a _ptsz API is CU_STREAM_PER_THREAD; asked as 0 the driver answers for the legacy stream,
/// which is not the one capturing.
inline CUstream stream_to_query(CUpti_CallbackId cbid, CUstream stream) {
  return stream == nullptr && per_thread_stream_api(cbid) ? CU_STREAM_PER_THREAD : stream;
}

/// Writes @p text to @p fd (opened with O_APPEND) in one write where the kernel allows, so that the lines
/// of forked or concurrent processes do not interleave. @return Whether all of it was written.
inline bool append_whole(int fd, const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

/// Holds @p mutex across every fork() of the process (pthread_atfork; call once): a fork while another
/// thread holds it would give the child a copy locked for ever (its owner does not exist there), and
/// the child's first launch would hang in the library. The child unlocks its copy, then runs @p child.
void hold_across_fork(std::mutex& mutex, void (*child)());

namespace fork_detail {
inline std::mutex* held = nullptr;
inline void (*child_handler)() = nullptr;
inline void prepare() {
  if (held) held->lock();
}
inline void parent() {
  if (held) held->unlock();
}
inline void child() {
  if (held) held->unlock();  // the child's one thread is the one that locked it in prepare()
  if (child_handler) child_handler();
}
}  // namespace fork_detail

inline void hold_across_fork(std::mutex& mutex, void (*child)()) {
  fork_detail::held = &mutex;
  fork_detail::child_handler = child;
  ::pthread_atfork(fork_detail::prepare, fork_detail::parent, fork_detail::child);
}

}  // namespace rooflint::runtime::inject
