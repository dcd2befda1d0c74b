#pragma once
/// @file peaks_table.h
/// Datasheet peaks of common NVIDIA data-centre GPUs, and name matching.
///
/// Sources (dense rates, no sparsity, boost clock): NVIDIA H100 Tensor Core GPU datasheet (H100 SXM5,
/// H100 PCIe), NVIDIA H200 datasheet, NVIDIA A100 datasheet, NVIDIA L40S and L4 datasheets; all rates,
/// FP64 to INT8 and HBM, from those datasheets (docs/design.md, "Datasheet peaks", lists them with their
/// ridges). 0 means the datasheet lists no such rate (A100 has no FP8).

#include <array>
#include <optional>
#include <string_view>

#include "rooflint/model/peaks.h"

namespace rooflint::model {

namespace detail {

constexpr double tera = 1e12;

/// One table row: FP64, FP64 tensor, FP32 SIMT, TF32, FP16, BF16, FP8, INT8 in TFLOP/s (TOP/s), HBM in TB/s.
struct datasheet_row {
  std::string_view key;   ///< substring matched in the device name
  std::string_view name;  ///< canonical name
  double fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8, hbm_tb_per_s;

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

// clang-format off
inline constexpr std::array<datasheet_row, 9> datasheet_rows{{
  // key                       name         FP64  FP64TC  FP32   TF32   FP16   BF16   FP8     INT8    HBM
  {"H100 PCIe",                "H100 PCIe", 25.6, 51.2,   51.2,  378,   756,   756,   1513,   1513,   2.0},
  {"H100",                     "H100 SXM",  34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 3.35},
  {"H200",                     "H200",      34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 4.8},
  {"A100-SXM4-40GB",           "A100-SXM4-40GB", 9.7, 19.5, 19.5, 156, 312,   312,   0,      624,    1.555},
  {"A100-PCIE-40GB",           "A100-PCIE-40GB", 9.7, 19.5, 19.5, 156, 312,   312,   0,      624,    1.555},
  {"A100",                     "A100 80GB", 9.7,  19.5,   19.5,  156,   312,   312,   0,      624,    2.039},
  {"L40S",                     "L40S",      0,    0,      91.6,  183,   362,   362,   733,    733,    0.864},
  {"L4",                       "L4",        0,    0,      30.3,  60,    121,   121,   242.5,  242.5,  0.3},
  {"GH200",                    "GH200",     34,   67,     66.9,  494.7, 989.4, 989.4, 1978.9, 1978.9, 4.0},
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

/// @return The datasheet peaks of the device whose name contains the longest matching key
/// ("NVIDIA L40S" is L40S, not L4; "NVIDIA H100 PCIe" is H100 PCIe, not H100), or nullopt.
constexpr std::optional<peaks> find_peaks(std::string_view device_name) {
  const detail::datasheet_row* best = nullptr;
  for (const auto& row : detail::datasheet_rows)
    if (detail::contains(device_name, row.key) && (!best || row.key.size() > best->key.size()))
      best = &row;
  if (!best) return std::nullopt;
  return best->to_peaks();
}

/// @return The keys a device name can match, for error messages ("known devices: ...").
constexpr const auto& datasheet_keys() { return detail::datasheet_rows; }

}  // namespace rooflint::model
