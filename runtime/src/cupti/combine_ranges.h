#pragma once
// How the values of several ranges (a case's or a region's kernels, one range each) become the values
// of the ranges together. One home for the rule: range_profiler::finish (a case, a one-session window)
// and sum_window_ranges (a window of a batch, external_launch_batch.h) both use it.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rooflint::runtime::cupti {

/// The metric whose value weights a range's rates: its duration in ns (cupti.h's core group has it).
inline constexpr std::string_view range_duration_metric = "gpu__time_duration.sum";

/// @return The values of @p ranges together, in @p metrics order (every range holds one value per
/// metric). A count (".sum") adds up. A rate (".per_second", such as the SM clock
/// sm__cycles_elapsed.avg.per_second) is the rate of the ranges over their summed duration:
/// sum(rate_i x duration_i) / sum(duration_i), which is what one range around all of them would read
/// (cycles = rate x time). An unweighted mean would let a 1 us kernel pull the clock of a 1 ms one
/// as far as itself. Without the duration among @p metrics, or with no duration at all, the plain mean.
inline std::vector<double> combine_ranges(const std::vector<std::vector<double>>& ranges,
                                          const std::vector<std::string>& metrics) {
  const auto is_rate = [](std::string_view m) {
    constexpr std::string_view tail = ".per_second";
    return m.size() >= tail.size() && m.substr(m.size() - tail.size()) == tail;
  };
  std::size_t duration = metrics.size();
  for (std::size_t i = 0; i < metrics.size(); ++i)
    if (metrics[i] == range_duration_metric) duration = i;
  double total_time = 0;
  if (duration < metrics.size())
    for (const auto& r : ranges) total_time += r[duration];
  std::vector<double> out(metrics.size(), 0.0);
  if (ranges.empty()) return out;
  for (const auto& r : ranges)
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (!is_rate(metrics[i])) out[i] += r[i];
      else if (total_time > 0) out[i] += r[i] * r[duration];
      else out[i] += r[i];
    }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (is_rate(metrics[i])) out[i] /= total_time > 0 ? total_time : static_cast<double>(ranges.size());
  return out;
}

}  // namespace rooflint::runtime::cupti
