// The analyzer's diagnostics on tests/analyzer/inputs/<name>.cu: text, location and flag, and the
// case beside each where it stays silent. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <map>

#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/KernelChecks.h"
#include "test_harness.h"

using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

/// Analyses an input once per test program for the default options (parsing costs about a second).
const AnalysisRun &analyzeInput(const std::string &Name) {
  static std::map<std::string, AnalysisRun> Cache;
  auto It = Cache.find(Name);
  if (It == Cache.end()) It = Cache.emplace(Name, analyze(readInput(Name), Name)).first;
  return It->second;
}

AnalysisRun analyzeInput(const std::string &Name, const RunOptions &Options) {
  return analyze(readInput(Name), Name, Options);
}

}  // namespace

// Square f32 matmul at N = 4096 on H200 (FP32 66.9 TFLOP/s, 4.8 TB/s): AI = N/6 = 682.67 -> "683";
// ridge 66.9/4.8 = 13.9375 -> "13.9"; compute time 2*4096^3 / 66.9e12 = 2.054 ms (memory 0.042 ms).
TEST(BoundRemark, StatesComputeBoundSquareMatmulWithIntensityRidgeAndFloor) {
  const AnalysisRun &R = analyzeInput("rooflint-bound.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto Bound = named(R, "rooflint-bound");
  ASSERT_EQ(Bound.size(), 2u) << R.Output;
  EXPECT_EQ(Bound[0].Message, "kernel 'sgemm' is compute-bound (arithmetic intensity 683 FLOP/byte, ridge 13.9 "
                              "FLOP/byte on H200 FP32, datasheet peaks): floor 2.05 ms at N = 4096");
  EXPECT_EQ(Bound[0].Level, "remark");
  EXPECT_EQ(Bound[0].Line, 18u);
  EXPECT_EQ(Bound[0].Column, 23u);
  EXPECT_NE(R.Output.find("rooflint-bound.cu:18:23: remark: kernel 'sgemm' is compute-bound"), std::string::npos);
  EXPECT_NE(R.Output.find("[rooflint-bound]"), std::string::npos);
}

TEST(BoundRemark, NotesFormulasValuesAndFloorCause) {
  const AnalysisRun &R = analyzeInput("rooflint-bound.cu");
  const auto Bound = named(R, "rooflint-bound");
  ASSERT_FALSE(Bound.empty());
  ASSERT_GE(Bound[0].Notes.size(), 3u);
  EXPECT_EQ(Bound[0].Notes[0].Message,
            "ideal FLOPs 2*N^3 = 137,438,953,472 FLOP (torch.utils.flop_counter); compulsory bytes 12*N^2 = "
            "201,326,592 bytes (read 8*N^2, written 4*N^2)");
  // N/6 >= 13.9375 from N = 83.625: the first integer size is 84.
  EXPECT_EQ(Bound[0].Notes[1].Message, "arithmetic intensity N/6 FLOP/byte; compute-bound from N = 84 on H200 FP32");
  EXPECT_EQ(Bound[0].Notes[2].Message, "t_min 2.05 ms is set by 137 GFLOP at 66.9 TFLOP/s FP32");
}

TEST(BoundRemark, SaysWhichDimensionHasNoSizeForASymbolicSpec) {
  const AnalysisRun &R = analyzeInput("rooflint-bound.cu");
  const auto Bound = named(R, "rooflint-bound");
  ASSERT_EQ(Bound.size(), 2u);
  EXPECT_EQ(Bound[1].Message, "kernel 'sgemm_n' has no verdict at declared sizes; dimension 'N' has no size "
                              "(declare one with .at(N(...)))");
  EXPECT_EQ(Bound[1].Line, 24u);
}

TEST(BoundRemark, StaysSilentWhenDisabledWithWno) {
  RunOptions O;
  O.Flags = {"no-rooflint-bound"};
  const AnalysisRun R = analyzeInput("rooflint-bound.cu", O);
  EXPECT_TRUE(named(R, "rooflint-bound").empty());
  EXPECT_EQ(R.Output.find("[rooflint-bound]"), std::string::npos);
}

TEST(DatasheetPeaks, IsRemarkedOncePerRun) {
  const AnalysisRun &R = analyzeInput("rooflint-bound.cu");
  EXPECT_EQ(named(R, "rooflint-datasheet-peaks").size(), 1u);
}

// N = 64: AI = 64/6 = 10.67 -> "10.7", below the ridge 13.9375.
TEST(Expectation, WarnsWhenExpectedComputeBoundIsMemoryBound) {
  const AnalysisRun &R = analyzeInput("rooflint-expectation.cu");
  const auto W = named(R, "rooflint-expectation");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "kernel 'small' is expected to be compute-bound but is memory-bound on 'H200' at N = 64; "
                          "arithmetic intensity 10.7 FLOP/byte is below the ridge 13.9 FLOP/byte (FP32, datasheet peaks)");
  EXPECT_EQ(W[0].Level, "warning");
  EXPECT_EQ(W[0].Line, 11u);
  EXPECT_EQ(W[0].Column, 23u);
  ASSERT_EQ(W[0].Notes.size(), 1u);
  EXPECT_EQ(W[0].Notes[0].Message, "it is compute-bound from N = 84");
  EXPECT_NE(R.Output.find("warning: kernel 'small' is expected"), std::string::npos);
}

