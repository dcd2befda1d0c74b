#pragma once
/// @file gpu.h
/// The description of one GPU that every prediction about it reads: its peaks and its memory geometry.
///
/// The geometry decides where a kernel's accesses are served from: how many blocks share an SM, how much
/// of the SM's L1 is left beside their shared memory, how many bytes of rows the SMs together keep in L2,
/// how many bytes a warp request moves. Two sources give it: the datasheet table (peaks_table.h, from
/// NVIDIA's tuning guides and the CUDA C++ Programming Guide) and a ceilings file, which records what the
/// device itself reports. A figure that neither gives is 0, "unknown": a prediction that needs it is not
/// made, rather than made with another GPU's figure.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "rooflint/model/peaks.h"

namespace rooflint::model {

/// The shared-memory capacities an SM can be configured with, KiB, ascending (a "carveout"; L1 is the
/// rest of the combined capacity). At most 16 entries; the unused ones are 0.
struct shared_configs {
  std::array<std::int16_t, 16> kib{};
  std::uint8_t count = 0;

  /// @return The largest capacity, bytes (0 when none is known).
  constexpr std::int64_t max_bytes() const { return count ? std::int64_t(kib[count - 1]) * 1024 : 0; }
  /// @return The smallest capacity of at least @p bytes, bytes, or max_bytes() when none is that large.
  constexpr std::int64_t smallest_holding(std::int64_t bytes) const {
    for (std::size_t i = 0; i < count; ++i)
      if (std::int64_t(kib[i]) * 1024 >= bytes) return std::int64_t(kib[i]) * 1024;
    return max_bytes();
  }
  constexpr bool operator==(const shared_configs&) const = default;
};

/// The memory geometry of one GPU. Capacities are exact byte counts; 0 means unknown.
struct gpu_geometry {
  int sm_count = 0;                                 ///< streaming multiprocessors
  std::int64_t l2_bytes = 0;                        ///< L2 capacity, bytes, as CUDA reports it (l2CacheSize)
  std::int64_t l1_shared_bytes_per_sm = 0;          ///< the combined L1 data cache and shared memory of one SM, bytes
  shared_configs shared;                            ///< the shared-memory capacities of an SM
  std::int64_t max_shared_bytes_per_block = 0;      ///< the most one block may use (opted in), bytes
  std::int64_t reserved_shared_bytes_per_block = 0; ///< shared memory the system reserves per resident block, bytes
  int max_threads_per_sm = 0;                       ///< resident threads per SM
  int max_blocks_per_sm = 0;                        ///< resident blocks per SM
  int registers_per_sm = 0;                         ///< 32-bit registers of an SM's register file; 0 unknown
  /// Registers are allocated to a warp in units of this many (the CUDA occupancy calculator's
  /// allocation unit, 256 from compute capability 5.0 to 10.0): 96 a thread take 3072 a warp.
  int register_unit = 256;
  int warp_size = 32;                               ///< threads per warp
  int sector_bytes = 32;                            ///< the unit L1 and L2 move (a quarter of a line)
  int line_bytes = 128;                             ///< a cache line: 4 sectors
  /// The smallest transfer between L2 and DRAM, bytes: 64 on HBM (a 4-byte gather at a stride of 33
  /// floats moved 64 bytes of DRAM reads per load on the H200, docs/measurements/h200-2026-12-01); 0 unknown.
  int dram_access_bytes = 0;
  /// How the caches keep a working set between passes over it, measured (the replacement policy is
  /// not documented); 0: unknown, and the predictions that rest on it become ranges. A working set of
  /// at most this fraction of the L1 left beside shared memory (per SM), or of L2 (the chip), is read
  /// again from that level; from the whole capacity on, every pass goes to the next.
  double l1_kept_fraction = 0, l2_kept_fraction = 0;
  /// The shared memory the driver provisions per resident block when choosing an SM's configuration for
  /// blocks with little of it, bytes (measured, not documented); 0: unknown, the blocks' own need taken.
  std::int64_t driver_shared_bytes_per_block = 0;

  /// @return Whether every figure the cache-level prediction needs is known (the DRAM access size and the
  /// measured keeping figures are not needed: without the keeping figures, the predictions that use them
  /// are ranges; without the access size, DRAM has no figure).
  constexpr bool known() const {
    return sm_count > 0 && l2_bytes > 0 && l1_shared_bytes_per_sm > 0 && shared.count > 0 && max_threads_per_sm > 0 &&
           max_blocks_per_sm > 0 && warp_size > 0 && sector_bytes > 0 && line_bytes > 0 &&
           shared.max_bytes() <= l1_shared_bytes_per_sm;
  }
  constexpr bool operator==(const gpu_geometry&) const = default;
};

/// One GPU as a prediction sees it: the roofs (peaks.device names it) and the geometry.
struct gpu {
  model::peaks peaks;
  gpu_geometry geometry;
};

}  // namespace rooflint::model
