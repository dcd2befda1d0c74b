// The analyzer's diagnostics on tests/analyzer/inputs/<name>.cu: each input states what it must print in
// clang's -verify style (// expected-warning@+1 {{...}}; the grammar is in test_harness.h), with the
// expected values worked out by hand in its comments. The tests below check what a comment cannot: other
// options (-Wno-, -Werror=), where a note is attached, in-memory sources, the sector rule itself.
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

std::string joined(const std::vector<std::string> &Lines) {
  std::string Out;
  for (const std::string &L : Lines) Out += "\n  " + L;
  return Out;
}

class Input : public ::testing::TestWithParam<const char *> {};

}  // namespace

// Every input prints exactly what its expected-* comments say: no diagnostic missing, none extra, each on
// its line (and column, where written) with its text, level and name.
TEST_P(Input, PrintsWhatItsCommentsExpect) {
  const AnalysisRun &R = analyzeInput(GetParam());
  const std::vector<std::string> Mismatches = verify(R, readInput(GetParam()));
  EXPECT_TRUE(Mismatches.empty()) << GetParam() << ":" << joined(Mismatches) << "\nprinted:\n" << R.Output;
}

INSTANTIATE_TEST_SUITE_P(Inputs, Input,
                         ::testing::Values("rooflint-bound.cu", "rooflint-expectation.cu", "rooflint-kernel-binding.cu",
                                           "rooflint-param-name.cu", "rooflint-read-only-written.cu",
                                           "rooflint-spec-evaluation.cu", "rooflint-uncoalesced.cu",
                                           "rooflint-uncovered-param.cu", "robust-index-chain.cu",
                                           "robust-overflow.cu", "robust-parse-error.cu"),
                         [](const auto &Info) {
                           std::string Name = Info.param;
                           for (char &C : Name)
                             if (!llvm::isAlnum(C)) C = '_';
                           return Name;
                         });

// The inputs' directives say what prints; these say which records hold it.
TEST(BoundRemark, StaysSilentWhenDisabledWithWno) {
  RunOptions O;
  O.Flags = {"no-rooflint-bound"};
  const AnalysisRun R = analyzeInput("rooflint-bound.cu", O);
  EXPECT_TRUE(named(R, "rooflint-bound").empty());
  EXPECT_EQ(R.Output.find("[rooflint-bound]"), std::string::npos);
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

// A kernel template instantiated for two element types of one size: both load x[2 * i], 8
// sectors for 128 bytes a warp (stride 2 elements of 4 bytes: 256 bytes spanned), the same words at the
// same place; printed and recorded once.
TEST(Uncoalesced, IsSaidOnceForInstantiationsThatSayTheSame) {
  const AnalysisRun R = analyze(R"cu(
#include "cuda_mock.h"
template <class T>
__global__ void pairs_first(const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[2 * i];
}
template __global__ void pairs_first<float>(const float*, float*, int);
template __global__ void pairs_first<int>(const int*, int*, int);
)cu");
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Line, 6u);
  EXPECT_NE(W[0].Message.find("a warp moves 256 bytes in 8 sectors for 128 bytes used (2x the traffic)"), std::string::npos)
      << W[0].Message;
}

// A note belongs to the diagnostic before it (SARIF's relatedLocations, the manifest): the comments place
// each note on its line but cannot say whose it is.
TEST(Notes, BelongToTheDiagnosticTheyExplainInTheOrderPrinted) {
  const AnalysisRun &R = analyzeInput("rooflint-param-name.cu");
  const auto W = named(R, "rooflint-param-name");
  ASSERT_EQ(W.size(), 2u) << R.Output;  // 'x' bound to 'a', and 'out' bound to 'dout'; the first here
  ASSERT_EQ(W[0].Notes.size(), 1u);
  EXPECT_EQ(W[0].Notes[0].Message, "parameter 'a' is declared here");
  EXPECT_EQ(W[0].Notes[0].Line, 12u);  // the kernel's line, not the spec's (line 23)
  const auto Bound = named(analyzeInput("rooflint-bound.cu"), "rooflint-bound");
  ASSERT_EQ(Bound.size(), 2u);
  ASSERT_EQ(Bound[0].Notes.size(), 4u);
  EXPECT_EQ(Bound[0].Notes[0].Message.rfind("ideal FLOPs 2*N^3 = ", 0), 0u) << Bound[0].Notes[0].Message;
  EXPECT_EQ(Bound[0].Notes[3].Message, "kernel 'sgemm' is declared here");
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
  if (i < n) y[i] += x[i * 33 + 2];  // expected-warning@:22 {{load through 'x' is not unit-stride in 'threadIdx.x'; stride 33 elements of 4 bytes: a warp moves 1408 bytes in 44 sectors for 512 bytes used (2.75x the traffic) [rooflint-uncoalesced]}}
  // expected-note@-1 {{the index's coefficient of 'threadIdx.x' is '33'; consecutive lanes should touch consecutive elements}}
  // expected-note@-2 {{one warp request with the loads at lines 4, 9 (the same block, addresses within 128 bytes): the sectors counted are theirs together}}
  // NOLINTNEXTLINE(rooflint-uncoalesced)
  if (i < n) y[i] += x[i * 33 + 3];
}
)";
  const AnalysisRun R = analyze(Code, "merged.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const std::vector<std::string> Mismatches = verify(R, Code);
  EXPECT_TRUE(Mismatches.empty()) << joined(Mismatches);
}

