// The injection library's lines mode: one SASS-metrics window around the program's own launch of the
// kernel asked for (line_observer.h).

#include "inject/library/line_observer.h"

#include <cuda.h>
#include <cupti.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>

#include "cupti/sass_lines.h"
#include "inject/library/injection_support.h"
#include "inject/library/launch_api.h"
#include "measure/lines.h"

namespace rooflint::runtime::inject {
namespace {

/// The lines mode's state: created once, never destroyed (the program's exit must not run our
/// destructors after CUDA has gone).
struct observer_state {
  lines_request request;
  std::optional<manifest_kernel> kernel;  ///< the requested kernel's manifest entry
  std::unique_ptr<cupti::cubin_capture> capture;
  long owner_pid = 0;  ///< the process that initialised us (a forked child's CUDA is unusable)
  int out_fd = -1;
  std::mutex mutex;         ///< guards the fields below
  bool window_open = false;
  bool written = false;     ///< this process wrote its observation (or why it has none)
  long other_sizes = 0;     ///< launches of the kernel at other sizes (or whose sizes did not bind)
  long in_capture = 0;      ///< launches at the sizes recorded into a graph (not run then)
};
observer_state* observer = nullptr;

/// The window this thread's launch opened at its API's entry, ended at its exit.
thread_local std::unique_ptr<cupti::sass_window> window;

bool in_owner() { return static_cast<long>(::getpid()) == observer->owner_pid; }

line_observation not_available(std::string why) {
  line_observation o;
  o.not_available = std::move(why);
  return o;
}

/// Appends @p o to the observation file (under observer->mutex); this process writes once.
void write_observation(const line_observation& o) {
  if (observer->out_fd >= 0) append_whole(observer->out_fd, line_observation_to_json(o) + "\n");
  observer->written = true;
}

/// Opens the window for a launch of @p function (under observer->mutex), or writes why it cannot.
void open_window(CUfunction function) {
  load_before_window(function);
  CUdevice device = 0;
  if (const CUresult r = cuCtxGetDevice(&device); r != CUDA_SUCCESS) {
    write_observation(not_available("cuCtxGetDevice failed (CUresult " + std::to_string(r) + ") at the kernel's launch"));
    return;
  }
  auto w = cupti::sass_window::begin(static_cast<int>(device));
  if (!w) {
    write_observation(not_available(w.err().message));
    return;
  }
  window = std::move(*w);
  observer->window_open = true;
}

void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData* cb) {
  if (!cb->symbolName || !observer->kernel || cb->symbolName != observer->request.mangled_name || !in_owner()) return;
  const manifest_kernel& k = *observer->kernel;
  const launch_call call = decode(cbid, cb->functionParams);
  const dsl::binding_result bound = k.spec.bind_launch(launch_values_of(k, call));
  const std::string sizes = bound.ok() ? sizes_text(k.spec, bound.bound) : std::string();
  std::lock_guard<std::mutex> lock(observer->mutex);
  if (observer->written || observer->window_open) return;  // one window per process
  if (!is_requested_launch(observer->request, cb->symbolName, sizes)) {
    ++observer->other_sizes;
    return;
  }
  if (capturing(cbid, call.stream)) {  // recorded into a graph, not run now
    ++observer->in_capture;
    return;
  }
  open_window(call.function);
}

void on_launch_exit(const CUpti_CallbackData* cb) {
  if (!window) return;  // this thread's launch opened none
  const result<cupti::sass_collection> got = window->end();
  window.reset();
  const auto* returned = static_cast<const CUresult*>(cb->functionReturnValue);
  const line_observation o =
      returned && *returned != CUDA_SUCCESS
          ? not_available("the program's launch of the kernel failed (CUresult " + std::to_string(*returned) + ")")
          : observation_of(got, *observer->capture);
  std::lock_guard<std::mutex> lock(observer->mutex);
  write_observation(o);
  observer->window_open = false;
}

void dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (observer->capture) observer->capture->on_callback(domain, cbid, data);
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite == CUPTI_API_ENTER) on_launch_enter(cbid, cb);
  else on_launch_exit(cb);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (!observer || !data) return;
  try {
    dispatch(domain, cbid, data);
  } catch (const std::exception& e) {  // it must not end the program the library was loaded into
    const bool held_the_window = window != nullptr;
    window.reset();
    std::lock_guard<std::mutex> lock(observer->mutex);
    if (held_the_window) observer->window_open = false;
    if (!observer->written) write_observation(not_available(std::string("internal error: ") + e.what()));
  }
}

/// At exit: a process that launched the kernel, never as asked for, says how it did launch it.
void say_why_not_observed() {
  if (!observer || !in_owner()) return;
  std::lock_guard<std::mutex> lock(observer->mutex);
  if (observer->written || (observer->other_sizes == 0 && observer->in_capture == 0)) return;
  const auto launches = [](long n) { return std::to_string(n) + (n == 1 ? " launch" : " launches"); };
  std::string seen;
  if (observer->other_sizes > 0) seen = launches(observer->other_sizes) + " at other sizes";
  if (observer->in_capture > 0)
    seen += (seen.empty() ? "" : ", ") + launches(observer->in_capture) + " recorded into a graph's capture";
  write_observation(not_available("the rerun never launched kernel '" + observer->kernel->kernel_name + "' at " +
                                  observer->request.sizes + " outside a CUDA graph (whose kernels are not observed): " +
                                  seen));
}

}  // namespace

int start_line_observer(const lines_request& request, std::vector<manifest_kernel> kernels) {
  observer = new observer_state;
  observer->request = request;
  observer->owner_pid = static_cast<long>(::getpid());
  for (manifest_kernel& k : kernels)
    if (k.mangled_name == request.mangled_name && !k.is_region()) {
      observer->kernel = std::move(k);
      break;
    }
  if (!request.out_path.empty()) observer->out_fd = ::open(request.out_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  CUpti_SubscriberHandle subscriber = nullptr;
  if (cuptiSubscribe(&subscriber, on_callback, nullptr) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "rooflint-inject: cuptiSubscribe failed (another CUPTI client, such as ncu or nsys, is attached?); no per-line traffic\n");
    std::lock_guard<std::mutex> lock(observer->mutex);
    write_observation(not_available("CUPTI's subscriber could not be had in the rerun (another profiler, such as ncu or nsys, is attached?)"));
    return 1;
  }
  // From now on, before any module loads: every cubin the kernel's PCs may be in is captured.
  auto capture = cupti::cubin_capture::attach(subscriber);
  if (!capture) {
    std::lock_guard<std::mutex> lock(observer->mutex);
    write_observation(not_available("capturing the kernel's cubin (CUPTI's module-loaded callback): " + capture.err().message));
    return 1;
  }
  observer->capture = std::move(*capture);
  if (!observer->kernel) {  // the manifests changed since the measured run
    std::lock_guard<std::mutex> lock(observer->mutex);
    write_observation(not_available("no manifest of the rerun has kernel '" + request.mangled_name + "'"));
    return 0;
  }
  for (const CUpti_CallbackId id : kernel_launch_apis) cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  std::atexit(say_why_not_observed);
  return 0;
}

}  // namespace rooflint::runtime::inject
