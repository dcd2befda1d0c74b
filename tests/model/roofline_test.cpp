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

TEST(Ridge, H200RoundedAsTheDesignStatesThem) {
  // DESIGN.md: FP32 66.9/4.8 = 13.94, TF32 103.06, BF16 206.1 FLOP/byte.
  EXPECT_NEAR(model::ridge(h200, model::math_mode::fp32_simt), 13.94, 0.005);
  EXPECT_NEAR(model::ridge(h200, model::math_mode::tf32_tensor), 103.06, 0.005);
  EXPECT_NEAR(model::ridge(h200, model::math_mode::bf16_tensor), 206.1, 0.05);
  // FP16 and BF16 share the half tensor roof: 989.4 TFLOP/s.
  EXPECT_DOUBLE_EQ(model::ridge(h200, model::math_mode::fp16_tensor), model::ridge(h200, model::math_mode::bf16_tensor));
}

TEST(Ridge, IsComputedAtCompileTime) {
  // 66.9e12 / 4.8e12 = 13.9375 exactly in decimal; the double quotient is within 1e-12 of it.
  constexpr double r = model::ridge(h200, model::math_mode::fp32_simt);
  static_assert(r > 13.9374 && r < 13.9376);
  EXPECT_GT(r, 0);
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

TEST(TMin, IsAtLeastTheComputeTimeAndTheMemoryTime) {
  // Property over a sweep of intensities from 1/64 to 4096 FLOP/byte, with 1 GB of traffic.
  for (double ai = 1.0 / 64; ai <= 4096; ai *= 2) {
    const model::workload w{1e9 * ai, 1e9, model::math_mode::fp32_simt};
    const double t = model::t_min_s(w, h200);
    EXPECT_GE(t, model::compute_time_s(w, h200));
    EXPECT_GE(t, model::memory_time_s(w, h200));
    EXPECT_TRUE(t == model::compute_time_s(w, h200) || t == model::memory_time_s(w, h200));
  }
}

TEST(TMin, IsTheMemoryTimeBelowTheRidgeAndTheComputeTimeAbove) {
  // 1 GB at 4.8 TB/s = 208.33 us. AI 1 (memory-bound): t_min = 208.33 us.
  // AI 100 with 1 GB: 1e11 FLOP at 66.9e12 FLOP/s = 1.4948 ms (compute-bound).
  const model::workload low{1e9, 1e9, model::math_mode::fp32_simt};
  EXPECT_NEAR(model::t_min_s(low, h200), 208.333333e-6, 1e-12);
  const model::workload high{1e11, 1e9, model::math_mode::fp32_simt};
  EXPECT_NEAR(model::t_min_s(high, h200), 1.494768e-3, 1e-9);
}

TEST(TMin, DependsOnTheMathMode) {
  // 1e12 FLOP: FP32 SIMT 1e12/66.9e12 = 14.948 ms; BF16 tensor 1e12/989.4e12 = 1.0107 ms.
  const model::workload fp32{1e12, 1e6, model::math_mode::fp32_simt};
  const model::workload bf16{1e12, 1e6, model::math_mode::bf16_tensor};
  EXPECT_NEAR(model::t_min_s(fp32, h200), 14.9477e-3, 1e-7);
  EXPECT_NEAR(model::t_min_s(bf16, h200), 1.01071e-3, 1e-8);
}

TEST(TMin, IsTheMemoryTimeWhenTheRoofIsUnknown) {
  // A100 lists no FP8 rate: compute time 0, so the floor is the traffic: 1e9 / 1.555e12 = 643.09 us.
  const model::peaks a100 = *model::find_peaks("NVIDIA A100-SXM4-40GB");
  const model::workload w{1e15, 1e9, model::math_mode::fp8_tensor};
  EXPECT_DOUBLE_EQ(model::compute_time_s(w, a100), 0);
  EXPECT_NEAR(model::t_min_s(w, a100), 643.0868e-6, 1e-10);
}

TEST(Attainable, IsBandwidthTimesIntensityBelowTheRidgeAndThePeakAbove) {
  // AI 2: 2 * 4.8e12 = 9.6e12 FLOP/s; AI 100 > 13.94: the peak 66.9e12.
  EXPECT_DOUBLE_EQ(model::attainable_flops_per_s(h200, model::math_mode::fp32_simt, 2), 9.6e12);
  EXPECT_DOUBLE_EQ(model::attainable_flops_per_s(h200, model::math_mode::fp32_simt, 100), 66.9e12);
}

TEST(Intensity, IsZeroWithoutBytes) {
  EXPECT_DOUBLE_EQ(model::intensity({1e9, 0, model::math_mode::fp32_simt}), 0);
  EXPECT_DOUBLE_EQ(model::intensity({1e9, 4e8, model::math_mode::fp32_simt}), 2.5);
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

TEST(Classify, IntensityAboveRidgeIsComputeBound) {
  // Square f32 matmul at N = 4096: AI = 682.67 > 13.94; t_min = 2*4096^3 / 66.9e12 = 2.0544 ms.
  const double n = 4096;
  const model::workload w{2 * n * n * n, 12 * n * n, model::math_mode::fp32_simt};
  const auto r = model::classify(w, h200);
  EXPECT_EQ(r.verdict, model::bound::compute);
  EXPECT_NEAR(r.t_min_s, 2.054393e-3, 1e-9);
  EXPECT_DOUBLE_EQ(r.t_min_s, r.compute_time_s);
}

TEST(Classify, JustBelowTheRidgeIsMemoryBound) {
  const model::workload w{1e9 * 13.9375 * (1 - 1e-9), 1e9, model::math_mode::fp32_simt};
  EXPECT_EQ(model::classify(w, h200).verdict, model::bound::memory);
}

TEST(Classify, JustUnderTheRidgeWithinTheTieIsComputeBoundAndComputeSetsTheFloor) {
  // Intensity 13.9375 * (1 - 1e-13): below the ridge by less than tie_tolerance (1e-12). The memory
  // time exceeds the compute time by about 1e-13 relative, so comparing the two times would name
  // memory, while the verdict is compute; floor_roof is the one answer, and it is the verdict.
  const model::workload w{1e9 * 13.9375 * (1 - 1e-13), 1e9, model::math_mode::fp32_simt};
  const auto r = model::classify(w, h200);
  EXPECT_LT(r.compute_time_s, r.memory_time_s);  // the raw comparison would say memory
  EXPECT_EQ(r.verdict, model::bound::compute);
  EXPECT_EQ(model::floor_roof(w.flops, r.compute_time_s, r.memory_time_s), model::bound::compute);
  // t_min is the larger time; the two agree to 1e-12 relative, so naming compute misstates nothing.
  EXPECT_NEAR(r.t_min_s / r.compute_time_s, 1, 1e-12);
}

TEST(FloorRoof, IsComputeAtOrAboveTheTieAndMemoryBelowIt) {
  // Times in seconds; tie_tolerance 1e-12 relative to the memory time.
  EXPECT_EQ(model::floor_roof(1, 2.0, 1.0), model::bound::compute);
  EXPECT_EQ(model::floor_roof(1, 1.0, 1.0), model::bound::compute);
  EXPECT_EQ(model::floor_roof(1, 1.0 - 1e-13, 1.0), model::bound::compute);
  EXPECT_EQ(model::floor_roof(1, 1.0 - 1e-9, 1.0), model::bound::memory);
  EXPECT_EQ(model::floor_roof(1, 0.5, 1.0), model::bound::memory);
  // No FLOPs: memory, whatever the times.
  EXPECT_EQ(model::floor_roof(0, 0, 0), model::bound::memory);
}

TEST(Classify, TheSameWorkloadIsComputeBoundOnFp32AndMemoryBoundOnBf16) {
  // AI 100: above the FP32 ridge 13.94, below the BF16 ridge 206.1.
  EXPECT_EQ(model::classify({1e11, 1e9, model::math_mode::fp32_simt}, h200).verdict, model::bound::compute);
  EXPECT_EQ(model::classify({1e11, 1e9, model::math_mode::bf16_tensor}, h200).verdict, model::bound::memory);
}

TEST(Classify, ZeroFlopsIsMemoryBound) {
  EXPECT_EQ(model::classify(model::workload{0, 100, model::math_mode::fp32_simt}, h200).verdict, model::bound::memory);
}

TEST(RooflineFraction, IsTMinOverMeasuredTime) {
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, 2e-3), 0.5);
  EXPECT_DOUBLE_EQ(model::roofline_fraction(0.336e-3, 0.4e-3), 0.84);
}

TEST(RooflineFraction, IsZeroWhenNotMeasured) {
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, 0), 0);
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, -1), 0);
}

TEST(RooflineFraction, AboveOneMeansFasterThanTheRoof) {
  // Measured 0.5 ms against a floor of 1 ms: 2, which says the ceilings or the spec are wrong.
  EXPECT_DOUBLE_EQ(model::roofline_fraction(1e-3, 0.5e-3), 2);
}
