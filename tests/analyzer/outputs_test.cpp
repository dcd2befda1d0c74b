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

namespace {
const llvm::json::Object &firstKernel(const llvm::json::Value &V) {
  return *(*V.getAsObject()->getArray("kernels"))[0].getAsObject();
}
}  // namespace

TEST(Manifest, RecordsTheSquareMatmulWithHandComputedValues) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const llvm::json::Value M = manifestJson(R.Results, *model::find_peaks("H200"));
  EXPECT_EQ(*M.getAsObject()->getString("schema"), "rooflint-manifest");
  EXPECT_EQ(*M.getAsObject()->getInteger("version"), 4);  // 4 since issue 12 (predicted_traffic)
  const llvm::json::Object &K = firstKernel(M);
  EXPECT_EQ(*K.getString("name"), "sgemm");
  EXPECT_EQ(*K.getString("mangled_name"), "_Z5sgemmPKfS0_Pfi");  // sgemm(const float*, const float*, float*, int)
  EXPECT_EQ(*K.getObject("location")->getInteger("line"), 12);
  EXPECT_EQ(*K.getObject("spec_location")->getInteger("line"), 26);
  const llvm::json::Object &Values = *K.getObject("values");
  EXPECT_EQ(*Values.getNumber("flops"), 137438953472.0);
  EXPECT_EQ(*Values.getNumber("bytes"), 201326592.0);
  EXPECT_EQ(*Values.getNumber("read_bytes"), 134217728.0);
  EXPECT_EQ(*Values.getNumber("written_bytes"), 67108864.0);
  EXPECT_NEAR(*Values.getNumber("intensity"), 682.67, 0.005);
  EXPECT_EQ(*K.getObject("formulas")->getString("flops"), "2*N^3");
  EXPECT_EQ(*K.getObject("formulas")->getString("bytes"), "12*N^2");
  EXPECT_EQ(*K.getObject("formulas")->getString("intensity"), "N/6");
  const llvm::json::Object &Verdict = *K.getObject("verdict");
  EXPECT_EQ(*Verdict.getString("bound"), "compute-bound");
  EXPECT_NEAR(*Verdict.getNumber("ridge"), 13.9375, 1e-9);             // 66.9 / 4.8
  EXPECT_NEAR(*Verdict.getNumber("t_min_s"), 137438953472.0 / 66.9e12, 1e-12);
  EXPECT_EQ(*K.getObject("peaks")->getString("source"), "datasheet");
  EXPECT_EQ(*K.getObject("peaks")->getNumber("dram_bytes_per_s"), 4.8e12);
  EXPECT_EQ(*K.getObject("convention")->getString("name"), "torch.utils.flop_counter");
  EXPECT_EQ(*K.getObject("verdict_change")->getNumber("size"), 84);
  const llvm::json::Array &Tensors = *K.getArray("tensors");
  ASSERT_EQ(Tensors.size(), 3u);
  EXPECT_EQ(*Tensors[2].getAsObject()->getString("role"), "write");
  EXPECT_EQ(*Tensors[2].getAsObject()->getString("dtype"), "f32");
}

TEST(Manifest, LeavesValuesNullForASymbolicSpec) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  const llvm::json::Value M = manifestJson(R.Results, *model::find_peaks("H200"));
  const llvm::json::Array &Kernels = *M.getAsObject()->getArray("kernels");
  ASSERT_EQ(Kernels.size(), 2u);
  const llvm::json::Object &K = *Kernels[1].getAsObject();
  EXPECT_EQ(K.get("values")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(*K.getString("missing_size"), "N");
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
  EXPECT_EQ(Driver.getArray("rules")->size(), 10u);  // rooflint-reread since issue 12
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
TEST(Manifest, ANonFiniteNumberIsRefusedWithItsPointer) {
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
