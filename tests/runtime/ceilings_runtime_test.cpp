/// Host tests of the ceilings runtime that need no GPU: the device/driver check of a ceilings file,
/// clock-event decoding, timing statistics, the FMA probe's FLOP arithmetic and the table.

#include <gtest/gtest.h>

#include "ceilings/ceilings.h"
#include "rooflint/runtime/ceilings_check.h"
#include "support/clock_state.h"
#include "rooflint/runtime/device.h"
#include "support/nvml.h"

namespace {

using namespace rooflint::runtime;
using rooflint::model::math_mode;

device_properties h200() {
  device_properties d;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
  d.driver_version = "580.159.04";
  d.sm_count = 132;
  return d;
}

rooflint::ceilings::ceilings_file file_of(const device_properties& d) {
  rooflint::ceilings::ceilings_file f;
  f.device = to_device_info(d);
  f.bandwidth_bytes_per_s = 4e12;
  return f;
}

TEST(CheckApplies, SameDeviceAndDriverIsAccepted) {
  EXPECT_TRUE(check_applies(file_of(h200()), h200()).ok());
}

TEST(CheckApplies, AnotherGpuModelIsRejectedNamingBoth) {
  device_properties other = h200();
  other.name = "NVIDIA H100 80GB HBM3";
  other.uuid = "GPU-ffffffff-89ab-cdef-0123-456789abcdef";
  const auto r = check_applies(file_of(h200()), other);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, rooflint::error_code::failed_precondition);
  EXPECT_EQ(r.err().message,
            "ceilings were measured on another GPU: 'NVIDIA H200' (GPU-01234567-89ab-cdef-0123-456789abcdef), this is "
            "'NVIDIA H100 80GB HBM3' (GPU-ffffffff-89ab-cdef-0123-456789abcdef); run rooflint-ceilings on this GPU");
}

TEST(CheckApplies, AnotherCardOfTheSameModelIsRejectedByUuid) {
  device_properties other = h200();
  other.uuid = "GPU-99999999-89ab-cdef-0123-456789abcdef";
  const auto r = check_applies(file_of(h200()), other);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("GPU-99999999"), std::string::npos) << r.err().message;
}

TEST(CheckApplies, TheVerifiersDeviceIdentityFollowsTheSameRule) {
  // The verifier knows the device from its measuring process (name, UUID, driver), not from a query.
  const device_properties d = h200();
  EXPECT_TRUE(check_applies(file_of(d), device_identity{d.name, d.uuid, d.driver_version}).ok());
  EXPECT_FALSE(check_applies(file_of(d), device_identity{"NVIDIA H100 80GB HBM3", d.uuid, d.driver_version}).ok());
  EXPECT_FALSE(check_applies(file_of(d), device_identity{d.name, "GPU-99999999-89ab-cdef-0123-456789abcdef", d.driver_version}).ok());
  const auto r = check_applies(file_of(d), device_identity{d.name, d.uuid, "590.10.01"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, rooflint::error_code::failed_precondition);
}

TEST(CheckApplies, AnotherDriverIsRejectedNamingBothVersions) {
  device_properties updated = h200();
  updated.driver_version = "590.10.01";
  const auto r = check_applies(file_of(h200()), updated);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().message,
            "ceilings are older than the driver: measured under driver 580.159.04, the driver is now 590.10.01; "
            "run rooflint-ceilings again");
}

