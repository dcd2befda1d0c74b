#include <gtest/gtest.h>

#include "rooflint/model.h"

namespace model = rooflint::model;

namespace {
// H200 datasheet peaks (DESIGN.md): FP32 66.9 TFLOP/s, TF32 494.7, BF16 989.4, HBM 4.8 TB/s.
constexpr model::peaks h200 = *model::find_peaks("NVIDIA H200");
}  // namespace

TEST(Ridge, EqualsPeakFlopsOverPeakBandwidth) {
  // 66.9e12 / 4.8e12 = 13.9375; 494.7 / 4.8 = 103.0625; 989.4 / 4.8 = 206.125 (FLOP/byte).
  EXPECT_NEAR(model::ridge(h200, model::math_mode::fp32_simt), 13.9375, 1e-9);
  EXPECT_NEAR(model::ridge(h200, model::math_mode::tf32_tensor), 103.0625, 1e-9);
  EXPECT_NEAR(model::ridge(h200, model::math_mode::bf16_tensor), 206.125, 1e-9);
}

TEST(Ridge, ScalesWithThePeaks) {
  model::peaks doubled = h200;
  doubled.flops_per_s[model::math_mode::fp32_simt] *= 2;
  EXPECT_DOUBLE_EQ(model::ridge(doubled, model::math_mode::fp32_simt), 2 * model::ridge(h200, model::math_mode::fp32_simt));
}

TEST(TMin, IsTheLargerOfComputeTimeAndMemoryTime) {
  // 1e12 FLOP at 66.9e12 FLOP/s = 14.95 ms; 1e9 bytes at 4.8e12 B/s = 0.208 ms.
  const model::workload w{1e12, 1e9, model::math_mode::fp32_simt};
  EXPECT_DOUBLE_EQ(model::t_min_s(w, h200), 1e12 / 66.9e12);
  const model::workload m{1e9, 1e12, model::math_mode::fp32_simt};
  EXPECT_DOUBLE_EQ(model::t_min_s(m, h200), 1e12 / 4.8e12);
}

TEST(Classify, AtTheRidgeComputeTimeEqualsMemoryTimeAndIsComputeBound) {
  const double bytes = 1e9;
  const model::workload w{bytes * 13.9375, bytes, model::math_mode::fp32_simt};
  const auto r = model::classify(w, h200);
  EXPECT_NEAR(r.compute_time_s, r.memory_time_s, 1e-15);
  EXPECT_EQ(r.verdict, model::bound::compute);
}

TEST(Classify, IntensityBelowRidgeIsMemoryBound) {
  // Square f32 matmul at N = 64: AI = N/6 = 10.67 < 13.94.
  const double n = 64;
  const model::workload w{2 * n * n * n, 12 * n * n, model::math_mode::fp32_simt};
  EXPECT_EQ(model::classify(w, h200).verdict, model::bound::memory);
  EXPECT_NEAR(model::intensity(w), 64.0 / 6, 1e-12);
}

TEST(Classify, ZeroFlopsIsMemoryBound) {
  EXPECT_EQ(model::classify(model::workload{0, 100, model::math_mode::fp32_simt}, h200).verdict, model::bound::memory);
}

TEST(RooflineFraction, IsTMinOverMeasuredTime) {
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, 2e-3), 0.5);
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, 0), 0);
}

TEST(Describe, NamesVerdictIntensityRidgeFloorAndFraction) {
  // f32 vector add of 2^26 elements with elementwise FLOPs counted: 1 FLOP per 12 bytes.
  // bytes = 12 * 2^26 = 805,306,368; floor = 805306368 / 4.8e12 = 0.1678 ms.
  const model::workload w{67108864, 805306368, model::math_mode::fp32_simt};
  const auto r = model::classify(w, h200);
  EXPECT_EQ(model::describe(r, h200, w.mode, r.t_min_s / 0.91),
            "memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, "
            "datasheet peaks): floor 0.168 ms; measured reaches 91%");
}