TEST(Expectation, StaysSilentWhenTheExpectationHolds) {
  const AnalysisRun &R = analyzeInput("rooflint-expectation.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;  // silence must not come from a failed parse
  for (const DiagRecord &D : named(R, "rooflint-expectation")) EXPECT_NE(D.Message.find("'small'"), std::string::npos);
}

TEST(Expectation, BecomesAnErrorWithWarningsAsErrors) {
  RunOptions O;
  O.WarningsAsErrors = true;
  const AnalysisRun R = analyzeInput("rooflint-expectation.cu", O);
  const auto W = named(R, "rooflint-expectation");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Level, "error");
  EXPECT_FALSE(R.Parsed);  // the run fails, as the exit status will
}

TEST(Expectation, BecomesAnErrorWithWerrorName) {
  RunOptions O;
  O.Flags = {"error=rooflint-expectation"};
  const AnalysisRun R = analyzeInput("rooflint-expectation.cu", O);
  const auto W = named(R, "rooflint-expectation");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Level, "error");
}

TEST(ParamName, WarnsWhenATensorIsNamedDifferentlyFromItsParameter) {
  const AnalysisRun &R = analyzeInput("rooflint-param-name.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-param-name");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "tensor 'x' is bound to parameter 0 of 'vadd', which is named 'a'; the spec and the "
                          "kernel disagree on what the parameter is");
  EXPECT_EQ(W[0].Line, 14u);
  EXPECT_EQ(W[0].Column, 23u);
  ASSERT_EQ(W[0].Notes.size(), 1u);
  EXPECT_EQ(W[0].Notes[0].Message, "parameter 'a' is declared here");
  EXPECT_EQ(W[0].Notes[0].Line, 7u);
  EXPECT_EQ(W[0].Notes[0].Column, 35u);
}

TEST(ParamName, StaysSilentWhenNamesMatch) {
  const AnalysisRun &R = analyzeInput("rooflint-param-name.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;  // silence must not come from a failed parse
  for (const DiagRecord &D : named(R, "rooflint-param-name")) EXPECT_EQ(D.Line, 14u);
}

TEST(UncoveredParam, WarnsForAPointerParameterWithoutATensor) {
  const AnalysisRun &R = analyzeInput("rooflint-uncovered-param.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncovered-param");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "pointer parameter 'scratch' of kernel 'scale' is not covered by spec 'scale_spec'; its "
                          "traffic is not counted");
  EXPECT_EQ(W[0].Line, 9u);
  EXPECT_EQ(W[0].Column, 56u);
  ASSERT_EQ(W[0].Notes.size(), 1u);
  EXPECT_EQ(W[0].Notes[0].Message,
            "bind it as a tensor (in<2>, out<2>, inout<2>) or mark it uncounted<2>(\"scratch\") in the spec");
}

