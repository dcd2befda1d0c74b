#pragma once
/// @file verdict.h
/// Build-time verdicts of the examples' specs against a device's datasheet peaks, for static_asserts.
/// An example states its verdict once, in its spec's .expect(); the build checks it,
///
///     static_assert(meets_its_expectation(saxpy_spec, "H200"));
///
/// the analyzer reports it (rooflint-expectation when it does not hold), and tests/examples checks the
/// analyzer's manifests against it. These asserts make the build itself the first test.

#include <string_view>

#include "rooflint/dsl.h"

namespace rooflint::examples {

/// @return The roofline verdict of @p s at @p sizes (its declared sizes by default) on @p device's
/// datasheet peaks. A device missing from the table is a compile error under constant evaluation.
constexpr model::bound datasheet_verdict(const dsl::spec& s, std::string_view device, const dsl::sizes& sizes) {
  return model::classify(s.workload_at(sizes), *model::find_peaks(device)).verdict;
}

constexpr model::bound datasheet_verdict(const dsl::spec& s, std::string_view device) {
  return datasheet_verdict(s, device, s.declared().bound);
}

/// @return Whether @p s states a bound (.expect(memory_bound) or .expect(compute_bound)) and its
/// declared sizes get that verdict on @p device's datasheet peaks.
constexpr bool meets_its_expectation(const dsl::spec& s, std::string_view device) {
  const auto expected = dsl::expected_verdict(s.expected.bound);
  return expected && *expected == datasheet_verdict(s, device);
}

}  // namespace rooflint::examples
