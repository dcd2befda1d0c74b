// The GPU's description (rooflint/model/gpu.h) as the datasheet table gives it. Each figure is checked
// against its source, named beside it, not against what the table happens to print.

#include <gtest/gtest.h>

#include "rooflint/model/peaks_table.h"

namespace model = rooflint::model;

TEST(FindGpu, H200GeometryIsWhatTheDeviceReports) {
  // docs/measurements/h200-2026-11-30/ceilings.json: "sm_count": 132, "l2_bytes": 62914560.0.
  const model::gpu h200 = *model::find_gpu("NVIDIA H200");
  EXPECT_EQ(h200.geometry.sm_count, 132);
  EXPECT_EQ(h200.geometry.l2_bytes, 62914560);
  EXPECT_EQ(h200.peaks.device, "H200");
  EXPECT_TRUE(h200.geometry.known());
}

TEST(FindGpu, HopperSmsHaveTheTuningGuidesCapacities) {
  // NVIDIA Hopper Tuning Guide: 256 KB of L1 and shared memory per SM, shared memory of 0 to 228 KB in
  // ten steps, 227 KB for one block; CUDA C++ Programming Guide, 9.0: 2048 threads, 32 blocks per SM.
  const model::gpu_geometry g = model::find_gpu("NVIDIA H100 80GB HBM3")->geometry;
  EXPECT_EQ(g.l1_shared_bytes_per_sm, 256 * 1024);
  EXPECT_EQ(g.shared.count, 10);
  EXPECT_EQ(g.shared.max_bytes(), 228 * 1024);
  EXPECT_EQ(g.max_shared_bytes_per_block, 227 * 1024);
  EXPECT_EQ(g.reserved_shared_bytes_per_block, 1024);
  EXPECT_EQ(g.max_threads_per_sm, 2048);
  EXPECT_EQ(g.max_blocks_per_sm, 32);
  // The Programming Guide's table, 9.0: 64 K 32-bit registers per SM.
  EXPECT_EQ(g.registers_per_sm, 65536);
  // The NVIDIA H100 whitepaper: 132 SMs and 50 MB of L2 (SXM5), 114 SMs (PCIe).
  EXPECT_EQ(g.sm_count, 132);
  EXPECT_EQ(g.l2_bytes, 50 * 1024 * 1024);
  EXPECT_EQ(model::find_gpu("NVIDIA H100 PCIe")->geometry.sm_count, 114);
}

TEST(FindGpu, A100IsNotAnH200) {
  // NVIDIA Ampere Tuning Guide: 192 KB per SM, shared memory up to 164 KB; A100 whitepaper: 108 SMs, 40 MB L2.
  const model::gpu_geometry a100 = model::find_gpu("NVIDIA A100-SXM4-80GB")->geometry;
  EXPECT_EQ(a100.sm_count, 108);
  EXPECT_EQ(a100.l2_bytes, 40 * 1024 * 1024);
  EXPECT_EQ(a100.l1_shared_bytes_per_sm, 192 * 1024);
  EXPECT_EQ(a100.shared.max_bytes(), 164 * 1024);
}

TEST(FindGpu, AdaSmsHoldFewerThreads) {
  // CUDA C++ Programming Guide, 8.9: 1536 threads and 24 blocks per SM; Ada Tuning Guide: 128 KB, up to 100 KB shared.
  const model::gpu_geometry l4 = model::find_gpu("NVIDIA L4")->geometry;
  EXPECT_EQ(l4.max_threads_per_sm, 1536);
  EXPECT_EQ(l4.max_blocks_per_sm, 24);
  EXPECT_EQ(l4.l1_shared_bytes_per_sm, 128 * 1024);
  EXPECT_EQ(l4.shared.max_bytes(), 100 * 1024);
  EXPECT_EQ(l4.dram_access_bytes, 0);  // GDDR6: not measured, unknown
}

TEST(FindGpu, AGpuWithoutItsL2IsNotKnown) {
  // The GH200's L2 capacity is in no source the table cites: its cache predictions must not be made.
  const model::gpu gh200 = *model::find_gpu("NVIDIA GH200 480GB");
  EXPECT_EQ(gh200.peaks.device, "GH200");
  EXPECT_EQ(gh200.geometry.l2_bytes, 0);
  EXPECT_FALSE(gh200.geometry.known());
  EXPECT_FALSE(model::find_gpu("Radeon VII").has_value());
}

TEST(SharedConfigs, SmallestHoldingPicksTheFirstLargeEnough) {
  // sm_90's steps (KiB): 0, 8, 16, 32, 64, 100, 132, 164, 196, 228.
  const model::shared_configs c = model::find_gpu("NVIDIA H200")->geometry.shared;
  EXPECT_EQ(c.smallest_holding(0), 0);
  EXPECT_EQ(c.smallest_holding(8 * 1024 + 1), 16 * 1024);
  EXPECT_EQ(c.smallest_holding(100 * 1024), 100 * 1024);
  EXPECT_EQ(c.smallest_holding(300 * 1024), 228 * 1024);  // more than any: the largest
}

TEST(FindGpu, PeaksAreTheDatasheetRowsPeaks) {
  // One row per GPU: find_gpu's peaks are find_peaks's.
  for (const auto& row : model::datasheet_keys()) {
    const auto gpu = model::find_gpu(row.key);
    const auto peaks = model::find_peaks(row.key);
    ASSERT_TRUE(gpu && peaks) << row.key;
    EXPECT_EQ(gpu->peaks.device, peaks->device);
    EXPECT_DOUBLE_EQ(gpu->peaks.dram_bytes_per_s, peaks->dram_bytes_per_s);
  }
}
