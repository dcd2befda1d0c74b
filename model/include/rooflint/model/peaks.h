#pragma once
/// @file peaks.h
/// The two ceilings of a roofline: peak DRAM bandwidth and peak FLOP rate per math mode.

#include <array>
#include <cstddef>
#include <cstdint>
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

/// A level of the memory hierarchy, each with its own bandwidth roof (the hierarchical roofline: one
/// roof per level; a kernel's bytes at a level are priced only at that level's roof).
enum class memory_level : std::uint8_t {
  dram,  ///< device memory (HBM): dram__bytes_read/write
  l2,    ///< L2 cache, traffic between the SMs and the L2: lts__t_sectors_srcunit_tex_op_read/write x 32
  l1,    ///< L1 data cache, global loads and stores the SMs request: l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st x 32
};

inline constexpr std::size_t memory_level_count = 3;
inline constexpr std::array<memory_level, memory_level_count> memory_levels{memory_level::dram, memory_level::l2,
                                                                           memory_level::l1};

/// @return The level's key in files ("dram", "l2", "l1").
constexpr std::string_view name(memory_level l) {
  constexpr std::array<std::string_view, memory_level_count> names{"dram", "l2", "l1"};
  return names[static_cast<std::size_t>(l)];
}

/// @return The level's label in sentences ("DRAM", "L2", "L1").
constexpr std::string_view label(memory_level l) {
  constexpr std::array<std::string_view, memory_level_count> labels{"DRAM", "L2", "L1"};
  return labels[static_cast<std::size_t>(l)];
}

/// The measured bandwidth roofs of one level, bytes/s, each counting every byte the probe read or wrote;
/// 0 = not measured. The roof a kernel meets depends on its read/write mix (roofline.h: roof_for_mix).
struct level_roofs {
  double read_bytes_per_s = 0;   ///< read-only probe
  double write_bytes_per_s = 0;  ///< write-only probe
  double copy_bytes_per_s = 0;   ///< copy probe (half read, half written), read + write counted
  constexpr bool known() const { return read_bytes_per_s > 0 || write_bytes_per_s > 0 || copy_bytes_per_s > 0; }
};

/// The ceilings of one device.
struct peaks {
  std::string_view device;             ///< device name as matched or recorded ("H200")
  double dram_bytes_per_s = 0;         ///< peak DRAM bandwidth, bytes/s, counting read + write
  per_math_mode<double> flops_per_s{}; ///< peak rate per math mode, FLOP/s; 0 = unknown or absent
  peak_source source = peak_source::datasheet;
  /// Per-level roofs (memory_level order); all 0 for datasheet peaks, which list only the DRAM figure.
  std::array<level_roofs, memory_level_count> levels{};

  /// @return The roofs of level @p l.
  constexpr const level_roofs& level(memory_level l) const { return levels[static_cast<std::size_t>(l)]; }
  constexpr level_roofs& level(memory_level l) { return levels[static_cast<std::size_t>(l)]; }

  /// @return Whether this device has a known peak for math mode @p m.
  constexpr bool has(math_mode m) const { return flops_per_s[m] > 0; }
};

}  // namespace rooflint::model
