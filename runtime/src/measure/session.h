#pragma once
// The state one process keeps while it measures cases: device, L2 flush buffer, stream, NVML handle,
// and the CUPTI range profiler with one config per metric group (reused across cases).

#include <cuda_runtime.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cupti/cupti.h"
#include "measure/external_launch_batch.h"
#include "measure/l2_flush.h"
#include "support/counter_turn.h"
#include "support/nvml.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime {

/// Stores the core group's values (cupti::core_metrics() order) into @p k; used by every measurement.
void store_core_values(counter_values& k, const std::vector<double>& values);

class verify_session {
 public:
  explicit verify_session(const verify_options& options);
  ~verify_session();
  verify_session(const verify_session&) = delete;
  verify_session& operator=(const verify_session&) = delete;

  /// Measures @p c; faults come back as run_status::faulted (the CUDA context may then be unusable).
  measurement measure(const case_definition& c);

  /// Measuring one launch that someone else makes (rooflint-verify's injection library, inside the
  /// launch API's callback; external_launch.cpp). begin_external() waits for the device, flushes L2
  /// (read-only sweep, outside the window) and starts counting the core group for one kernel launch;
  /// the caller lets that launch happen; end_external() stops counting and returns the launch's
  /// counters, and its duration (gpu__time_duration) as the timing of one run. The core group is one
  /// pass, counted with user replay: the counted launch is the program's own, nothing is replayed.
  /// @p launch_stream: the stream of the launch (its CUDA events time it when no counter can).
  /// @p launches: the kernel launches the window holds (a region's instance: its kernels, one range
  /// each, summed by end_external like the harness sums a case's launches).
  result<void> begin_external(cudaStream_t launch_stream, int launches = 1);
  /// @p window: set to the window's index in the open batch when its counters come later (from
  /// close_external_batch, then complete_window), else -1.
  measurement end_external(const std::string& case_name, cudaStream_t launch_stream, int launches = 1,
                           int* window = nullptr);
  /// Closes a window begun by begin_external without a measurement (a region's instance abandoned).
  void abandon_external(int launches);

  /// Counts external windows in batches of @p capacity (0: one profiling session per window). A batch
  /// is one CUPTI session (user range, user replay) for a one-pass core group; with more passes every
  /// window has its own session.
  /// @p user_range: one user range per window (pushed and popped around it); else auto range, where
  /// every kernel launched while the batch is open is a range, and note_external_launch() counts them.
  /// No default for @p user_range: the injection library's (inject::default_batch_user_range) is the one.
  void set_external_batch(int capacity, bool user_range);
  /// A kernel launch of the program returned (any kernel, annotated or not; not this session's own).
  void note_external_launch();
  bool external_batch_open() const;
  /// Waits until @p t before the next window (the driver's clearing of memory the program freed:
  /// inject/library/freed_memory.h), counted in the "clear" phase.
  void wait_until(std::chrono::steady_clock::time_point t);
  /// Whether the open batch has no room for another window (close it before the next begin_external).
  bool external_batch_full() const;
  /// Stops and decodes the open batch: per window (end_external's index), the core values or nothing.
  result<std::vector<std::optional<std::vector<double>>>> close_external_batch();
  /// Puts a window's core values (or why there are none) into its measurement @p m from end_external.
  void complete_window(measurement& m, const std::optional<std::vector<double>>& values) const;

  /// rooflint's own wall time around the external launches measured so far, per phase, in s (each
  /// wall-clock second in exactly one phase): "arm" (counter data and config; a batch's set-up and Start), "wait" (for the program's
  /// earlier work), "clear" (for the driver's clearing of the memory the program freed), "flush" (the L2 sweep), "start" (CUDA events, the profiler's Start or a batch's
  /// range push), "launch" (the program's launch call while counted: CUPTI's own work on it, and the
  /// kernel when the call waits), "stop" (waiting for the launch, a batch's range pop), "decode" (Stop,
  /// decoding and evaluating), "clock" (NVML's SM clock), "turn" (waiting while another process counted
  /// on the GPU: counter_turn).
  const std::vector<std::pair<std::string, double>>& external_seconds() const { return external_seconds_; }