TEST(UncoveredParam, StaysSilentForAnUncountedPointer) {
  const AnalysisRun &R = analyzeInput("rooflint-uncovered-param.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;  // silence must not come from a failed parse
  for (const DiagRecord &D : named(R, "rooflint-uncovered-param")) EXPECT_EQ(D.Line, 9u);
}

TEST(ReadOnlyWritten, WarnsWhenTheBodyAssignsThroughAReadTensor) {
  const AnalysisRun &R = analyzeInput("rooflint-read-only-written.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-read-only-written");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "kernel 'axpy' writes through 'x', which spec 'axpy_spec' declares read-only (tensor 'x'); "
                          "its written bytes are not counted");
  EXPECT_EQ(W[0].Line, 11u);
  EXPECT_EQ(W[0].Column, 10u);
}

TEST(ReadOnlyWritten, StaysSilentForInoutTensorsAndAtomicsIntoThem) {
  const AnalysisRun &R = analyzeInput("rooflint-read-only-written.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;  // silence must not come from a failed parse
  for (const DiagRecord &D : named(R, "rooflint-read-only-written")) EXPECT_EQ(D.Line, 11u);
}

TEST(Uncoalesced, WarnsForATransposeWriteWithSymbolicStride) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u) << R.Output;
  // floats: 32 sectors at worst, 4 ideal: up to 8x once n >= 32/4 = 8; at n = 1 the lanes are contiguous.
  EXPECT_EQ(W[0].Message, "store through 'out' is not unit-stride in 'threadIdx.x'; stride 'n' elements of 4 bytes: "
                          "a warp moves up to 8x the traffic it uses (32 sectors instead of 4 when 'n' >= 8; 1x "
                          "when 'n' == 1)");
  EXPECT_EQ(W[0].Line, 8u);
  EXPECT_EQ(W[0].Column, 5u);
  ASSERT_EQ(W[0].Notes.size(), 1u);
  EXPECT_EQ(W[0].Notes[0].Message,
            "the index's coefficient of 'threadIdx.x' is 'n'; consecutive lanes should touch consecutive elements");
}

TEST(Uncoalesced, WarnsForConstantStridesWithTheSectorCount) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u) << R.Output;
  // stride 33 floats: every lane its own sector: 32 sectors = 1024 bytes for 128 used, 8x.
  EXPECT_EQ(W[1].Message, "load through 'x' is not unit-stride in 'threadIdx.x'; stride 33 elements of 4 bytes: a "
                          "warp moves 1024 bytes in 32 sectors for 128 bytes used (8x the traffic)");
  EXPECT_EQ(W[1].Line, 13u);
  EXPECT_EQ(W[1].Column, 21u);
  // stride 2 doubles: a span of 32*2*8 = 512 bytes = 16 sectors for 256 bytes (8 sectors) used, 2x.
  EXPECT_EQ(W[2].Message, "load through 'x' is not unit-stride in 'threadIdx.x'; stride 2 elements of 8 bytes: a "
                          "warp moves 512 bytes in 16 sectors for 256 bytes used (2x the traffic)");
  EXPECT_EQ(W[2].Line, 18u);
  EXPECT_EQ(W[2].Column, 10u);
}

