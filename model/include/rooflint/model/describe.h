#pragma once
/// @file describe.h
/// Number formatting (significant digits, SI prefixes, durations) and the one sentence that describes a
/// roofline result, shared by the analyzer and the runtime's reports. Host text; std only (no fmt), as
/// the rest of the model; layout (tables, padding) is fmt's, in the runtime. The sentence:
///   "memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32,
///    datasheet peaks): floor 0.336 ms; measured reaches 91%"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/model/roofline.h"

namespace rooflint::model {

/// @return @p value with @p significant significant digits, without trailing zeros ("13.9", "0.0833").
inline std::string format_significant(double value, int significant = 3) {
  if (value == 0 || !std::isfinite(value)) return value == 0 ? "0" : std::to_string(value);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::max(0, significant - 1 - magnitude);
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  std::string s(buf, ec == std::errc{} ? end : buf);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

/// @return @p value in @p unit with an SI prefix (k, M, G, T, P, E: the largest whose scale |value|
/// reaches) and @p significant significant digits: "536.9 MB", "66.9 TFLOP/s", "137 GFLOP", "512 B".
/// The one SI formatter of the analyzer's and the runtime's messages and reports.
inline std::string format_si(double value, std::string_view unit, int significant = 3) {
  static constexpr const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  while (p < 6 && std::isfinite(value) && std::fabs(value) >= 1000) {
    value /= 1000;
    ++p;
  }
  return format_significant(value, significant) + " " + prefixes[p] + std::string(unit);
}

/// @return A duration in milliseconds below 1 s ("0.336 ms"), seconds above, microseconds below 10 us,
/// nanoseconds below 1 us.
inline std::string format_duration(double seconds) {
  if (seconds >= 1) return format_significant(seconds) + " s";
  if (seconds >= 1e-5) return format_significant(seconds * 1e3) + " ms";
  if (seconds > 0 && seconds < 1e-6) return format_significant(seconds * 1e9) + " ns";
  return format_significant(seconds * 1e6) + " us";
}

/// @return @p items as prose: "a", "a and b", "a, b and c".
inline std::string and_list(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

/// @return The sentence for @p r of a workload in @p mode against @p p; @p measured_s > 0 adds the
/// roofline fraction reached.
inline std::string describe(const bound_result& r, const peaks& p, math_mode mode, double measured_s = 0) {
  std::string s{name(r.verdict)};
  s += " (arithmetic intensity " + format_significant(r.intensity) + " FLOP/byte, ridge " +
       format_significant(r.ridge) + " FLOP/byte on " + std::string(p.device) + " " +
       std::string(label(mode)) + ", " + std::string(name(p.source)) + " peaks): floor " +
       format_duration(r.t_min_s);
  if (measured_s > 0)
    s += "; measured reaches " +
         std::to_string(static_cast<int>(std::lround(100 * roofline_fraction(r.t_min_s, measured_s)))) + "%";
  return s;
}

}  // namespace rooflint::model