// A transpose whose border threads store a copy and the others a scaled value: the optimizer sinks the
// two stores into one and gives it line 0 (their lines differ). The warning is not lost: it goes to the
// line that computes the store's index, where the coefficient of threadIdx.x, 'rows', is.
TEST(Uncoalesced, AStoreTheOptimizerMergedKeepsTheLineOfItsIndex) {
  const std::string Code = R"(#include "cuda_mock.h"
__global__ void tr_border(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= cols || y >= rows) return;
  const long o = static_cast<long>(x) * rows + y;  // expected-warning {{store through 'out' is not unit-stride in 'threadIdx.x'; stride 'rows' elements of 4 bytes: a warp moves up to 8x the traffic it uses (32 sectors instead of 4 when 'rows' >= 8; 1x when 'rows' == 1) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is 'rows'; consecutive lanes should touch consecutive elements}}
  if (x == 0 || y == 0) { out[o] = in[static_cast<long>(y) * cols + x]; return; }
  out[o] = 0.5f * in[static_cast<long>(y) * cols + x];
}
)";
  const AnalysisRun R = analyze(Code, "border.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const std::vector<std::string> Mismatches = verify(R, Code);
  EXPECT_TRUE(Mismatches.empty()) << joined(Mismatches);
}

// Guards that leave fewer lanes (docs/analyzer.md): the examples' scalar tail runs where 4 * thread is
// in [n - 3, n - 1], one lane: its stride-4 store is 1 sector for 4 bytes, 1x, silent; four lanes
// (threadIdx.x < 4) at 128-byte gaps: 4 sectors for 16 bytes (1 sector): 4x, said of the 4 lanes. The
// body (line 5), every lane walking its own 4 floats: the store 4x (stores are not exempt): lanes 16
// bytes apart, 32 * 16 = 512 bytes = 16 sectors for 128 bytes (4 sectors) used.
// The loops of lines 5 and 7 both load x from i, but they are the two sides of one if: a lane takes
// one of them, so no rooflint-reread (it said 'x' was read twice).
TEST(Uncoalesced, CountsTheLanesThatTheGuardsLeave) {
  const std::string Code = R"(#include "cuda_mock.h"
__global__ void tail(int n, float a, const float* x, float* y) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i + 3 < n) {
    for (int k = 0; k < 4; ++k) y[i + k] = a * x[i + k];  // expected-warning {{store through 'y' is not unit-stride in 'threadIdx.x'; stride 4 elements of 4 bytes: a warp moves 512 bytes in 16 sectors for 128 bytes used (4x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '4'; consecutive lanes should touch consecutive elements}}
  } else {
    for (int j = i; j < n; ++j) y[j] = a * x[j] + y[j];
  }
}
__global__ void four(const float* x, float* y) {
  if (threadIdx.x < 4) y[32 * threadIdx.x] = x[threadIdx.x];  // expected-warning {{store through 'y' is not unit-stride in 'threadIdx.x'; stride 32 elements of 4 bytes: the 4 lanes of a warp that run it (at most) move 128 bytes in 4 sectors for 16 bytes used (4x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '32'; consecutive lanes should touch consecutive elements}}
}
)";
  const AnalysisRun R = analyze(Code, "guards.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const std::vector<std::string> Mismatches = verify(R, Code);
  EXPECT_TRUE(Mismatches.empty()) << joined(Mismatches);
}