  /// Whether another process waits for this GPU's counters while this session holds them (counter_turn).
  bool counters_wanted_elsewhere() const;
  /// Gives the GPU's counters back (no batch may be open: close it first): the profiler is disabled and
  /// the turn released; the next window or case takes a turn again.
  void yield_counters();
  /// In a child of fork(): lets go of the parent's counter turn without giving it back (counter_turn).
  void forget_counter_turn_after_fork();

 private:
  /// The device, its L2 flush buffer and stream. @p current: the thread's current device (a program's
  /// launch, left current), else device 0 (a case of the harness).
  result<void> ensure_device(bool current = false);
  /// The profiler and the metric groups' configs: the core group only for external launches (one
  /// pass on the program's own launch), every group for a case. Each config costs CUPTI host work once.
  enum class groups { core, all };
  void ensure_profiler(groups wanted);
  /// Takes this GPU's counter turn before the profiler counts (waits for another process's window).
  result<void> take_counter_turn();
  std::optional<cupti::config> make_group(const char* group, std::vector<std::string> metrics);
  /// measure()'s counting step (measure.cu); @p fault: the message a faulted launch left (empty: none).
  bool count(const case_definition& c, int launches, const std::function<result<void>()>& prepare,
             const std::function<result<void>()>& launch, const std::string& fault, counter_values& k);
  /// measure()'s timing step (measure.cu); a fault is said in @p fault.
  void time_cold_runs(const case_definition& c, const launcher& l, const std::function<result<void>()>& prepare,
                      std::string& fault, timing_values& t);

  verify_options options_;
  bool device_ready_ = false;
  int ordinal_ = 0;  ///< the device counted on (ensure_device)
  device_snapshot device_;
  std::optional<l2_flush> flush_;
  cudaStream_t stream_ = nullptr;
  nvml_device nvml_device_;

  bool profiler_tried_ = false;
  bool instruction_groups_tried_ = false;  ///< the fp and tensor groups (ensure_profiler(groups::all))
  error profiler_error_;
  std::vector<std::string> group_notes_;
  std::optional<cupti::config> core_, fp_, tensor_;
  cupti::range_profiler* profiler_ = nullptr;
  std::optional<counter_turn> turn_;  ///< this GPU's counters, between processes (after ensure_device)
  error turn_error_;                  ///< why the open window could not take the turn (empty message: it did)
  bool external_counting_ = false;      ///< begin_external started the profiler
  cudaEvent_t external_start_ = nullptr, external_stop_ = nullptr;  ///< the process's (range_profiler::shared)
  /// The phases of external_seconds_, in its order.
  enum class external_phase { arm, wait, clear, flush, start, launch, stop, decode, clock, turn };
  double& phase_seconds(external_phase p);
  std::vector<std::pair<std::string, double>> external_seconds_{{"arm", 0},   {"wait", 0}, {"clear", 0},  {"flush", 0},
                                                                {"start", 0}, {"launch", 0}, {"stop", 0}, {"decode", 0},
                                                                {"clock", 0}, {"turn", 0}};
  int external_batch_capacity_ = 0;  ///< set_external_batch
  bool external_batch_user_ = false;
  int batch_kernels_ = 0;                ///< kernels launched in the open auto-range batch (its ranges so far)
  int batch_kernels_at_window_end_ = 0;
  std::vector<batch_window> batch_windows_;  ///< the open auto-range batch's windows
  int external_window_ = -1;         ///< the open window's index in the batch (-1: none, or not batched)
  std::chrono::steady_clock::time_point external_began_{};  ///< when begin_external handed the launch back
};

}  // namespace rooflint::runtime
