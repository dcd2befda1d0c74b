/// GPU tests of the ceilings probes (CTest label gpu): each skips, with the reason, without a device.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "ceilings/ceilings.h"
#include "rooflint/runtime/device.h"

namespace {

using namespace rooflint::runtime;

/// @return The device's properties, or nullopt with @p why set when there is no device.
std::optional<device_properties> device_or_skip(std::string& why) {
  int count = 0;
  if (const cudaError_t s = cudaGetDeviceCount(&count); s != cudaSuccess) {
    why = std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(s);
    return std::nullopt;
  }
  if (count == 0) {
    why = "no CUDA device: cudaGetDeviceCount found 0 devices";
    return std::nullopt;
  }
  auto d = query_device(0);
  if (!d) {
    why = "no CUDA device: " + d.err().message;
    return std::nullopt;
  }
  return *d;
}

#define ROOFLINT_REQUIRE_DEVICE(var)             \
  std::string why_skipped;                       \
  const auto var = device_or_skip(why_skipped);  \
  if (!var) GTEST_SKIP() << why_skipped

TEST(DeviceQuery, ReportsTheDeviceItRunsOn) {
  ROOFLINT_REQUIRE_DEVICE(device);
  EXPECT_FALSE(device->name.empty());
  EXPECT_EQ(device->uuid.rfind("GPU-", 0), 0u);
  EXPECT_EQ(device->uuid.size(), 40u);
  EXPECT_GT(device->sm_count, 0);
  EXPECT_GT(device->l2_bytes, 0u);
  EXPECT_GT(device->dram_bytes, device->l2_bytes);
  EXPECT_FALSE(device->driver_version.empty());
}

TEST(BandwidthProbe, CopyBytesAndTimeAgreeWithTheReportedFigure) {
  ROOFLINT_REQUIRE_DEVICE(device);
  measure_settings settings = measure_settings::quick();
  settings.bandwidth_working_set_bytes = std::max(512.0 * (1 << 20), 16.0 * device->l2_bytes);
  settings.bandwidth_repetitions = 20;
  const auto start = std::chrono::steady_clock::now();
  auto results = measure_bandwidth(*device, nvml_device{}, settings, nullptr);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(results) << results.err().message;
  double timed_s = 0;
  int copies = 0;
  double best[3][3] = {};  // [level][read, write, copy]
  for (const auto& r : *results) {
    SCOPED_TRACE(r.name + " " + r.launch);
    const int d = r.direction == "read" ? 0 : r.direction == "write" ? 1 : 2;
    best[static_cast<int>(r.level)][d] = std::max(best[static_cast<int>(r.level)][d], r.bytes_per_s());
    EXPECT_EQ(r.time.repetitions, settings.bandwidth_repetitions);
    EXPECT_LE(r.time.min_s, r.time.median_s);
    EXPECT_LE(r.time.median_s, r.time.max_s);
    EXPECT_DOUBLE_EQ(r.bytes_per_s(), r.bytes_per_repetition / r.time.median_s);
    if (r.level != rooflint::model::memory_level::dram) {
      // Cache probes sweep their resident working set a whole number of times per repetition.
      const double sweeps = r.bytes_per_repetition / r.working_set_bytes;
      EXPECT_GE(sweeps, 1);
      EXPECT_DOUBLE_EQ(sweeps, std::floor(sweeps));
      EXPECT_LT(r.working_set_bytes, device->l2_bytes);
      EXPECT_GT(r.bytes_per_s(), 5e11);
      EXPECT_LT(r.bytes_per_s(), 1e15);
      continue;
    }
    // Bytes: the copy reads one half of the working set and writes the other; read- and write-only
    // probes touch all of it once. Either way one repetition moves the working set, exactly.
    const double expected_bytes = static_cast<double>(static_cast<std::size_t>(r.working_set_bytes) / 32 * 32);
    EXPECT_EQ(r.bytes_per_repetition, expected_bytes);
    EXPECT_LE(r.working_set_bytes, settings.bandwidth_working_set_bytes);
    // Time: the figure is bytes over the median repetition, which lies between the extremes.
    EXPECT_EQ(r.time.repetitions, settings.bandwidth_repetitions);
    EXPECT_LE(r.time.min_s, r.time.median_s);
    EXPECT_LE(r.time.median_s, r.time.max_s);
    EXPECT_DOUBLE_EQ(r.bytes_per_s(), r.bytes_per_repetition / r.time.median_s);
    // Physically plausible for any GPU of the last decade: 50 GB/s .. 20 TB/s.
    EXPECT_GT(r.bytes_per_s(), 5e10);
    EXPECT_LT(r.bytes_per_s(), 2e13);
    timed_s += r.time.min_s * r.time.repetitions;
    copies += r.name.rfind("copy", 0) == 0;
  }
  EXPECT_GE(copies, 2);
  // The hierarchy: each cache level's read roof above the level below it.
  EXPECT_GT(best[1][0], best[0][0]) << "L2 read over DRAM read";
  EXPECT_GT(best[2][0], best[1][0]) << "L1 read over L2 read";
  // The event-timed repetitions cannot add up to more than the wall-clock time of the whole run.
  EXPECT_LT(timed_s, wall_s);
}

TEST(FmaProbe, FfmaFlopCountIsExact) {
  ROOFLINT_REQUIRE_DEVICE(device);
  auto launch = plan_fma_launch(*device, /*fp64=*/false, 1e-3, 5e13);
  ASSERT_TRUE(launch) << launch.err().message;
  auto counted = count_fma_operations(*launch, false);
  ASSERT_TRUE(counted) << counted.err().message;
  // Second way: the threads counted their FMAs on the device; an FMA is two FLOPs.
  EXPECT_EQ(2.0 * static_cast<double>(*counted), launch->flops());
  // Third way: the launch arithmetic, done here.
  const double threads = static_cast<double>(launch->grid) * launch->block;
  EXPECT_EQ(static_cast<double>(*counted), threads * static_cast<double>(launch->iterations) * 16);
  EXPECT_EQ(launch->iterations % 16, 0);
}

TEST(FmaProbe, DfmaFlopCountIsExact) {
  ROOFLINT_REQUIRE_DEVICE(device);
  auto launch = plan_fma_launch(*device, /*fp64=*/true, 1e-3, 1e12);
  ASSERT_TRUE(launch) << launch.err().message;
  auto counted = count_fma_operations(*launch, true);
  ASSERT_TRUE(counted) << counted.err().message;
  EXPECT_EQ(2.0 * static_cast<double>(*counted), launch->flops());
}

TEST(FmaProbe, MeasuredRateIsFlopsOverTheMedianTime) {
  ROOFLINT_REQUIRE_DEVICE(device);
  measure_settings settings = measure_settings::quick();
  settings.settle_s = 0.05;
  settings.sustained_s = 0.1;
  auto r = measure_simt(*device, nvml_device{}, probe::fp32, settings, nullptr);
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_DOUBLE_EQ(r->flops_per_s(), r->flops_per_launch / r->sustained_time.median_s);
  // Below the FP32 lanes at 3 GHz: SMs x 128 lanes x 2 FLOP x 3e9.
  EXPECT_LT(r->flops_per_s(), device->sm_count * 128.0 * 2 * 3e9);
  EXPECT_GT(r->flops_per_s(), 0);
  EXPECT_FALSE(r->sustained) << "0.05 s of load is a burst, not a settled clock";
}

TEST(GemmProbe, Bf16FlopsPerLaunchAreTwoMnk) {
  ROOFLINT_REQUIRE_DEVICE(device);
  measure_settings settings = measure_settings::quick();
  settings.settle_s = 0.02;
  settings.sustained_s = 0.05;
  settings.gemm_shapes_mnk = {1024, 2048, 512};
  auto r = measure_gemm(*device, nvml_device{}, probe::bf16, settings, nullptr);
  if (!r && r.err().code == rooflint::error_code::unavailable) GTEST_SKIP() << r.err().message;
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->flops_per_launch, 2.0 * 1024 * 2048 * 512);
  EXPECT_EQ(r->shape, "1024x2048x512");
  EXPECT_GT(r->flops_per_s(), 0);
}

}  // namespace
