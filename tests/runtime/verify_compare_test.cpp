// The verifier's comparison on recorded H200 numbers (CUPTI.md Appendix B); expected values worked
// out by hand in the comments.

#include <cmath>
#include <limits>
#include <gtest/gtest.h>

#include <algorithm>

#include "verify/measurement_json.h"
#include "verify_recorded.h"

using namespace rooflint;
using namespace rooflint::runtime;
using namespace rooflint::verify_test;

namespace {

bool has(const case_report& r, const std::string& id, severity level) {
  return std::any_of(r.findings.begin(), r.findings.end(),
                     [&](const finding& f) { return f.id == id && f.level == level; });
}

const finding* find(const case_report& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

case_report compare_saxpy(const measurement& m, const model::peaks& p = h200()) {
  return compare({"saxpy_n64M", &saxpy_spec, saxpy_sizes()}, m, p, tolerances_for(saxpy_spec, 0));
}

/// A measurement of sgemm at S = 4096 on the H200 (cuBLAS SGEMM, no TF32): DRAM reads 3.42e8 B,
/// 2.69 ms; stores are exactly C, 4 S^2 = 67108864 B = 2097152 sectors.
measurement recorded_sgemm() {
  measurement m = recorded_saxpy();
  m.case_name = "sgemm_4096";
  m.counters.dram_read_bytes = 3.42e8;
  m.counters.dram_write_bytes = 7.5e7;
  m.counters.l2_write_sectors = 2097152;
  m.counters.fp_instructions["ffma"] = 6.874e10;
  m.timing.median_s = 2.69e-3;
  return m;
}

}  // namespace

TEST(CompareSaxpy, RecordedH200NumbersPassAtCompulsoryTraffic) {
  const case_report r = compare_saxpy(recorded_saxpy());
  EXPECT_EQ(r.status, case_status::passed);
  // Compulsory: reads 8N = 536870912 B, writes 4N = 268435456 B.
  EXPECT_DOUBLE_EQ(r.predicted.read_bytes, 536870912.0);
  EXPECT_DOUBLE_EQ(r.predicted.written_bytes, 268435456.0);
  EXPECT_NEAR(r.compared.read_ratio, 5.369e8 / 536870912.0, 1e-12);  // 1.000054
  EXPECT_DOUBLE_EQ(r.compared.write_ratio, 1.0);                      // 8388608 sectors x 32 B
  EXPECT_NEAR(r.compared.dram_write_ratio, 2.60e8 / 268435456.0, 1e-12);
  EXPECT_TRUE(r.compared.cold);
  EXPECT_EQ(r.compared.measured_bound.verdict, model::bound::memory);
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::note));
}

TEST(CompareSaxpy, RooflineFractionIsFloorOverMedianTime) {
  const case_report r = compare_saxpy(recorded_saxpy());
  // t_min = 805306368 B / 4.8e12 B/s = 167.772 us; 167.772 / 238 = 0.704925.
  EXPECT_NEAR(r.predicted.bound.t_min_s, 805306368.0 / 4.8e12, 1e-15);
  EXPECT_NEAR(r.compared.roofline_fraction, 805306368.0 / 4.8e12 / 238e-6, 1e-9);
  EXPECT_NEAR(r.compared.achieved_bytes_per_s, (5.369e8 + 268435456.0) / 238e-6, 1);
}

TEST(CompareSaxpy, ExecutedFlopsCountFmaAsTwo) {
  const case_report r = compare_saxpy(recorded_saxpy());
  // Ideal 2N = 134217728 FLOP; executed 2 x FFMA = 1.3422e8.
  EXPECT_DOUBLE_EQ(r.predicted.flops, 134217728.0);
  EXPECT_DOUBLE_EQ(r.compared.observed_flops, 2 * 6.711e7);
  EXPECT_NEAR(r.compared.flop_ratio, 2 * 6.711e7 / 134217728.0, 1e-12);  // 1.000017
}

TEST(CompareSaxpy, SixteenfoldReadsOfAMemoryBoundKernelAreAnError) {
  measurement m = recorded_saxpy();
  m.counters.dram_read_bytes = 16 * 536870912.0;  // a stride-33 gather's amplification
  m.timing.median_s = 2e-3;
  const case_report r = compare_saxpy(m);
  EXPECT_EQ(r.status, case_status::failed);
  ASSERT_TRUE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_NE(find(r, "rooflint-ideal-traffic")->message.find("memory-bound floor rises"), std::string::npos)
      << find(r, "rooflint-ideal-traffic")->message;
  EXPECT_NEAR(r.compared.read_ratio, 16.0, 1e-12);
}

