// The CUPTI Profiler Host API for chip "GH100", without a GPU (docs/cupti.md §1.4): metric names exist,
// config images build, and the metric groups take the passes the verifier relies on.

#include <gtest/gtest.h>

#include <algorithm>

#include "cupti/cupti.h"

using namespace rooflint::runtime;

TEST(CuptiHost, CoreMetricsExistOnGH100AndTakeOnePass) {
  auto c = cupti::config::create("GH100", {}, cupti::core_metrics());
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_EQ(c->passes(), 1u);
  EXPECT_FALSE(c->image().empty());
}

TEST(CuptiHost, CoreGroupHoldsEveryLevelInItsOnePass) {
  // DRAM, L2 and L1 counters of the hierarchical roofline are in the core group, so all three levels
  // see the same cache state (one pass); shared-memory wavefronts would need a second pass on GH100.
  const auto& core = cupti::core_metrics();
  for (const char* m : {"dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                        "lts__t_sectors_srcunit_tex_op_write.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"})
    EXPECT_NE(std::find(core.begin(), core.end(), m), core.end()) << m;
  auto with_shared = core;
  with_shared.push_back("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
  auto c = cupti::config::create("GH100", {}, with_shared);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_EQ(c->passes(), 2u);
}

TEST(CuptiHost, SassFpCountersTakeOnePassOfTheirOwn) {
  auto fp = cupti::config::create("GH100", {}, cupti::fp_metrics());
  ASSERT_TRUE(fp.ok()) << fp.err().message;
  EXPECT_EQ(fp->passes(), 1u);
  // Together with the core group they would need 2 passes (instrumented metrics get their own):
  // the reason the verifier collects them as a separate group after its own L2 flush.
  auto both = cupti::fp_metrics();
  for (const auto& m : cupti::core_metrics()) both.push_back(m);
  auto together = cupti::config::create("GH100", {}, both);
  ASSERT_TRUE(together.ok()) << together.err().message;
  EXPECT_EQ(together->passes(), 2u);
}

TEST(CuptiHost, TensorMetricsAreTheFlopCountingAggregatesPresentOnGH100) {
  auto h = cupti::host::create("GH100");
  ASSERT_TRUE(h.ok()) << h.err().message;
  auto tensor = h->tensor_metrics();
  ASSERT_TRUE(tensor.ok()) << tensor.err().message;
  const std::vector<std::string> want{
      "sm__ops_path_tensor_src_fp64.sum",          "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
      "sm__ops_path_tensor_src_fp16.sum",          "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
      "sm__ops_path_tensor_src_fp8.sum",           "sm__ops_path_tensor_src_int8.sum"};
  EXPECT_EQ(*tensor, want);
  auto c = cupti::config::create("GH100", {}, *tensor);
  ASSERT_TRUE(c.ok()) << c.err().message;
  EXPECT_GE(c->passes(), 1u);
}

TEST(CuptiHost, AMetricTheChipLacksIsRejectedByName) {
  // docs/cupti.md §2: there is no sm__ops_path_tensor_src_fp16_dst_fp32 base metric on GH100.
  auto c = cupti::config::create("GH100", {}, {"sm__ops_path_tensor_src_fp16_dst_fp32.sum"});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.err().message.find("'sm__ops_path_tensor_src_fp16_dst_fp32.sum'"), std::string::npos) << c.err().message;
  EXPECT_NE(c.err().message.find("GH100"), std::string::npos);
}

TEST(CuptiHost, UnknownChipIsAnError) {
  auto h = cupti::host::create("NOSUCHCHIP");
  EXPECT_FALSE(h.ok());
}

TEST(CuptiHost, BaseMetricsListDramAndL2Counters) {
  auto h = cupti::host::create("GH100");
  ASSERT_TRUE(h.ok()) << h.err().message;
  auto base = h->base_metrics();
  ASSERT_TRUE(base.ok()) << base.err().message;
  for (const char* m : {"dram__bytes_read", "dram__bytes_write", "lts__t_sectors_srcunit_tex_op_write", "gpu__time_duration"})
    EXPECT_NE(std::find(base->begin(), base->end(), m), base->end()) << m;
}

TEST(FpCounters, FlopsWeighEachInstructionAsNcuRooflineSectionsDo) {
  // The counters' FLOPs, through the table the verifier reads (one instruction count per op, distinct
  // powers of ten so that each op's weight shows in its own digit): FFMA x2, FADD x1, FMUL x1;
  // DFMA x2, DADD x1, DMUL x1; HFMA2 x4, HADD2 x2, HMUL2 x2.
  counter_values k;
  k.fp_instructions = {{"ffma", 1}, {"fadd", 10}, {"fmul", 100}, {"dfma", 1}, {"dadd", 10},
                       {"dmul", 100}, {"hfma", 1}, {"hadd", 10}, {"hmul", 100}};
  EXPECT_EQ(k.fp32_flops(), 2 * 1 + 1 * 10 + 1 * 100);  // 112
  EXPECT_EQ(k.fp64_flops(), 2 * 1 + 1 * 10 + 1 * 100);  // 112
  EXPECT_EQ(k.fp16_flops(), 4 * 1 + 2 * 10 + 2 * 100);  // 224
  EXPECT_EQ(k.flops(), 112 + 112 + 224);
  // The metric the verifier requests for each op, in the table's order.
  const auto metrics = cupti::fp_metrics();
  ASSERT_EQ(metrics.size(), std::size(sass_fp_counters));
  EXPECT_EQ(metrics[3], "sm__sass_thread_inst_executed_op_dfma_pred_on.sum");
}
