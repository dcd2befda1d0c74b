// The verifier's comparison on recorded H200 numbers (docs/cupti.md §2); expected values worked
// out by hand in the comments.

#include <cmath>
#include <limits>
#include <tuple>
#include <gtest/gtest.h>

#include <algorithm>

#include "report/measurement_json.h"
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
  // Achieved bandwidth is the DRAM level's bytes only: reads 5.369e8 + DRAM writes 2.60e8.
  EXPECT_NEAR(r.compared.achieved_bytes_per_s, (5.369e8 + 2.60e8) / 238e-6, 1);
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
  // Compulsory 12 S^2 = 201326592 B; DRAM level 3.42e8 + 7.5e7 = 4.17e8 B: 2.07x. Its floor at the
  // datasheet 4.8 TB/s is 86.9 us, far under the compute floor 1.374e11 / 66.9e12 = 2.054 ms.
  EXPECT_NEAR(r.compared.total_ratio, (3.42e8 + 7.5e7) / 201326592.0, 1e-12);
  EXPECT_EQ(r.compared.binding, std::nullopt);  // compute
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
  m.counters.dram_write_bytes = 3 * 65536.0;  // the DRAM level: 589824 B, 3x
  m.counters.l2_read_sectors = 131072.0 / 32;  // L2 at its ideal: no finding there
  m.counters.l2_write_sectors = 65536.0 / 32;
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
  EXPECT_NE(find(r, "rooflint-ideal-traffic")->message.find("stays under the predicted floor"), std::string::npos)
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
  static constexpr auto wrong = rooflint::verify_test::saxpy_unexpected.expect(dsl::compute_bound);
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
  EXPECT_EQ(back->device.uuid, m.device.uuid);
  EXPECT_EQ(back->device.driver_version, "580.159.04");
  EXPECT_EQ(back->device.cc_major, 9);
  EXPECT_DOUBLE_EQ(back->counters.dram_read_bytes, 5.369e8);
  EXPECT_DOUBLE_EQ(back->counters.l2_write_sectors, 8388608);
  EXPECT_DOUBLE_EQ(back->counters.fp_instructions.at("ffma"), 6.711e7);
  EXPECT_EQ(back->counters.passes.at("core"), 1);
  EXPECT_DOUBLE_EQ(back->timing.median_s, 238e-6);
  EXPECT_EQ(back->status, run_status::measured);
}