// Issue 12 (the device-side analysis): x[(i * i) % n] (line 27) was "cannot tell" and silent; it is
// scattered: lanes 0..31 read x[l*l] (n = 4096), 4-byte elements at byte 4*l*l: lanes 0-2 share sector 0
// (bytes 0, 4, 16), 3 and 4 sectors 1 and 2 (36, 64), then one sector per lane from lane 5
// (4*25 = 100 -> sector 3, ...) : 1 + 2 + 27 = 30 sectors for 128 useful bytes (4 sectors): 7.5x.
TEST(Uncoalesced, StaysSilentForUnitStrideBroadcastAndGathers) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;  // silence must not come from a failed parse
  std::vector<unsigned> Lines;
  for (const DiagRecord &D : named(R, "rooflint-uncoalesced")) Lines.push_back(D.Line);
  EXPECT_EQ(Lines, (std::vector<unsigned>{8, 13, 18, 27, 35, 42, 49}));
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u);
  EXPECT_EQ(W[3].Column, 26u);  // x[(i * i) % n], not x[idx[i]] (a gather: unknown, silent)
  EXPECT_NE(W[3].Message.find("30 sectors for 128 bytes used (7.5x the traffic)"), std::string::npos) << W[3].Message;
}

// The scalar tail (line 49): each lane walks its own 16 bytes. The load is reused through L1 (silent);
// the store is not exempt: lanes 16 bytes apart, 4 bytes each: 32 * 16 = 512 bytes = 16 sectors for
// 128 bytes (4 sectors) per request: 4x (issue 12: the exemption holds for loads only).
TEST(Uncoalesced, ReportsTheStoreOfALaneWalkingItsOwnChunkButNotTheLoad) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u) << R.Output;
  EXPECT_EQ(W[6].Line, 49u);
  EXPECT_EQ(W[6].Column, 44u);
  EXPECT_EQ(W[6].Message, "store through 'y' is not unit-stride in 'threadIdx.x'; stride 4 elements of 4 bytes: a "
                          "warp moves 512 bytes in 16 sectors for 128 bytes used (4x the traffic)");
}

TEST(Uncoalesced, FollowsTheIndexOfAGridStrideLoop) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u) << R.Output;
  EXPECT_EQ(W[5].Line, 42u);
  EXPECT_EQ(W[5].Column, 12u);
  EXPECT_NE(W[5].Message.find("stride 'stride' elements of 4 bytes"), std::string::npos) << W[5].Message;
}

TEST(Uncoalesced, KeepsLoopCountersAdvancedByCompoundAssignmentUniformGh3) {
  const AnalysisRun &R = analyzeInput("rooflint-uncoalesced.cu");
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 7u) << R.Output;
  EXPECT_EQ(W[4].Line, 35u);
  EXPECT_EQ(W[4].Column, 5u);
  EXPECT_NE(W[4].Message.find("stride 'rows' elements"), std::string::npos) << W[4].Message;
}

// Three stride-33 reads on three lines (tests/consumer's kernel), merged by the optimiser into one
// block, one warp request: each line is reported at itself, so a NOLINT on one silences that line only.
// Together lane l reads bytes [132 l, 132 l + 16): 4 l mod 32 is 20, 24 or 28 for 3 lanes of every 8,
// which straddle two sectors: 32 + 12 = 44 sectors for 32 * 16 = 512 useful bytes (16 sectors): 2.75x.
TEST(Uncoalesced, ReportsEachLineOfAMergedRequestAndHonoursItsOwnNolint) {
  const std::string Code = R"(#include "cuda_mock.h"
__global__ void k(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 33] + x[i * 33 + 1];  // NOLINT(rooflint-uncoalesced)
  if (i < n) y[i] += x[i * 33 + 2];
  // NOLINTNEXTLINE(rooflint-uncoalesced)
  if (i < n) y[i] += x[i * 33 + 3];
}
)";
  const AnalysisRun R = analyze(Code, "merged.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Line, 5u);
  EXPECT_EQ(W[0].Column, 22u);
  EXPECT_EQ(W[0].Message, "load through 'x' is not unit-stride in 'threadIdx.x'; stride 33 elements of 4 bytes: a warp "
                          "moves 1408 bytes in 44 sectors for 512 bytes used (2.75x the traffic)");
  ASSERT_EQ(W[0].Notes.size(), 2u);
  EXPECT_EQ(W[0].Notes[1].Message, "one warp request with the loads at lines 4, 7 (the same block, addresses within "
                                   "128 bytes): the sectors counted are theirs together");
}

