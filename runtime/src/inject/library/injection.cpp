// librooflint-inject.so: loaded into an unmodified program by the CUDA driver (CUDA_INJECTION64_PATH),
// which calls InitializeInjection() when the program initialises CUDA. It subscribes to CUPTI's
// callbacks on every kernel launch API, and for each launch of a kernel the manifests annotate:
//   - reads the launch's integer arguments (kernelParams, or the packed buffer of `extra`) and its grid
//     and block, and binds the spec's sizes (spec.bind_launch, the manifest's parameter layout);
//   - for the first launch of each distinct (kernel, sizes) (ROOFLINT_INJECT_LAUNCHES per key), at the
//     API's entry: waits for the device, flushes L2 with a read-only sweep and starts counting the core
//     metric group (user replay: one pass, so the counted launch is the program's own and its results
//     do not change; in batches of windows, a user range per window by default, ROOFLINT_INJECT_RANGES=auto
//     for auto range); at the API's exit: stops, and records the counters and the launch's duration
//     (verify_session::begin_external / end_external, the harness verifier's session);
//   - appends one JSON line per annotated launch to ROOFLINT_INJECT_OUTPUT (inject.h);
//   - groups launches of a region's kernels into instances (region_tracker, inject.h): the first kernel's
//     entry opens one window of counters for all the region's kernels (one range each, summed), the last
//     kernel's exit closes it, and the instance is one line, like one launch of a kernel.
// Unannotated kernels are not touched. The library's own launches (the L2 flush) are recognised by a
// thread-local flag and pass through. With ROOFLINT_LINES_KERNEL set (a per-line rerun of the program),
// none of this runs: the lines mode does (line_observer.h).

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "inject/library/freed_memory.h"
#include "inject/library/injection_support.h"
#include "inject/library/launch_api.h"
#include "inject/library/line_observer.h"
#include "support/process.h"
#include "rooflint/runtime/inject.h"
#include "measure/session.h"

namespace rooflint::runtime::inject {
namespace {

/// Everything the library keeps; created once in InitializeInjection and never destroyed (the
/// program's exit must not run our destructors after CUDA has gone).
struct injection_state {
  std::map<std::string, manifest_kernel> kernels;  ///< by mangled name
  int out_fd = -1;
  int launches_per_key = 1;
  verify_options options;
  std::mutex mutex;                             ///< serialises measurements and the maps below
  std::map<std::string, int> measured_per_key;  ///< mangled name + sizes -> launches measured
  verify_session* session = nullptr;
  std::map<std::string, long> driver_calls, runtime_calls;
  window_gate window;                           ///< open: a launch or a region instance is being counted
  std::vector<manifest_kernel> regions;         ///< regions with launch sizes, in manifest order
  region_tracker tracker;
  /// Windows per batch (ROOFLINT_INJECT_BATCH, read once; 0: one profiling session per window).
  int batch_capacity = default_batch_capacity;
  bool batch_user_range = default_batch_user_range;  ///< ROOFLINT_INJECT_RANGES=auto: every kernel a range
  /// Device memory changed in a way `freed` cannot follow since the last window opened: the next
  /// window starts a new batch (see memory_apis).
  bool memory_changed = false;
  std::string memory_changed_by;  ///< the memory API that did
  std::map<std::string, long> batch_closes;  ///< counter batches decoded, by why they were closed
  freed_memory freed;  ///< when the memory freed so far has been cleared
  /// Measured launches whose counters wait for their batch to be decoded, with their window's index.
  std::vector<std::pair<int, launch_event>> deferred;
  long owner_pid = 0;          ///< the process that initialised us (a forked child is another)
  long pending_serial = 0;     ///< provisional lines written (their tokens: pid:serial)
  bool exit_flush_registered = false;
};

/// The open instance of a region (under state->mutex): what its line will say, and its window.
struct region_instance {
  bool active = false;
  int region = -1;
  bool counting = false;  ///< this instance holds the counting window
  bool began = false;
  error begin_error;
  cudaStream_t stream = nullptr;
  bool repeat = false;    ///< its (region, sizes) was measured often enough already
  bool counted = false;   ///< counted towards --launches for its (region, sizes)
  launch_event event;
};
region_instance instance;

injection_state* state = nullptr;

/// Whether this is the process that initialised CUDA (a child of fork() cannot use it, nor CUPTI).
bool in_owner() { return state && static_cast<long>(::getpid()) == state->owner_pid; }
thread_local bool busy = false;  ///< inside our own CUDA calls: their launches pass through

/// Marks this thread's CUDA calls as the library's own while it lives (their callbacks return at once).
/// It nests: an inner one restores the outer state instead of clearing it. A plain `busy = false` inside
/// an outer own-call section let the section's next runtime call reach the callback, which then waited
/// for the mutex the section held (rooflint-verify hung on the example program, H200 2026-12-01).
class own_calls {
 public:
  own_calls() : outer_(busy) { busy = true; }
  ~own_calls() { busy = outer_; }
  own_calls(const own_calls&) = delete;
  own_calls& operator=(const own_calls&) = delete;