TEST(CompareSgemm, ExtraReadsThatLeaveTheKernelComputeBoundAreANote) {
  const auto sizes = sgemm_spec.bind(S(4096)).bound;
  const case_report r = compare({"sgemm_4096", &sgemm_spec, sizes}, recorded_sgemm(), h200(), tolerances_for(sgemm_spec, 0));
  // Compulsory 12 S^2 = 201326592 B; observed 3.42e8 + 67108864 = 4.091e8 B: 2.03x. True intensity
  // 1.374e11 / 4.091e8 = 336 FLOP/byte, far above the ridge 66.9e12 / 4.8e12 = 13.9.
  EXPECT_NEAR(r.compared.total_ratio, (3.42e8 + 67108864.0) / 201326592.0, 1e-12);
  EXPECT_TRUE(has(r, "rooflint-ideal-traffic", severity::note));
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_EQ(r.compared.measured_bound.verdict, model::bound::compute);
  EXPECT_EQ(r.status, case_status::passed);
}

TEST(CompareSgemm, ExtraBytesThatMoveTheDotAcrossTheRidgeAreAnError) {
  // S = 128: 2 S^3 = 4194304 FLOP over 12 S^2 = 196608 B: intensity 21.3, above the ridge 13.9.
  // Observed 3x the bytes: 7.1 FLOP/byte, below the ridge.
  const auto sizes = sgemm_spec.bind(S(128)).bound;
  measurement m = recorded_sgemm();
  m.counters.dram_read_bytes = 3 * 131072.0;
  m.counters.l2_write_sectors = 3 * 65536.0 / 32;
  m.timing.median_s = 1e-6;
  tolerances bands = tolerances_for(sgemm_spec, 0);
  bands.slack_bytes = 0;
  const case_report r = compare({"sgemm_128", &sgemm_spec, sizes}, m, h200(), bands);
  EXPECT_EQ(r.predicted.bound.verdict, model::bound::compute);
  EXPECT_EQ(r.compared.measured_bound.verdict, model::bound::memory);
  ASSERT_TRUE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_NE(find(r, "rooflint-ideal-traffic")->message.find("crosses the ridge"), std::string::npos);
  EXPECT_EQ(r.status, case_status::failed);
}

TEST(CompareSgemm, ExtraBytesThatLeaveTheDotJustUnderTheRidgeWithinTheTieAreANote) {
  // S = 128: 4194304 FLOP, compulsory 196608 B; observed 3x = 589824 B (reads 393216, writes 196608).
  // Peaks chosen so that the measured dot sits 5e-13 (relative) under the ridge, inside the tie
  // (model::tie_tolerance 1e-12): classify calls it compute-bound, so the floor stays the compute time
  // and the finding is the note. Comparing the two times directly would have made it an error that
  // says memory becomes the floor, against the verdict.
  const auto sizes = sgemm_spec.bind(S(128)).bound;
  measurement m = recorded_sgemm();
  m.counters.dram_read_bytes = 3 * 131072.0;
  m.counters.l2_write_sectors = 3 * 65536.0 / 32;
  m.timing.median_s = 1e-3;
  tolerances bands = tolerances_for(sgemm_spec, 0);
  bands.slack_bytes = 0;
  model::peaks peaks = h200();
  const double observed = 3 * 196608.0, flops = 2.0 * 128 * 128 * 128;
  peaks.flops_per_s[model::math_mode::fp32_simt] = flops / observed * peaks.dram_bytes_per_s * (1 + 5e-13);
  const case_report r = compare({"sgemm_128", &sgemm_spec, sizes}, m, peaks, bands);
  const model::bound_result& o = r.compared.measured_bound;
  ASSERT_NEAR(o.intensity, flops / observed, 1e-9);
  EXPECT_LT(o.intensity, o.ridge);                 // just under the ridge
  EXPECT_LT(o.compute_time_s, o.memory_time_s);    // by the raw times, memory would be the floor
  EXPECT_EQ(o.verdict, model::bound::compute);     // the verdict: within the tie, compute
  ASSERT_TRUE(has(r, "rooflint-ideal-traffic", severity::note));
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_NE(find(r, "rooflint-ideal-traffic")->message.find("stays compute-bound"), std::string::npos)
      << find(r, "rooflint-ideal-traffic")->message;
}

TEST(CompareSaxpy, ReadsFarBelowCompulsoryVoidTheTrafficCheck) {
  measurement m = recorded_saxpy();
  m.counters.dram_read_bytes = 5.369e7;  // 10%: the inputs were in L2
  const case_report r = compare_saxpy(m);
  EXPECT_FALSE(r.compared.cold);
  EXPECT_TRUE(has(r, "rooflint-not-cold", severity::warning));
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::error));
}

TEST(CompareSaxpy, TimeBelowTheFloorIsFasterThanTheRoof) {
  measurement m = recorded_saxpy();
  m.timing.median_s = 100e-6;  // below t_min 167.8 us
  const case_report r = compare_saxpy(m);
  EXPECT_TRUE(has(r, "rooflint-faster-than-roof", severity::error));
  EXPECT_EQ(r.status, case_status::failed);
}