// Guards that leave fewer lanes (docs/analyzer.md): the examples' scalar tail runs where 4 * thread is
// in [n - 3, n - 1], one lane: its stride-4 store is 1 sector for 4 bytes, 1x, silent; four lanes
// (threadIdx.x < 4) at 128-byte gaps: 4 sectors for 16 bytes (1 sector): 4x, said of the 4 lanes.
TEST(Uncoalesced, CountsTheLanesThatTheGuardsLeave) {
  const std::string Code = R"(#include "cuda_mock.h"
__global__ void tail(int n, float a, const float* x, float* y) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 3 < n) {
    for (int k = 0; k < 4; ++k) y[i + k] = a * x[i + k];
  } else {
    for (int j = i; j < n; ++j) y[j] = a * x[j] + y[j];
  }
}
__global__ void four(const float* x, float* y) {
  if (threadIdx.x < 4) y[32 * threadIdx.x] = x[threadIdx.x];
}
)";
  const AnalysisRun R = analyze(Code, "guards.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  std::vector<unsigned> Lines;
  for (const DiagRecord &D : W) Lines.push_back(D.Line);
  // Line 5: the body, every lane walking its own 4 floats: the store 4x (stores are not exempt).
  EXPECT_EQ(Lines, (std::vector<unsigned>{5, 11})) << R.Output;
  ASSERT_EQ(W.size(), 2u);
  EXPECT_EQ(W[1].Message, "store through 'y' is not unit-stride in 'threadIdx.x'; stride 32 elements of 4 bytes: the 4 "
                          "lanes of a warp that run it (at most) move 128 bytes in 4 sectors for 16 bytes used (4x the "
                          "traffic)");
}

TEST(SectorRule, MatchesHandCountedSectors) {
  EXPECT_EQ(sectorsPerWarp(1, 4), 4);     // 128 contiguous bytes
  EXPECT_EQ(sectorsPerWarp(2, 4), 8);     // 256-byte span
  EXPECT_EQ(sectorsPerWarp(8, 4), 32);    // 32-byte gaps: one sector per lane
  EXPECT_EQ(sectorsPerWarp(33, 4), 32);
  EXPECT_EQ(sectorsPerWarp(-1, 4), 4);    // reversed is still contiguous
  EXPECT_EQ(sectorsPerWarp(1, 16), 16);   // float4: 512 bytes
  EXPECT_EQ(sectorsPerWarp(2, 16), 32);
  EXPECT_EQ(sectorsPerWarp(0, 4), 1);     // broadcast
  EXPECT_EQ(sectorsPerWarp(64, 1), 32);
}

TEST(SpecEvaluation, ReportsASpecThatIsNotAConstant) {
  const AnalysisRun &R = analyzeInput("rooflint-spec-evaluation.cu");
  const auto E = named(R, "rooflint-spec-evaluation");
  ASSERT_EQ(E.size(), 1u) << R.Output;
  EXPECT_EQ(E[0].Message, "cannot evaluate spec 'runtime_spec'; its initializer is not a constant expression "
                          "(declare it 'constexpr')");
  EXPECT_EQ(E[0].Level, "error");
  EXPECT_EQ(E[0].Line, 9u);
  EXPECT_EQ(E[0].Column, 27u);
  EXPECT_TRUE(R.Results.Kernels.empty());
}

TEST(SpecEvaluation, StaysSilentForSpecParameters) {
  const AnalysisRun &R = analyzeInput("rooflint-spec-evaluation.cu");
  EXPECT_EQ(named(R, "rooflint-spec-evaluation").size(), 1u);  // the input's one error, and no other
}