// A transpose's store with blocks 16 threads wide (block (16, 16)): a warp is two rows of 16 threads,
// lanes y and y + 1 of one column writing adjacent floats. At R = C = 8192 its request is 16 columns
// 'rows' floats apart, each a sector holding the two rows' 8 bytes: 16 sectors for 128 bytes (4
// sectors), 4x, as the evaluation and the note at the access say; the closed form of the index,
// which takes a warp for 32 threads of one row, would say 8x (32 sectors).
TEST(Uncoalesced, NarrowBlocksTakeTheFigureOfTheEvaluatedRequest) {
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
__global__ void transpose16(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  out[static_cast<long>(x) * rows + y] = in[static_cast<long>(y) * cols + x];
}
inline constexpr auto t = kernel<transpose16>("transpose16", custom(0, in<0>("in", f32, R, C), out<1>("out", f32, C, R)))
    .at(R(8192), C(8192)).sizes(R(arg<2>), C(arg<3>)).block(16, 16).grid(ceil_div(C, 16), ceil_div(R, 16));
)";
  const AnalysisRun Run = analyze(Code, "transpose16.cu");
  ASSERT_TRUE(Run.Parsed) << Run.Output;
  const auto U = named(Run, "rooflint-uncoalesced");
  ASSERT_EQ(U.size(), 1u) << Run.Output;
  EXPECT_EQ(U[0].Message, "store through 'out' is not unit-stride in 'threadIdx.x'; stride 'rows' elements of 4 bytes: with "
                          "blocks 16 threads wide a warp is 2 rows of 16 threads, and at R = 8192, C = 8192 its request "
                          "touches 16 sectors where its useful bytes need 4 (4x the traffic)");
}

// The textbook naive GEMM with blocks of 16 x 16 threads: A[row * n + k] is the same element for the
// 16 lanes of a row (a broadcast in threadIdx.x), and a warp's two rows read two elements 4 * n bytes
// apart: two sectors, inherent to a tile of two rows a warp, no rooflint-uncoalesced warning (it said
// "not unit-stride, stride 0"). B[k * n + col] is unit-stride: 16 floats, two sectors, both used.
TEST(Uncoalesced, ABroadcastInThreadIdxXIsSilentWithNarrowBlocks) {
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
__global__ void matmul16(const float* A, const float* B, float* C, int n) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k) s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}
inline constexpr auto t = kernel<matmul16>("matmul16", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
    .at(N(2048)).sizes(N(arg<3>)).block(16, 16).grid(ceil_div(N, 16), ceil_div(N, 16));
)";
  const AnalysisRun Run = analyze(Code, "matmul16.cu");
  ASSERT_TRUE(Run.Parsed) << Run.Output;
  EXPECT_TRUE(named(Run, "rooflint-uncoalesced").empty()) << Run.Output;
}

// A row a thread with blocks (1, 256): x[r * n + c] is a broadcast in threadIdx.x (always 0), and a warp
// is 32 rows of one thread, its request 32 sectors 4 KiB apart for 128 useful bytes (4 sectors): 8x,
// said as a broadcast over rows (no "stride 0"), with the way out (a block 32 threads wide).
TEST(Uncoalesced, ABroadcastOverManyRowsOfAWarpIsSaidAsSuch) {
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
__global__ void rowsums(const float* x, float* y, int n) {
  const int r = blockIdx.x * 256 + threadIdx.y;
  float s = 0.f;
  for (int c = 0; c < n; ++c) s += x[static_cast<long>(r) * n + c];
  y[r] = s;
}
inline constexpr auto t = kernel<rowsums>("rowsums", custom(R * C, in<0>("x", f32, R, C), out<1>("y", f32, R)))
    .at(R(65536), C(1024)).sizes(R(256 * grid_dim.x), C(arg<2>)).block(1, 256).grid(ceil_div(R, 256));
)";
  const AnalysisRun Run = analyze(Code, "rowsums.cu");
  ASSERT_TRUE(Run.Parsed) << Run.Output;
  const auto U = named(Run, "rooflint-uncoalesced");
  ASSERT_FALSE(U.empty()) << Run.Output;
  EXPECT_EQ(U[0].Message, "load through 'x' is one element for the lanes of a row (a broadcast in 'threadIdx.x'): with blocks 1 "
                          "thread wide a warp is 32 rows of 1 thread, and at R = 65536, C = 1024 its request touches 32 sectors "
                          "where its useful bytes need 4 (8x the traffic)");
  EXPECT_NE(Run.Output.find("a block 32 threads wide makes it one row, one element"), std::string::npos) << Run.Output;
  EXPECT_EQ(Run.Output.find("stride 0"), std::string::npos) << Run.Output;
}

