#pragma once
// Statistics of repeated timings, shared by the verifier's timed runs and the ceilings probes.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rooflint::runtime {

/// @return The median of @p values: the middle one, or the mean of the two middle ones for an even
/// count; 0 when there are none. Robust to a few slow runs (a preempted launch, a clock dip).
inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  const std::size_t n = values.size();
  std::sort(values.begin(), values.end());
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Times of repetitions of one measured thing, seconds.
struct timing_stats {
  int repetitions = 0;
  double median_s = 0, min_s = 0, max_s = 0;
  /// @return (max - min) / median, 0..1: how much the repetitions disagree.
  double spread() const { return median_s > 0 ? (max_s - min_s) / median_s : 0; }
};

/// @return The statistics of @p seconds (empty: all zero).
inline timing_stats summarize(std::vector<double> seconds) {
  timing_stats s;
  if (seconds.empty()) return s;
  std::sort(seconds.begin(), seconds.end());
  s.repetitions = static_cast<int>(seconds.size());
  s.median_s = median(seconds);
  s.min_s = seconds.front();
  s.max_s = seconds.back();
  return s;
}

}  // namespace rooflint::runtime