 private:
  bool outer_;
};

/// A measurement begun at a launch's entry, finished at its exit (same thread, same call).
struct pending_launch {
  bool active = false;
  bool began = false;
  cudaStream_t stream = nullptr;
  std::string key;
  launch_event event;
  error begin_error;
};
thread_local pending_launch pending;
thread_local bool region_completes = false;  ///< this thread's launch closes a region instance at its exit

void emit(const std::string& line) {
  if (state->out_fd >= 0) append_whole(state->out_fd, line);
}

/// Device memory released. Measured on the H200 (2026-12-01): inside a batch, a window that followed the
/// program's cudaFree of GBs counted up to 2 GB of DRAM writes that no SM made (the stores reaching L2
/// were exact) and ran up to 37% longer, spread over the next few windows: the driver clears freed memory
/// in the background (freed_memory.h). An allocation, touched or not, left nothing to clear, so
/// allocations are not followed. A free (cuMemFree) is followed by its size, asked of the driver as it
/// starts; after any other of these a window starts a new batch, whose Start (35 ms) outlasted the
/// clearing in every case measured.
constexpr CUpti_CallbackId memory_apis[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemFree,        CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync,   CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemRelease,     CUPTI_DRIVER_TRACE_CBID_cuMemUnmap,
    CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo,  CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy,
};

bool is_memory_api(CUpti_CallbackId cbid) {
  return std::find(std::begin(memory_apis), std::end(memory_apis), cbid) != std::end(memory_apis);
}

/// The process's session, created at its first window (never deleted: see injection_state).
verify_session& session() {
  if (!state->session) {
    state->session = new verify_session(state->options);
    state->session->set_external_batch(state->batch_capacity, state->batch_user_range);
  }
  return *state->session;
}

/// Decodes the open batch and writes the lines of the launches that waited for it (under
/// state->mutex); @p why it closes is counted (each batch's Start is most of the "arm" phase). Nothing
/// in a forked child: the batch and its lines are the parent's.
void flush_batch(const std::string& why) {
  if (!in_owner() || !state->session || !state->session->external_batch_open()) return;
  ++state->batch_closes[why];
  auto values = [] {
    own_calls own;
    return state->session->close_external_batch();
  }();
  for (auto& [window, e] : state->deferred) {
    if (values && window < static_cast<int>(values->size())) {
      state->session->complete_window(*e.m, (*values)[static_cast<std::size_t>(window)]);
    } else {
      e.m->counters.unavailable_reason = "core group not collected: " + (values ? std::string("no range for the window") : values.err().message);
    }
    emit(to_json_line(e));
  }
  state->deferred.clear();
}

/// Writes the line of a measured launch, or keeps it until its batch is decoded (@p window >= 0);
/// a full batch is decoded at once, so that the next window opens a fresh one.
void emit_measured(launch_event& e, int window) {
  if (window < 0) {
    emit(to_json_line(e));
  } else {
    // A provisional line now: a program killed before the batch is decoded still shows the launch.
    e.pending = std::to_string(::getpid()) + ":" + std::to_string(++state->pending_serial);
    launch_event provisional = e;
    provisional.measured = false;
    provisional.m.reset();
    provisional.not_measured = "its counters were still in an open batch when the program ended (killed by a signal, or _exit)";
    emit(to_json_line(provisional));
    state->deferred.emplace_back(window, std::move(e));
  }
  if (state->session && state->session->external_batch_full()) flush_batch("full");
}

void flush_at_exit();

/// Closes the batch (under @p lock, of state->mutex) once no launch of another thread is being counted:
/// its window would lose its range (window_gate). A region instance's window (held between its
/// kernels' launches, maybe by this thread) is not waited for: it stays as before, closed with the batch.
/// The wait is bounded (window_gate::wait_closed: 10 s), so that a launch that never returns cannot hang
/// the program's exit here.
void close_batch_after_window(std::unique_lock<std::mutex>& lock, const std::string& why) {
  state->window.wait_closed(lock, [] { return instance.counting; });
  flush_batch(why);
}

/// Gives the GPU's counters to another process that waits for them (under state->mutex, between
/// windows): the open batch is decoded first and its lines written. The processes of a program (workers
/// on one GPU) so take turns window by window; a process alone keeps its batch open.
void yield_counters_if_wanted() {
  if (!in_owner() || !state->session || state->window.open() || instance.counting) return;
  if (!state->session->counters_wanted_elsewhere()) return;
  flush_batch("for another process's turn");
  own_calls own;
  state->session->yield_counters();
}

/// Before a window opens for a launch of @p function (under state->mutex): the function's module loaded
/// (load_before_window), a batch open across a change of memory freed_memory cannot follow closed, so
/// that the window's session starts afresh, and the clearing of the memory freed since waited for
/// (memory_apis says why).
void before_window(CUfunction function) {
  load_before_window(function);
  if (state->memory_changed) flush_batch(state->memory_changed_by);
  state->memory_changed = false;
  session().wait_until(state->freed.cleared_at());
}

/// The size of the allocation this thread's cuMemFree is freeing (0: not known), noted as it starts.
thread_local std::size_t freeing_bytes = 0;

/// As a free starts: the size of the allocation at @p dptr, whoever allocated it; 0 for managed memory,
/// whose clearing was not measured (its free closes the batch).
void note_freeing(CUdeviceptr dptr) {
  CUdeviceptr base = 0;
  std::size_t bytes = 0;
  unsigned managed = 0;
  own_calls own;
  const bool sized = dptr && cuMemGetAddressRange(&base, &bytes, dptr) == CUDA_SUCCESS &&
                     cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, dptr) == CUDA_SUCCESS && !managed;
  freeing_bytes = sized ? bytes : 0;
}

/// Whether a free of @p cbid is of address 0 (cudaFree(nullptr), which a moved-from owner's destructor
/// calls, reaches the driver and succeeds): it frees nothing.
bool frees_nothing(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2: return static_cast<const cuMemFree_v2_params*>(cb.functionParams)->dptr == 0;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync: return static_cast<const cuMemFreeAsync_params*>(cb.functionParams)->dptr == 0;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
      return static_cast<const cuMemFreeAsync_ptsz_params*>(cb.functionParams)->dptr == 0;
    default: return false;
  }
}

