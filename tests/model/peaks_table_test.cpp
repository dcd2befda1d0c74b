#include <gtest/gtest.h>

#include "rooflint/model.h"

namespace model = rooflint::model;

namespace {
std::string_view matched(std::string_view device) {
  const auto p = model::find_peaks(device);
  return p ? p->device : "none";
}
}  // namespace

TEST(FindPeaks, MatchesTheLongestKeyFirst) {
  EXPECT_EQ(matched("NVIDIA L40S"), "L40S");
  EXPECT_EQ(matched("NVIDIA L4"), "L4");
  EXPECT_EQ(matched("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(matched("NVIDIA H100 80GB HBM3"), "H100 SXM");
  EXPECT_EQ(matched("NVIDIA H200"), "H200");
  EXPECT_EQ(matched("NVIDIA A100-SXM4-40GB"), "A100-SXM4-40GB");
  EXPECT_EQ(matched("NVIDIA A100-SXM4-80GB"), "A100 80GB");
}

TEST(FindPeaks, MatchesNamesAsTheDriverReportsThem) {
  // cudaGetDeviceProperties / nvidia-smi names.
  EXPECT_EQ(matched("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(matched("NVIDIA H100 SXM5 80GB"), "H100 SXM");
  EXPECT_EQ(matched("NVIDIA H200 NVL"), "H200");
  EXPECT_EQ(matched("NVIDIA GH200 480GB"), "GH200");      // contains "H200" too; "GH200" is longer
  EXPECT_EQ(matched("NVIDIA A100-PCIE-40GB"), "A100-PCIE-40GB");
  EXPECT_EQ(matched("NVIDIA A100 80GB PCIe"), "A100 80GB");
  EXPECT_EQ(matched("NVIDIA L40S"), "L40S");               // contains "L4" too
}

TEST(FindPeaks, ReturnsTheDesignsDatasheetFigures) {
  // docs/design.md, "Datasheet peaks": dense TFLOP/s FP32 SIMT / TF32 / FP16-BF16, HBM TB/s.
  const auto h100 = *model::find_peaks("NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(h100.flops_per_s[model::math_mode::fp32_simt], 66.9e12);
  EXPECT_DOUBLE_EQ(h100.flops_per_s[model::math_mode::tf32_tensor], 494.7e12);
  EXPECT_DOUBLE_EQ(h100.flops_per_s[model::math_mode::fp16_tensor], 989.4e12);
  EXPECT_DOUBLE_EQ(h100.dram_bytes_per_s, 3.35e12);
  const auto pcie = *model::find_peaks("NVIDIA H100 PCIe");
  EXPECT_DOUBLE_EQ(pcie.flops_per_s[model::math_mode::bf16_tensor], 756e12);
  EXPECT_DOUBLE_EQ(pcie.dram_bytes_per_s, 2.0e12);
  const auto l4 = *model::find_peaks("NVIDIA L4");
  EXPECT_DOUBLE_EQ(l4.flops_per_s[model::math_mode::fp32_simt], 30.3e12);
  EXPECT_DOUBLE_EQ(l4.dram_bytes_per_s, 0.3e12);
  const auto a100 = *model::find_peaks("NVIDIA A100-SXM4-80GB");
  EXPECT_DOUBLE_EQ(a100.dram_bytes_per_s, 2.039e12);
  EXPECT_DOUBLE_EQ(a100.flops_per_s[model::math_mode::tf32_tensor], 156e12);
}

TEST(FindPeaks, UnknownDeviceIsNullopt) { EXPECT_FALSE(model::find_peaks("Radeon VII").has_value()); }

TEST(FindPeaks, LabelsEveryPeakAsDatasheet) {
  EXPECT_EQ(model::find_peaks("NVIDIA H200")->source, model::peak_source::datasheet);
  EXPECT_DOUBLE_EQ(model::find_peaks("NVIDIA H200")->dram_bytes_per_s, 4.8e12);
  EXPECT_FALSE(model::find_peaks("NVIDIA A100-SXM4-40GB")->has(model::math_mode::fp8_tensor));
}

// Evaluated by the compiler: the table is usable in constant expressions.
static_assert(model::find_peaks("NVIDIA L40S")->flops_per_s[model::math_mode::fp32_simt] == 91.6e12);

TEST(FindPeaks, MatchesKeysAsWholeTokensOnly) {
  // Review finding: plain substring matching gave "NVIDIA L40" the L4's 0.3 TB/s and "RTX A1000" an A100.
  EXPECT_FALSE(model::find_peaks("NVIDIA L40").has_value());
  EXPECT_FALSE(model::find_peaks("NVIDIA RTX A1000").has_value());
  EXPECT_EQ(matched("NVIDIA A100-SXM4-80GB"), "A100 80GB");  // '-' separates tokens
}

TEST(FindPeaks, IgnoresCase) { EXPECT_EQ(matched("nvidia a100-sxm4-80gb"), "A100 80GB"); }
