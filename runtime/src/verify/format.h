#pragma once
// Number formatting shared by the verifier's messages and reports (host only).

#include <string>

#include "rooflint/model/describe.h"

namespace rooflint::runtime::detail {

/// @return Bytes with an SI prefix and 4 significant digits: "536.9 MB", "1.213 GB", "512 B".
inline std::string bytes_text(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (u < 4 && bytes >= 1000) { bytes /= 1000; ++u; }
  return model::format_significant(bytes, 4) + " " + units[u];
}

/// @return A rate with an SI prefix: "4.3 TB/s", "66.9 TFLOP/s".
inline std::string rate_text(double per_s, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (u < 5 && per_s >= 1000) { per_s /= 1000; ++u; }
  return model::format_significant(per_s, 3) + " " + prefixes[u] + unit + "/s";
}

/// @return A count with an SI prefix and 4 significant digits: "134.2 MFLOP", "137.4 GFLOP".
inline std::string count_text(double value, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int u = 0;
  while (u < 6 && value >= 1000) { value /= 1000; ++u; }
  return model::format_significant(value, 4) + " " + prefixes[u] + unit;
}

/// @return A ratio as "2.41x"; "n/a" when 0 (nothing to compare with).
inline std::string ratio_text(double ratio) {
  return ratio > 0 ? model::format_significant(ratio, 3) + "x" : std::string("n/a");
}

}  // namespace rooflint::runtime::detail