/// A memory API returned (under state->mutex): a free of known size delays the next window until the
/// driver has cleared its bytes; any other release closes the batch.
void on_memory_api(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) {
  const std::size_t bytes = std::exchange(freeing_bytes, 0);
  const CUresult* status = static_cast<const CUresult*>(cb.functionReturnValue);
  if ((status && *status != CUDA_SUCCESS) || frees_nothing(cbid, cb)) return;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2 && bytes > 0) {
    state->freed.freed(bytes, freed_memory::clock::now());
    return;
  }
  state->memory_changed = true;
  state->memory_changed_by = std::string("after ") + (cb.functionName ? cb.functionName : "a memory API");
}

/// After the first window opened: the batch is decoded at exit, before the CUDA runtimes' own exit
/// handlers run (they were registered earlier, so they run later).
void register_exit_flush() {
  if (state->exit_flush_registered || !state->session || !state->session->external_batch_open()) return;
  state->exit_flush_registered = true;
  std::atexit(flush_at_exit);
}

const char* const graph_capture_reason =
    "launched while its stream was capturing a CUDA graph: the kernel runs when the graph is launched, and graph "
    "launches are not measured (CUPTI 13.0's auto range records only a graph's first kernel node)";

int region_launches(const region_instance& i) { return static_cast<int>(state->regions[static_cast<std::size_t>(i.region)].region.size()); }

