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

// Rows of 32 KiB, 256-thread blocks. H200: 8 blocks per SM (2048 threads), 256 KiB of rows per SM, on 132
// SMs 33 MiB: over 0.4 * 60 MiB = 24 MiB and under 60: part. L4: 6 blocks per SM (1536 threads), 192 KiB,
// on 58 SMs 10.9 MiB: within 0.4 * 48 MiB = 19.2 MiB, so L2 serves the passes (1x at DRAM).
TEST(GpuGeometry, LayerConditionUsesTheChosenGpusL2AndSms) {
  EXPECT_EQ(layerCondition(3, 32 * 1024, 256, 0, levelsOf("H200")).InL2, Kept::Part);
  const LayerCondition L4 = layerCondition(3, 32 * 1024, 256, 0, levelsOf("L4"));
  EXPECT_EQ(L4.BlocksPerSm, 6);  // sm_89: 1536 threads per SM
  EXPECT_EQ(L4.InL2, Kept::All);
  EXPECT_EQ(L4.DramRatio, 1);
}

TEST(GpuGeometry, AGpuWithoutCacheSizesHasNoLevels) {
  // The GH200's L2 is not in the table (model/peaks_table.h): no H200 figure stands in for it.
  EXPECT_FALSE(CacheLevels::of(model::find_gpu("GH200")->geometry).has_value());
}

// C = 700: rows of 2800 bytes, 8 blocks per SM keep 22400 bytes. H200: within 1/8 of its 224 KiB of L1
// (28672): 1x at L2. A100: 1/8 of 160 KiB (20480) is less: part of the passes reach L2, not predicted.
TEST(GpuGeometry, PredictedRatiosFollowTheGpu) {
  const auto H200 = softmaxPrediction("700", "H200");
  ASSERT_TRUE(H200.count("x:l2")) << "no prediction";
  EXPECT_EQ(H200.at("x:l2").Ratio, 1);
  const auto A100 = softmaxPrediction("700", "A100");
  ASSERT_TRUE(A100.count("x:l2"));
  EXPECT_EQ(A100.at("x:l2").Ratio, 0);
}

TEST(GpuGeometry, UnknownCacheSizesPredictNothing) {
  const auto GH200 = softmaxPrediction("512", "GH200");
  ASSERT_EQ(GH200.size(), 6u);  // x and y, three levels each
  for (const auto &[Key, P] : GH200) {
    EXPECT_EQ(P.Ratio, 0) << Key;
    EXPECT_NE(P.Basis.find("the cache sizes of 'GH200' are not known"), std::string::npos) << P.Basis;
  }
}