TEST(MeasurementJson, RoundTripKeepsEveryFieldOfEveryPart) {
  // Every field set to a value of its own (no two alike, none the default), so a key that the writer
  // and the reader spell differently, or one of them lacks, shows as a mismatch here.
  measurement m;
  m.case_name = "every_field";
  m.status = run_status::faulted;
  m.error = "an error";
  m.device = {"GPU name", "GPU-uuid", "580.1", "GH100", 9, 1, 132, 5e7, 6e7};
  counter_values& k = m.counters;
  k.available = true;
  k.unavailable_reason = "a reason";
  k.permission_denied = true;
  k.dram_read_bytes = 1;
  k.dram_write_bytes = 2;
  k.l2_bytes = 3;
  k.l2_read_sectors = 4;
  k.l2_write_sectors = 5;
  k.l1_available = true;
  k.l1_read_sectors = 6;
  k.l1_write_sectors = 7;
  k.duration_s = 8;
  k.sm_clock_hz = 9;
  k.fp_available = true;
  k.fp_instructions = {{"ffma", 10}, {"dadd", 11}};
  k.tensor_available = true;
  k.tensor_ops = {{"sm__ops_path_tensor", 12}};
  k.passes = {{"core", 1}, {"fp", 2}};
  k.ranges_expected = 13;
  k.notes = {"note one", "note two"};
  timing_values& t = m.timing;
  t = {true, 14, 15, 16, 17, 18, true, 19, 20, 21, {"sw_power_cap"}};
  const auto back = measurement_from_json(measurement_to_json(m));
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_EQ(back->case_name, m.case_name);
  EXPECT_EQ(back->status, m.status);
  EXPECT_EQ(back->error, m.error);
  const device_snapshot& d = back->device;
  EXPECT_EQ(std::tie(d.name, d.uuid, d.driver_version, d.chip, d.cc_major, d.cc_minor, d.sm_count),
            std::tie(m.device.name, m.device.uuid, m.device.driver_version, m.device.chip, m.device.cc_major,
                     m.device.cc_minor, m.device.sm_count));
  EXPECT_EQ(d.l2_bytes, 5e7);
  EXPECT_EQ(d.flush_bytes, 6e7);
  const counter_values& c = back->counters;
  EXPECT_EQ(std::tie(c.available, c.unavailable_reason, c.permission_denied, c.l1_available, c.fp_available,
                     c.tensor_available, c.ranges_expected),
            std::tie(k.available, k.unavailable_reason, k.permission_denied, k.l1_available, k.fp_available,
                     k.tensor_available, k.ranges_expected));
  EXPECT_EQ((std::vector<double>{c.dram_read_bytes, c.dram_write_bytes, c.l2_bytes, c.l2_read_sectors,
                                 c.l2_write_sectors, c.l1_read_sectors, c.l1_write_sectors, c.duration_s,
                                 c.sm_clock_hz}),
            (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(c.fp_instructions, k.fp_instructions);
  EXPECT_EQ(c.tensor_ops, k.tensor_ops);
  EXPECT_EQ(c.passes, k.passes);
  EXPECT_EQ(c.notes, k.notes);
  const timing_values& b = back->timing;
  EXPECT_EQ(std::tie(b.available, b.warmup, b.repetitions, b.clock_available, b.throttle_reasons),
            std::tie(t.available, t.warmup, t.repetitions, t.clock_available, t.throttle_reasons));
  EXPECT_EQ((std::vector<double>{b.median_s, b.min_s, b.max_s, b.sm_mhz_min, b.sm_mhz_max, b.sm_mhz_mean}),
            (std::vector<double>{16, 17, 18, 19, 20, 21}));
}

TEST(MeasurementJson, AMeasurementFromBeforeTheL1LevelReadsWithoutIt) {
  measurement m = recorded_saxpy();
  std::string text = measurement_to_json(m);
  for (const std::string key : {"\"l1_available\":false,", "\"l1_read_sectors\":0.0,", "\"l1_write_sectors\":0.0,"}) {
    const auto at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key << " not in " << text;
    text.erase(at, key.size());
  }
  const auto back = measurement_from_json(text);
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_FALSE(back->counters.l1_available);
  EXPECT_DOUBLE_EQ(back->counters.dram_read_bytes, 5.369e8);
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

// ---------------------------------------------------------------------------------------------------
// The hierarchical roofline: per-level bytes, roofs, floors and the binding level. Roofs are hand
// values near the H200's (2026-11-30 figures), chosen so the arithmetic below is exact enough by hand.

namespace {

/// H200 datasheet compute peaks with per-level roofs: DRAM read 4.54, copy 4.30, write 4.10 TB/s;
/// L2 read 10, copy 9, write 8 TB/s; L1 read 30 TB/s.
model::peaks h200_levels() {
  model::peaks p = h200();
  p.level(model::memory_level::dram) = {4.54e12, 4.10e12, 4.30e12};
  p.level(model::memory_level::l2) = {10e12, 8e12, 9e12};
  p.level(model::memory_level::l1) = {30e12, 0, 0};
  return p;
}

/// A naive SGEMM at S = 4096 whose threadIdx.x walks rows of C: DRAM near compulsory (A and B read
/// 1.05x: 1.409e8 B, C written once), but every load of A is a 32-sector warp request at L2: 8.59e10 B
/// loaded (2.684e9 sectors), C stored once (2097152 sectors); L1 requests 1.2e11 B.
measurement row_walking_sgemm() {
  measurement m = recorded_sgemm();
  m.case_name = "sgemm_naive_rows_n4096";
  m.counters.dram_read_bytes = 1.05 * 134217728.0;
  m.counters.dram_write_bytes = 67108864.0;
  m.counters.l2_read_sectors = 8.59e10 / 32;
  m.counters.l2_write_sectors = 2097152;
  m.counters.l1_available = true;
  m.counters.l1_read_sectors = 1.2e11 / 32;
  m.counters.l1_write_sectors = 2097152;
  m.timing.median_s = 276e-3;
  return m;
}

case_report compare_sgemm(const measurement& m, const model::peaks& p, double s = 4096) {
  const auto sizes = sgemm_spec.bind(S(static_cast<std::int64_t>(s))).bound;
  return compare({m.case_name, &sgemm_spec, sizes}, m, p, tolerances_for(sgemm_spec, 0));
}

const finding* find_level(const case_report& r, severity level, const std::string& text) {
  for (const auto& f : r.findings)
    if (f.id == "rooflint-ideal-traffic" && f.level == level && f.message.find(text) != std::string::npos) return &f;
  return nullptr;
}

}  // namespace

TEST(RoofForMix, InterpolatesBetweenTheMeasuredMixes) {
  const model::level_roofs r{4.54e12, 4.10e12, 4.30e12};
  // Pure reads meet the read roof, pure writes the write roof, half and half the copy roof.
  EXPECT_DOUBLE_EQ(model::roof_for_mix(r, 1, 0).bytes_per_s, 4.54e12);
  EXPECT_DOUBLE_EQ(model::roof_for_mix(r, 0, 1).bytes_per_s, 4.10e12);
  EXPECT_DOUBLE_EQ(model::roof_for_mix(r, 1, 1).bytes_per_s, 4.30e12);
  // saxpy, 8 bytes read per 4 written: f = 1/3, 4.54 + (4.30 - 4.54) x (1/3) / 0.5 = 4.38 TB/s.
  EXPECT_NEAR(model::roof_for_mix(r, 8, 4).bytes_per_s, 4.38e12, 1e3);
  EXPECT_EQ(model::roof_for_mix(r, 8, 4).kind, model::mix_kind::read_write);
  // A reduction writing 4 bytes per GiB read is read-only.
  EXPECT_EQ(model::roof_for_mix(r, 1 << 30, 4).kind, model::mix_kind::read_only);
  // Only a read roof known (the L1 level): every mix meets it.
  EXPECT_DOUBLE_EQ(model::roof_for_mix({30e12, 0, 0}, 1, 3).bytes_per_s, 30e12);
  // Only copy known (a version 1 file with a copy probe only): every mix meets it.
  EXPECT_DOUBLE_EQ(model::roof_for_mix({0, 0, 4.3e12}, 1, 0).bytes_per_s, 4.3e12);
  EXPECT_DOUBLE_EQ(model::roof_for_mix({}, 1, 1).bytes_per_s, 0);
}

TEST(CompareLevels, ThePredictedFloorUsesTheDramRoofOfTheCompulsoryMix) {
  const case_report r = compare_saxpy(recorded_saxpy(), h200_levels());
  // saxpy: 805306368 compulsory bytes at 4.38 TB/s (see RoofForMix) = 183.86 us.
  EXPECT_NEAR(r.predicted.dram_roof.bytes_per_s, 4.38e12, 1e3);
  EXPECT_NEAR(r.predicted.bound.t_min_s, 805306368.0 / 4.38e12, 1e-12);
  EXPECT_NE(r.predicted.dram_roof_text.find("read and write"), std::string::npos) << r.predicted.dram_roof_text;
  EXPECT_EQ(r.status, case_status::passed);
  EXPECT_EQ(r.compared.binding, model::memory_level::dram);
}

TEST(CompareLevels, EachLevelCountsItsOwnBytesAtItsOwnRoof) {
  const case_report r = compare_saxpy(recorded_saxpy(), h200_levels());
  ASSERT_EQ(r.compared.levels.size(), 2u);  // recorded saxpy has no L1 sectors
  const level_traffic* dram = r.compared.level(model::memory_level::dram);
  const level_traffic* l2 = r.compared.level(model::memory_level::l2);
  ASSERT_TRUE(dram && l2);
  EXPECT_EQ(r.compared.level(model::memory_level::l1), nullptr);
  // DRAM: 5.369e8 + 2.60e8 = 7.969e8 B; f = 2.6e8 / 7.969e8 = 0.32627;
  // roof 4.54 - 0.24 x 0.32627 / 0.5 = 4.38339 TB/s; floor 7.969e8 / 4.38339e12 = 181.80 us.
  EXPECT_DOUBLE_EQ(dram->bytes(), 5.369e8 + 2.60e8);
  const double f = 2.60e8 / (5.369e8 + 2.60e8);
  EXPECT_NEAR(dram->roof.bytes_per_s, 4.54e12 - 0.24e12 * f / 0.5, 1e3);
  EXPECT_NEAR(dram->floor_s, (5.369e8 + 2.60e8) / (4.54e12 - 0.24e12 * f / 0.5), 1e-12);
  // L2: 16777216 x 32 = 536870912 B loaded, 8388608 x 32 = 268435456 B stored: f = 1/3, roof
  // 10 - 1 x (1/3) / 0.5 = 9.3333 TB/s; floor 805306368 / 9.3333e12 = 86.28 us.
  EXPECT_DOUBLE_EQ(l2->read_bytes, 536870912.0);
  EXPECT_DOUBLE_EQ(l2->write_bytes, 268435456.0);
  EXPECT_NEAR(l2->roof.bytes_per_s, 10e12 - 1e12 * (1.0 / 3) / 0.5, 1e3);
  EXPECT_NEAR(l2->floor_s, 805306368.0 / (10e12 - 1e12 * (1.0 / 3) / 0.5), 1e-12);
  // Intensity at each level: 2N = 134217728 FLOP (counted elementwise) over that level's bytes.
  EXPECT_NEAR(l2->intensity, 134217728.0 / 805306368.0, 1e-12);
}

TEST(CompareLevels, TheRowWalkingNaiveSgemmFailsAtL2) {
  const case_report r = compare_sgemm(row_walking_sgemm(), h200_levels());
  EXPECT_EQ(r.status, case_status::failed);
  // t_min: compute 2 x 4096^3 = 1.374e11 FLOP / 66.9e12 = 2.0544 ms (compute-bound).
  const double t_min = 2.0 * 4096 * 4096 * 4096 / 66.9e12;
  EXPECT_NEAR(r.predicted.bound.t_min_s, t_min, 1e-12);
  // L2: 8.59e10 + 67108864 B, f = 7.8e-4: read-only, at 10 TB/s: floor 8.597 ms > 1.1 x t_min.
  const level_traffic* l2 = r.compared.level(model::memory_level::l2);
  ASSERT_TRUE(l2);
  EXPECT_EQ(l2->roof.kind, model::mix_kind::read_only);
  EXPECT_NEAR(l2->floor_s, (8.59e10 + 67108864.0) / 10e12, 1e-12);
  const finding* e = find_level(r, severity::error, "at L2");
  ASSERT_TRUE(e);
  // The message names the level, its bytes, its ceiling and its floor.
  EXPECT_NE(e->message.find("85.97 GB at L2"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("L2 read roof 10 TB/s"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("L2 floor 8.6"), std::string::npos) << e->message;
  // L1: 1.2e11 + 67108864 B at 30 TB/s = 4.002 ms: also above t_min, but L2 binds (8.6 ms).
  EXPECT_TRUE(find_level(r, severity::error, "at L1"));
  EXPECT_EQ(r.compared.binding, model::memory_level::l2);
  EXPECT_NEAR(r.compared.binding_floor_s, (8.59e10 + 67108864.0) / 10e12, 1e-12);
  EXPECT_EQ(r.compared.measured_bound.verdict, model::bound::memory);
  // DRAM stays near compulsory: (1.409e8 + 6.71e7) / 201326592 = 1.03x: no finding at DRAM.
  EXPECT_FALSE(find_level(r, severity::error, "at DRAM"));
  EXPECT_FALSE(find_level(r, severity::note, "at DRAM"));
}

TEST(CompareLevels, ExtraL2TrafficUnderTheFloorIsANote) {
  // A 32 x 32 tiled SGEMM at 4096 loads A and B N/32 times each: 2 x 4 S^2 x 128 = 1.718e10 B at L2,
  // floor 1.718e10 / 10e12 = 1.718 ms < 1.1 x 2.054 ms: a note, the kernel stays compute-bound.
  measurement m = row_walking_sgemm();
  m.counters.l2_read_sectors = 2.0 * 4 * 4096.0 * 4096 * 128 / 32;
  m.counters.l1_read_sectors = m.counters.l2_read_sectors;
  const case_report r = compare_sgemm(m, h200_levels());
  EXPECT_EQ(r.status, case_status::passed);
  ASSERT_TRUE(find_level(r, severity::note, "at L2"));
  EXPECT_NE(find_level(r, severity::note, "at L2")->message.find("stays under the predicted floor"), std::string::npos);
  EXPECT_EQ(r.compared.binding, std::nullopt);  // compute
}

TEST(CompareLevels, BytesOfTwoLevelsAreNeverAdded) {
  // DRAM and L2 each at 0.6 x t_min: their sum would be 1.2 x t_min, above the tolerance; neither
  // level alone is, so no error. (S = 4096, t_min 2.0544 ms; DRAM roof for reads only 4.54 TB/s:
  // 0.6 x 2.0544 ms x 4.54e12 = 5.596e9 B; L2 at 10 TB/s: 1.2326e10 B.)
  const double t_min = 2.0 * 4096 * 4096 * 4096 / 66.9e12;
  measurement m = row_walking_sgemm();
  m.counters.dram_read_bytes = 0.6 * t_min * 4.54e12;
  m.counters.dram_write_bytes = 0;
  m.counters.l2_read_sectors = 0.6 * t_min * 10e12 / 32;
  m.counters.l2_write_sectors = 0;
  m.counters.l1_available = false;
  const case_report r = compare_sgemm(m, h200_levels());
  EXPECT_NEAR(r.compared.level(model::memory_level::dram)->floor_s, 0.6 * t_min, 1e-12);
  EXPECT_NEAR(r.compared.level(model::memory_level::l2)->floor_s, 0.6 * t_min, 1e-12);
  EXPECT_FALSE(has(r, "rooflint-ideal-traffic", severity::error));
  EXPECT_EQ(r.status, case_status::passed);
  EXPECT_EQ(r.compared.binding, std::nullopt);  // compute
}

TEST(CompareLevels, WithoutLevelRoofsTheLevelBytesAreReportedAndNotPriced) {
  // Datasheet peaks list only DRAM: the L2 bytes of the row-walking SGEMM are a note, never priced
  // at the DRAM roof.
  const case_report r = compare_sgemm(row_walking_sgemm(), h200());
  const level_traffic* l2 = r.compared.level(model::memory_level::l2);
  ASSERT_TRUE(l2);
  EXPECT_EQ(l2->floor_s, 0);
  ASSERT_TRUE(find_level(r, severity::note, "at L2"));
  EXPECT_NE(find_level(r, severity::note, "at L2")->message.find("no L2 ceiling measured"), std::string::npos);
  EXPECT_EQ(r.status, case_status::passed);  // DRAM within tolerance, compute binds
}

// ---------------------------------------------------------------------------------------------------
// Math mode by operation: the report says which roof and why; the tensor precision that ran is checked.

namespace {
void hgemm_fn(const __half*, const __half*, float*) {}
void ln_bf16_fn(const __nv_bfloat16*, __nv_bfloat16*) {}
inline constexpr struct R final : dsl::dim<"R"> {} R;
inline constexpr auto hgemm_spec = dsl::kernel<hgemm_fn>("hgemm", dsl::matmul(dsl::in<0>("A", dsl::f16, S, S),     // A: (S,S)
                                                                                dsl::in<1>("B", dsl::f16, S, S),     // B: (S,S)
                                                                                dsl::out<2>("C", dsl::f32, S, S)));  // C: (S,S)
inline constexpr auto ln_bf16_spec = dsl::kernel<ln_bf16_fn>("ln_bf16", dsl::layernorm(dsl::in<0>("x", dsl::bf16, R, S),    // x: (R,S)
                                                                                       dsl::out<1>("y", dsl::bf16, R, S)));  // y: (R,S)

case_report compare_hgemm(const std::map<std::string, double>& tensor_ops) {
  measurement m = recorded_sgemm();
  m.counters.fp_available = false;
  m.counters.fp_instructions.clear();
  m.counters.tensor_available = true;
  m.counters.tensor_ops = tensor_ops;
  m.counters.dram_read_bytes = 2 * 2 * 4096.0 * 4096;  // A and B once: 67108864 B
  m.counters.dram_write_bytes = 4 * 4096.0 * 4096;
  m.counters.l2_read_sectors = m.counters.dram_read_bytes / 32;
  m.counters.l2_write_sectors = m.counters.dram_write_bytes / 32;
  m.timing.median_s = 0.2e-3;
  const auto sizes = hgemm_spec.bind(S(4096)).bound;
  return compare({"hgemm_4096", &hgemm_spec, sizes}, m, h200(), tolerances_for(hgemm_spec, 0));
}
}  // namespace

TEST(MathModeReason, ABf16LayernormMeetsTheFp32SimtRoofAndSaysWhy) {
  EXPECT_EQ(ln_bf16_spec.mode, model::math_mode::fp32_simt);
  const auto sizes = ln_bf16_spec.bind(R(65536), S(4096)).bound;
  const case_report r = compare({"ln", &ln_bf16_spec, sizes}, recorded_saxpy(), h200(), tolerances_for(ln_bf16_spec, 0));
  EXPECT_EQ(r.predicted.mode_reason,
            "FP32 SIMT roof: a layernorm on bf16 data does its arithmetic on CUDA cores (no tensor-core path), in FP32; "
            ".math() chooses another roof");
  // The ridge is the FP32 SIMT one, 66.9 / 4.8 = 13.9 FLOP/byte, not BF16's 206.
  EXPECT_NEAR(r.predicted.bound.ridge, 66.9 / 4.8, 1e-9);
}

TEST(MathModeReason, AnF16MatmulMeetsTheFp16TensorRoof) {
  const case_report r = compare_hgemm({{"sm__ops_path_tensor_src_fp16.sum", 2.0 * 4096 * 4096 * 4096}});
  EXPECT_EQ(r.predicted.mode_reason, "FP16 tensor roof: a matmul on f16 data runs on tensor cores");
  EXPECT_FALSE(has(r, "rooflint-precision", severity::error));
}

TEST(Precision, TensorOpsOfAnotherDtypeThanTheSpecsAreAnError) {
  const case_report r = compare_hgemm({{"sm__ops_path_tensor_src_fp16.sum", 0},
                                       {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 2.0 * 4096 * 4096 * 4096}});
  ASSERT_TRUE(has(r, "rooflint-precision", severity::error));
  const std::string& m = find(r, "rooflint-precision")->message;
  EXPECT_EQ(m.rfind("precision differs from the spec: 100% of the 137.4 GFLOP", 0), 0u) << m;
  EXPECT_NE(m.find("sm__ops_path_tensor_src_bf16_dst_fp32.sum"), std::string::npos) << m;
  EXPECT_EQ(r.status, case_status::failed);
}

TEST(Precision, NoTensorOpsForATensorRoofIsAWarning) {
  const case_report r = compare_hgemm({{"sm__ops_path_tensor_src_fp16.sum", 0}});
  EXPECT_TRUE(has(r, "rooflint-precision", severity::warning));
}
