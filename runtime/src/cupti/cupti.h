#pragma once
/// @file cupti.h
/// CUPTI 13.0: the Profiler Host API (metric names, config images, pass counts; works without a GPU for
/// a named chip such as "GH100") and the Range Profiling API in auto range + kernel replay mode, with
/// the host object, config image and counter data kept and reused across kernels (docs/cupti.md §1.2).
///
/// Metric groups are collected one at a time, each after its own L2 flush, because metrics collected
/// in different passes see different cache states (docs/cupti.md §6): the cache-sensitive core group must
/// be one pass; the SASS FP instruction counters are instrumented and get their own group; tensor ops
/// are counts that do not depend on the cache, so their group may take several passes.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rooflint/runtime/measurement.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::cupti {

/// The cache-sensitive core group: one pass on GH100 (the CUPTI host API says so without a GPU:
/// tests/runtime/cupti_host_test.cpp), so DRAM, L2 and L1 see the same cache state. Per level of the
/// hierarchical roofline: DRAM bytes read and written; L2 load and store sectors requested by the SMs'
/// L1TEX units; L1 global load and store sectors the LSU pipe requested of L1TEX (hits and misses).
/// Shared memory wavefronts and LDGSTS (cp.async) bytes would make it 2 passes: the L1 level counts
/// global loads and stores only. Keep the order: measure.cu reads the values by position.
inline const std::vector<std::string>& core_metrics() {
  static const std::vector<std::string> m{
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "gpu__time_duration.sum",
      "lts__t_bytes.sum",
      "lts__t_sectors_srcunit_tex_op_read.sum",
      "lts__t_sectors_srcunit_tex_op_write.sum",
      "sm__cycles_elapsed.avg.per_second",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
  };
  return m;
}

/// The SASS FP instruction counters and their FLOP weights: runtime::sass_fp_counters (measurement.h).
using runtime::sass_fp_counters;

/// @return "sm__sass_thread_inst_executed_op_<op>_pred_on.sum".
inline std::string fp_metric(const char* op) {
  return std::string("sm__sass_thread_inst_executed_op_") + op + "_pred_on.sum";
}

/// @return The nine SASS FP instruction metrics, in sass_fp_counters order.
std::vector<std::string> fp_metrics();

/// Tensor-path op metrics that together count every tensor FLOP once (aggregates over instruction
/// families; they already count FLOPs, 2 per MAC). Only those that exist on the chip are used.
inline constexpr const char* tensor_base_metrics[] = {
    "sm__ops_path_tensor_src_fp64",          "sm__ops_path_tensor_src_tf32_dst_fp32",
    "sm__ops_path_tensor_src_fp16",          "sm__ops_path_tensor_src_bf16_dst_fp32",
    "sm__ops_path_tensor_src_fp8",           "sm__ops_path_tensor_src_int8",
};

/// A host object for one chip (cuptiProfilerHostInitialize). Needs no GPU when the counter
/// availability image is empty.
class host {
 public:
  /// @param chip CUPTI chip name ("GH100").
  /// @param counter_availability from cuptiProfilerGetCounterAvailability, or empty (no GPU).
  static result<host> create(std::string chip, std::vector<std::uint8_t> counter_availability = {});
  host(host&&) noexcept;
  host& operator=(host&&) noexcept;
  ~host();

  const std::string& chip() const { return chip_; }

  /// @return The base metric names of the chip (counter type).
  result<std::vector<std::string>> base_metrics() const;

  /// @return The tensor_base_metrics present on the chip, as ".sum" metric names.
  result<std::vector<std::string>> tensor_metrics() const;

 private:
  host() = default;
  friend class config;
  std::string chip_;
  std::vector<std::uint8_t> availability_;
  struct state;
  std::unique_ptr<state> state_;
};

/// A config image for a metric group, with its own host object (metrics are added to a host object
/// once, so each group owns one).
class config {
 public:
  /// Adds @p metrics and builds the config image. Errors name the metric CUPTI rejected.
  static result<config> create(const std::string& chip, const std::vector<std::uint8_t>& counter_availability,
                               std::vector<std::string> metrics);
  config(config&&) noexcept;
  config& operator=(config&&) noexcept;
  ~config();

  const std::vector<std::string>& metrics() const { return metrics_; }
  const std::vector<std::uint8_t>& image() const { return image_; }
  /// @return Passes the config needs (cuptiProfilerHostGetNumOfPasses).
  std::size_t passes() const { return passes_; }

  /// @return The metric values of range @p range of @p counter_data, in metrics() order.
  result<std::vector<double>> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const;

 private:
  config() = default;
  std::vector<std::string> metrics_;
  std::vector<std::uint8_t> image_;
  std::size_t passes_ = 0;
  host host_;
};

