#pragma once
// JSON building blocks shared by the measurement line and the JSON report.

#include <nlohmann/json.hpp>

#include "rooflint/runtime/measurement.h"

namespace rooflint::runtime::detail {

nlohmann::json to_json_value(const measurement& m);

}  // namespace rooflint::runtime::detail
