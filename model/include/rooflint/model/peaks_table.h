#pragma once
/// @file peaks_table.h
/// Datasheet peaks and memory geometry of common NVIDIA data-centre GPUs, and name matching.
///
/// Sources (dense rates, no sparsity, boost clock): NVIDIA H100 Tensor Core GPU datasheet (H100 SXM5,
/// H100 PCIe), NVIDIA H200 datasheet, NVIDIA A100 datasheet, NVIDIA L40S and L4 datasheets; all rates,
/// FP64 to INT8 and HBM, from those datasheets (docs/design.md, "Datasheet peaks", lists them with their
/// ridges). 0 means the datasheet lists no such rate (A100 has no FP8).

#include <array>
#include <optional>
#include <string_view>

#include "rooflint/model/gpu.h"
#include "rooflint/model/peaks.h"

namespace rooflint::model {

namespace detail {

constexpr double tera = 1e12;
constexpr std::int64_t kib = 1024, mib = 1024 * 1024;

/// The per-SM figures of one compute capability (CUDA C++ Programming Guide, "Compute Capabilities":
/// the technical specifications per compute capability; and each architecture's tuning guide).
struct sm_figures {
  std::int64_t l1_shared_bytes_per_sm;
  shared_configs shared;
  std::int64_t max_shared_bytes_per_block;
  int max_threads_per_sm, max_blocks_per_sm;
  /// What the architecture's caches keep between passes and the driver's shared-memory margin
  /// (gpu_geometry): measured on one of its chips, taken for all of them; 0 where not measured.
  double l1_kept_fraction = 0, l2_kept_fraction = 0;
  std::int64_t driver_shared_bytes_per_block = 0;
};

/// sm_90 (H100, H200, GH200). NVIDIA Hopper Tuning Guide, "Unified Shared Memory/L1/Texture Cache": "the
/// combined L1 cache and shared memory capacity is 256 KB per SM", shared memory configurable to 0, 8,
/// 16, 32, 64, 100, 132, 164, 196 or 228 KB, a single block addressing up to 227 KB; compute capability
/// 9.0: 2048 threads and 32 blocks per SM.
///
/// Measured on an H200 (2026-12-01, scripts/probes/l1-capacity.sh, three passes over per-block rows of
/// growing size, with and without the last pass writing its row): L2 reads 1.00-1.06x of one pass at up
/// to 0.14 of L1, 1.00-1.34x at 0.26-0.29, 2.37-2.92x of 3 from the whole of L1: a kept fraction of 1/8;
/// DRAM reads 1.00-1.11x at up to 0.41 of L2, 1.95x at 0.55 (writing), 2.94-2.98x of 3 at 1.1: 0.4. The
/// driver's configuration for blocks with little shared memory: 8 blocks of 256 threads -> 32 KiB,
/// 2 blocks of 1024 -> 8 KiB, 8 blocks of 24 KiB -> 228 KiB, as if each block needed at least 4 KiB
/// (the probe's 8 blocks of 8 KiB of dynamic shared memory chose 132 KiB, this rule 100 KiB).
inline constexpr sm_figures sm_90{256 * kib, {{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 10}, 227 * kib, 2048, 32,
                                  1.0 / 8, 0.4, 4 * kib};
/// sm_80 (A100). NVIDIA Ampere GPU Architecture Tuning Guide, "Unified Shared Memory/L1/Texture Cache":
/// 192 KB combined per SM; "The NVIDIA A100 GPU supports shared memory capacity of 0, 8, 16, 32, 64, 100,
/// 132 or 164 KB per SM", up to 163 KB per block; compute capability 8.0: 2048 threads, 32 blocks per SM.
inline constexpr sm_figures sm_80{192 * kib, {{0, 8, 16, 32, 64, 100, 132, 164}, 8}, 163 * kib, 2048, 32};
/// sm_89 (L40S, L4). NVIDIA Ada GPU Architecture Tuning Guide, "Unified Shared Memory/L1/Texture Cache":
/// 128 KB combined per SM, shared memory capacity 0, 8, 16, 32, 64 or 100 KB, up to 99 KB per block;
/// compute capability 8.9: 1536 threads and 24 blocks per SM.
inline constexpr sm_figures sm_89{128 * kib, {{0, 8, 16, 32, 64, 100}, 6}, 99 * kib, 1536, 24};

/// HBM moves 64 bytes per access (measured on the H200, gpu.h); the GDDR6 of the L40S and L4 is not
/// measured here: unknown (0).
constexpr int hbm_access_bytes = 64;

/// @return The geometry of a GPU with @p sms SMs of @p sm, @p l2 bytes of L2 (0: undocumented) and
/// @p dram_access bytes per DRAM transfer (0: unknown).
constexpr gpu_geometry geometry_of(const sm_figures& sm, int sms, std::int64_t l2, int dram_access) {
  gpu_geometry g;
  g.sm_count = sms;
  g.l2_bytes = l2;
  g.l1_shared_bytes_per_sm = sm.l1_shared_bytes_per_sm;
  g.shared = sm.shared;
  g.max_shared_bytes_per_block = sm.max_shared_bytes_per_block;
  g.reserved_shared_bytes_per_block = 1 * kib;  // 1 KB per block on compute capabilities 8.x and 9.0
  g.max_threads_per_sm = sm.max_threads_per_sm;
  g.max_blocks_per_sm = sm.max_blocks_per_sm;
  g.registers_per_sm = 64 * 1024;  // 64 K 32-bit registers per SM on compute capabilities 8.0 to 9.0
  g.dram_access_bytes = dram_access;
  g.l1_kept_fraction = sm.l1_kept_fraction;
  g.l2_kept_fraction = sm.l2_kept_fraction;
  g.driver_shared_bytes_per_block = sm.driver_shared_bytes_per_block;
  return g;
}

/// One table row: FP64, FP64 tensor, FP32 SIMT, TF32, FP16, BF16, FP8, INT8 in TFLOP/s (TOP/s), HBM in
/// TB/s; then the memory geometry.
struct datasheet_row {
  std::string_view key;   ///< substring matched in the device name
  std::string_view name;  ///< canonical name
  double fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8, hbm_tb_per_s;
  gpu_geometry geometry;

  constexpr peaks to_peaks() const {
    peaks p{name, hbm_tb_per_s * tera, {}, peak_source::datasheet};
    p.flops_per_s[math_mode::fp64] = fp64 * tera;
    p.flops_per_s[math_mode::fp64_tensor] = fp64_tensor * tera;
    p.flops_per_s[math_mode::fp32_simt] = fp32 * tera;
    p.flops_per_s[math_mode::tf32_tensor] = tf32 * tera;
    p.flops_per_s[math_mode::fp16_tensor] = fp16 * tera;
    p.flops_per_s[math_mode::bf16_tensor] = bf16 * tera;
    p.flops_per_s[math_mode::fp8_tensor] = fp8 * tera;
    p.flops_per_s[math_mode::int8_tensor] = int8 * tera;
    return p;
  }
};

// SM counts and L2 capacities: as CUDA reports them (multiProcessorCount, l2CacheSize) where measured
// (H200: 132 and 62914560 = 60 MiB, docs/measurements/h200-2026-11-30/ceilings.json), else the
// architecture whitepapers (NVIDIA H100 Tensor Core GPU Architecture: 132 SMs and 50 MB L2 for the H100
// SXM5, 114 SMs and 50 MB for the H100 PCIe; NVIDIA A100 Tensor Core GPU Architecture: 108 SMs, 40 MB;
// NVIDIA Ada GPU Architecture: the L40S's 142 SMs and 96 MB, the L4's 58 SMs and 48 MB). The GH200's
// L2 is in no document cited here: 0, unknown until a ceilings file measured on it records it.
// clang-format off
inline constexpr std::array<datasheet_row, 9> datasheet_rows{{
  // key                       name         FP64  FP64TC  FP32   TF32   FP16   BF16   FP8     INT8    HBM
  {"H100 PCIe",                "H100 PCIe", 25.6, 51.2,   51.2,  378,   756,   756,   1513,   1513,   2.0,
   geometry_of(sm_90, 114, 50 * mib, hbm_access_bytes)},
  {"H100",                     "H100 SXM",  34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 3.35,
   geometry_of(sm_90, 132, 50 * mib, hbm_access_bytes)},
  {"H200",                     "H200",      34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 4.8,
   geometry_of(sm_90, 132, 60 * mib, hbm_access_bytes)},
  {"A100-SXM4-40GB",           "A100-SXM4-40GB", 9.7, 19.5, 19.5, 156, 312,   312,   0,      624,    1.555,
   geometry_of(sm_80, 108, 40 * mib, hbm_access_bytes)},
  {"A100-PCIE-40GB",           "A100-PCIE-40GB", 9.7, 19.5, 19.5, 156, 312,   312,   0,      624,    1.555,
   geometry_of(sm_80, 108, 40 * mib, hbm_access_bytes)},
  {"A100",                     "A100 80GB", 9.7,  19.5,   19.5,  156,   312,   312,   0,      624,    2.039,
   geometry_of(sm_80, 108, 40 * mib, hbm_access_bytes)},
  {"L40S",                     "L40S",      0,    0,      91.6,  183,   362,   362,   733,    733,    0.864,
   geometry_of(sm_89, 142, 96 * mib, 0)},
  {"L4",                       "L4",        0,    0,      30.3,  60,    121,   121,   242.5,  242.5,  0.3,
   geometry_of(sm_89, 58, 48 * mib, 0)},
  {"GH200",                    "GH200",     34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 4.0,
   geometry_of(sm_90, 132, 0, hbm_access_bytes)},
}};
// clang-format on

constexpr bool is_separator(char c) { return c == ' ' || c == '-' || c == '_'; }

constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// @return Index of @p needle in @p haystack from @p from, ignoring ASCII case ("a100" finds "A100"), or npos.
constexpr std::size_t find_ignoring_case(std::string_view haystack, std::string_view needle, std::size_t from) {
  for (std::size_t at = from; at + needle.size() <= haystack.size(); ++at) {
    std::size_t i = 0;
    while (i < needle.size() && lower(haystack[at + i]) == lower(needle[i])) ++i;
    if (i == needle.size()) return at;
  }
  return std::string_view::npos;
}

/// @return Whether @p needle occurs in @p haystack as a whole token, in any case: "NVIDIA L40" does not contain "L4",
/// "NVIDIA RTX A1000" does not contain "A100", "NVIDIA A100-SXM4-80GB" contains "A100".
constexpr bool contains(std::string_view haystack, std::string_view needle) {
  for (auto at = find_ignoring_case(haystack, needle, 0); at != std::string_view::npos;
       at = find_ignoring_case(haystack, needle, at + 1)) {
    const auto end = at + needle.size();
    if ((at == 0 || is_separator(haystack[at - 1])) && (end == haystack.size() || is_separator(haystack[end])))
      return true;
  }
  return false;
}

}  // namespace detail

namespace detail {
/// @return The index of the row whose key is the longest that @p device_name contains, or npos.
constexpr std::size_t find_row(std::string_view device_name) {
  std::size_t best = std::string_view::npos;
  for (std::size_t i = 0; i < datasheet_rows.size(); ++i)
    if (contains(device_name, datasheet_rows[i].key) &&
        (best == std::string_view::npos || datasheet_rows[i].key.size() > datasheet_rows[best].key.size()))
      best = i;
  return best;
}
}  // namespace detail

/// @return The datasheet peaks of the device whose name contains the longest matching key
/// ("NVIDIA L40S" is L40S, not L4; "NVIDIA H100 PCIe" is H100 PCIe, not H100), or nullopt.
constexpr std::optional<peaks> find_peaks(std::string_view device_name) {
  const std::size_t row = detail::find_row(device_name);
  if (row == std::string_view::npos) return std::nullopt;
  return detail::datasheet_rows[row].to_peaks();
}

/// @return The datasheet description of the device (peaks and geometry), matched as find_peaks does, or nullopt.
constexpr std::optional<gpu> find_gpu(std::string_view device_name) {
  const std::size_t row = detail::find_row(device_name);
  if (row == std::string_view::npos) return std::nullopt;
  return gpu{detail::datasheet_rows[row].to_peaks(), detail::datasheet_rows[row].geometry};
}

/// @return The keys a device name can match, for error messages ("known devices: ...").
constexpr const auto& datasheet_keys() { return detail::datasheet_rows; }

}  // namespace rooflint::model