/// Ends the open instance unfinished (under state->mutex): its window, if it holds one, is closed and
/// dropped; its line says why. @p counters_usable: false at exit, when CUDA may be gone.
void abandon_instance(const std::string& reason, bool counters_usable = true) {
  if (!instance.active) return;
  if (instance.counting) {
    if (counters_usable && instance.began) {
      own_calls own;
      state->session->abandon_external(region_launches(instance));
    }
    state->window.set_closed();
  }
  launch_event& e = instance.event;
  // An instance left unfinished measured nothing: a later complete one at its sizes is no repeat.
  if (instance.counted) --state->measured_per_key[state->regions[static_cast<std::size_t>(instance.region)].mangled_name + "|" + e.sizes];
  e.measured = false;
  e.m.reset();
  if (e.sizes.empty()) e.bound = true;  // not read yet: no binding problem, the instance is only unfinished
  e.not_measured = "instance not complete: " + reason;
  emit(to_json_line(e));
  instance = {};
}

/// A launch that is kernel step.position of region step.region (under state->mutex).
void on_region_launch(const region_step& step, CUpti_CallbackId cbid, const launch_call& call) {
  const manifest_kernel& r = state->regions[static_cast<std::size_t>(step.region)];
  if (step.begins) {
    instance = {};
    instance.active = true;
    instance.region = step.region;
    instance.stream = reinterpret_cast<cudaStream_t>(call.stream);
    instance.event.mangled_name = r.mangled_name;
    instance.event.pid = static_cast<long>(::getpid());
    instance.event.api = driver_api_name(cbid);
  }
  launch_event& e = instance.event;
  const int site = r.spec.launch.sizes[0].site;  // regions without launch sizes are not tracked
  if (step.position == site) {
    const dsl::launch_values values = launch_values_of(r, call);
    const dsl::binding_result b = r.spec.bind_launch(values);
    e.bound = b.ok();
    if (!e.bound) {
      e.problem = binding_problem(r, b, values);
    } else {
      e.sizes = sizes_text(r.spec, b.bound);
      for (int i = 0; i < r.spec.dim_count; ++i) e.size_values.push_back(b.bound.values[i]);
      instance.repeat = state->measured_per_key[r.mangled_name + "|" + e.sizes] >= state->launches_per_key;
    }
  }
  const region_window w = plan_region_window(step, site, e.bound, instance.repeat, state->window.open(), instance.counting);
  if (w.busy_elsewhere) e.not_measured = "another launch was being measured at the same time (launches from several threads)";
  if (w.open) {
    state->window.set_open();
    instance.counting = true;
    auto began = [&] {
      own_calls own;
      before_window(call.function);
      return session().begin_external(instance.stream, region_launches(instance));
    }();
    register_exit_flush();
    instance.began = began.ok();
    if (!began) instance.begin_error = began.err();
  }
  if (w.close_unused) {
    if (instance.began) {
      own_calls own;
      state->session->abandon_external(region_launches(instance));
    }
    instance.counting = false;
    state->window.set_closed();
  }
  if (w.count) {
    ++state->measured_per_key[r.mangled_name + "|" + e.sizes];
    instance.counted = true;
  }
  if (step.completes) {
    instance.active = true;  // a one-kernel region opens and closes at this launch
    region_completes = true;
  }
}

/// At the exit of a region's last kernel's launch API (under state->mutex): the instance's line.
void finish_instance() {
  region_completes = false;
  if (!instance.active) return;
  launch_event& e = instance.event;
  int window = -1;
  if (instance.counting) {
    measurement m;
    if (instance.began) {
      own_calls own;
      m = state->session->end_external(e.mangled_name, instance.stream, region_launches(instance), &window);
    } else {
      m.case_name = e.mangled_name;
      m.status = instance.begin_error.code == error_code::unavailable ? run_status::not_measured : run_status::faulted;
      m.error = "not measured: " + instance.begin_error.message;
    }
    state->window.set_closed();
    e.measured = true;
    e.m = std::move(m);
  }
  emit_measured(e, window);
  instance = {};
  yield_counters_if_wanted();
}

