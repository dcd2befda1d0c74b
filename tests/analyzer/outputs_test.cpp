// The manifest and SARIF against hand-computed values: square f32 matmul at N = 4096 has
// 2*4096^3 = 137,438,953,472 FLOP and 3*4*4096^2 = 201,326,592 bytes: AI 682.67 FLOP/byte.
#include <gtest/gtest.h>

#include <limits>

#include "llvm/Support/FileSystem.h"

#include "rooflint/analyzer/Outputs.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint;
using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

TEST(Manifest, RecordsTheSquareMatmulWithHandComputedValues) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  EXPECT_EQ(M.version, 6);  // 5: typed predictions, 6: pow2 launch sizes
  const manifest::kernel &K = M.kernels.at(0);
  EXPECT_EQ(K.name, "sgemm");
  EXPECT_EQ(K.mangled_name, "_Z5sgemmPKfS0_Pfi");  // sgemm(const float*, const float*, float*, int)
  EXPECT_EQ(K.location.line, 12);
  EXPECT_EQ(K.spec_location.line, 26);
  ASSERT_TRUE(K.values);
  EXPECT_EQ(K.values->flops, 137438953472.0);
  EXPECT_EQ(K.values->bytes, 201326592.0);
  EXPECT_EQ(K.values->read_bytes, 134217728.0);
  EXPECT_EQ(K.values->written_bytes, 67108864.0);
  EXPECT_NEAR(K.values->intensity, 682.67, 0.005);
  EXPECT_EQ(K.formulas.flops, "2*N^3");
  EXPECT_EQ(K.formulas.bytes, "12*N^2");
  EXPECT_EQ(K.formulas.intensity, "N/6");
  ASSERT_TRUE(K.verdict);
  EXPECT_EQ(K.verdict->bound, model::bound::compute);
  EXPECT_NEAR(K.verdict->ridge, 13.9375, 1e-9);             // 66.9 / 4.8
  EXPECT_NEAR(K.verdict->t_min_s, 137438953472.0 / 66.9e12, 1e-12);
  EXPECT_EQ(K.peaks.source, model::peak_source::datasheet);
  EXPECT_EQ(K.peaks.dram_bytes_per_s, 4.8e12);
  EXPECT_EQ(K.convention.name, "torch.utils.flop_counter");
  ASSERT_TRUE(K.verdict_change);
  EXPECT_EQ(K.verdict_change->size, 84);
  ASSERT_EQ(K.tensors.size(), 3u);
  EXPECT_EQ(K.tensors[2].role, dsl::role::write);
  EXPECT_EQ(K.tensors[2].dtype, model::dtype::f32);
}

TEST(Manifest, LeavesValuesOutForASymbolicSpec) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  ASSERT_EQ(M.kernels.size(), 2u);
  EXPECT_FALSE(M.kernels[1].values.has_value());
  EXPECT_EQ(M.kernels[1].missing_size, "N");
}

// SARIF 2.1.0: version, $schema, runs[0].tool.driver with rules; results with ruleId, level, message,
// physicalLocation (artifactLocation.uri, region.startLine/startColumn) and related locations for notes.
TEST(Sarif, HasTheRequiredPropertiesOfAVersion210Log) {
  const AnalysisRun R = analyze(readInput("rooflint-uncoalesced.cu"), "rooflint-uncoalesced.cu");
  const llvm::json::Value S = sarifJson(R.Results);
  const llvm::json::Object &Log = *S.getAsObject();
  EXPECT_EQ(*Log.getString("version"), "2.1.0");
  EXPECT_TRUE(Log.getString("$schema").has_value());
  const llvm::json::Object &Run0 = *(*Log.getArray("runs"))[0].getAsObject();
  const llvm::json::Object &Driver = *Run0.getObject("tool")->getObject("driver");
  EXPECT_EQ(*Driver.getString("name"), "rooflint");
  EXPECT_EQ(Driver.getArray("rules")->size(), 13u);  // rooflint-reread, rooflint-traffic-bound, rooflint-not-predicted and rooflint-size-binding among them
  const llvm::json::Array &Results = *Run0.getArray("results");
  ASSERT_EQ(Results.size(), 7u);  // rooflint-uncoalesced.cu's seven warnings (analyzer_test.cpp)
  const llvm::json::Object &First = *Results[0].getAsObject();
  EXPECT_EQ(*First.getString("ruleId"), "rooflint-uncoalesced");
  EXPECT_EQ(*First.getString("level"), "warning");
  EXPECT_EQ(*First.getInteger("ruleIndex"), 6);
  const llvm::json::Object &Physical =
      *(*First.getArray("locations"))[0].getAsObject()->getObject("physicalLocation");
  EXPECT_EQ(*Physical.getObject("region")->getInteger("startLine"), 8);
  EXPECT_EQ(*Physical.getObject("region")->getInteger("startColumn"), 5);
  EXPECT_EQ(First.getArray("relatedLocations")->size(), 1u);
}

TEST(Sarif, MapsRemarksToNoteLevel) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  const llvm::json::Value S = sarifJson(R.Results);
  const auto &Results = *(*S.getAsObject()->getArray("runs"))[0].getAsObject()->getArray("results");
  ASSERT_FALSE(Results.empty());
  EXPECT_EQ(*Results[0].getAsObject()->getString("level"), "note");
}

// JSON has no infinity: llvm::json would print "inf", which no reader accepts. The writer refuses it.
TEST(Sarif, ANonFiniteNumberIsRefusedWithItsPointer) {
  const llvm::json::Value V = llvm::json::Object{
      {"a", llvm::json::Array{1.0, llvm::json::Object{{"b", std::numeric_limits<double>::infinity()}}}}};
  EXPECT_EQ(firstNonFinite(V), "/a/1/b");
  EXPECT_EQ(firstNonFinite(llvm::json::Object{{"n", std::numeric_limits<double>::quiet_NaN()}}), "/n");
  EXPECT_EQ(firstNonFinite(llvm::json::Object{{"x", 2.5}, {"i", 7}, {"s", "inf"}}), std::nullopt);
  const std::string Path = ::testing::TempDir() + "rooflint-non-finite.json";
  llvm::Error E = writeJson(V, Path);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)), "cannot write '" + Path + "': '/a/1/b' is not a finite number");
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
}