// A spec template named once per instantiation (docs/dsl.md's axpy_spec<T>, axpy_f32, axpy_f64): two
// specs, the named ones; the template's instantiations they copy are not specs of their own (one was
// a third record, with the first's kernel and no traffic, and a third rooflint-bound remark).
TEST(SpecEvaluation, ASpecTemplateIsItsNamedInstantiations) {
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy<float>(float, const float*, float*, int);
template __global__ void axpy<double>(double, const double*, double*, int);
template <class T>
inline constexpr auto axpy_spec = kernel<axpy<T>>("axpy", elementwise(2, in<1>("x", dtype_of<T>, N), inout<2>("y", dtype_of<T>, N)))
    .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto axpy_f32 = axpy_spec<float>;
inline constexpr auto axpy_f64 = axpy_spec<double>;
)";
  const AnalysisRun R = analyze(Code, "axpy.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  std::vector<std::string> Specs;
  for (const KernelRecord &K : R.Results.Kernels) Specs.push_back(K.SpecName);
  std::sort(Specs.begin(), Specs.end());
  EXPECT_EQ(Specs, (std::vector<std::string>{"axpy_f32", "axpy_f64"}));
  EXPECT_EQ(named(R, "rooflint-bound").size(), 2u) << R.Output;
}

// A row a warp, 4 warps a block (block 128, grid R / 4), three passes over rows of C = 1024 floats
// (4 KiB): each block reads 4 rows; 2048 / 128 = 16 blocks per SM keep 16 x 4 x 4 KiB = 256 KiB
// between passes, beside 256 - 64 = 192 KiB of L1 (16 blocks x the driver's 4 KiB margin take the 64 KiB
// shared-memory configuration): the passes reach L2, as the warning says. The note took a row a block
// (64 KiB, which would fit) and contradicted it. An LRU would miss both re-reads, 3x at L2; 256 KiB is
// past 192 KiB by less than twice, so L1 keeps part of them: no policy more than 192 / 256 = 0.75 of the
// two re-reads (3 - 2 x 0.75 = 1.5x), the point half of random replacement's share h = 0.5456 (h =
// exp(-(1 - h) 4 / 3)) of both: 3 - h = 2.454x.
TEST(ReRead, TheWorkingSetTakesTheRowsOfABlockFromTheStatedGrid) {
  const std::string Code = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
__global__ void rows_warp(const float* x, float* y, int rows, int cols) {
  const int lane = threadIdx.x & 31, row = blockIdx.x * 4 + (threadIdx.x >> 5);
  if (row >= rows) return;
  const float* xr = x + static_cast<long>(row) * cols;
  float m = 0.f, s = 0.f;
  for (int j = lane; j < cols; j += 32) m = m > xr[j] ? m : xr[j];
  for (int j = lane; j < cols; j += 32) s += xr[j] - m;
  for (int j = lane; j < cols; j += 32) y[static_cast<long>(row) * cols + j] = (xr[j] - m) / s;
}
inline constexpr auto s = kernel<rows_warp>("rows_warp", softmax(in<0>("x", f32, R, C), out<1>("y", f32, R, C)))
    .at(R(16384), C(1024)).sizes(R(arg<2>), C(arg<3>)).block(128).grid(ceil_div(R, 4));
)";
  const AnalysisRun Run = analyze(Code, "rows_warp.cu");
  ASSERT_TRUE(Run.Parsed) << Run.Output;
  const auto W = named(Run, "rooflint-reread");
  ASSERT_EQ(W.size(), 1u) << Run.Output;
  EXPECT_NE(W[0].Message.find("the passes reach L2: 1.5x to 3x (point estimate 2.45x)"), std::string::npos) << W[0].Message;
  EXPECT_NE(Run.Output.find("note: a row is 4 KiB; each block reads 4 rows (its rows over the stated grid's blocks), 16 "
                            "blocks per SM keep 256 KiB between passes, beside 192 KiB of L1 per SM"),
            std::string::npos)
      << Run.Output;
}

// The input's directive says what prints; a spec that cannot be evaluated gives no kernel record.
TEST(SpecEvaluation, RecordsNoKernelForASpecThatIsNotAConstant) {
  const AnalysisRun &R = analyzeInput("rooflint-spec-evaluation.cu");
  ASSERT_EQ(named(R, "rooflint-spec-evaluation").size(), 1u) << R.Output;
  EXPECT_TRUE(R.Results.Kernels.empty());
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
