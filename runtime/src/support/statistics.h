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

}  // namespace rooflint::runtime
