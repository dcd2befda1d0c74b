#pragma once
/// @file peaks.h
/// The two ceilings of a roofline: peak DRAM bandwidth and peak FLOP rate per math mode.

#include <string_view>

#include "rooflint/model/dtype.h"

namespace rooflint::model {

/// Where a set of peaks came from. Every report states it.
enum class peak_source : unsigned char {
  datasheet,  ///< vendor datasheet (dense, boost clock): may be wrong at your clocks
  measured,   ///< measured on the device by rooflint-ceilings
  user,       ///< given by the user
};

constexpr std::string_view name(peak_source s) {
  switch (s) {
    case peak_source::datasheet: return "datasheet";
    case peak_source::measured: return "measured";
    case peak_source::user: return "user";
  }
  return "unknown";
}

/// The ceilings of one device.
struct peaks {
  std::string_view device;             ///< device name as matched or recorded ("H200")
  double dram_bytes_per_s = 0;         ///< peak DRAM bandwidth, bytes/s, counting read + write
  per_math_mode<double> flops_per_s{}; ///< peak rate per math mode, FLOP/s; 0 = unknown or absent
  peak_source source = peak_source::datasheet;

  /// @return Whether this device has a known peak for math mode @p m.
  constexpr bool has(math_mode m) const { return flops_per_s[m] > 0; }
};

}  // namespace rooflint::model
