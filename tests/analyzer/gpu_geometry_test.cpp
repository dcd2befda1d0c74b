// Every prediction uses the geometry of the GPU it is about: the layer condition and the predicted
// ratios follow --gpu's datasheet row (an A100 is not an H200), and a GPU whose cache sizes are not known
// gets no cache prediction at all. The figures are worked out by hand beside each check.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "rooflint/analyzer/Traffic.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;
namespace model = rooflint::model;

namespace {

CacheLevels levelsOf(const char *Device) { return *CacheLevels::of(model::find_gpu(Device)->geometry); }

/// The three-pass softmax of traffic_corpus/reread.cu at C = @p C, analysed for @p Gpu: "tensor:level" -> ratio.
std::map<std::string, KernelRecord::PredictedTraffic> softmaxPrediction(const std::string &C, const std::string &Gpu) {
  std::ifstream In(std::string(ROOFLINT_TRAFFIC_CORPUS) + "/reread.cu");
  std::stringstream S;
  S << In.rdbuf();
  std::string Code = S.str();
  Code.replace(Code.find("C(512)"), 6, "C(" + C + ")");
  RunOptions O;
  O.Gpu = Gpu;
  O.CompilerArgs = {"-I" ROOFLINT_TRAFFIC_CORPUS};
  const AnalysisRun R = analyze(Code, "reread.cu", O);
  std::map<std::string, KernelRecord::PredictedTraffic> Got;
  for (const KernelRecord &K : R.Results.Kernels)
    if (K.KernelName == "softmax_three_pass")
      for (const KernelRecord::PredictedTraffic &P : K.Predicted) Got[P.Tensor + ":" + std::string(rooflint::model::name(P.Level))] = P;
  return Got;
}

}  // namespace

// Rows of 100 KiB, 1024-thread blocks, no shared memory: 2 blocks per SM (2048 threads), 2 * 4 KiB (the
// driver's margin) -> the 8 KiB configuration on both. H200 (256 KiB per SM): 248 KiB of L1 beside it,
// 200 KiB of rows under it: part. A100 (192 KiB per SM): 184 KiB, 200 KiB over it: every pass reaches L2.
TEST(GpuGeometry, LayerConditionUsesTheChosenGpusL1) {
  const LayerCondition H200 = layerCondition(2, 100 * 1024, 1024, 0, levelsOf("H200"));
  EXPECT_EQ(H200.L1Available, 248 * 1024);
  EXPECT_EQ(H200.InL1, Kept::Part);
  const LayerCondition A100 = layerCondition(2, 100 * 1024, 1024, 0, levelsOf("A100"));
  EXPECT_EQ(A100.SharedConfig, 8 * 1024);
  EXPECT_EQ(A100.L1Available, 184 * 1024);
  EXPECT_EQ(A100.InL1, Kept::None);
  EXPECT_EQ(A100.L2Ratio, 2);
}

// The SMs and L2 of the chosen GPU, and its own measured kept fraction. Rows of 64 KiB, 256-thread
// blocks. H200: 8 blocks per SM (2048 threads), 512 KiB of rows per SM, on 132 SMs 66 MiB: over its
// 60 MiB of L2, every pass from DRAM (3x). L4: 6 blocks per SM (1536 threads), 384 KiB, on 58 SMs
// 21.75 MiB: under its 48 MiB, and how much of the L4's L2 keeps rows between passes is not measured
// (no H200 figure stands in): part, not predicted. Rows of 8 KiB on the H200: 8.25 MiB, within 0.4 of
// its L2 (its measured fraction): 1x.
TEST(GpuGeometry, LayerConditionUsesTheChosenGpusL2SmsAndKeptFraction) {
  const LayerCondition H200 = layerCondition(3, 64 * 1024, 256, 0, levelsOf("H200"));
  EXPECT_EQ(H200.InL2, Kept::None);
  EXPECT_EQ(H200.DramRatio, 3);
  const LayerCondition L4 = layerCondition(3, 64 * 1024, 256, 0, levelsOf("L4"));
  EXPECT_EQ(L4.BlocksPerSm, 6);  // sm_89: 1536 threads per SM
  EXPECT_EQ(L4.InL2, Kept::Part);
  EXPECT_EQ(L4.DramRatio, 0);
  EXPECT_EQ(levelsOf("L4").L2KeptFraction, 0);
  EXPECT_EQ(layerCondition(3, 8 * 1024, 256, 0, levelsOf("H200")).DramRatio, 1);
}