/// @return Whether the launch belongs to a region (then handled here, and not as a kernel of its own).
bool track_regions(CUpti_CallbackId cbid, const CUpti_CallbackData* cb) {
  if (state->tracker.empty()) return false;
  const launch_call call = decode(cbid, cb->functionParams);
  launch_record rec;
  rec.symbol = cb->symbolName;
  rec.stream = reinterpret_cast<std::uint64_t>(call.stream);
  rec.thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  rec.annotated = state->kernels.count(rec.symbol) > 0;
  if (!in_owner() || capturing(cbid, call.stream)) return false;  // not run now: reported as a kernel's launch
  std::lock_guard<std::mutex> lock(state->mutex);
  const region_step step = state->tracker.on_launch(rec);
  if (step.abandoned >= 0) abandon_instance(step.abandoned_reason);
  if (step.region < 0) return false;
  on_region_launch(step, cbid, call);
  return true;
}

void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData* cb) {
  if (!cb->symbolName) return;
  if (track_regions(cbid, cb)) return;  // a region's kernel: judged with its region, not alone
  const auto found = state->kernels.find(cb->symbolName);
  if (found == state->kernels.end()) return;  // not annotated: untouched
  const manifest_kernel& k = found->second;
  const launch_call call = decode(cbid, cb->functionParams);
  const dsl::launch_values values = launch_values_of(k, call);

  pending = {};
  launch_event& e = pending.event;
  e.mangled_name = k.mangled_name;
  e.pid = static_cast<long>(::getpid());
  e.api = driver_api_name(cbid);
  e.shape = call.shape;
  const dsl::binding_result r = k.spec.bind_launch(values);
  e.bound = r.ok();
  if (!e.bound) {
    e.problem = binding_problem(k, r, values);
    emit(to_json_line(e));
    return;
  }
  e.sizes = sizes_text(k.spec, r.bound);
  for (int i = 0; i < k.spec.dim_count; ++i) e.size_values.push_back(r.bound.values[i]);

  if (!in_owner()) {  // a child of fork(): its CUDA calls fail, the launch with them
    e.not_measured = "launched in a child of fork(): CUDA belongs to the parent that initialised it";
    emit(to_json_line(e));
    return;
  }
  if (capturing(cbid, call.stream)) {  // recorded into a graph, not run: nothing to measure now
    e.not_measured = graph_capture_reason;
    emit(to_json_line(e));
    return;
  }
  std::lock_guard<std::mutex> lock(state->mutex);
  const std::string key = k.mangled_name + "|" + e.sizes;
  if (state->measured_per_key[key] >= state->launches_per_key) {
    emit(to_json_line(e));  // seen, a repeat of a measured (kernel, sizes)
    return;
  }
  if (state->window.open()) {  // another thread's launch is being counted: one range at a time
    e.not_measured = "another launch was being measured at the same time (launches from several threads)";
    emit(to_json_line(e));
    return;
  }
  state->window.set_open();
  ++state->measured_per_key[key];
  pending.active = true;
  pending.key = key;
  pending.stream = reinterpret_cast<cudaStream_t>(call.stream);
  auto began = [&] {
    own_calls own;
    before_window(call.function);
    add_occupancy(call.function, *e.shape);  // the measured launch's registers and blocks per SM
    return session().begin_external(pending.stream);
  }();
  register_exit_flush();
  pending.began = began.ok();
  if (!began) pending.begin_error = began.err();
}

