#pragma once
/// @file sass_lines.h
/// CUPTI's SASS metrics API (cupti_sass_metrics.h) for per-line traffic (rooflint/runtime/line_traffic.h):
/// the metrics of line_traffic_metrics() the chip offers, configured at GPU granularity, collected over
/// one launch in one enable/launch/flush/disable window, and the cubins CUPTI's module-loaded callback
/// hands over (for cuptiGetSassToSourceCorrelation: source_correlation.h).
///
/// Measured on the H200 with CUPTI 13.0.1 (docs/verifier.md, "Per-line traffic"; scripts/probes/sass-lines.cu):
/// only the first window of a process collects; setting the configuration a second time fails; the API
/// works neither while the activity API is enabled nor after the range profiler was used in the process.
/// So one window is opened per process, in a process that did nothing else with CUPTI: the harness
/// forks one per case for it (measure/lines.cpp, collect_sass_lines around the case's launch), and
/// rooflint-verify -- program reruns the program with the injection library in its lines mode, which
/// opens the window around the program's own launch (inject/library/line_observer.cpp: sass_window's
/// begin at the launch API's entry, end at its exit).

#include <cupti_callbacks.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::cupti {

/// The metrics of line_traffic_metrics() that @p offered (the chip's SASS metrics) has, in that order.
/// Errors (unavailable, naming @p chip): the load or store requests or the sectors are not offered.
result<std::vector<std::string>> line_metrics_offered(const std::vector<std::string>& offered, const std::string& chip);

/// One patched instruction record as cuptiSassMetricsFlushData gives it: the cubin's CRC (low 32 bits),
/// the function, the PC and one (metric id, value) per instance.
struct sass_raw_record {
  std::uint32_t cubin_crc = 0;
  std::string function;
  std::uint32_t pc = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> values;
};

/// @return The records merged per (cubin CRC, function, PC), in first-appearance order: each metric's
/// values summed over records and instances (GPU granularity gives one instance), named through
/// @p names (an id not in it is named "id <n>").
std::vector<sass_record> merge_sass_records(const std::vector<sass_raw_record>& raw,
                                            const std::map<std::uint64_t, std::string>& names);

/// The cubins of the modules loaded while it lives (CUPTI_CBID_RESOURCE_MODULE_LOADED). Create it before
/// the kernel's module loads: before the first CUDA call of the process, or at least before the kernel's
/// first launch (lazy module loading). One per process: CUPTI takes one subscriber per process (another
/// profiler attached makes create() fail with unavailable).
class cubin_capture {
 public:
  /// A capture with a subscriber of its own.
  static result<std::unique_ptr<cubin_capture>> create();
  /// A capture fed by @p subscriber, the caller's (an injection library's, the process's one subscriber):
  /// the module-loaded callback is enabled on it, and the caller's callback hands its callbacks to
  /// on_callback().
  static result<std::unique_ptr<cubin_capture>> attach(CUpti_SubscriberHandle subscriber);
  ~cubin_capture();
  cubin_capture(const cubin_capture&) = delete;
  cubin_capture& operator=(const cubin_capture&) = delete;

  /// @return The cubins captured so far, in load order (ELF images only).
  std::vector<std::shared_ptr<const std::vector<char>>> cubins() const;
  /// Keeps a copy of @p size bytes at @p image when they are an ELF image (the callback's work).
  void add(const char* image, std::size_t size);
  /// A CUPTI callback: a module-loaded one's cubin is added, any other is ignored.
  void on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);

 private:
  cubin_capture() = default;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const std::vector<char>>> cubins_;
  void* subscriber_ = nullptr;
};

/// What one window collected.
struct sass_collection {
  std::vector<sass_record> records;
  std::vector<std::string> metrics;  ///< those configured
  std::string chip;
  double window_s = 0;   ///< enable, the launch under patching, flush and disable
  std::size_t dropped = 0;  ///< records CUPTI dropped at disable
};

/// One collection window of the line metrics over one kernel launch (CUPTI 13.0 collects the first
/// function of a window), split around a launch the caller makes: begin() before it, end() after it.
/// A window destroyed without end() (the launch failed) is disabled and its configuration unset.
class sass_window {
 public:
  /// Configures the metrics of line_traffic_metrics() the chip of device @p ordinal offers (the required
  /// ones alone when the chip refuses the full set) and enables patching in the current context, which
  /// must be the device's. Errors: unavailable (device or chip without SASS metrics, another profiler
  /// attached, hardware busy), permission_denied (no counter permission), internal (a CUPTI call
  /// failed: it is named).
  static result<std::unique_ptr<sass_window>> begin(int ordinal);
  /// Waits for the device (the launch completes), flushes the records, disables patching and unsets the
  /// configuration. Errors: internal (a call failed, or no records: each names the call).
  result<sass_collection> end();
  ~sass_window();
  sass_window(const sass_window&) = delete;
  sass_window& operator=(const sass_window&) = delete;

 private:
  sass_window() = default;
  void close();
  void* ctx_ = nullptr;  ///< the CUcontext patching was enabled in
  int ordinal_ = 0;
  bool enabled_ = false;
  std::map<std::uint64_t, std::string> names_;  ///< the configured metrics by id
  sass_collection out_;
  std::chrono::steady_clock::time_point t0_;
};

/// Collects the line metrics over the launch @p launch makes (sass_window's begin, the launch, end), on
/// device @p ordinal, whose primary context must be current and whose kernel's module should be loaded
/// already (a warm-up launch). @p launch synchronises and says whether the launch worked. Errors: those
/// of sass_window, and the launch's.
result<sass_collection> collect_sass_lines(int ordinal, const std::function<result<void>()>& launch);

}  // namespace rooflint::runtime::cupti