// Blocks an SM holds by their registers, as the CUDA occupancy calculator counts them on the H200 (64 K
// registers an SM in 4 sub-partitions of 16 K, allocated to a warp in units of 256). 96 a thread: 3072
// a warp, 5 a sub-partition, 20 warps, 8 a block of 256 -> 2. 168: 5376, 3, 12 warps, 4 a block of
// 128 -> 3. 56: 1792, 9, 36 warps, 16 a block of 512 -> 2. 172: 5504 rounded up to 5632, 2, 8 warps
// -> 1 of 256. ncu's launch__occupancy_limit_registers counted 2, 3 and 2 for SGEMM_CUDA's kernels of
// 96, 168 and 56 registers (H100, 2026-12-07). 96 a thread and 224 threads (7 warps): 20 / 7 -> 2 (the
// whole file, 21 warps, would say 3). 255 registers and 1024 threads: 8192 a warp times 32 warps is
// over the 64 K an SM has: no such launch. 200 threads take 7 whole warps: 64 / 7 -> 9 by threads.
TEST(GpuGeometry, RegistersLimitTheBlocksAnSmHolds) {
  const CacheLevels H200 = levelsOf("H200");
  const Occupancy Tiled = occupancy(256, 8 * 1024, 96, H200);
  EXPECT_EQ(Tiled.Blocks, 2);
  EXPECT_EQ(Tiled.By, Occupancy::Limit::Registers);
  EXPECT_EQ(Tiled.text(96), "2 blocks per SM (their registers, 96 a thread)");
  EXPECT_EQ(occupancy(128, 16 * 1024, 168, H200).Blocks, 3);
  EXPECT_EQ(occupancy(512, 4 * 1024, 56, H200).Blocks, 2);
  EXPECT_EQ(occupancy(256, 0, 172, H200).Blocks, 1);
  EXPECT_EQ(occupancy(1024, 0, 255, H200).Blocks, 0);
  EXPECT_EQ(occupancy(224, 0, 96, H200).Blocks, 2);
  EXPECT_EQ(occupancy(200, 0, 0, H200).Blocks, 9);
  // Not stated: the threads' limit, 2048 / 256 = 8, and the text says registers could allow fewer.
  const Occupancy Unstated = occupancy(256, 8 * 1024, 0, H200);
  EXPECT_EQ(Unstated.Blocks, 8);
  EXPECT_EQ(Unstated.By, Occupancy::Limit::Threads);
  EXPECT_NE(Unstated.text(0).find("registers not stated"), std::string::npos);
  // 32 registers do not limit 1024-thread blocks: 1024 a warp, 64 warps, 2 blocks, as threads allow.
  EXPECT_EQ(occupancy(1024, 8 * 1024, 32, H200).Blocks, 2);
  // A GPU whose register file is unknown counts threads and shared memory only.
  CacheLevels Unknown = H200;
  Unknown.RegistersPerSm = 0;
  EXPECT_EQ(occupancy(256, 8 * 1024, 96, Unknown).Blocks, 8);
  EXPECT_EQ(occupancy(256, 8 * 1024, 96, Unknown).text(96), "8 blocks per SM (their threads; the GPU's register file is not known)");
}

TEST(GpuGeometry, AGpuWithoutCacheSizesHasNoLevels) {
  // The GH200's L2 is not in the table (model/peaks_table.h): no H200 figure stands in for it.
  EXPECT_FALSE(CacheLevels::of(model::find_gpu("GH200")->geometry).has_value());
}