void on_launch_exit() {
  if (region_completes) {
    std::lock_guard<std::mutex> lock(state->mutex);
    finish_instance();
    return;
  }
  if (!pending.active) return;
  pending.active = false;
  launch_event& e = pending.event;
  std::lock_guard<std::mutex> lock(state->mutex);
  measurement m;
  int window = -1;
  if (pending.began) {
    own_calls own;
    m = state->session->end_external(e.mangled_name, pending.stream, 1, &window);
  } else {
    m.case_name = e.mangled_name;
    // The device, the flush or the events failed (the profiler's own failures are timing-only verdicts,
    // from end_external): the launch ran, unmeasured.
    m.status = pending.begin_error.code == error_code::unavailable ? run_status::not_measured : run_status::faulted;
    m.error = "not measured: " + pending.begin_error.message;
  }
  state->window.set_closed();
  e.measured = true;
  e.m = std::move(m);
  emit_measured(e, window);
  yield_counters_if_wanted();
}

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (busy || !state) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    // A context about to go (cudaDeviceReset, cuCtxDestroy, the runtime's teardown): decode the batch
    // while its context still exists.
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      std::unique_lock<std::mutex> lock(state->mutex);
      close_batch_after_window(lock, "at a context's end");
    }
    return;
  }
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (cb->callbackSite == CUPTI_API_ENTER) {
      std::lock_guard<std::mutex> lock(state->mutex);
      ++state->runtime_calls[cb->functionName ? cb->functionName : "?"];
    }
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  if (is_memory_api(cbid)) {
    if (cb->callbackSite == CUPTI_API_ENTER) {
      if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2)
        note_freeing(static_cast<const cuMemFree_v2_params*>(cb->functionParams)->dptr);
    } else {
      std::lock_guard<std::mutex> lock(state->mutex);
      on_memory_api(cbid, *cb);
    }
    return;
  }
  if (cb->callbackSite == CUPTI_API_ENTER) {
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      ++state->driver_calls[driver_api_name(cbid)];
    }
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
      std::unique_lock<std::mutex> lock(state->mutex);
      // A graph's kernels are launches too: an open region instance does not survive them.
      if (!state->tracker.empty())
        if (const region_step step = state->tracker.on_launch({"(a CUDA graph)", 0, 0, true}); step.abandoned >= 0)
          abandon_instance(step.abandoned_reason);
      // No graph runs inside a started session: CUPTI 13.0 failed on graphs under auto range with user
      // replay (docs/cupti.md §7); the batch is decoded first and the next window starts a new one.
      close_batch_after_window(lock, "before a graph launch");
      return;
    }
    if (state->session) {  // a batch at its limit is closed before another kernel would be a range of it
      std::lock_guard<std::mutex> lock(state->mutex);
      if (!state->window.open() && state->session->external_batch_full()) flush_batch("full");
      yield_counters_if_wanted();
    }
    on_launch_enter(cbid, cb);
  } else {
    const auto* returned = static_cast<const CUresult*>(cb->functionReturnValue);
    // A kernel that ran inside an auto-range batch is one of its ranges; one recorded into a graph (its
    // stream capturing) did not run and is none: counted, it made the batch's ranges and launches differ,
    // and the whole batch was refused. A graph launch is not a kernel either (the batch was closed first).
    const bool graph = cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
    if (state->session && !graph && (!returned || *returned == CUDA_SUCCESS) &&
        !capturing(cbid, decode(cbid, cb->functionParams).stream)) {
      std::lock_guard<std::mutex> lock(state->mutex);
      state->session->note_external_launch();
    }
    on_launch_exit();
  }
}

void flush_at_exit() {
  if (!state || !in_owner()) return;
  std::lock_guard<std::mutex> lock(state->mutex);
  abandon_instance("the program ended before the region's last kernel was launched");
  flush_batch("at exit");
}

void report_api_counts() {
  if (!state) return;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    abandon_instance("the program ended before the region's last kernel was launched", false);
    flush_batch("at exit");  // a batch no exit handler of ours decoded yet (its context still there)
  }
  api_counts c;
  c.pid = static_cast<long>(::getpid());
  c.command = command_line_of(c.pid);  // a worker of a program is told apart from its parent by it
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    c.driver.assign(state->driver_calls.begin(), state->driver_calls.end());
    c.runtime.assign(state->runtime_calls.begin(), state->runtime_calls.end());
    for (const auto& [key, n] : state->measured_per_key) c.measured += n;
    if (state->session) c.rooflint_seconds = state->session->external_seconds();
    c.batches.assign(state->batch_closes.begin(), state->batch_closes.end());
  }
  emit(to_json_line(c));
}

