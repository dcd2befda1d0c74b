#pragma once
// The line a case's child process sends its parent: one measurement as JSON (internal wire format,
// read back only by the same build of the runtime).

#include <string>

#include "rooflint/runtime/measurement.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// @return @p m as one line of JSON.
std::string measurement_to_json(const measurement& m);
/// @return The measurement in @p text; invalid_argument naming the field when it is malformed.
result<measurement> measurement_from_json(const std::string& text);

}  // namespace rooflint::runtime