TEST(DecodeClockEventReasons, NamesEachBitInBitOrder) {
  EXPECT_EQ(decode_clock_event_reasons(0x4 | 0x40), (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_EQ(decode_clock_event_reasons(0x1 | 0x100), (std::vector<std::string>{"gpu_idle", "display_clock_setting"}));
}

TEST(DecodeClockEventReasons, UnknownBitsAreNamedByValue) {
  EXPECT_EQ(decode_clock_event_reasons(0x200), (std::vector<std::string>{"unknown_0x200"}));
}

TEST(DecodeClockEventReasons, NoBitsIsNoReasons) { EXPECT_TRUE(decode_clock_event_reasons(0).empty()); }

TEST(ToClockState, DropsGpuIdleAndKeepsRanges) {
  nvml_snapshot s;
  s.sm_max_mhz = 1980;
  s.power_limit_w = 700;
  s.persistence_mode = true;
  s.ecc_enabled = false;
  clock_summary during;
  during.samples = 3;
  during.sm_mhz_min = 1560;
  during.sm_mhz_max = 1980;
  during.memory_mhz_max = 3201;
  during.power_w_max = 699;
  during.clock_event_reasons = clock_event_gpu_idle | clock_event_sw_power_cap;
  const auto c = to_clock_state(s, during);
  EXPECT_EQ(c.sm_mhz_min, 1560);
  EXPECT_EQ(c.sm_mhz_max, 1980);
  EXPECT_EQ(c.memory_mhz, 3201);
  EXPECT_EQ(c.sm_max_mhz, 1980);
  EXPECT_EQ(c.power_limit_w, 700);
  EXPECT_EQ(c.throttle_reasons, (std::vector<std::string>{"sw_power_cap"}));
  EXPECT_TRUE(c.persistence_mode);
  EXPECT_FALSE(c.ecc_enabled);
}

TEST(ClockSummary, MergeTakesTheWidestRangeAndTheUnionOfReasons) {
  clock_summary a, b;
  a.samples = 1;
  a.sm_mhz_min = a.sm_mhz_max = a.sm_mhz_mean = 1980;
  a.clock_event_reasons = clock_event_gpu_idle;
  b.samples = 3;
  b.sm_mhz_min = 1500;
  b.sm_mhz_max = 1700;
  b.sm_mhz_mean = 1600;
  b.power_w_max = 700;
  b.clock_event_reasons = clock_event_sw_power_cap;
  a.merge(b);
  EXPECT_EQ(a.samples, 4);
  EXPECT_EQ(a.sm_mhz_min, 1500);
  EXPECT_EQ(a.sm_mhz_max, 1980);
  EXPECT_DOUBLE_EQ(a.sm_mhz_mean, (1980 + 3 * 1600) / 4.0);
  EXPECT_EQ(a.power_w_max, 700);
  EXPECT_EQ(a.clock_event_reasons, clock_event_gpu_idle | clock_event_sw_power_cap);
}

TEST(ClockSummary, MergingAnEmptySummaryChangesNothing) {
  clock_summary a;
  a.samples = 2;
  a.sm_mhz_min = 1700;
  a.sm_mhz_max = 1800;
  a.merge(clock_summary{});
  EXPECT_EQ(a.samples, 2);
  EXPECT_EQ(a.sm_mhz_min, 1700);
}

TEST(ClockSampler, WithoutAnNvmlDeviceRecordsNothing) {
  clock_sampler sampler(nvml_device{});
  sampler.start();
  EXPECT_EQ(sampler.stop().samples, 0);
}

TEST(NvmlLibrary, IsLoadedOrSaysWhyNot) {
  const nvml_library* nvml = nvml_library::instance();
  if (nvml->loaded())
    EXPECT_TRUE(nvml->why_not().empty());
  else
    EXPECT_EQ(nvml->why_not().rfind("NVML is unavailable: ", 0), 0u) << nvml->why_not();
}

TEST(Summarize, MedianOfAnOddCountIsTheMiddleValue) {
  const timing_stats s = summarize({3e-3, 1e-3, 2e-3});
  EXPECT_EQ(s.repetitions, 3);
  EXPECT_EQ(s.median_s, 2e-3);
  EXPECT_EQ(s.min_s, 1e-3);
  EXPECT_EQ(s.max_s, 3e-3);
  EXPECT_DOUBLE_EQ(s.spread(), 1.0);  // (3 - 1) / 2
}

TEST(Summarize, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_DOUBLE_EQ(summarize({4.0, 1.0, 2.0, 3.0}).median_s, 2.5);
}

TEST(Summarize, NoTimesIsAllZero) {
  const timing_stats s = summarize({});
  EXPECT_EQ(s.repetitions, 0);
  EXPECT_EQ(s.spread(), 0);
}

TEST(FmaLaunch, FlopsAreTwoPerFmaOfEveryChainOfEveryThread) {
  fma_launch l;
  l.grid = 264;
  l.block = 256;
  l.chains = 16;
  l.iterations = 4096;
  // 264 blocks x 256 threads x 4096 iterations x 16 chains x 2 FLOP = 8,858,370,048.
  EXPECT_EQ(l.flops(), 8858370048.0);
}

TEST(FormatVersions, CudaVersionIsMajorDotMinor) {
  EXPECT_EQ(format_cuda_version(13000), "13.0");
  EXPECT_EQ(format_cuda_version(12040), "12.4");
}

TEST(FormatVersions, UuidIsTheNvidiaSmiForm) {
  const unsigned char bytes[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                   0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  EXPECT_EQ(format_uuid(bytes), "GPU-01234567-89ab-cdef-0123-456789abcdef");
}

TEST(Probes, NamesRoundTrip) {
  for (std::size_t i = 0; i < probe_count; ++i) {
    const auto p = static_cast<probe>(i);
    EXPECT_EQ(parse_probe(name(p)), p);
  }
  EXPECT_FALSE(parse_probe("fp4"));
}

TEST(Probes, EachComputeProbeMeasuresItsMathMode) {
  EXPECT_FALSE(math_mode_of(probe::bandwidth));
  EXPECT_EQ(math_mode_of(probe::fp32), math_mode::fp32_simt);
  EXPECT_EQ(math_mode_of(probe::fp64), math_mode::fp64);
  EXPECT_EQ(math_mode_of(probe::tf32), math_mode::tf32_tensor);
  EXPECT_EQ(math_mode_of(probe::fp8), math_mode::fp8_tensor);
  EXPECT_EQ(math_mode_of(probe::int8), math_mode::int8_tensor);
  EXPECT_EQ(math_mode_of(probe::fp64_tensor), math_mode::fp64_tensor);
}

TEST(FormatTable, ShowsEachCeilingWithItsRidge) {
  ceilings_run run;
  run.file = file_of(h200());
  run.file.mode = "quick";
  run.file.bandwidth_probe_name = "copy_float4";
  bandwidth_result b;
  b.name = "copy_float4";
  b.launch = "grid 264 x block 1024";
  b.bytes_per_repetition = 4e9;
  b.time = summarize({1e-3});  // 4e9 bytes in 1 ms = 4.0 TB/s
  run.bandwidth.push_back(b);
  compute_result c;
  c.which = probe::fp32;
  c.probe_name = "ffma_chains";
  c.shape = "grid 1056 x block 256";
  c.flops_per_launch = 6.4e11;
  c.burst_flops_per_s = 6.6e13;
  c.sustained_time = summarize({1e-2});  // 6.4e11 FLOP in 10 ms = 64 TFLOP/s
  c.sustained = true;
  c.detail = "16 chains x 4096 iterations per thread";
  run.compute.push_back(c);
  run.file.compute[math_mode::fp32_simt] = rooflint::ceilings::compute_ceiling{6.4e13, "ffma_chains", "", 0, true};
  run.nvml_note = "NVML is unavailable: test";
  const std::string table = format_table(run);
  const auto line_of = [&](const std::string& start) {
    const auto at = table.find("\n  " + start);
    return at == std::string::npos ? std::string() : table.substr(at + 1, table.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(line_of("DRAM  copy_float4").find(" 4.0 TB/s "), std::string::npos) << table;
  EXPECT_NE(line_of("DRAM  copy_float4").find(" grid 264 x block 1024 "), std::string::npos) << table;
  EXPECT_EQ(line_of("DRAM ceiling"), "  DRAM ceiling for the single-roof model: 4.0 TB/s (copy_float4)") << table;
  EXPECT_NE(line_of("fp32_simt").find(" 64.0 TFLOP/s "), std::string::npos) << table;
  EXPECT_NE(line_of("fp32_simt").find(" 66.0 TFLOP/s "), std::string::npos) << "burst\n" << table;
  EXPECT_NE(line_of("fp32_simt").find(" 16.0 FLOP/B"), std::string::npos) << "ridge = 6.4e13 / 4e12\n" << table;
  EXPECT_NE(table.find("16 chains x 4096 iterations per thread; 640000000000 FLOP per launch (exact by construction), "
                       "median 10 ms over 1 launches"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("clocks: not recorded (NVML is unavailable: test)"), std::string::npos) << table;
}

}  // namespace

TEST(DeviceInfo, RecordsTheSharedMemoryTheDeviceReports) {
  // cudaGetDeviceProperties on an H200 (the values the ceilings file then carries).
  device_properties d = h200();
  d.shared_bytes_per_sm = 233472;
  d.shared_bytes_per_block = 232448;
  d.reserved_shared_bytes_per_block = 1024;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.registers_per_sm = 65536;
  d.warp_size = 32;
  const rooflint::ceilings::device_info info = to_device_info(d);
  EXPECT_EQ(info.shared_bytes_per_sm, 233472);
  EXPECT_EQ(info.shared_bytes_per_block, 232448);
  EXPECT_EQ(info.reserved_shared_bytes_per_block, 1024);
  EXPECT_EQ(info.max_threads_per_sm, 2048);
  EXPECT_EQ(info.max_blocks_per_sm, 32);
  EXPECT_EQ(info.registers_per_sm, 65536);
  EXPECT_EQ(info.warp_size, 32);
}
