#pragma once
/// @file verdict.h
/// Build-time verdicts of the examples' specs against a device's datasheet peaks, for static_asserts:
///
///     static_assert(datasheet_verdict(saxpy_spec, "H200") == rooflint::model::bound::memory);
///
/// The analyzer reports the same verdicts as diagnostics; these asserts make the build itself the first test.

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

}  // namespace rooflint::examples