/// In a child of fork(): CUDA and CUPTI belong to the parent. The child reports its own launches (seen;
/// not measured, as its CUDA calls fail), never the parent's pending lines or counts.
void forked_child() {
  if (!state) return;
  state->deferred.clear();
  state->measured_per_key.clear();
  state->driver_calls.clear();
  state->runtime_calls.clear();
  state->batch_closes.clear();  // the parent's batches
  state->memory_changed = false;
  state->memory_changed_by.clear();
  if (state->session) state->session->forget_counter_turn_after_fork();  // the GPU's turn stays the parent's
  state->session = nullptr;  // the parent's (leaked in the child: its CUDA state is unusable here)
  state->window.reset_after_fork();
  instance = {};
}

/// The kernels and regions of the manifests in @p list (':'-separated) whose launches can bind: a spec
/// without .sizes() cannot bind a launch, and is left alone.
std::vector<manifest_kernel> launchable_kernels(const char* list) {
  std::vector<manifest_kernel> out;
  const std::string paths = list ? list : "";
  for (std::size_t start = 0; start <= paths.size();) {
    const std::size_t end = std::min(paths.find(':', start), paths.size());
    if (end > start)
      if (auto kernels = read_manifest(paths.substr(start, end - start)))
        for (auto& k : *kernels)
          if (k.spec.launch.kind != dsl::binding_kind::none && k.unverifiable.empty()) out.push_back(std::move(k));
    start = end + 1;
  }
  return out;
}

int initialize() {
  std::vector<manifest_kernel> kernels = launchable_kernels(std::getenv(env_manifests));
  // A per-line rerun: the lines mode alone, nothing of the measuring below (line_observer.h says why).
  if (const auto request = lines_request_from_environment()) return start_line_observer(*request, std::move(kernels));
  state = new injection_state;
  state->owner_pid = static_cast<long>(::getpid());
  if (const char* b = std::getenv(env_batch); b && *b) state->batch_capacity = std::max(0, std::atoi(b));
  if (const char* r = std::getenv(env_ranges); r && std::string(r) == "auto") state->batch_user_range = false;
  if (const char* out = std::getenv(env_output); out && *out)
    state->out_fd = ::open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (const char* n = std::getenv(env_launches); n && std::atoi(n) > 0) state->launches_per_key = std::atoi(n);
  if (const char* c = std::getenv(env_counters); c && std::string(c) == "0") state->options.counters = false;
  state->options.progress = false;
  for (auto& k : kernels) {
    if (k.is_region()) {
      if (std::none_of(state->regions.begin(), state->regions.end(), [&](const manifest_kernel& r) { return r.mangled_name == k.mangled_name; }))
        state->regions.push_back(std::move(k));
    } else {
      state->kernels.emplace(k.mangled_name, std::move(k));
    }
  }
  std::vector<std::vector<manifest_region_kernel>> members;
  for (const manifest_kernel& r : state->regions) members.push_back(r.region);
  state->tracker = region_tracker(std::move(members));
  CUpti_SubscriberHandle subscriber = nullptr;
  if (cuptiSubscribe(&subscriber, callback, nullptr) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "rooflint-inject: cuptiSubscribe failed (another CUPTI client, such as ncu or nsys, is attached?); nothing is measured\n");
    return 1;
  }
  for (const CUpti_CallbackId id : kernel_launch_apis) cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (const CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  // Runtime launch APIs are only counted: every runtime launch reaches a driver launch API, which is
  // where launches are bound and measured (docs/verifier.md records what the H200 showed).
  for (const CUpti_CallbackId id :
       {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
        CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000})
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  for (const CUpti_CallbackId id : memory_apis) cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  hold_across_fork(state->mutex, forked_child);  // a fork while another thread holds it must not hang the child
  std::atexit(report_api_counts);
  return 0;
}

}  // namespace
}  // namespace rooflint::runtime::inject

/// Called by the CUDA driver when it loads the library named by CUDA_INJECTION64_PATH. An exception
/// must not end the program the library was loaded into: it then measures nothing, and says why.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  try {
    return rooflint::runtime::inject::initialize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooflint-inject: %s; nothing is measured\n", e.what());
    return 1;
  }
}
