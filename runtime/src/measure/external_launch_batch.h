#pragma once
// Batched counting of external launches (external_launch.cpp): the host-side bookkeeping, apart from
// CUPTI so that it is unit-tested without a GPU (tests/runtime/inject_batch_test.cpp).

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupti/combine_ranges.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// One window of an auto-range batch: its first range (the batch's kernels are its ranges, in launch
/// order, this library's L2 flush included) and how many kernels it holds (a region instance: several).
struct batch_window {
  int first_range = 0;
  int kernels = 1;
};

/// Per window, its kernels' ranges together (cupti::combine_ranges: counts summed, rates weighted by
/// each range's duration), in @p metrics order; nothing for a window one of whose ranges CUPTI did not record. @p kernels_seen:
/// the kernels launched while the batch was open; when CUPTI recorded another number of ranges, a
/// kernel ran that this library did not see, and no window's ranges can be trusted: an error.
inline result<std::vector<std::optional<std::vector<double>>>> sum_window_ranges(
    const std::vector<std::optional<std::vector<double>>>& ranges, const std::vector<batch_window>& windows,
    const std::vector<std::string>& metrics, int kernels_seen) {
  if (ranges.size() != static_cast<std::size_t>(kernels_seen))
    return error{error_code::internal, "CUPTI recorded " + std::to_string(ranges.size()) + " ranges for the " +
                                           std::to_string(kernels_seen) + " kernel launches of the batch"};
  std::vector<std::optional<std::vector<double>>> out;
  for (const batch_window& w : windows) {
    std::vector<std::vector<double>> own;  // the window's ranges
    bool complete = w.kernels > 0 && w.first_range >= 0 && w.first_range + w.kernels <= static_cast<int>(ranges.size());
    for (int r = w.first_range; complete && r < w.first_range + w.kernels; ++r) {
      const auto& v = ranges[static_cast<std::size_t>(r)];
      if (!v || v->size() != metrics.size()) {
        complete = false;
        break;
      }
      own.push_back(*v);
    }
    out.push_back(complete ? std::optional<std::vector<double>>(cupti::combine_ranges(own, metrics)) : std::nullopt);
  }
  return out;
}

/// Limits of an auto-range batch: its ranges, the room kept for a window's kernels and the flush, and
/// the most kernels of the program's own between windows (each is serialised and counted while a
/// batch is open, so a long run of them closes it).
inline constexpr int auto_batch_ranges = 512, auto_batch_margin = 64, auto_batch_idle_kernels = 32;

/// Whether an auto-range batch must be closed before another window or kernel: @p windows of
/// @p capacity used, @p kernels ranges so far, @p kernels_at_window_end of them when the last window ended.
inline bool auto_batch_full(int windows, int capacity, int kernels, int kernels_at_window_end) {
  return windows >= capacity || kernels + auto_batch_margin >= auto_batch_ranges ||
         kernels - kernels_at_window_end > auto_batch_idle_kernels;
}

}  // namespace rooflint::runtime
