// Measuring a launch made by someone else (the program rooflint-verify runs): the same session, flush,
// profiler and core metric group as verify_session::measure, split around the program's own launch.
//
// Two ways of counting (verify_session::set_external_batch):
//   - one profiling session per window (auto range, one range per kernel): arm, Start before the launch,
//     Stop and decode after it. CUPTI's set-up of every Start costs tens of ms (docs/verifier.md).
//   - a batch (the default under rooflint-verify): one session (user range, user replay) kept started
//     across windows, one pushed range per window; the counters of a batch are decoded together when it
//     is full or closed, and handed back per window (close_external_batch).

#include <cuda_runtime.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "support/cuda_check.h"
#include "support/nvml.h"
#include "measure/external_launch_batch.h"
#include "measure/session.h"

namespace rooflint::runtime {

namespace {
/// Adds the wall time from its construction to its destruction to @p seconds (a phase's total).
class phase_timer {
 public:
  explicit phase_timer(double& seconds) : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~phase_timer() { seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  phase_timer(const phase_timer&) = delete;
  phase_timer& operator=(const phase_timer&) = delete;

 private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

const char* counted_note(int launches) {
  return launches > 1 ? "counted on the program's own launches of the region, summed (core group only: a second group would need a replay)"
                      : "counted on the program's own launch (core group only: a second group would need a replay)";
}
}  // namespace

double& verify_session::phase_seconds(external_phase p) {
  return external_seconds_[static_cast<std::size_t>(p)].second;
}

void verify_session::set_external_batch(int capacity, bool user_range) {
  external_batch_capacity_ = capacity > 0 ? capacity : 0;
  external_batch_user_ = user_range;
}

void verify_session::wait_until(std::chrono::steady_clock::time_point t) {
  if (t <= std::chrono::steady_clock::now()) return;
  phase_timer clear(phase_seconds(external_phase::clear));
  std::this_thread::sleep_until(t);
}

bool verify_session::external_batch_full() const {
  if (!profiler_ || !profiler_->batch_open()) return false;
  if (external_batch_user_) return profiler_->batch_ranges() >= profiler_->batch_capacity();
  // Auto range: room for a region's kernels and the flush; and no long run of the program's own
  // kernels inside a batch (each is serialised and counted while it is open).
  return auto_batch_full(static_cast<int>(batch_windows_.size()), external_batch_capacity_, batch_kernels_,
                         batch_kernels_at_window_end_);
}

void verify_session::note_external_launch() {
  if (profiler_ && profiler_->batch_open() && !external_batch_user_) ++batch_kernels_;
}

bool verify_session::external_batch_open() const { return profiler_ && profiler_->batch_open(); }

result<void> verify_session::begin_external(cudaStream_t launch_stream, int launches) {
  ROOFLINT_TRY(ensure_device(/*current=*/true));
  external_counting_ = false;
  if (int now = ordinal_; cudaGetDevice(&now) == cudaSuccess && now != ordinal_)
    return error{error_code::unavailable, "launched on device " + std::to_string(now) + ", while this process counts on device " +
                                              std::to_string(ordinal_) + " (its first measured launch's): one GPU per process is measured"};
  external_window_ = -1;
  bool batch = false;
  {
    turn_error_ = {};
    if (options_.counters) {
      // Another process of the program may be counting on this GPU: wait for its turn to end.
      phase_timer wait_turn(phase_seconds(external_phase::turn));
      if (auto turn = take_counter_turn(); !turn) turn_error_ = turn.err();
    }
    phase_timer arm(phase_seconds(external_phase::arm));
    if (options_.counters && turn_error_.message.empty()) {
      ensure_profiler(groups::core);  // its failure (permission, another profiler) leaves timing-only verdicts
      if (profiler_ && core_) {
        // A batch needs a one-pass group (one user-replay pass is the program's own launches).
        batch = external_batch_capacity_ > 0 && core_->passes() == 1;
        if (batch && !profiler_->batch_open()) {
          batch_kernels_ = batch_kernels_at_window_end_ = 0;
          batch_windows_.clear();
          const int ranges = external_batch_user_ ? external_batch_capacity_ : auto_batch_ranges;
          if (auto opened = profiler_->open_batch(*core_, ranges, external_batch_user_); !opened) {
            // A CUPTI that refuses user ranges: one profiling session per window from now on.
            group_notes_.push_back("batched counting unavailable (" + opened.err().message + "): one profiling session per launch");
            external_batch_capacity_ = 0;
            batch = false;
          }
        }
        if (!batch) ROOFLINT_TRY(profiler_->arm(*core_, launches));
        external_counting_ = true;
      }
    }
  }
  {
    // The program's earlier work is done and L2 holds none of its lines when the window opens.
    phase_timer wait(phase_seconds(external_phase::wait));
    ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  }
  {
    phase_timer flush(phase_seconds(external_phase::flush));
    ROOFLINT_TRY(flush_->enqueue(stream_));
    if (batch && !external_batch_user_) ++batch_kernels_;  // the flush is a range of the auto-range batch
    ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream_));
  }
  phase_timer start(phase_seconds(external_phase::start));
  // Events on the launch's own stream: the window's time in a batch (a user range's
  // gpu__time_duration spans the host's gaps too), and the time when no counter gives it.
  if (!external_start_) ROOFLINT_TRY_CUDA(cudaEventCreate(&external_start_));
  if (!external_stop_) ROOFLINT_TRY_CUDA(cudaEventCreate(&external_stop_));
  if (external_counting_ && batch && external_batch_user_) {
    auto window = profiler_->push_range();
    if (!window) return window.err();
    external_window_ = *window;
  } else if (external_counting_ && batch) {  // the window's kernels are the batch's next ranges
    external_window_ = static_cast<int>(batch_windows_.size());
    batch_windows_.push_back({batch_kernels_, launches});
  }
  // Last: the launch follows at once. A failure closes the window's range again (no end_external comes).
  if (const cudaError_t recorded = cudaEventRecord(external_start_, launch_stream); recorded != cudaSuccess) {
    abandon_external(launches);
    ROOFLINT_TRY_CUDA(recorded);
  }
  if (external_counting_ && !batch) ROOFLINT_TRY(profiler_->start());
  external_began_ = std::chrono::steady_clock::now();
  return success();
}

measurement verify_session::end_external(const std::string& case_name, cudaStream_t launch_stream, int launches, int* window) {
  measurement m;
  m.case_name = case_name;
  m.device = device_;
  phase_seconds(external_phase::launch) += std::chrono::duration<double>(std::chrono::steady_clock::now() - external_began_).count();
  counter_values& k = m.counters;
  k.notes = group_notes_;
  k.ranges_expected = launches;
  float event_ms = 0;
  bool timed = false;
  {
    phase_timer stop(phase_seconds(external_phase::stop));
    timed = cudaEventRecord(external_stop_, launch_stream) == cudaSuccess && cudaEventSynchronize(external_stop_) == cudaSuccess &&
            cudaEventElapsedTime(&event_ms, external_start_, external_stop_) == cudaSuccess;
    if (external_window_ >= 0 && !external_batch_user_) batch_kernels_at_window_end_ = batch_kernels_;
    if (external_window_ >= 0 && external_batch_user_) {
      // The launches are done (the stop event): the range holds them and nothing after them.
      if (auto popped = profiler_->pop_range(); !popped) {
        k.unavailable_reason = "core group not collected: " + popped.err().message;
        external_window_ = -1;
      }
    }
  }
  if (!options_.counters) {
    k.unavailable_reason = "counters switched off (--no-counters)";
  } else if (!turn_error_.message.empty()) {
    k.unavailable_reason = "core group not collected: " + turn_error_.message;
  } else if (!profiler_) {
    k.permission_denied = profiler_error_.code == error_code::permission_denied;
    k.unavailable_reason = profiler_error_.message;
  } else if (!core_) {
    k.unavailable_reason = "the core metrics are not available on chip '" + device_.chip + "'";
  } else if (external_counting_ && external_window_ < 0 && k.unavailable_reason.empty()) {
    phase_timer decode(phase_seconds(external_phase::decode));
    k.passes["core"] = static_cast<int>(core_->passes());
    auto values = profiler_->finish(*core_, launches);
    if (values) {
      store_core_values(k, *values);
      k.notes.push_back(counted_note(launches));
    } else {
      k.unavailable_reason = "core group not collected: " + values.err().message;
    }
  }
  timing_values& t = m.timing;
  if (k.available && k.duration_s > 0) {
    t.available = true;
    t.repetitions = 1;
    t.median_s = t.min_s = t.max_s = k.duration_s;
  } else if (timed) {  // a batch's window, or no counters: CUDA events around the launches on their stream
    t.available = true;
    t.repetitions = 1;
    t.median_s = t.min_s = t.max_s = event_ms * 1e-3;
  }
  if (window) *window = external_window_;
  {
    phase_timer clock(phase_seconds(external_phase::clock));
    if (nvml_device_.handle)
      if (auto mhz = nvml_library::instance()->sm_mhz(nvml_device_)) {
        t.clock_available = true;
        t.sm_mhz_min = t.sm_mhz_max = t.sm_mhz_mean = *mhz;
      }
  }
  external_window_ = -1;
  // No cudaGetLastError here: in a program that shares this libcudart it would clear the program's error.
  return m;
}

void verify_session::abandon_external(int launches) {
  if (external_window_ >= 0) {
    // Close the window's range (user range); close_external_batch() then reports its window as dropped
    // (the caller never asks for its values).
    if (external_batch_user_) (void)profiler_->pop_range();
    external_window_ = -1;
  } else if (external_counting_ && profiler_ && core_) {
    // Stop and decode what was counted, and drop it: the profiler is ready for the next window.
    (void)profiler_->finish(*core_, launches);
  }
  external_counting_ = false;
}

result<std::vector<std::optional<std::vector<double>>>> verify_session::close_external_batch() {
  if (!profiler_ || !profiler_->batch_open()) return std::vector<std::optional<std::vector<double>>>{};
  phase_timer decode(phase_seconds(external_phase::decode));
  auto values = profiler_->close_batch();
  if (values && !external_batch_user_) values = sum_window_ranges(*values, batch_windows_, core_->metrics(), batch_kernels_);
  if (!values) {  // a CUPTI that fails on batches: one profiling session per window from now on
    group_notes_.push_back("batched counting failed (" + values.err().message + "): one profiling session per launch");
    external_batch_capacity_ = 0;
  }
  return values;
}

void verify_session::complete_window(measurement& m, const std::optional<std::vector<double>>& values) const {
  counter_values& k = m.counters;
  if (!values) {
    if (k.unavailable_reason.empty())
      k.unavailable_reason = "core group not collected: CUPTI recorded no range for this window of the batch";
    return;
  }
  k.passes["core"] = 1;
  store_core_values(k, *values);
  k.notes.push_back(counted_note(k.ranges_expected));
  if (external_batch_user_) {
    // A user range's gpu__time_duration runs from the push to the pop, the host's gaps included: the
    // window's time is its CUDA events' (already in m.timing), as the harness times its runs.
    if (m.timing.available) k.duration_s = m.timing.median_s;
    k.notes.push_back("counted in a batch of windows (user range): the time is the CUDA events' around the launches");
    k.batched_user_range = true;
  } else if (k.duration_s > 0) {  // auto range: gpu__time_duration of the window's kernels, as per launch
    m.timing.available = true;
    m.timing.repetitions = 1;
    m.timing.median_s = m.timing.min_s = m.timing.max_s = k.duration_s;
  }
}

}  // namespace rooflint::runtime
