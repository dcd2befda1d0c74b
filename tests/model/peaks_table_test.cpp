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

TEST(FindPeaks, UnknownDeviceIsNullopt) { EXPECT_FALSE(model::find_peaks("Radeon VII").has_value()); }

TEST(FindPeaks, LabelsEveryPeakAsDatasheet) {
  EXPECT_EQ(model::find_peaks("NVIDIA H200")->source, model::peak_source::datasheet);
  EXPECT_DOUBLE_EQ(model::find_peaks("NVIDIA H200")->dram_bytes_per_s, 4.8e12);
  EXPECT_FALSE(model::find_peaks("NVIDIA A100-SXM4-40GB")->has(model::math_mode::fp8_tensor));
}

// Evaluated by the compiler: the table is usable in constant expressions.
static_assert(model::find_peaks("NVIDIA L40S")->flops_per_s[model::math_mode::fp32_simt] == 91.6e12);