TEST(CompareSaxpy, ExpectingComputeBoundFailsForAMemoryBoundDot) {
  static constexpr auto wrong = saxpy_spec.expect(dsl::compute_bound);
  const case_report r = compare({"saxpy", &wrong, saxpy_sizes()}, recorded_saxpy(), h200(), tolerances_for(wrong, 0));
  EXPECT_TRUE(has(r, "rooflint-expectation", severity::error));
}

TEST(CompareSaxpy, RooflineFractionBelowTheSpecsMinimumFails) {
  static constexpr auto demanding = saxpy_spec.min_roofline_fraction(0.9);  // reached: 0.705
  const case_report r = compare({"saxpy", &demanding, saxpy_sizes()}, recorded_saxpy(), h200(), tolerances_for(demanding, 0));
  EXPECT_TRUE(has(r, "rooflint-roofline-fraction", severity::error));
}

TEST(CompareSaxpy, WithoutCountersOnlyTimingVerdictsAreGiven) {
  measurement m = recorded_saxpy();
  m.counters = {};
  m.counters.permission_denied = true;
  m.counters.unavailable_reason = "permission denied";
  const case_report r = compare_saxpy(m);
  EXPECT_FALSE(r.compared.traffic_measured);
  EXPECT_TRUE(has(r, "rooflint-timing-only", severity::warning));
  EXPECT_EQ(r.status, case_status::passed);
  EXPECT_NEAR(r.compared.roofline_fraction, 805306368.0 / 4.8e12 / 238e-6, 1e-9);
}

TEST(CompareSaxpy, AFaultedCaseIsAnError) {
  measurement m;
  m.status = run_status::faulted;
  m.error = "kernel 'saxpy' failed: cudaErrorIllegalAddress";
  const case_report r = compare_saxpy(m);
  EXPECT_EQ(r.status, case_status::error);
}

TEST(Tolerances, SpecRatioOverridesTheCommandLine) {
  static constexpr auto loose = saxpy_spec.max_traffic_ratio(3);
  EXPECT_DOUBLE_EQ(tolerances_for(loose, 1.5).read_ratio, 3.0);
  EXPECT_DOUBLE_EQ(tolerances_for(saxpy_spec, 1.5).write_ratio, 1.5);
  EXPECT_DOUBLE_EQ(tolerances_for(saxpy_spec, 0).total_ratio, tolerances{}.total_ratio);
}

TEST(ClockWarning, ClockOutsideTheCeilingsRangeWarns) {
  ceilings::clock_state c;
  c.sm_mhz_min = 1755;
  c.sm_mhz_max = 1980;
  timing_values t = recorded_saxpy().timing;
  EXPECT_TRUE(clock_warning(t, {}, c, 0.05).empty());
  t.sm_mhz_mean = 1400;  // below 1755 x 0.95 = 1667
  EXPECT_NE(clock_warning(t, {}, c, 0.05).find("1400 MHz"), std::string::npos);
  EXPECT_TRUE(clock_warning(t, {}, std::nullopt, 0.05).empty());
}

TEST(MeasurementJson, RoundTripKeepsEveryFigure) {
  const measurement m = recorded_saxpy();
  auto back = measurement_from_json(measurement_to_json(m));
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_EQ(back->device.name, "NVIDIA H200");
  EXPECT_EQ(back->device.cc_major, 9);
  EXPECT_DOUBLE_EQ(back->counters.dram_read_bytes, 5.369e8);
  EXPECT_DOUBLE_EQ(back->counters.l2_write_sectors, 8388608);
  EXPECT_DOUBLE_EQ(back->counters.fp_instructions.at("ffma"), 6.711e7);
  EXPECT_EQ(back->counters.passes.at("core"), 1);
  EXPECT_DOUBLE_EQ(back->timing.median_s, 238e-6);
  EXPECT_EQ(back->status, run_status::measured);
}

TEST(MeasurementJson, UnmeasuredFiguresSurviveTheRoundTripAsNaN) {
  // nlohmann writes NaN as null; a case process that could not read a counter must not make its
  // whole measurement unreadable (seen on the H200, 2026-11-30: "type must be number, but is null").
  measurement m = recorded_saxpy();
  m.counters.sm_clock_hz = std::numeric_limits<double>::quiet_NaN();
  m.counters.fp_instructions["hfma"] = std::numeric_limits<double>::quiet_NaN();
  auto back = measurement_from_json(measurement_to_json(m));
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_TRUE(std::isnan(back->counters.sm_clock_hz));
  EXPECT_TRUE(std::isnan(back->counters.fp_instructions.at("hfma")));
  EXPECT_DOUBLE_EQ(back->counters.dram_read_bytes, 5.369e8);
}