TEST(ParseErrors, AreReportedAndTheRunGoesOn) {
  const AnalysisRun R = analyze("int main() { return undeclared; }\n", "broken.cu");
  EXPECT_FALSE(R.Parsed);
  EXPECT_NE(R.Output.find("use of undeclared identifier 'undeclared'"), std::string::npos);
  EXPECT_TRUE(R.Results.Diagnostics.empty());
}

TEST(Peaks, DeviceWithoutTheMathModeGetsNoVerdict) {
  RunOptions O;
  O.Gpu = "L4";  // no FP64 rate in the table
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void dadd(const double* a, double* b) {}
inline constexpr auto s = kernel<dadd>("dadd", unary(1, in<0>("a", f64, N), out<1>("b", f64, N))).at(N(8));
)";
  const AnalysisRun R = analyze(Code, "dadd.cu", O);
  const auto B = named(R, "rooflint-bound");
  ASSERT_EQ(B.size(), 1u) << R.Output;
  EXPECT_EQ(B[0].Message, "kernel 'dadd' has no verdict; 'L4' has no known FP64 peak (math mode 'fp64')");
}

// The real toolkit (CUDA 13 with clang 19): host-side parse once, threadIdx.x as CUDA declares it
// (an MS property), the empty texture_fetch_functions.h and include/cccl supplied by the tool.
TEST(RealToolkit, ParsesACudaFileWithTheToolkitHeadersAndReportsOnce) {
  if (detectEnvironment().ToolkitPath.empty()) GTEST_SKIP() << "no CUDA toolkit found";
  RunOptions O;
  O.RealToolkit = true;
  const std::string Code = R"(#include <cub/block/block_reduce.cuh>
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void gather(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 33];
}
inline constexpr auto s = kernel<gather>("gather", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 20));
)";
  const AnalysisRun R = analyze(Code, "real.cu", O);
  ASSERT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(named(R, "rooflint-bound").size(), 1u) << R.Output;
  const auto U = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(U.size(), 1u) << R.Output;
  EXPECT_EQ(U[0].Line, 7u);
}

TEST(SpecEvaluation, GivesNoVerdictForASpecThatDidNotCompile) {
  // An f16 tensor bound to a 'float *' parameter fails the DSL's static_assert; the spec still has a value,
  // but a verdict from it would be wrong (seen by a new user, 2026-11-30).
  const AnalysisRun R = analyze(R"(
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void scale(const float *x, float *y, int n);
inline constexpr auto spec = kernel<scale>("scale", unary(1, in<0>("x", f16, N), out<1>("y", f32, N))).at(N(1024));
)", "bad-spec.cu");
  EXPECT_FALSE(R.Parsed);
  EXPECT_NE(R.Output.find("rooflint: kernel: the tensor"), std::string::npos) << R.Output;
  EXPECT_TRUE(named(R, "rooflint-bound").empty());
}

// A spec's kernel<F> takes any function; in CUDA only a __global__ one is a kernel (issue 13): the spec
// on line 16 names the host function and is refused; the same spec on the kernel (line 19) is read.
TEST(KernelBinding, RefusesASpecBoundToAHostFunction) {
  const AnalysisRun &R = analyzeInput("rooflint-kernel-binding.cu");
  const auto Binding = named(R, "rooflint-kernel-binding");
  ASSERT_EQ(Binding.size(), 1u) << R.Output;
  EXPECT_EQ(Binding[0].Level, "error");
  EXPECT_EQ(Binding[0].Line, 16u);
  EXPECT_EQ(Binding[0].Message, "spec 'host_spec' is bound to 'scale_on_host', which is not a __global__ function (a "
                                "kernel): bind the spec to the kernel the program launches");
  const auto Bound = named(R, "rooflint-bound");
  ASSERT_EQ(Bound.size(), 1u) << R.Output;
  EXPECT_EQ(Bound[0].Line, 19u);
}