// C = 700: rows of 2800 bytes; 8 blocks of 256 threads per SM keep 22400 bytes between passes. H200:
// beside the 32 KiB shared-memory configuration its driver picks for them (8 x its measured 4 KiB
// margin), 256 - 32 = 224 KiB of L1. A100: its driver's margin is not measured, the blocks' own need
// taken (8 x (the kernel's 8 bytes of shared memory + the 1 KiB reserved a block) = 8256 bytes, over
// the 8 KiB configuration): the 16 KiB configuration, 192 - 16 = 176 KiB. The model
// runs L1 at that capacity and at the fraction of it the GPU is measured to keep whole, and gives the
// range between the two runs. H200: 1/8 of 224 KiB is 28672 bytes, over the rows: both runs serve the
// later passes from L1, and the range is one pass's sectors at L2. A100: no kept fraction measured, so
// its high run keeps nothing and sends all three passes to L2, 3x the H200's high figure; its low run
// (the whole 176 KiB) is the H200's low one.
TEST(GpuGeometry, PredictedRatiosFollowTheGpu) {
  using Kind = KernelRecord::PredictedTraffic::Kind;
  const auto H200 = softmaxPrediction("700", "H200");
  const auto A100 = softmaxPrediction("700", "A100");
  ASSERT_TRUE(H200.count("x:l2") && A100.count("x:l2")) << "no prediction";
  const KernelRecord::PredictedTraffic &H = H200.at("x:l2"), &A = A100.at("x:l2");
  ASSERT_EQ(H.K, Kind::Range) << H.Basis;
  ASSERT_EQ(A.K, Kind::Range) << A.Basis;
  EXPECT_NEAR(A.Low, H.Low, 1e-9);
  EXPECT_NEAR(A.High, 3 * H.High, 1e-9);
  EXPECT_LT(H.High, 1.5);  // one pass, at the sector overhead of rows that do not start on a sector
  EXPECT_NE(H.Basis.find("an L1 of 224 KiB per SM"), std::string::npos) << H.Basis;
  EXPECT_NE(A.Basis.find("an L1 of 176 KiB per SM"), std::string::npos) << A.Basis;
  EXPECT_NE(A.Basis.find("not measured on this GPU"), std::string::npos) << A.Basis;
}

TEST(GpuGeometry, UnknownCacheSizesPredictNothing) {
  const auto GH200 = softmaxPrediction("512", "GH200");
  ASSERT_EQ(GH200.size(), 6u);  // x and y, three levels each
  for (const auto &[Key, P] : GH200) {
    EXPECT_EQ(P.K, KernelRecord::PredictedTraffic::Kind::NotPredicted) << Key;
    EXPECT_NE(P.Basis.find("the cache sizes of 'GH200' are not known"), std::string::npos) << P.Basis;
  }
}

// The L4's GDDR6: how many bytes its DRAM moves per access is not measured (the model's 64-byte
// granules are the H200's HBM), so DRAM has no figure; L1 and L2, which move 32-byte sectors as the
// model counts them, keep theirs. The A100's HBM2e is taken to move 64 bytes as the H200's HBM does.
TEST(GpuGeometry, AGpuWithoutAKnownDramAccessSizeHasNoDramFigure) {
  using Kind = KernelRecord::PredictedTraffic::Kind;
  const auto L4 = softmaxPrediction("700", "L4");
  ASSERT_TRUE(L4.count("x:dram") && L4.count("x:l1")) << "no prediction";
  EXPECT_EQ(L4.at("x:dram").K, Kind::NotPredicted);
  EXPECT_NE(L4.at("x:dram").Basis.find("how many bytes the GPU's DRAM moves per access is not known"), std::string::npos)
      << L4.at("x:dram").Basis;
  EXPECT_NE(L4.at("x:l1").K, Kind::NotPredicted) << L4.at("x:l1").Basis;
  const auto A100 = softmaxPrediction("700", "A100");
  ASSERT_TRUE(A100.count("x:dram"));
  EXPECT_NE(A100.at("x:dram").K, Kind::NotPredicted) << A100.at("x:dram").Basis;
}