/// The entry of a batch's values that range @p index of its counter data, named @p name, belongs to:
/// the number the name is ("0", "1", ...: the push order in user range, the launch order in auto range)
/// when it is below @p entries; else the range's own index when CUPTI recorded all @p entries ranges
/// (@p recorded), in order; else none (the range cannot be placed).
inline std::optional<std::size_t> batch_entry_of_range(const std::string& name, std::size_t index, std::size_t entries,
                                                       std::size_t recorded) {
  std::size_t n = 0;
  bool digits = !name.empty() && name.size() <= 9;
  for (const char c : name) {
    if (c < '0' || c > '9') digits = false;
    if (digits) n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  if (digits && n < entries) return n;
  if (recorded == entries && index < entries) return index;
  return std::nullopt;
}

/// CUPTI result code and name; "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): ..." style text.
std::string describe(int cupti_result);

/// The fix for ERR_NVGPUCTRPERM, as printed when counters are not permitted.
extern const char* const permission_fix;

/// The range profiler of the current CUDA context (cuptiProfilerInitialize + cuptiRangeProfilerEnable),
/// auto range + kernel replay. One per process; collection needs a GPU.
class range_profiler {
 public:
  /// Initialises CUPTI on device @p ordinal's primary context (which must be current). Errors:
  /// permission_denied (with permission_fix), unavailable (device not supported, another profiler
  /// attached, hardware busy), internal.
  static result<range_profiler> create(int ordinal);

  /// @return The process's range profiler on device @p ordinal, created on first use and kept until exit
  /// (one profiler may be enabled on a context at a time; every caller in the process shares it). A
  /// failure is remembered and returned again.
  static result<range_profiler*> shared(int ordinal);
  range_profiler(range_profiler&&) noexcept;
  range_profiler& operator=(range_profiler&&) noexcept;
  ~range_profiler();

  const std::string& chip() const;
  const std::vector<std::uint8_t>& counter_availability() const;

  /// Collects @p cfg over the launches made by @p launch: prepare() runs before Start (outside the
  /// profiled window: restore inputs, flush L2, synchronise), then Start, launch(), Stop, Decode.
  /// Checks that exactly @p launches ranges were recorded (CUPTI drops ranges silently).
  /// @return The metric values of the ranges together (combine_ranges.h: counts summed, per_second
  /// metrics weighted by each range's duration), in cfg order.
  result<std::vector<double>> collect(const config& cfg, int launches, const std::function<result<void>()>& prepare,
                                      const std::function<result<void>()>& launch);

  /// collect() in three steps, for launches that someone else makes (rooflint-verify's injection
  /// library counts the program's own launch): arm() sets up @p cfg for @p launches ranges; start()
  /// begins the profiled window (prepare before it: an L2 flush is not to be a range); then exactly
  /// @p launches kernels launch; finish() stops, decodes and sums, like collect().
  result<void> arm(const config& cfg, int launches);
  result<void> start();
  result<std::vector<double>> finish(const config& cfg, int launches);

  /// Many windows in one profiling session, for launches someone else makes (one-pass configs only,
  /// user replay: the one pass is the program's own launches). open_batch() sets @p cfg up for
  /// @p capacity ranges and starts the profiler once; close_batch() stops, decodes and evaluates every
  /// range. A Start/Stop per launch costs tens of ms on the H200 (docs/verifier.md), which a batch pays
  /// once. @p user_range: each window is push_range(), the launches, pop_range() (synchronise before
  /// both: a user range counts whatever the device does between them); else auto range: every kernel
  /// launched while the batch is open is a range of its own, in launch order (the caller keeps count).
  result<void> open_batch(const config& cfg, int capacity, bool user_range);
  bool batch_open() const;
  /// @return Windows pushed in the open batch so far (0 when none is open).
  int batch_ranges() const;
  int batch_capacity() const;
  /// @return The window's index in the batch (the range's name).
  result<int> push_range();
  result<void> pop_range();
  /// @return User range: per window, in push order, its metric values in the config's order; empty for
  /// a window CUPTI recorded no range for (or one still open at close, which is dropped). Auto range:
  /// per range CUPTI recorded, in launch order.
  result<std::vector<std::optional<std::vector<double>>>> close_batch();

  /// Disables the enabled profiler, so that another process may count on the GPU (counter_turn); the
  /// next collection enables a fresh one (the set-up a reused profiler saves, paid again). Call it
  /// with no batch open and no collection in progress.
  void release();

 private:
  range_profiler() = default;
  result<void> set_up(const config& cfg, int capacity, int range_mode);
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace rooflint::runtime::cupti
