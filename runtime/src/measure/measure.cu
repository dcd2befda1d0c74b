// Measuring one case in this process: prepare its data, count with CUPTI (one metric group at a time,
// each after a restore and an L2 flush), then time it with CUDA events (warm-up, cold runs, median).

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "support/clock_state.h"
#include "support/cuda_check.h"
#include "cupti/cupti.h"
#include "rooflint/runtime/device.h"
#include "measure/l2_flush.h"
#include "support/nvml.h"
#include "support/statistics.h"
#include "rooflint/runtime/verify.h"
#include "measure/session.h"

namespace rooflint::runtime {

namespace {

/// A failed CUDA call inside a case's launch or restore: the kernel faulted (or could not launch).
struct fault_tracker {
  std::string message;
  bool faulted() const { return !message.empty(); }
};

std::string cuda_text(cudaError_t s) {
  return std::string(cudaGetErrorName(s)) + " (" + cudaGetErrorString(s) + ")";
}

/// @return Why case @p c's sizes do not bind its spec, and where the case is stated.
template <class Binding>
std::string unbound_text(const case_definition& c, const Binding& binding) {
  const auto which = !binding.missing.empty() ? "has no size for dimension '" + std::string(binding.missing.view()) + "'"
                     : !binding.unknown.empty() ? "binds '" + std::string(binding.unknown.view()) + "', which the spec does not have"
                     : !binding.too_large.empty() ? "makes the touched part of tensor '" + std::string(binding.too_large.view()) + "' larger than the tensor (touches())"
                                                : "gives dimension '" + std::string(binding.violated.view()) + "' a size the spec contradicts";
  return "case '" + c.name + "' " + which + " (" + c.file + ":" + std::to_string(c.line) + ")";
}

/// The statistics of the timed runs @p times (s) and the SM clock over them.
void store_timing(timing_values& t, const std::vector<double>& times, const clock_summary& clocks) {
  const timing_stats runs = summarize(times);
  t.available = runs.repetitions > 0;
  t.repetitions = runs.repetitions;
  t.median_s = runs.median_s;
  t.min_s = runs.min_s;
  t.max_s = runs.max_s;
  if (clocks.samples > 0) {
    t.clock_available = true;
    t.sm_mhz_min = clocks.sm_mhz_min;
    t.sm_mhz_max = clocks.sm_mhz_max;
    t.sm_mhz_mean = clocks.sm_mhz_mean;
    for (auto& r : decode_clock_event_reasons(clocks.clock_event_reasons & ~std::uint64_t{clock_event_gpu_idle}))
      t.throttle_reasons.push_back(r);
  }
}


}  // namespace

void store_core_values(counter_values& k, const std::vector<double>& x) {
  k.available = true;
  k.dram_read_bytes = x[0];
  k.dram_write_bytes = x[1];
  k.duration_s = x[2] * 1e-9;  // gpu__time_duration is in ns
  k.l2_bytes = x[3];
  k.l2_read_sectors = x[4];
  k.l2_write_sectors = x[5];
  k.sm_clock_hz = x[6];
  k.l1_available = true;
  k.l1_read_sectors = x[7];
  k.l1_write_sectors = x[8];
}

verify_session::verify_session(const verify_options& options) : options_(options) {}
verify_session::~verify_session() {
  if (stream_) cudaStreamDestroy(stream_);
}

result<void> verify_session::ensure_device(bool current) {
  if (device_ready_) return success();
  auto count = device_count();
  if (!count) return count.err();
  // A program's launch is counted on the device it runs on; the thread's current device is the
  // program's and is never changed (a worker on GPU 3 would otherwise launch its next kernels on GPU 0).
  if (current) ROOFLINT_TRY_CUDA(cudaGetDevice(&ordinal_));
  auto props = query_device(ordinal_);
  if (!props) return props.err();
  if (!current) ROOFLINT_TRY_CUDA(cudaSetDevice(ordinal_));
  ROOFLINT_TRY_CUDA(cudaFree(nullptr));
  device_.name = props->name;
  device_.uuid = props->uuid;
  device_.driver_version = props->driver_version;
  device_.cc_major = props->cc_major;
  device_.cc_minor = props->cc_minor;
  device_.sm_count = props->sm_count;
  device_.l2_bytes = static_cast<double>(props->l2_bytes);
  auto flush = l2_flush::create(3);
  if (!flush) return flush.err();
  flush_.emplace(std::move(*flush));
  device_.flush_bytes = static_cast<double>(flush_->bytes());
  ROOFLINT_TRY_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  if (auto* nvml = nvml_library::instance(); nvml && nvml->loaded())
    if (auto dev = nvml->device_by_pci_bus_id(props->pci_bus_id)) nvml_device_ = *dev;
  device_ready_ = true;
  return success();
}

void verify_session::ensure_profiler(groups wanted) {
  if (!profiler_tried_) {
    profiler_tried_ = true;
    auto shared = cupti::range_profiler::shared(ordinal_);
    if (!shared) {
      profiler_error_ = shared.err();
      return;
    }
    profiler_ = *shared;
    device_.chip = profiler_->chip();
    core_ = make_group("core", cupti::core_metrics());
    if (core_ && core_->passes() != 1)
      group_notes_.push_back("the core group needs " + std::to_string(core_->passes()) +
                             " passes on this chip; DRAM figures of different passes saw different cache states");
  }
  if (wanted == groups::all && profiler_ && !instruction_groups_tried_) {
    instruction_groups_tried_ = true;
    fp_ = make_group("fp", cupti::fp_metrics());
    if (auto h = cupti::host::create(profiler_->chip(), profiler_->counter_availability())) {
      if (auto tensor = h->tensor_metrics()) tensor_ = make_group("tensor", *tensor);
      else group_notes_.push_back("tensor group unavailable: " + tensor.err().message);
    }
  }
}

std::optional<cupti::config> verify_session::make_group(const char* group, std::vector<std::string> metrics) {
  if (metrics.empty()) return std::nullopt;
  auto c = cupti::config::create(profiler_->chip(), profiler_->counter_availability(), std::move(metrics));
  if (!c) {
    group_notes_.push_back(std::string(group) + " group unavailable: " + c.err().message);
    return std::nullopt;
  }
  return std::move(*c);
}

/// Counts the case's launches with the core group, then the FLOP counters that can see its math.
/// @return False when a launch faulted (@p fault says how); counters that could not be collected are
/// said in @p k, and the run goes on.
bool verify_session::count(const case_definition& c, int launches, const std::function<result<void>()>& prepare,
                           const std::function<result<void>()>& launch, const std::string& fault, counter_values& k) {
  if (!options_.counters) {
    k.unavailable_reason = "counters switched off (--no-counters)";
  } else if (auto turn = take_counter_turn(); !turn) {
    k.unavailable_reason = "core group not collected: " + turn.err().message;
  } else {
    ensure_profiler(groups::all);
    if (!profiler_) {
      k.permission_denied = profiler_error_.code == error_code::permission_denied;
      k.unavailable_reason = profiler_error_.message;
    } else {
      k.notes = group_notes_;
      k.ranges_expected = launches;
      const auto collect = [&](const cupti::config& cfg, const char* group) -> std::optional<std::vector<double>> {
        k.passes[group] = static_cast<int>(cfg.passes());
        auto values = profiler_->collect(cfg, launches, prepare, launch);
        if (values) return std::move(*values);
        if (fault.empty()) k.notes.push_back(std::string(group) + " group not collected: " + values.err().message);
        return std::nullopt;
      };
      if (core_) {
        if (auto v = collect(*core_, "core")) {
          store_core_values(k, *v);
        } else if (!fault.empty()) {
          return false;
        } else {
          k.unavailable_reason = k.notes.empty() ? "core group not collected" : k.notes.back();
        }
      } else {
        k.unavailable_reason = "the core metrics are not available on chip '" + device_.chip + "'";
      }
      // The FLOP counters that can see the spec's math: SASS FP instructions for the SIMT roofs,
      // tensor-pipe ops for the tensor roofs. The tensor group takes 6 kernel-replay passes on GH100
      // (H200, 2026-11-30): collecting it for a SIMT kernel only costs time.
      const bool tensor_math = c.spec->mode != model::math_mode::fp32_simt && c.spec->mode != model::math_mode::fp64;
      if (fp_ && k.available && !options_.fp_counters) k.notes.push_back("FP instruction counters skipped (--no-fp-counters)");
      if (fp_ && k.available && options_.fp_counters && !tensor_math) {
        if (auto v = collect(*fp_, "fp")) {
          k.fp_available = true;
          for (std::size_t i = 0; i < v->size(); ++i) k.fp_instructions[sass_fp_counters[i].op] = (*v)[i];
        } else if (!fault.empty()) {
          return false;
        }
      }
      if (tensor_ && k.available && tensor_math) {
        if (auto v = collect(*tensor_, "tensor")) {
          k.tensor_available = true;
          for (std::size_t i = 0; i < v->size(); ++i) k.tensor_ops[tensor_->metrics()[i]] = (*v)[i];
        } else if (!fault.empty()) {
          return false;
        }
      }
    }
  }
  if (counters_wanted_elsewhere()) yield_counters();
  return true;
}

result<void> verify_session::take_counter_turn() {
  const bool first = !turn_;
  if (first) turn_.emplace(device_.uuid);
  auto taken = turn_->take(counter_turn::default_limit());
  if (first && !turn_->unlocked().empty()) group_notes_.push_back(turn_->unlocked());
  return taken;
}

bool verify_session::counters_wanted_elsewhere() const { return turn_ && turn_->others_waiting(); }

void verify_session::yield_counters() {
  if (!turn_ || !turn_->held()) return;
  if (profiler_) profiler_->release();
  turn_->hand_over(std::chrono::milliseconds(100));
}

void verify_session::forget_counter_turn_after_fork() {
  if (turn_) turn_->forget_after_fork();
}

/// Times the case's cold runs (L2 flushed before each, outside the CUDA events) and samples the SM clock.
/// A fault stops the runs and is said in @p fault; @p t then holds the warm-up count only.
void verify_session::time_cold_runs(const case_definition& c, const launcher& l,
                                    const std::function<result<void>()>& prepare, std::string& fault, timing_values& t) {
  t.warmup = std::max(1, options_.warmup);
  cudaEvent_t start = nullptr, stop = nullptr;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
    if (start) cudaEventDestroy(start);
    fault = "cudaEventCreate failed";
    return;
  }
  std::vector<double> times;
  clock_sampler sampler(nvml_device_, std::chrono::milliseconds(2));
  sampler.start();
  for (int i = 0; i < std::max(1, options_.repetitions); ++i) {
    if (!prepare()) break;
    cudaEventRecord(start, stream_);
    l.launch(stream_);
    cudaEventRecord(stop, stream_);
    cudaError_t s = cudaGetLastError();
    if (s == cudaSuccess) s = cudaEventSynchronize(stop);
    if (s != cudaSuccess) {
      fault = "kernel '" + std::string(c.spec->kernel_name.view()) + "' of case '" + c.name +
                      "' failed while timed: " + cuda_text(s);
      break;
    }
    float ms = 0;
    if (const cudaError_t e = cudaEventElapsedTime(&ms, start, stop); e != cudaSuccess) {
      fault = "cudaEventElapsedTime failed while timing case '" + c.name + "': " + cuda_text(e);
      break;
    }
    times.push_back(ms * 1e-3);
  }
  clock_summary clocks = sampler.stop();
  if (clocks.samples == 0 && nvml_device_.handle)
    if (auto mhz = nvml_library::instance()->sm_mhz(nvml_device_)) {
      clocks.samples = 1;
      clocks.sm_mhz_min = clocks.sm_mhz_max = clocks.sm_mhz_mean = *mhz;
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (fault.empty()) store_timing(t, times, clocks);
}

measurement verify_session::measure(const case_definition& c) {
  measurement m;
  m.case_name = c.name;
  const auto binding = c.spec->bind(std::span<const dsl::size_binding>(c.sizes.data(), c.sizes.size()));
  if (!binding.ok()) {
    m.status = run_status::bad_case;
    m.error = unbound_text(c, binding);
    return m;
  }
  if (auto ready = ensure_device(); !ready) {
    m.status = ready.err().code == error_code::unavailable ? run_status::no_device : run_status::faulted;
    m.error = ready.err().message;
    return m;
  }
  m.device = device_;

  case_context ctx(*c.spec, binding.bound, 42);
  launcher l;
  try {
    l = c.body(ctx);
  } catch (const case_error& e) {
    m.status = e.cuda_failed() ? run_status::faulted : run_status::bad_case;
    m.error = "preparing case '" + c.name + "' failed: " + e.what();
    return m;
  } catch (const std::exception& e) {  // the body's own code (a host vector too large, ...)
    m.status = run_status::faulted;
    m.error = "preparing case '" + c.name + "' failed: " + e.what();
    return m;
  }
  if (const cudaError_t s = cudaDeviceSynchronize(); s != cudaSuccess) {
    m.status = run_status::faulted;
    m.error = "preparing case '" + c.name + "' failed: " + cuda_text(s);
    return m;
  }
  if (!l.launch) {
    m.status = run_status::bad_case;
    m.error = "case '" + c.name + "' returned a launcher without 'launch'";
    return m;
  }
  // A region's spec (dsl/region.h) knows its kernels; a case may say otherwise (a library call whose
  // kernel count it measured).
  const int launches = l.launches > 0 ? l.launches : std::max(1, c.spec->launches());

  fault_tracker fault;
  // Restore in-place inputs, flush L2 (read-only sweep), wait: all outside the measured window.
  const auto prepare = [&]() -> result<void> {
    if (l.restore) l.restore(stream_);
    if (auto flushed = flush_->enqueue(stream_); !flushed) {
      fault.message = "flushing L2 failed: " + flushed.err().message;
      return flushed.err();
    }
    if (const cudaError_t s = cudaStreamSynchronize(stream_); s != cudaSuccess) {
      fault.message = "restoring inputs or flushing L2 failed: " + cuda_text(s);
      return error{error_code::internal, fault.message};
    }
    return success();
  };
  const auto launch = [&]() -> result<void> {
    l.launch(stream_);
    cudaError_t s = cudaGetLastError();
    if (s == cudaSuccess) s = cudaStreamSynchronize(stream_);
    if (s != cudaSuccess) {
      fault.message = "kernel '" + std::string(c.spec->kernel_name.view()) + "' of case '" + c.name +
                      "' failed: " + cuda_text(s);
      return error{error_code::internal, fault.message};
    }
    return success();
  };
  const auto faulted = [&] {
    m.status = run_status::faulted;
    m.error = fault.message;
    return m;
  };

  // Warm-up (module loading, first-touch) before counting or timing.
  for (int i = 0; i < std::max(1, options_.warmup); ++i) {
    if (!prepare() || !launch()) return faulted();
  }

  if (!count(c, launches, prepare, launch, fault.message, m.counters)) return faulted();

  // Timing: cold runs, L2 flushed before each, outside the events.
  time_cold_runs(c, l, prepare, fault.message, m.timing);
  if (fault.faulted()) return faulted();
  return m;
}

measurement measure_case(const case_definition& c, const verify_options& options) {
  verify_session session(options);
  return session.measure(c);
}

}  // namespace rooflint::runtime
