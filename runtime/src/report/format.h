#pragma once
// The verifier's names for its number formats (host only); the formatting is model/describe.h's.

#include <string>

#include "rooflint/model/describe.h"

namespace rooflint::runtime::detail {

/// @return Bytes with an SI prefix and 4 significant digits: "536.9 MB", "1.213 GB", "512 B".
inline std::string bytes_text(double bytes) { return model::format_si(bytes, "B", 4); }

/// @return A rate with an SI prefix: "4.3 TB/s", "66.9 TFLOP/s".
inline std::string rate_text(double per_s, const char* unit) { return model::format_si(per_s, std::string(unit) + "/s", 3); }

/// @return A count with an SI prefix and 4 significant digits: "134.2 MFLOP", "137.4 GFLOP".
inline std::string count_text(double value, const char* unit) { return model::format_si(value, unit, 4); }

/// @return A ratio as "2.41x"; "n/a" when 0 (nothing to compare with).
inline std::string ratio_text(double ratio) {
  return ratio > 0 ? model::format_significant(ratio, 3) + "x" : std::string("n/a");
}

}  // namespace rooflint::runtime::detail
