// The one sentence that describes a roofline result (describe.h).
#include <gtest/gtest.h>

#include "rooflint/model.h"
#include "rooflint/model/describe.h"

namespace model = rooflint::model;

namespace {
constexpr model::peaks h200 = *model::find_peaks("NVIDIA H200");
}  // namespace

TEST(Describe, NamesVerdictIntensityRidgeFloorAndFraction) {
  // The sentence: an f32 vector add of 2^27 elements with elementwise FLOPs counted.
  // FLOPs 2^27 = 134,217,728; bytes 12 * 2^27 = 1,610,612,736; AI 1/12 = 0.0833;
  // floor 1,610,612,736 / 4.8e12 = 0.33554 ms; measured at floor / 0.91 reaches 91%.
  const model::workload w{134217728, 1610612736, model::math_mode::fp32_simt};
  const auto r = model::classify(w, h200);
  EXPECT_EQ(model::describe(r, h200, w.mode, r.t_min_s / 0.91),
            "memory-bound (arithmetic intensity 0.0833 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, "
            "datasheet peaks): floor 0.336 ms; measured reaches 91%");
}

TEST(Describe, LeavesOutTheFractionWhenNotMeasured) {
  // Square f32 matmul at N = 4096: AI 4096/6 = 682.67 -> "683"; t_min 2*4096^3 / 66.9e12 = 2.0544 ms.
  const double n = 4096;
  const model::workload w{2 * n * n * n, 12 * n * n, model::math_mode::fp32_simt};
  EXPECT_EQ(model::describe(model::classify(w, h200), h200, w.mode),
            "compute-bound (arithmetic intensity 683 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, "
            "datasheet peaks): floor 2.05 ms");
}

TEST(Describe, NamesTheMathModeAndThePeakSource) {
  // bf16 matmul at N = 8192: AI = 2*N^3 / (3*2*N^2) = N/3 = 2730.67 -> "2731"; ridge 989.4/4.8 = 206.125 -> "206";
  // t_min 2*8192^3 / 989.4e12 = 1.0995e12 / 989.4e12 = 1.111 ms.
  model::peaks measured = h200;
  measured.source = model::peak_source::measured;
  const double n = 8192;
  const model::workload w{2 * n * n * n, 6 * n * n, model::math_mode::bf16_tensor};
  EXPECT_EQ(model::describe(model::classify(w, measured), measured, w.mode),
            "compute-bound (arithmetic intensity 2731 FLOP/byte, ridge 206 FLOP/byte on H200 BF16, "
            "measured peaks): floor 1.11 ms");
}

TEST(FormatDuration, PicksMicrosecondsMillisecondsOrSeconds) {
  EXPECT_EQ(model::format_duration(2.5e-6), "2.5 us");
  EXPECT_EQ(model::format_duration(3.36e-4), "0.336 ms");
  EXPECT_EQ(model::format_duration(1.5), "1.5 s");
  EXPECT_EQ(model::format_duration(1.71e-9), "1.71 ns");  // not "0.00171 us"
}

TEST(FormatSignificant, KeepsThreeSignificantDigitsWithoutTrailingZeros) {
  EXPECT_EQ(model::format_significant(13.9375), "13.9");
  EXPECT_EQ(model::format_significant(1.0 / 12), "0.0833");
  EXPECT_EQ(model::format_significant(2.5), "2.5");
  EXPECT_EQ(model::format_significant(100), "100");
  EXPECT_EQ(model::format_significant(0), "0");
}
