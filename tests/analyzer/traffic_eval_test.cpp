// The traffic prediction from evaluated addresses (TrafficModel.h): per tensor and level, on small
// kernels whose traffic is worked out by hand in the comment above each test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "rooflint/analyzer/Outputs.h"
#include "rooflint/files/manifest.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

using Kind = KernelRecord::PredictedTraffic::Kind;

const std::string Prelude = R"(#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct M final : dim<"M"> {} M;
)";

struct Level {
  Kind K = Kind::NotPredicted;
  double Ratio = 0, Low = 0, High = 0;
  std::string Basis;
  bool Pointed = true;
};

struct Prediction {
  AnalysisRun Run;
  const KernelRecord *Kernel = nullptr;
  Level at(const std::string &Tensor, const std::string &LevelName) const {
    Level L;
    if (!Kernel) return L;
    for (const auto &P : Kernel->Predicted)
      if (P.Tensor == Tensor && rooflint::model::name(P.Level) == LevelName) return {P.K, P.Ratio, P.Low, P.High, P.Basis, P.Pointed};
    L.Basis = "no entry";
    return L;
  }
  const KernelRecord::PredictedAccess *access(unsigned Line) const {
    for (const auto &A : Kernel->PredictedAccesses)
      if (A.Line == Line) return &A;
    return nullptr;
  }
};

Prediction predict(const std::string &Code, const std::string &Kernel, const RunOptions &Options = {}) {
  Prediction P;
  P.Run = analyze(Prelude + Code, "eval.cu", Options);
  EXPECT_TRUE(P.Run.Parsed) << P.Run.Output;
  for (const KernelRecord &K : P.Run.Results.Kernels)
    if (K.KernelName == Kernel) P.Kernel = &K;
  EXPECT_NE(P.Kernel, nullptr) << "no spec named " << Kernel;
  return P;
}

/// The line (of the analysed file, the prelude included) that contains @p Text.
unsigned lineOf(const std::string &Code, const std::string &Text) {
  const std::string All = Prelude + Code;
  const auto At = All.find(Text);
  return At == std::string::npos ? 0 : unsigned(std::count(All.begin(), All.begin() + std::ptrdiff_t(At), '\n') + 1);
}

#define EXPECT_VALUE(L, V)                                                                         \
  do {                                                                                             \
    const Level X_ = (L);                                                                          \
    EXPECT_EQ(X_.K, Kind::Value) << X_.Basis;                                                      \
    EXPECT_NEAR(X_.Ratio, (V), 1e-6 * (V) + 1e-9) << X_.Basis;                                     \
  } while (0)

#define EXPECT_RANGE(L, Lo, Point, Hi)                                                             \
  do {                                                                                             \
    const Level X_ = (L);                                                                          \
    EXPECT_EQ(X_.K, Kind::Range) << X_.Basis;                                                      \
    EXPECT_TRUE(X_.Pointed) << X_.Basis;                                                           \
    EXPECT_NEAR(X_.Low, (Lo), 1e-4) << X_.Basis;                                                   \
    EXPECT_NEAR(X_.Ratio, (Point), 1e-4) << X_.Basis;                                              \
    EXPECT_NEAR(X_.High, (Hi), 1e-4) << X_.Basis;                                                  \
  } while (0)

}  // namespace

// y = x, one float a thread, 256 threads a block, N = 2^20: each warp request reads 128 contiguous
// bytes (4 sectors for 4 needed): L1 and L2 1x for both. The footprint (8 MiB) is within 0.4 of the
// 60 MiB L2: x's granules come from DRAM once (1x); y's writes may stay in L2 (0x to 1x).
TEST(TrafficEvaluation, CoalescedCopyIsCompulsoryAtEveryLevel) {
  const std::string Code = R"(
__global__ void copy(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_spec = kernel<copy>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "copy");
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
  EXPECT_VALUE(P.at("y", "l2"), 1.0);
  EXPECT_VALUE(P.at("x", "dram"), 1.0);
  const Level Y = P.at("y", "dram");
  EXPECT_EQ(Y.K, Kind::Range) << Y.Basis;
  EXPECT_NEAR(Y.Low, 0.0, 1e-9);
  EXPECT_NEAR(Y.High, 1.0, 1e-9);
  // Every tensor has a figure at every level: no rooflint-not-predicted remark.
  EXPECT_TRUE(named(P.Run, "rooflint-not-predicted").empty()) << P.Run.Output;
}

// q and k live in one buffer, each row of it q's M floats then k's (a fused QKV array without v), and
// the spec names both as slices of parameter 0. y[i] = q[i] + k[i], one float a thread, 256 threads, N = 2^12
// rows of M = 256: each warp request is 128 contiguous bytes of q or of k, so the buffer's loads are
// its 2 N M floats once (8 MiB), the compulsory bytes of q and k together. The evaluation cannot tell
// q's sectors from k's: each gets the buffer's ratio, 1x at L1 and L2, not the buffer's bytes over its
// own (2x each, the kernel's sum counting the buffer twice). The buffer is read once from DRAM: 1x.
TEST(TrafficEvaluation, TensorsThatShareABufferShareItsTraffic) {
  const std::string Code = R"(
__global__ void add_halves(const float* qk, float* y, int rows, int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = i / m, c = i % m;
  if (r < rows) y[i] = qk[(long)r * 2 * m + c] + qk[(long)r * 2 * m + m + c];
}
inline constexpr auto halves = kernel<add_halves>("add_halves",
    custom(0, in<0>("q", f32, N, M).slice(0), in<0>("k", f32, N, M).slice(M), out<1>("y", f32, N, M)))
    .at(N(1 << 12), M(256)).sizes(N(arg<2>), M(arg<3>)).block(256).grid(N * M / 256);
)";
  const Prediction P = predict(Code, "add_halves");
  for (const char *T : {"q", "k"}) {
    EXPECT_VALUE(P.at(T, "l1"), 1.0);
    EXPECT_VALUE(P.at(T, "l2"), 1.0);
    EXPECT_VALUE(P.at(T, "dram"), 1.0);
  }
  EXPECT_NE(P.at("q", "l1").Basis.find("parts of parameter 0 with 'k'"), std::string::npos) << P.at("q", "l1").Basis;
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
}

// The same copy with a stated grid of N/512 blocks of 256 threads: it covers half of N, so the launch
// reads x and writes y 0.5 times. A launch that leaves part of an output unwritten is not the program's
// (a spec's mistake): x and y are "not predicted" with the reason, instead of 0.5x at every level
// (below their compulsory bytes, which they were). A stated launch that writes more than once (passes
// over an output) or reads part of an input stays predicted, and so does a tensor reduced into by
// atomics (the example reduction's 'sum', llm.c's encoder_backward_kernel1's 'dwte').
TEST(TrafficEvaluation, AStatedLaunchThatCoversHalfTheTensorsIsNotPredicted) {
  const std::string Code = R"(
__global__ void copy(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_spec = kernel<copy>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 512));
)";
  const Prediction P = predict(Code, "copy");
  for (const char *Level : {"l1", "l2", "dram"}) {
    EXPECT_EQ(P.at("x", Level).K, Kind::NotPredicted) << Level;
    EXPECT_EQ(P.at("y", Level).K, Kind::NotPredicted) << Level;
  }
  EXPECT_NE(P.at("x", "l1").Basis.find("writes 'y' 0.5 times, not once"), std::string::npos) << P.at("x", "l1").Basis;
  EXPECT_NE(P.at("y", "l1").Basis.find("writes 'y' 0.5 times, not once"), std::string::npos) << P.at("y", "l1").Basis;
}

namespace {
// A block per row t of 48 matrices of 1024 x 1024 copies the row's first t + 1 elements (a causal
// mask's rows): blocks whose work varies along x.
const std::string CausalRows = R"(
__global__ void causal_rows(const float* x, float* y, int t) {
  const int row = blockIdx.y * t * t + blockIdx.x * t;
  for (int j = threadIdx.x; j <= blockIdx.x; j += 256) y[row + j] = 2.f * x[row + j];
}
inline constexpr auto causal_rows_spec =
    kernel<causal_rows>("causal_rows", custom(0, in<0>("x", f32, M, N, N).touches(M * N * (N + 1) / 2),
                                               out<1>("y", f32, M, N, N).touches(M * N * (N + 1) / 2)))
        .at(M(48), N(1024)).sizes(N(arg<2>), M(grid_dim.y)).block(256).grid(N, M);
)";

/// The manifest of a prediction's run, as the H200's.
std::string manifestText(const Prediction &P) {
  return rooflint::manifest::to_json(manifestOf(P.Run.Results, *rooflint::model::find_peaks("H200")));
}
}  // namespace

// A block per row t of 48 matrices of 1024 x 1024 writes the row's first t + 1 elements: the lower
// triangle, the part the spec states, once (48 * 1024 * 1025 / 2 elements). Blocks' work varies along x,
// so blocks spread over the grid estimate it, a sample whose mean is off by a few percent (a block's x is
// nearly uniform in 0..1023 in each of the 64 parts of the 49,152 blocks): the launch is judged by that
// estimate's error, and the triangle written once lies within it.
TEST(TrafficEvaluation, AStatedLaunchIsJudgedWithinTheSamplingErrorOfItsBlocks) {
  const std::string Code = CausalRows;
  const Prediction P = predict(Code, "causal_rows");
  const auto &Y = P.at("y", "l1");
  ASSERT_NE(Y.K, Kind::NotPredicted) << Y.Basis;
  EXPECT_LE(Y.Low, 1.0) << Y.Basis;
  EXPECT_GE(Y.High, 1.0) << Y.Basis;
  // A grid a tenth short along x (922 of 1024 rows) writes 922 * 923 / (1024 * 1025) = 0.81 of the
  // triangle: no sampling error explains that.
  std::string Short = Code;
  Short.replace(Short.find(".grid(N, M)"), 11, ".grid(ceil_div(N * 9, 10), M)");
  const Prediction Q = predict(Short, "causal_rows");
  EXPECT_EQ(Q.at("y", "l1").K, Kind::NotPredicted);
  EXPECT_NE(Q.at("y", "l1").Basis.find("writes 'y' 0."), std::string::npos) << Q.at("y", "l1").Basis;
}

// A warp per U columns c of 128 lower triangles of 512 x 512 walks rows c..511, reading each row's first
// r + 1 floats (the pattern of a causal softmax's backward pass): a block's footprint holds its right
// neighbour's, and the two reach the rows they share at different points of their runs. Rows start
// 64-byte aligned, so a triangle is sum over k = 1..32 of 16 rows of k granules: 8,448 granules, 1.0292
// of its 525,312 bytes (the compulsory bytes). With U = 1 a block covers 8 columns, 64 blocks a
// triangle; the H200's wave of 1,056 blocks holds 16.5 triangles, 8.9 MB, under L2's kept 24 MiB: each
// granule from DRAM once, 1.0292x. With U = 8 a block covers 64 columns: 8 blocks a triangle, all 1,024
// blocks in one wave, 69 MB through L2 while one block walks its rows, over its 60 MiB: every block reads
// its rows from DRAM, block b's 16 (528 - 2b(4b + 1)) granules, 3,048 x 16 for b = 0..7: 5.773 triangles'
// granules, 5.941x. Taken as translates of the middle block, the union would be twice the triangle. Both
// blocks begin reading at their own rows, so they read the rows they share a run apart. The llm.c kernels of this pattern count 0.97x (a warp per column) and 2.5x (a
// warp per 8) at DRAM on an H100 (docs/results.md). Walked from the last row up instead, the blocks read
// the rows they share in step: each granule once, 1.0292x, as with U = 1.
TEST(TrafficEvaluation, NestedFootprintsAreSharedARunApart) {
  const std::string Code = R"(
template <int U>
__global__ void suffix_rows(const float* a, float* out, int t) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int c = U * (blockIdx.x * 8 + warp);
  const float* m = a + blockIdx.y * t * t;
  float s = 0.f;
  for (int r = c; r < t; ++r)
    for (int j = lane; j <= r; j += 32) s += m[r * t + j];
  if (lane < U) out[blockIdx.y * t + c + lane] = s;
}
template <int U>
__global__ void suffix_rows_down(const float* a, float* out, int t) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int c = U * (blockIdx.x * 8 + warp);
  const float* m = a + blockIdx.y * t * t;
  float s = 0.f;
  for (int r = t - 1; r >= c; --r)
    for (int j = lane; j <= r; j += 32) s += m[r * t + j];
  if (lane < U) out[blockIdx.y * t + c + lane] = s;
}
inline constexpr auto wide_down_spec =
    kernel<suffix_rows_down<8>>("wide_down", custom(0, in<0>("a", f32, M, N, N).touches(M * N * (N + 1) / 2), out<1>("out", f32, M, N)))
        .at(M(128), N(512)).sizes(N(arg<2>), M(grid_dim.y)).block(256).grid(N / 64, M);
inline constexpr auto narrow_spec =
    kernel<suffix_rows<1>>("narrow", custom(0, in<0>("a", f32, M, N, N).touches(M * N * (N + 1) / 2), out<1>("out", f32, M, N)))
        .at(M(128), N(512)).sizes(N(arg<2>), M(grid_dim.y)).block(256).grid(N / 8, M);
inline constexpr auto wide_spec =
    kernel<suffix_rows<8>>("wide", custom(0, in<0>("a", f32, M, N, N).touches(M * N * (N + 1) / 2), out<1>("out", f32, M, N)))
        .at(M(128), N(512)).sizes(N(arg<2>), M(grid_dim.y)).block(256).grid(N / 64, M);
)";
  const Prediction Narrow = predict(Code, "narrow");
  const Level A = Narrow.at("a", "dram");
  ASSERT_NE(A.K, Kind::NotPredicted) << A.Basis;
  EXPECT_NEAR(A.Ratio, 1.0292, 0.03) << A.Basis;
  EXPECT_NEAR(A.Low, 1.0292, 0.03) << A.Basis;
  const Prediction Wide = predict(Code, "wide");
  const Level B = Wide.at("a", "dram");
  ASSERT_NE(B.K, Kind::NotPredicted) << B.Basis;
  EXPECT_NEAR(B.Ratio, 5.941, 0.06 * 5.941) << B.Basis;
  EXPECT_NEAR(B.Low, 1.0292, 0.03) << B.Basis;
  EXPECT_NE(B.Basis.find("at another point of its run"), std::string::npos) << B.Basis;
  EXPECT_NE(B.Basis.find(": gone"), std::string::npos) << B.Basis;
  // Walked from the last row up, the same footprints are read in step: every block begins at row 511,
  // the shared rows come first, and one block's reads are its neighbour's a launch apart: each granule
  // once.
  const Level D = predict(Code, "wide_down").at("a", "dram");
  ASSERT_NE(D.K, Kind::NotPredicted) << D.Basis;
  EXPECT_NEAR(D.Ratio, 1.0292, 0.03) << D.Basis;
  EXPECT_EQ(D.Basis.find("at another point of its run"), std::string::npos) << D.Basis;
}

// Every block reads the same 16 KiB table (4096 floats, 512 sectors) and writes one float: 65,536 blocks
// of 256 threads, 8 on an SM at once (2048 threads), 8,192 such runs over the grid's 132 SMs. In the
// first run only the first fetch of each table sector reaches L2 (512 sectors for 8 blocks), and no
// sector is fetched twice: the table stays in L1. Extrapolated per run, the table would reach L2 8,192
// times (8192x); kept in L1 from one wave of the SM's blocks to the next, each of the 132 SMs fetches it
// once: 132x, the point. The range keeps its ends: each sector once (1x) when blocks meet in one L1, up
// to every block's L1 sectors. Not yet counted on a GPU.
TEST(TrafficEvaluation, ATableEveryBlockReadsIsFetchedOncePerSm) {
  const std::string Code = R"(
__global__ void table_dot(const float* __restrict__ table, float* __restrict__ out, int t) {
  __shared__ float red[256];
  float s = 0.f;
  for (int j = threadIdx.x; j < t; j += 256) s += table[j];
  red[threadIdx.x] = s;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = red[0];
}
inline constexpr auto table_dot_spec = kernel<table_dot>("table_dot", custom(N, in<0>("table", f32, N), out<1>("out", f32, M)))
    .at(N(4096), M(65536)).sizes(N(arg<2>), M(grid_dim.x)).block(256).grid(M);
)";
  const Prediction P = predict(Code, "table_dot");
  const Level T = P.at("table", "l2");
  EXPECT_EQ(T.K, Kind::Range) << T.Basis;
  EXPECT_NEAR(T.Ratio, 132.0, 1e-6) << T.Basis;
  EXPECT_NEAR(T.Low, 1.0, 1e-6) << T.Basis;
  EXPECT_GT(T.High, 60000.0) << T.Basis;  // up to each block's 512 sectors from L2: about 65,536x
  EXPECT_NE(T.Basis.find("each SM fetches each of them at most once"), std::string::npos) << T.Basis;
  EXPECT_VALUE(P.at("table", "l1"), 65536.0);  // each block requests all 512 sectors once, coalesced
}

// A bias broadcast along rows, y[i] = x[i] + b[i % C], C = 4096 (16 KiB of b), N = 2^24: 65,536 blocks
// of 256 threads, each reading a 1 KiB window of b (32 sectors); the 16 windows differ from block to
// block, so most blocks apart from the SM's own read other sectors than it. L1: every block's 32
// sectors, 65,536 KiB over 16 KiB: 4096x. L2: the modelled SM's blocks 0, 132, 264, ... read 4 of the
// windows (132 = 4 mod 16), so a wave loads 8 KiB of x and 4 KiB of b, 12 KiB, and the SM reads a
// window again within 16 / 4 = 4 waves: 4 x 12 KiB + b's 16 KiB fit in its 224 KiB of L1. Whichever
// windows an SM's blocks read, it fetches each of b's sectors at most once: at most 132 SMs x 16 KiB,
// 132x, the point. Not yet counted on a GPU.
TEST(TrafficEvaluation, ABiasReadInWindowsIsFetchedAtMostOncePerSm) {
  const std::string Code = R"(
inline constexpr struct C final : dim<"C"> {} C;
__global__ void add_bias(const float* __restrict__ x, const float* __restrict__ b, float* __restrict__ y, int c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] + b[i % c];
}
inline constexpr auto add_bias_spec = kernel<add_bias>("add_bias", custom(N, in<0>("x", f32, N), in<1>("b", f32, C), out<2>("y", f32, N)))
    .at(N(1 << 24), C(4096)).sizes(C(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "add_bias");
  const Level B = P.at("b", "l2");
  EXPECT_EQ(B.K, Kind::Range) << B.Basis;
  EXPECT_NEAR(B.Ratio, 132.0, 1e-6) << B.Basis;
  EXPECT_NEAR(B.Low, 1.0, 1e-6) << B.Basis;
  EXPECT_NE(B.Basis.find("its sectors read (16 KiB) stay in L1"), std::string::npos) << B.Basis;
  EXPECT_VALUE(P.at("b", "l1"), 4096.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);  // streamed: nothing kept across waves changes it
}

// The same bias read in 131 windows of 1 KiB (c = 131 x 256 floats: 131 KiB of b, which alone would
// fit in L1): 131 is prime to the 132 SMs, so an SM's blocks (0, 132, 264, ...: windows 0, 1, 2, ...)
// read window after window and come back to one only 131 blocks, about 16 waves, later (the run's 8
// blocks read 8 distinct windows: 131 / 8, 17 waves of 8 KiB of x and 8 KiB of b, 272 KiB, past L1):
// L1 does not keep b from one read of a window to the next, and the point is not lowered to 132x. By
// the run's rate each block fetches its window: 65,536 KiB over 131 KiB, 500x.
TEST(TrafficEvaluation, WindowsAnSmComesBackToLateAreNotKeptInL1) {
  const std::string Code = R"(
inline constexpr struct C final : dim<"C"> {} C;
__global__ void add_bias(const float* __restrict__ x, const float* __restrict__ b, float* __restrict__ y, int c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] + b[i % c];
}
inline constexpr auto add_bias_spec = kernel<add_bias>("add_bias", custom(N, in<0>("x", f32, N), in<1>("b", f32, C), out<2>("y", f32, N)))
    .at(N(1 << 24), C(33536)).sizes(C(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "add_bias");
  const Level B = P.at("b", "l2");
  EXPECT_EQ(B.K, Kind::Range) << B.Basis;
  EXPECT_GT(B.Ratio, 400.0) << B.Basis;
  EXPECT_EQ(B.Basis.find("stay in L1"), std::string::npos) << B.Basis;
}

// A sum by one atomicAdd a block into a 4-byte accumulator: N = 2^26 floats in 262,144 blocks of 256,
// 248 waves of 1,056 blocks (132 SMs x 8). At DRAM the accumulator's granule is read once (64 bytes:
// 16x its 4 bytes); every wave updates it again, so its line is among the last L2 saw when the kernel
// ends and stays there: nothing written back, 16x, the point; the range's top writes its sector back
// (32 bytes more: 24x). (The point took the accumulator's share of L2 by footprint, 32 bytes of 256
// MiB, and wrote the line back: 22.1x.)
TEST(TrafficEvaluation, AnAccumulatorUpdatedToTheEndStaysInL2) {
  const std::string Code = R"(
inline constexpr struct One final : dim<"One", 1> {} One;
__global__ void reduce_atomic(const float* x, float* sum, int n) {
  __shared__ float part[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) __nvvm_atom_add_gen_f(sum, part[0]);  // atomicAdd, as CUDA defines it
}
inline constexpr auto reduce_atomic_spec = kernel<reduce_atomic>("reduce_atomic", custom(N, in<0>("x", f32, N), out<1>("sum", f32, One)))
    .at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "reduce_atomic");
  EXPECT_RANGE(P.at("sum", "dram"), 16.0, 16.0, 24.0);
  EXPECT_NE(P.at("sum", "dram").Basis.find("again in about every wave"), std::string::npos) << P.at("sum", "dram").Basis;
}

// The same copy at N = 2^26 (256 MiB a tensor, 512 MiB together: over L2). Coalesced, each granule
// requested once: DRAM 1x for x. y's sectors are written once, but up to L2's 60 MiB of them may still
// be there when the kernel ends: 196/256 = 0.765625x to 1x, the point leaving y's share of L2 (256 of
// the 512 MiB footprint: 30 MiB) but at most L2's kept part (0.4 of 60 MiB, 24 MiB), 232/256 = 0.90625x.
// (The H200 read 0.96-0.97x for the kernel, docs/measurements/h200-2026-12-01/traffic-layer-condition:
// x 1x and y about 0.93x; the H100, whose kept part is 20 MiB, left 17.6 MiB of y in L2, 2026-12-06.)
TEST(TrafficEvaluation, CoalescedCopyOverL2IsCompulsoryAtDram) {
  const std::string Code = R"(
__global__ void copy(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_spec = kernel<copy>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "copy");
  EXPECT_VALUE(P.at("x", "dram"), 1.0);
  EXPECT_RANGE(P.at("y", "dram"), 196.0 / 256, 232.0 / 256, 1.0);
}

// A batch stride the spec does not bind (a strided batched kernel's strideA, as cuBLAS takes it): the
// address is unknown, and the reason names the parameter instead of "a value the evaluation does not
// follow".
TEST(TrafficEvaluation, AnAddressThroughAnUnboundStrideNamesIt) {
  const std::string Code = R"(
__global__ void batched_copy(const float* x, float* y, int n, long long strideA) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[blockIdx.y * n + i] = x[blockIdx.y * strideA + i];
}
inline constexpr auto batched_copy_spec = kernel<batched_copy>("batched_copy", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M, N)))
    .at(M(16), N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256), M);
)";
  const Prediction P = predict(Code, "batched_copy");
  const Level X = P.at("x", "l1");
  EXPECT_EQ(X.K, Kind::NotPredicted);
  EXPECT_NE(X.Basis.find("its address depends on 'strideA', a parameter the spec does not bind (.sizes: N(arg<I>), "
                         "N(pow2(arg<I>)) for a size's base-2 logarithm, or a parameter no tensor's size holds, "
                         "param<\"R\"> read as R(arg<I>)) (a stride or a pitch is bound as a dimension "
                         "of the tensor's padded shape"),
            std::string::npos)
      << X.Basis;
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
}

// The same kernel with the stride bound as the padded shape's dimension (docs/dsl.md): x is (M,S), of
// which M*N read. Each block reads 256 consecutive floats of one row: 32 sectors for 32 useful ones,
// 1x at L1 and L2; y likewise.
TEST(TrafficEvaluation, AStrideBoundAsThePaddedShapeIsPredicted) {
  const std::string Code = R"(
inline constexpr struct S final : dim<"S"> {} S;
__global__ void batched_copy(const float* x, float* y, int n, long long strideA) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[blockIdx.y * n + i] = x[blockIdx.y * strideA + i];
}
inline constexpr auto batched_copy_spec = kernel<batched_copy>("batched_copy",
    custom(0, in<0>("x", f32, M, S).touches(M * N), out<1>("y", f32, M, N)))
    .at(M(16), N(1 << 20), S(1 << 21)).sizes(N(arg<2>), S(arg<3>)).block(256).grid(ceil_div(N, 256), M);
)";
  const Prediction P = predict(Code, "batched_copy");
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
}

// A loop bound of 1 << log2n with log2n bound by no spec size (cuda-samples' fwtBatch1Kernel): the
// condition cannot be decided, and the reason names the parameter, not "data" (there is none).
TEST(TrafficEvaluation, AConditionOnAnUnboundParameterNamesIt) {
  const std::string Code = R"(
__global__ void rows(const float* x, float* y, int log2n) {
  const int n = 1 << log2n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[blockIdx.x * n + i] = x[blockIdx.x * n + i];
}
inline constexpr auto rows_spec = kernel<rows>("rows", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 22)).block(256).grid(1024);
__global__ void pick(const int* x, float* y, int n, int t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > t) y[i] = 1.0f;
}
inline constexpr auto pick_spec = kernel<pick>("pick", custom(0, in<0>("x", i32, N), out<1>("y", f32, N)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "rows");
  const Level X = P.at("x", "l1");
  EXPECT_EQ(X.K, Kind::NotPredicted) << X.Basis;
  EXPECT_NE(X.Basis.find("depends on 'log2n', a parameter the spec does not bind"), std::string::npos) << X.Basis;
  // A condition on data and an unbound parameter together: data decides it, whatever the parameter.
  const Prediction Q = predict(Code, "pick");
  const Level Y = Q.at("y", "l1");
  EXPECT_EQ(Y.K, Kind::NotPredicted) << Y.Basis;
  EXPECT_NE(Y.Basis.find("depends on data the build cannot know"), std::string::npos) << Y.Basis;
}

// A running sum down each column over a window of radius r (cuda-samples' boxFilter): the loops'
// bounds depend on r, a parameter no tensor's size holds. Stated as a parameter (param<"R">, read as
// R(arg<4>), R = 14 at .at()), the loops are evaluated: at H = W = 2048, x is read in 2r + 1 = 29
// rows before the main loop and twice in each of its h - 2r - 1 = 2019 rows, 4067 row reads for 2048
// rows, every warp's request coalesced: 4067 / 2048 = 1.98584x at L1. Unstated (a second spec of the
// same kernel, which has a prediction and a remark of its own), r is unknown, and the reason names it.
TEST(TrafficEvaluation, AParameterStatedInTheSpecBoundsTheLoops) {
  const std::string Code = R"(
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct R final : param<"R"> {} R;
__global__ void box_cols(const float* x, float* y, int w, int h, int r) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0;
  for (int k = 0; k <= 2 * r; ++k) t += x[k * w + c];
  y[r * w + c] = t;
  for (int row = r + 1; row < h - r; ++row) {
    t += x[(row + r) * w + c] - x[(row - r - 1) * w + c];
    y[row * w + c] = t;
  }
}
inline constexpr auto stated_spec = kernel<box_cols>("stated", custom(0, in<0>("x", f32, H, W), out<1>("y", f32, H, W)))
    .sizes(W(arg<2>), H(arg<3>), R(arg<4>)).at(W(2048), H(2048), R(14)).block(256).grid(W / 256);
inline constexpr auto unstated_spec = kernel<box_cols>("unstated", custom(0, in<0>("x", f32, H, W), out<1>("y", f32, H, W)))
    .sizes(W(arg<2>), H(arg<3>)).at(W(2048), H(2048)).block(256).grid(W / 256);
)";
  EXPECT_VALUE(predict(Code, "stated").at("x", "l1"), 4067.0 / 2048);
  // The second spec of one kernel has its own prediction (only the first had one).
  const Prediction U = predict(Code, "unstated");
  const Level Unstated = U.at("x", "l1");
  EXPECT_EQ(Unstated.K, Kind::NotPredicted) << Unstated.Basis;
  EXPECT_NE(Unstated.Basis.find("depends on 'r', a parameter the spec does not bind"), std::string::npos) << Unstated.Basis;
  EXPECT_NE(U.Run.Output.find("kernel 'unstated' (H = 2048, W = 2048): traffic not predicted for 'x'"), std::string::npos)
      << U.Run.Output;
}

// A tensor read back by the block that wrote it (llm.c's fused residual kernels write the residual, then
// read it for the norm): y[i] = x[i] + 1, then, after a barrier, z[i] = y of the lane 32 places on in the
// block, N = 2^26 (three tensors of 256 MiB). Every sector of y a block reads it wrote whole: L2 holds
// the line, so y's DRAM traffic is its writes, as a copy's (x, y and z 768 MiB: y's share of the 60 MiB
// L2, 20 MiB, but at most its share of L2's kept part among the kernel's writes, 24 MiB x 256 / 512 =
// 12 MiB, may still be there at the end: 244/256 = 0.953125x; from 196/256, up to 1x). Between a block's
// write and its read back its SM requests a few KiB of L2 (8 blocks of 1 KiB of x and y each), within
// its share of L2's kept part (0.4 x 60 MiB over 132 SMs, 186 KiB): no read back from DRAM, the top 1x.
// It was 1.77-2x (the read back counted as reads from DRAM), then 1x..2x (every read back at the top).
// (On the H200 the fused residual kernel 4 counted 0.501x of its compulsory bytes at DRAM, where 0.75x
// was the lowest predicted.)
TEST(TrafficEvaluation, WhatABlockWroteWholeItReadsBackFromL2) {
  const std::string Code = R"(
__global__ void write_then_read(const float* x, float* y, float* z, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
  __syncthreads();
  const int j = blockIdx.x * blockDim.x + (threadIdx.x + 32) % blockDim.x;
  if (i < n) z[i] = y[j];
}
inline constexpr auto write_then_read_spec = kernel<write_then_read>("write_then_read", custom(0, in<0>("x", f32, N), out<1>("y", f32, N), out<2>("z", f32, N)))
    .at(N(1 << 26)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "write_then_read");
  EXPECT_VALUE(P.at("x", "dram"), 1.0);
  EXPECT_RANGE(P.at("y", "dram"), 196.0 / 256, 244.0 / 256, 1.0);
}

// The same read back, a row of 1 MiB later: each of 128 blocks (one per SM) writes its row of y
// (2^18 floats) from x, then reads it back into z, N = 2^25 (three tensors of 128 MiB, 384 MiB in all).
// Between writing a granule of y and reading it back its SM requests the rest of the row of x and y
// (2 MiB), over its share of L2 (60 MiB over the 128 SMs that run blocks, 480 KiB) and of its kept part
// (0.4 of that, 192 KiB): every granule read back comes from DRAM again, 1x more at the low end, the
// point and the top. y's writes as before: up to 60 MiB of them left in L2 (low (128 - 60) / 128); at the
// point y's share of L2 by footprint (60 x 128 / 384 = 20 MiB) but at most its share of L2's kept part
// among the kernel's writes, y and z (24 MiB x 128 / 256 = 12 MiB): (128 - 12) / 128 = 0.90625; none at
// the top.
TEST(TrafficEvaluation, AReadBackPastTheSmsShareOfL2ComesFromDram) {
  const std::string Code = R"(
__global__ void row_write_then_read(const float* x, float* y, float* z, int n) {
  const long long row = (long long)blockIdx.x * (n / gridDim.x);
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) y[row + k] = x[row + k] + 1.0f;
  __syncthreads();
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) z[row + k] = y[row + k];
}
inline constexpr auto row_write_then_read_spec = kernel<row_write_then_read>("row_write_then_read", custom(0, in<0>("x", f32, N), out<1>("y", f32, N), out<2>("z", f32, N)))
    .at(N(1 << 25)).sizes(N(arg<3>)).block(256).grid(128);
)";
  const Prediction P = predict(Code, "row_write_then_read");
  EXPECT_VALUE(P.at("x", "dram"), 1.0);
  EXPECT_RANGE(P.at("y", "dram"), 1 + 68.0 / 128, 1 + 0.90625, 2.0);
}

// The same read back with rows of 128 KiB (N = 2^22, three tensors of 16 MiB, 48 MiB in all, over
// L2's kept part): between writing a granule of y and reading it back its SM requests 256 KiB, within
// its share of L2 (480 KiB) and over its share of the kept part (192 KiB). Lines just written stay
// there (llm.c's fused residual kernel 4 counted 0.527x at DRAM on the H100, 0.5x at the whole L2's
// share, 0.666x at the kept part's): the read back adds nothing at the low end and the point, 1x at
// the top. Against the same kernel that copies x into z instead, whose y is only written.
TEST(TrafficEvaluation, AReadBackWithinTheSmsShareOfL2StaysThereButAtTheTop) {
  const std::string Code = R"(
__global__ void row_write_then_read(const float* x, float* y, float* z, int n) {
  const long long row = (long long)blockIdx.x * (n / gridDim.x);
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) y[row + k] = x[row + k] + 1.0f;
  __syncthreads();
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) z[row + k] = y[row + k];
}
__global__ void row_write_then_copy(const float* x, float* y, float* z, int n) {
  const long long row = (long long)blockIdx.x * (n / gridDim.x);
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) y[row + k] = x[row + k] + 1.0f;
  __syncthreads();
  for (int k = threadIdx.x; k < n / gridDim.x; k += blockDim.x) z[row + k] = x[row + k];
}
#define ROWS(k) kernel<k>(#k, custom(0, in<0>("x", f32, N), out<1>("y", f32, N), out<2>("z", f32, N))) \
    .at(N(1 << 22)).sizes(N(arg<3>)).block(256).grid(128)
inline constexpr auto read_back = ROWS(row_write_then_read);
inline constexpr auto copy = ROWS(row_write_then_copy);
)";
  const Level Back = predict(Code, "row_write_then_read").at("y", "dram");
  const Level Written = predict(Code, "row_write_then_copy").at("y", "dram");
  ASSERT_EQ(Back.K, Kind::Range) << Back.Basis;
  EXPECT_NEAR(Back.Low, Written.Low, 1e-6) << Back.Basis << " | " << Written.Basis;
  EXPECT_NEAR(Back.Ratio, Written.Ratio, 1e-6) << Back.Basis << " | " << Written.Basis;
  EXPECT_NEAR(Back.High, Written.High + 1.0, 1e-6) << Back.Basis << " | " << Written.Basis;
}

// Blocks read their own row of x, of lengths that differ: block b the first (b % 4 + 1) KiFloat of its
// row of 4 KiFloat, 2^12 blocks of 256 threads (x 64 MiB; 40 MiB read, over L2's kept part, 24 MiB).
// The middle block (2048) reads the shortest, 1 KiFloat, its neighbour 2: the footprints translate
// with the block but differ in size, so the spread of the middle one's (4 KiB a block, 16 MiB) is no
// union of theirs (about 40 MiB). No two blocks share a granule: each is read once from DRAM, a value,
// not the range of blocks that share a tensor (which the middle block's spread alone suggested).
TEST(TrafficEvaluation, FootprintsThatTranslateButDifferInSizeAreNotShared) {
  const std::string Code = R"(
__global__ void prefix_rows(const float* x, float* y, int c) {
  const long long row = (long long)blockIdx.x * c;
  const int len = (blockIdx.x % 4 + 1) * (c / 4);
  float s = 0.f;
  for (int k = threadIdx.x; k < len; k += blockDim.x) s += x[row + k];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
inline constexpr struct Th final : dim<"Th", 256> {} Th;
inline constexpr auto prefix_rows_spec = kernel<prefix_rows>("prefix_rows",
    custom(0, in<0>("x", f32, N, M).touches(N * M * 5 / 8), out<1>("y", f32, N, Th)))
    .at(N(1 << 12), M(4096)).sizes(N(grid_dim.x), M(arg<2>)).block(256).grid(N);
)";
  const Level X = predict(Code, "prefix_rows").at("x", "dram");
  EXPECT_EQ(X.K, Kind::Value) << X.Basis;
  // The blocks' mean footprint is the sampled blocks': the SM's first blocks (0, 132, 264, ...) all read
  // the shortest rows, the 64 spread over the grid a mean within about 6% of 2.5 KiFloat.
  EXPECT_NEAR(X.Ratio, 1.0, 0.05) << X.Basis;
  EXPECT_EQ(X.Basis.find("share"), std::string::npos) << X.Basis;
}

// Two tensors a thread walks its row of twice (llm.c's layernorm backward kernel 1 reads its rows of
// dout and inp in two passes, and counted 1.34x of its compulsory bytes at DRAM on the H200, 2026-12-04,
// where each tensor alone fits L2's kept part): R = 2^14 rows of C = 256 floats, a thread per row, 64
// blocks of 256 (one per SM), a and b 16 MiB each. Within a pass a lane's sector serves its next 7 reads
// from L1 (256 lanes x 2 tensors x 32 B = 16 KiB); between a row's two passes the SM reads its 256 rows
// of both, 512 KiB, past its L1 (224 KiB): every second pass reaches L2. There it is under the SM's
// share of L2 (60 MiB / 64 = 960 KiB) and over its share of the kept part (0.4 x 60 MiB / 64 = 384 KiB):
// from each granule once to twice at DRAM, the point at the whole share: 1x, 1x, 2x (row kernels whose
// passes fit the whole share found them in L2: llm.c's layer norms, flash-attention-minimal's Q, a
// warp-per-row softmax, 0.77-1.11x counted on the H100, 2026-12-06 and 12-07). (A wave of either
// tensor alone, 16 MiB, is within the kept part: it was 1x, a value.)
TEST(TrafficEvaluation, TwoTensorsPassesShareTheSmsL2) {
  const std::string Code = R"(
__global__ void two_pass_rows(const float* a, const float* b, float* out, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += a[(long long)r * cols + c] * b[(long long)r * cols + c];
  float t = 0.0f;
  for (int c = 0; c < cols; ++c) t += a[(long long)r * cols + c] - s * b[(long long)r * cols + c];
  out[r] = t;
}
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr auto two_pass_rows_spec = kernel<two_pass_rows>("two_pass_rows", custom(0, in<0>("a", f32, N, C), in<1>("b", f32, N, C), out<2>("out", f32, N)))
    .at(N(1 << 14), C(256)).sizes(N(arg<3>), C(arg<4>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "two_pass_rows");
  EXPECT_RANGE(P.at("a", "dram"), 1.0, 1.0, 2.0);
  EXPECT_RANGE(P.at("b", "dram"), 1.0, 1.0, 2.0);
  // An A100 (108 SMs, 40 MiB of L2, L1 192 KiB; the parts of L1 and L2 that keep a working set not
  // measured): the 64 blocks' SMs share L2 at 640 KiB each, over the 512 KiB between passes: held, the
  // point at each granule once. Its kept part unknown, every granule requested again may come from DRAM:
  // a lane's second sector of each granule in the first pass, both in the second: 3 more, 4x at the top.
  RunOptions A100;
  A100.Gpu = "A100";
  const Prediction Q = predict(Code, "two_pass_rows", A100);
  EXPECT_RANGE(Q.at("a", "dram"), 1.0, 1.0, 4.0);
  EXPECT_NE(Q.at("a", "dram").Basis.find("not measured on this GPU"), std::string::npos) << Q.at("a", "dram").Basis;
}

// x[i * 33], x declared (N,S=33) and touched N times (4N compulsory bytes), N = 2^26. Each lane is 132
// bytes from the next: 32 sectors per request for 4 needed: L1 8x. No two requests share a sector
// (132 * 32 = 4224 bytes per warp, sectors never revisited): L2 8x. Over L2 (the touched sectors span
// 8.25 GiB): each load's 64-byte granule comes from DRAM: 16x. y is written coalesced: 1x everywhere
// but DRAM writes of full sectors, 1x.
TEST(TrafficEvaluation, StridedGatherMovesAGranulePerElementAtDram) {
  const std::string Code = R"(
inline constexpr struct S final : dim<"S", 33> {} S;
__global__ void gather(int n, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(long long)i * 33];
}
inline constexpr auto gather_spec = kernel<gather>("gather", custom(0, in<1>("x", f32, N, S).touches(N), out<2>("y", f32, N)))
    .at(N(1 << 26)).sizes(N(arg<0>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "gather");
  EXPECT_VALUE(P.at("x", "l1"), 8.0);
  EXPECT_VALUE(P.at("x", "l2"), 8.0);
  EXPECT_VALUE(P.at("x", "dram"), 16.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  // y: 256 MiB written, the footprint 4 GiB of x's granules + 256 MiB: up to 60 MiB left in L2, y's
  // share of it 60 * 256 / 4352 MiB.
  EXPECT_RANGE(P.at("y", "dram"), 196.0 / 256, (256 - 60.0 * 256 / 4352) / 256, 1.0);
  const auto *A = P.access(lineOf(Code, "y[i] = x[(long long)i * 33]"));
  ASSERT_NE(A, nullptr);
}

// A gather through an index array, its spec without the launch (the tests append it or not).
const std::string LoadedIndexGather = R"(
__global__ void gather(const int* idx, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]];
}
inline constexpr auto gather_spec = kernel<gather>("gather", custom(0, in<0>("idx", i32, N), in<1>("x", f32, N), out<2>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<3>)))";

// The address depends on loaded data. 'x' has no prediction at any level; 'idx' (read coalesced) and
// 'y' keep theirs.
TEST(TrafficEvaluation, AGatherThroughLoadedIndicesIsNotPredicted) {
  const Prediction P = predict(LoadedIndexGather + ".block(256).grid(ceil_div(N, 256));\n", "gather");
  for (const char *L : {"l1", "l2", "dram"}) EXPECT_EQ(P.at("x", L).K, Kind::NotPredicted) << L;
  EXPECT_VALUE(P.at("idx", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l2"), 1.0);
  // The build log says so, at the spec, with the manifest's reason (the same at every level of 'x').
  const std::vector<DiagRecord> Silent = named(P.Run, "rooflint-not-predicted");
  ASSERT_EQ(Silent.size(), 1u) << P.Run.Output;
  EXPECT_EQ(Silent[0].Message, "kernel 'gather' (N = 1048576): traffic not predicted for 'x' at L1, L2, DRAM: " +
                                   P.at("x", "dram").Basis);
  EXPECT_EQ(P.at("x", "l1").Basis, P.at("x", "dram").Basis);
  EXPECT_TRUE(Silent[0].Notes.empty());
  // 'idx', an i32 tensor the kernel reads whose values the spec does not state, is named as the way out.
  EXPECT_NE(P.at("x", "dram").Basis.find("; a gather through 'idx' is predicted where the spec states its values: "
                                         ".indices(uniform(V)) or .indices(distinct(N))"),
            std::string::npos)
      << P.at("x", "dram").Basis;
}

// The same gather with its launch assumed (no .block, .grid): the launch check cannot count reads whose
// addresses are not evaluated, so it does not blame the launch; 'x' gets the gather's own reason, and
// 'idx' (4 MiB, one thread per index, coalesced) and 'y' keep their 1x at L1.
TEST(TrafficEvaluation, AGatherUnderAnAssumedLaunchGivesTheGathersReason) {
  const Prediction P = predict(LoadedIndexGather + ";\n", "gather");
  for (const char *L : {"l1", "l2", "dram"}) {
    EXPECT_EQ(P.at("x", L).K, Kind::NotPredicted) << L;
    EXPECT_EQ(P.at("x", L).Basis.find("launch"), std::string::npos) << P.at("x", L).Basis;
  }
  EXPECT_NE(P.at("x", "dram").Basis.find("a gather through 'idx'"), std::string::npos) << P.at("x", "dram").Basis;
  EXPECT_VALUE(P.at("idx", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
}

// A scatter, y[idx[i]] = x[i], its launch assumed: the only tensor it writes is addressed through loaded
// indices, so nothing checks that the assumed launch (a thread per element) is the program's; its reads
// alone would pass a launch that does the work twice. Not predicted, asking for the launch; stated, x is
// read once, coalesced: 1x at L1.
TEST(TrafficEvaluation, AScatterUnderAnAssumedLaunchIsNotTakenAsChecked) {
  const std::string Kernel = R"(
__global__ void scatter(const int* idx, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[idx[i]] = x[i];
}
inline constexpr auto scatter_spec = kernel<scatter>("scatter", custom(0, in<0>("idx", i32, N), in<1>("x", f32, N), out<2>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<3>)))";
  const Prediction Assumed = predict(Kernel + ";\n", "scatter");
  for (const char *T : {"idx", "x", "y"}) {
    EXPECT_EQ(Assumed.at(T, "l1").K, Kind::NotPredicted) << T;
    EXPECT_NE(Assumed.at(T, "l1").Basis.find("cannot be checked: every tensor it writes is addressed through values the "
                                             "evaluation does not follow; state the launch with .block(...) and .grid(...)"),
              std::string::npos)
        << Assumed.at(T, "l1").Basis;
  }
  const Prediction Stated = predict(Kernel + ".block(256).grid(ceil_div(N, 256));\n", "scatter");
  EXPECT_VALUE(Stated.at("x", "l1"), 1.0);
}

// A 2-D block of 16 x 16 threads: a warp spans two rows of 16 threads. y[r * N + c] with c from
// threadIdx.x: each warp request covers two 64-byte runs N floats apart: 4 sectors for 4 needed: 1x.
// The transposed store z[c * N + r]: the 16 values of c are N floats apart, and the warp's two values
// of r (2w and 2w + 1: adjacent floats) share a sector: 16 sectors for 128 bytes (4 needed): 4x at L1
// and, stores all reaching L2, 4x at L2.
TEST(TrafficEvaluation, TwoDimensionalBlocksFormWarpsAcrossRows) {
  const std::string Code = R"(
__global__ void rows(const float* x, float* y, float* z, int n) {
  const int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  const float v = x[r * n + c];
  y[r * n + c] = v;
  z[c * n + r] = v;
}
inline constexpr auto rows_spec = kernel<rows>("rows", custom(0, in<0>("x", f32, N, N), out<1>("y", f32, N, N), out<2>("z", f32, N, N)))
    .at(N(1024)).sizes(N(arg<3>)).block(16, 16).grid(ceil_div(N, 16), ceil_div(N, 16));
)";
  const Prediction P = predict(Code, "rows");
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  EXPECT_VALUE(P.at("z", "l1"), 4.0);
  EXPECT_VALUE(P.at("z", "l2"), 4.0);
}

// An assumed launch that does not fit the kernel: one block per row (grid R), 256 threads striding
// the row; the spec states neither, so the analyzer assumes one thread per element of y (R*C / 256
// blocks): blockIdx.x then runs past R and the kernel writes y 64 times over at C = 16384... the
// check refuses the figures and says to state the launch.
TEST(TrafficEvaluation, AnAssumedLaunchThatDoesNotWriteTheOutputOnceIsNotUsed) {
  const std::string Code = R"(
__global__ void scale(const float* x, float* y, int cols) {
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[blockIdx.x * cols + c] = 2 * x[blockIdx.x * cols + c];
}
inline constexpr auto scale_spec = kernel<scale>("scale", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M, N)))
    .at(M(64), N(16384)).sizes(N(arg<2>));
)";
  const Prediction P = predict(Code, "scale");
  const Level L = P.at("y", "l1");
  EXPECT_EQ(L.K, Kind::NotPredicted);
  EXPECT_NE(L.Basis.find("state the launch"), std::string::npos) << L.Basis;
}

namespace {

/// The predictions of the traffic corpus file @p File (its kernels' own specs), after replacing each
/// "From" with its "To" in its text (another size).
std::map<std::string, Level> corpusPredictions(const std::string &File,
                                               const std::vector<std::pair<std::string, std::string>> &Edits = {}) {
  std::ifstream In(std::string(ROOFLINT_TRAFFIC_CORPUS) + "/" + File);
  std::stringstream S;
  S << In.rdbuf();
  std::string Code = S.str();
  for (const auto &[From, To] : Edits)
    for (std::size_t At; (At = Code.find(From)) != std::string::npos;) Code.replace(At, From.size(), To);
  RunOptions O;
  O.CompilerArgs = {"-I" ROOFLINT_TRAFFIC_CORPUS};
  const AnalysisRun R = analyze(Code, File, O);
  EXPECT_TRUE(R.Parsed) << R.Output;
  std::map<std::string, Level> Out;
  for (const KernelRecord &K : R.Results.Kernels)
    for (const auto &P : K.Predicted) Out[K.KernelName + ":" + P.Tensor + ":" + std::string(rooflint::model::name(P.Level))] = {P.K, P.Ratio, P.Low, P.High, P.Basis};
  return Out;
}

}  // namespace

// The three-pass softmax (reread.cu: one block of 256 threads per row, x read in three loops over the
// row, y written once). At R = 65536, C = 512: L1 3x for x (three coalesced passes), 1x for y. A row is
// 2 KiB; 8 blocks per SM keep 16 KiB (512 sectors) between passes, under the 896 sectors of L1's kept
// fraction (224 KiB / 8): the passes hit L1, x 1x at L2; x is 128 MiB, no block shares it and L2 sees
// each sector once: DRAM 1x. At R = 1024, C = 50176 (196 KiB rows, 196 x 256 floats, so requests stay
// aligned): 8 rows per SM are 1.53 MiB, over L1: all three passes reach L2 (3x); a wave of 1024 blocks
// (fewer than 132 x 8) reads 196 MiB between a row's passes, over L2: 3x at DRAM, the point and the top
// (an LRU); no cache keeps more than its 60 MiB of the wave's 392 MiB (x and y), so the two re-reads
// miss for at least 1 - 60/392 of x: 1 + 2 x 0.847 = 2.694x, the low end. y (196 MiB) is
// written once, up to 60 MiB of it left in L2 at the end (its share of the 392 MiB footprint, 30 MiB,
// over L2's kept part, 24 MiB: the point leaves 24 MiB).
TEST(TrafficEvaluation, ThreePassRowsHitL1WhenSmallAndReachDramWhenTheWaveOutgrowsL2) {
  auto Small = corpusPredictions("reread.cu");
  EXPECT_VALUE(Small["softmax_three_pass:x:l1"], 3.0);
  EXPECT_VALUE(Small["softmax_three_pass:y:l1"], 1.0);
  EXPECT_VALUE(Small["softmax_three_pass:x:l2"], 1.0);
  EXPECT_VALUE(Small["softmax_three_pass:x:dram"], 1.0);
  auto Large = corpusPredictions("reread.cu", {{"R(65536), C(512)", "R(1024), C(50176)"}});
  EXPECT_VALUE(Large["softmax_three_pass:x:l1"], 3.0);
  EXPECT_VALUE(Large["softmax_three_pass:x:l2"], 3.0);
  EXPECT_RANGE(Large["softmax_three_pass:x:dram"], 1 + 2 * (1 - 60.0 / 392), 3.0, 3.0);
  EXPECT_RANGE(Large["softmax_three_pass:y:dram"], (196 - 60.0) / 196, (196 - 24.0) / 196, 1.0);
}

// A lane walking its own row (indexing.cu's row_pointer_per_lane with the spec of program.cu: R =
// 65536 rows of C = 1024 floats, 256 threads a block, 256 blocks). Lanes are 4 KiB apart: 32 sectors per
// request for 4 needed, L1 8x. 256 blocks on 132 SMs: at most 2 blocks (16 warps, 512 lanes) per SM, so
// 512 sectors are live, under L1's kept 896: each lane's next 7 iterations hit its sector, x 1x at L2
// (the H200 read 1.00x at L2, docs/measurements/h200-2026-12-01/final/predicted-vs-observed.txt).
TEST(TrafficEvaluation, ALaneWalkingItsRowIsServedByL1) {
  const std::string Code = R"(
__global__ void row_pointer_per_lane(const float* x, float* y, int C) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float* row = x + r * C;
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += row[c];
  y[r] = s;
}
inline constexpr auto row_spec = kernel<row_pointer_per_lane>("row_pointer_per_lane", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M)))
    .at(M(1 << 16), N(1024)).sizes(N(arg<2>)).block(256).grid(ceil_div(M, 256));
)";
  const Prediction R = predict(Code, "row_pointer_per_lane");
  EXPECT_VALUE(R.at("x", "l1"), 8.0);
  EXPECT_VALUE(R.at("x", "l2"), 1.0);
  EXPECT_VALUE(R.at("y", "l2"), 1.0);
  EXPECT_NEAR(R.at("x", "dram").Low, 1.0, 1e-9);
}

// The GEMMs of reuse.cu at N = 512 (A, B, C of 1 MiB each). Naive, 32 x 8 threads a block, one output a
// thread: a warp shares its row of A (one sector per request for 4 bytes: 1x) and reads 32 consecutive
// floats of a row of B (4 sectors). Requests: 512^2 / 32 warps x 512 iterations = 4,194,304 per tensor;
// A: 4,194,304 x 32 bytes = 128 MiB, 128x its 1 MiB; B: 4 sectors each, 512x; C 1x. (The H200's L1 count
// for the kernel: 214x = (128 + 512 + 1) / 3.) Tiled (32 x 32 tiles): each block loads a 4 KiB tile of A
// and of B per step, 16 steps, 256 blocks: 16 MiB each, 16x; C 1x ((16 + 16 + 1) / 3 = 11x measured).
// A, B and C together are 3 MiB, within 0.4 of L2: A and B 1x at DRAM; C's writes 0x to 1x.
TEST(TrafficEvaluation, GemmOperandsAreCountedAtL1AndReadOnceFromDramWithinL2) {
  auto P = corpusPredictions("reuse.cu");
  EXPECT_VALUE(P["reuse_gemm_naive:A:l1"], 128.0);
  EXPECT_VALUE(P["reuse_gemm_naive:B:l1"], 512.0);
  EXPECT_VALUE(P["reuse_gemm_naive:C:l1"], 1.0);
  EXPECT_VALUE(P["reuse_gemm_tiled:A:l1"], 16.0);
  EXPECT_VALUE(P["reuse_gemm_tiled:B:l1"], 16.0);
  for (const std::string K : {"reuse_gemm_naive", "reuse_gemm_tiled"}) {
    EXPECT_VALUE(P[K + ":A:dram"], 1.0);
    EXPECT_VALUE(P[K + ":B:dram"], 1.0);
    const Level C = P[K + ":C:dram"];
    EXPECT_EQ(C.K, Kind::Range) << C.Basis;
    EXPECT_NEAR(C.Low, 0.0, 1e-9);
    EXPECT_NEAR(C.High, 1.0, 1e-9);
  }
}

// The row scale of reuse.cu (R = 65536 rows of C = 4096, a block per row, y = x * g): every block reads
// all of g (16 KiB): L1 65536x its 16 KiB. g's granules are shared by every neighbouring block, with a
// few KiB of L2 traffic between two of them: DRAM 1x. x and y are streamed once: 1x everywhere but y at
// DRAM, of which up to 60 MiB may be left in L2 (1 GiB written), the point at L2's kept part, 24 MiB (under
// y's share of the 2 GiB + 16 KiB footprint, 30 MiB).
TEST(TrafficEvaluation, ATableEveryBlockReadsComesFromDramOnce) {
  auto P = corpusPredictions("reuse.cu");
  EXPECT_VALUE(P["reuse_row_scale:g:l1"], 65536.0);
  EXPECT_VALUE(P["reuse_row_scale:g:dram"], 1.0);
  for (const std::string L : {"l1", "l2", "dram"}) EXPECT_VALUE(P["reuse_row_scale:x:" + L], 1.0);
  for (const std::string L : {"l1", "l2"}) EXPECT_VALUE(P["reuse_row_scale:y:" + L], 1.0);
  EXPECT_RANGE(P["reuse_row_scale:y:dram"], (1024 - 60.0) / 1024, (1024 - 24.0) / 1024, 1.0);
}

// __ldg, as clang lowers it (__nvvm_ldg_f: a load through the read-only path), is a load to the warning
// as to the evaluation: x[2 i], one float in two, 8 sectors for the 4 a warp's 128 bytes need: 2x, warned
// at its line with the figure the manifest gives.
TEST(TrafficEvaluation, AReadOnlyLoadIsWarnedAtItsLineAsAPlainLoadIs) {
  const std::string Code = R"(
inline constexpr struct Two final : dim<"Two", 2> {} Two;
__global__ void strided_ldg(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __nvvm_ldg_f(x + 2 * i);
}
inline constexpr auto spec = kernel<strided_ldg>("strided_ldg", custom(0, in<0>("x", f32, N, Two).touches(N), out<1>("y", f32, N)))
    .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "strided_ldg");
  ASSERT_NE(P.Kernel, nullptr);
  EXPECT_NEAR(P.at("x", "l1").Ratio, 2.0, 2.0 * 1e-3) << P.at("x", "l1").Basis;
  EXPECT_NE(P.Run.Output.find("load through 'x' is not unit-stride in 'threadIdx.x'; stride 2 elements of 4 bytes: a warp "
                              "moves 256 bytes in 8 sectors for 128 bytes used (2x the traffic) [rooflint-uncoalesced]"),
            std::string::npos)
      << P.Run.Output;
}

// The cache-hint loads and stores (__ldcs, __ldcg, __stcs, ...), which clang 19 sees only declared (the
// analyzer's CUDA setup declares them as CUDA's sm_32_intrinsics.h does; CUDA defines them with inline
// PTX that clang's wrapper does not include): each call is the ld.global / st.global CUDA emits for it.
// N = 2^24, 256 threads a block: x[2 i] through __ldcs, one float in two: 8 sectors for 4, 2x at L1; z[i]
// and z[i + 1] through __ldcg (cached in L2 only): 4 + 5 sectors for 4 a warp, 2.25x at L1, and L1
// serves none of them: 2.25x at L2, down to 1.5x: z[i + 1]'s request sends 3 of its 5 sectors (the
// whole ones) with the same bytes as z[i]'s just before, which the way to L2 may merge (3 of 9: 2.25 x
// 6 / 9); y[i] through __stcs, 128 contiguous bytes: 1x.
TEST(TrafficEvaluation, CacheHintLoadsAndStoresAreCountedAsTheirPtx) {
  const std::string Code = R"(
template <class T> __attribute__((device)) T __ldcs(const T *);
template <class T> __attribute__((device)) T __ldcg(const T *);
template <class T> __attribute__((device)) void __stcs(T *, T);
inline constexpr struct Two final : dim<"Two", 2> {} Two;
__global__ void hints(const float* x, const float* z, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(&y[i], __ldcs(&x[2 * i]) + __ldcg(&z[i]) + __ldcg(&z[i + 1]));
}
inline constexpr auto hints_spec = kernel<hints>("hints", custom(0, in<0>("x", f32, N, Two).touches(N), in<1>("z", f32, N), out<2>("y", f32, N)))
    .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "hints");
  EXPECT_VALUE(P.at("x", "l1"), 2.0);
  EXPECT_VALUE(P.at("z", "l1"), 2.25);
  EXPECT_RANGE(P.at("z", "l2"), 1.5, 2.25, 2.25);  // L1 serves none of z's loads, whichever blocks share an SM
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
}

// An int4 stored with __stcs (llm.c's layernorm writes its output so): clang passes the struct by value
// through a pointer to a copy (byval), whose type gives the bytes: 16 a lane, 512 contiguous bytes a
// warp, 16 sectors for 16: 1x at L1 and L2 (it was "not predicted": a call the evaluation did not count).
TEST(TrafficEvaluation, ACacheHintStoreOfAStructIsCountedByItsBytes) {
  const std::string Code = R"(
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
template <class T> __attribute__((device)) void __stcs(T *, T);
inline constexpr struct Four final : dim<"Four", 4> {} Four;
__global__ void store_int4(const int4* x, int4* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(y + i, x[i]);
}
inline constexpr auto store_int4_spec = kernel<store_int4>("store_int4", custom(0, in<0>("x", i32, N, Four), out<1>("y", i32, N, Four)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "store_int4");
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l2"), 1.0);
  const auto *Store = P.access(lineOf(Code, "__stcs(y + i"));
  ASSERT_NE(Store, nullptr);
  EXPECT_TRUE(Store->Store);
  EXPECT_NEAR(Store->SectorsPerRequest, 16.0, 1e-9);
}

// Structs aligned to less than their size, copied whole (cuda-samples' alignedTypes): clang copies an
// 8-byte struct of align 4 as one i64 of align 4 and a 4-byte struct of align 1 as one i32 of align 1;
// NVPTX splits each into loads and stores of their alignment (two ld.u32, four ld.u8), each a request
// of its own. Per warp, 2 requests of 32 lanes 8 bytes apart: 8 sectors each (256 bytes spanned, half
// of each sector used), 16 sectors for 256 bytes, 2x at L1; four of lanes 4 bytes apart: 4 sectors each,
// 16 for 128 bytes, 4x. (They were 1x: one wide access a lane.) The same for the stores.
TEST(TrafficEvaluation, AStructAlignedBelowItsSizeIsMovedInPiecesOfItsAlignment) {
  const std::string Code = R"(
struct la32 { unsigned l, a; };
struct __attribute__((aligned(1))) rgba8 { unsigned char r, g, b, a; };
namespace rooflint::dsl {
template <> struct storage_dtypes<la32> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<rgba8> : storage_dtypes<unsigned char> {};
}  // namespace rooflint::dsl
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr struct Four final : dim<"Four", 4> {} Four;
__global__ void copy_la32(const la32* x, la32* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
__global__ void copy_rgba8(const rgba8* x, rgba8* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
inline constexpr auto copy_la32_spec = kernel<copy_la32>("copy_la32", custom(0, in<0>("x", u32, N, Two), out<1>("y", u32, N, Two)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto copy_rgba8_spec = kernel<copy_rgba8>("copy_rgba8", custom(0, in<0>("x", u8, N, Four), out<1>("y", u8, N, Four)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction Pairs = predict(Code, "copy_la32");
  EXPECT_VALUE(Pairs.at("x", "l1"), 2.0);
  EXPECT_VALUE(Pairs.at("y", "l1"), 2.0);
  const auto *PairLoad = Pairs.access(lineOf(Code, "y[i] = x[i]"));
  ASSERT_NE(PairLoad, nullptr);
  EXPECT_NEAR(PairLoad->SectorsPerRequest, 8.0, 1e-9);
  const Prediction Bytes = predict(Code, "copy_rgba8");
  EXPECT_VALUE(Bytes.at("x", "l1"), 4.0);
  EXPECT_VALUE(Bytes.at("y", "l1"), 4.0);
}

// A 32-byte vector (four doubles, align 32) is one IR load and store, but sm_90's widest global access
// is 16 bytes: NVPTX emits two ld.global.v2.f64 (and two st), each a request of its own (clang 19's
// PTX for this kernel, checked by hand). Per warp, each request's 32 lanes touch 16 bytes of each of 32
// consecutive 32-byte elements: 32 sectors a request, 64 for the warp's 1024 bytes (32 sectors), so 2x
// at L1. At L2 the second request's sectors are in L1 (a cached load), 1x, unless L1 dropped them in
// between: the evaluation runs the other warps of the SM's 8 blocks between a warp's two requests (64
// KiB read), more than the 0.125 of L1 (28 KiB) taken to keep a working set whole, so a range 1x-2x,
// point 1x. (One request of 32 bytes a lane counted 32 sectors a request and 1x at L1.)
TEST(TrafficEvaluation, AnAccessWiderThanSixteenBytesIsTwoRequests) {
  const std::string Code = R"(
typedef double double4v __attribute__((ext_vector_type(4)));
namespace rooflint::dsl {
template <> struct storage_dtypes<double4v> : storage_dtypes<double> {};
}  // namespace rooflint::dsl
inline constexpr struct Four final : dim<"Four", 4> {} Four;
__global__ void scale_double4(const double4v* x, double4v* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.0;
}
inline constexpr auto scale_double4_spec = kernel<scale_double4>("scale_double4", custom(0, in<0>("x", f64, N, Four), out<1>("y", f64, N, Four)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "scale_double4");
  EXPECT_VALUE(P.at("x", "l1"), 2.0);
  EXPECT_VALUE(P.at("y", "l1"), 2.0);
  EXPECT_RANGE(P.at("x", "l2"), 1.0, 1.0, 2.0);
  const auto *Load = P.access(lineOf(Code, "y[i] = x[i]"));
  ASSERT_NE(Load, nullptr);
  EXPECT_NEAR(Load->SectorsPerRequest, 32.0, 1e-9);
}

// atomicInc on a counter of the module (the last-block reduction of cuda-samples' threadFenceReduction
// counts retired blocks so): clang emits llvm.nvvm.atomic.load.inc.32, which the evaluation did not
// know, so every tensor of the kernel was "not predicted" (a call that may touch global memory). It is
// an atomic access, of no tensor: the copy beside it is coalesced, 1x at L1 and L2.
TEST(TrafficEvaluation, AnAtomicIncOfACounterLeavesTheTensorsPredicted) {
  const std::string Code = R"(
__attribute__((device)) unsigned int retired = 0;
__global__ void copy_and_count(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
  if (threadIdx.x == 0) __nvvm_atom_inc_gen_ui(&retired, gridDim.x);  // atomicInc, as CUDA defines it
}
inline constexpr auto copy_and_count_spec = kernel<copy_and_count>("copy_and_count", unary(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 22)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "copy_and_count");
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
  const auto *Count = P.access(lineOf(Code, "__nvvm_atom_inc_gen_ui"));
  ASSERT_NE(Count, nullptr);
  EXPECT_TRUE(Count->Atomic);
}

// A tensor indexed through '/' by a runtime size: y[i] = x[i] + b[i / C], one thread per element, M =
// 32768 rows of N = 1024 (x and y 128 MiB, b 128 KiB). A block's 256 elements lie in one row, so four
// neighbouring blocks read the same b[r]: the middle block and its neighbour read one address; the
// footprint still moves along the grid, a row every four blocks. b's 2048 granules come from DRAM once:
// 1x (it was 1 granule for the whole grid, 0.0005x, when the neighbour's shift of 0 stood for the axis).
// z: the same for atomics, z[i / N] += x[i] from each warp: L2 reads each of z's lines before it
// updates it and writes it back, so its 128 KiB are read and written: up to 2x its compulsory (written)
// bytes, the writes possibly still in L2 at the end. Its atomics are not load or store sectors (L1 and
// L2 0x), and L2's basis says what they are: one lane a warp, 2^25 / 32 = 2^20 requests of one sector,
// 32 MiB over z's 128 KiB: 256x.
TEST(TrafficEvaluation, AFootprintThroughDivisionMovesAlongTheGrid) {
  const std::string Code = R"(
__global__ void row_bias(const float* x, const float* b, float* y, float* z, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N) {
    y[i] = x[i] + b[i / N];
    if (threadIdx.x % 32 == 0) __nvvm_atom_add_gen_f(&z[i / N], x[i]);  // atomicAdd, as CUDA defines it
  }
}
inline constexpr auto row_bias_spec = kernel<row_bias>("row_bias", custom(0, in<0>("x", f32, M, N), in<1>("b", f32, M), out<2>("y", f32, M, N), out<3>("z", f32, M)))
    .at(M(32768), N(1024)).sizes(M(arg<4>), N(arg<5>)).block(256).grid(ceil_div(M * N, 256));
)";
  const Prediction P = predict(Code, "row_bias");
  EXPECT_VALUE(P.at("b", "dram"), 1.0);
  EXPECT_NEAR(P.at("z", "dram").High, 2.0, 0.02);
  EXPECT_VALUE(P.at("z", "l2"), 0.0);
  EXPECT_NE(P.at("z", "l2").Basis.find("not in this figure: its atomics, which L2 performs on 256x its compulsory bytes"),
            std::string::npos)
      << P.at("z", "l2").Basis;
}

// The least L2 traffic of a tensor whose blocks share sectors is each sector it reads once: y[i] = x[i] +
// x[i + 1] reads every sector of x (x holds N + 1 floats; N = 2^24, 256 threads a block), so L2 moves at
// least all of x: the range starts at 1x (it started at 0.5x: 64-byte granules taken as half used). Each
// block's 33 sectors for 32 at most: 1.03x.
TEST(TrafficEvaluation, AtLeastEachSectorReadComesFromL2) {
  const std::string Code = R"(
__global__ void pairs(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + x[i + 1];
}
inline constexpr auto pairs_spec = kernel<pairs>("pairs", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "pairs");
  const Level X = P.at("x", "l2");
  EXPECT_NEAR(X.Low, 1.0, 1e-3) << X.Basis;
  EXPECT_NEAR(X.High, 33.0 / 32, 1e-3) << X.Basis;
}

// A gather y[i] = x[idx[i]] over N = 2^24 elements whose spec states idx uniform over [0, N): a warp's
// 32 lanes pick 32 random elements of 2^21 sectors, all in distinct sectors but for a collision in
// about 32 * 31 / 2 / 2^21 = 0.02% of requests: 32 sectors for 4 useful ones, 8x at L1 (N/32 requests
// of 32 sectors over the N * 4 compulsory bytes). Unstated, the same kernel is not predicted.
TEST(TrafficEvaluation, AGatherThroughStatedUniformIndicesIsEvaluated) {
  const std::string Kernel = R"(
__global__ void gather(float *y, const float *x, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[idx[i]];
}
)";
  const std::string Stated = Kernel + R"(inline constexpr auto spec = kernel<gather>("gather",
    custom(0, out<0>("y", f32, N), in<1>("x", f32, N), in<2>("idx", i32, N).indices(uniform(N))))
    .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Stated, "gather");
  ASSERT_NE(P.Kernel, nullptr);
  const Level X = P.at("x", "l1");
  EXPECT_EQ(X.K, Kind::Value) << X.Basis;
  EXPECT_NEAR(X.Ratio, 8.0, 8.0 * 1e-3) << X.Basis;
  EXPECT_NE(P.Kernel->PredictionNote.find("indices drawn as the spec states: 'idx' uniform over [0, N = 16777216)"),
            std::string::npos)
      << P.Kernel->PredictionNote;
  // The warning at the gather says what the manifest says: 32 sectors for 4 (8x), at the spec's sizes.
  const std::string Warning = "load through 'x' is addressed by the indices the spec states ('idx' uniform over [0, N)): "
                              "at N = 16777216 a warp request touches 32 sectors where its useful bytes need 4 (8x the traffic)";
  EXPECT_NE(P.Run.Output.find(Warning), std::string::npos) << P.Run.Output;
  EXPECT_NE(P.Run.Output.find("'x' moves 8x its compulsory bytes at L1"), std::string::npos) << P.Run.Output;
  EXPECT_EQ(P.Run.Output.find("under 1x at DRAM"), std::string::npos) << P.Run.Output;  // 'x' is only read
  // DRAM: the kernel's footprint (x, idx, y: 192 MiB) is over L2's kept part (0.4 of 60 MiB), and each of
  // x's 2^20 granules of 64 bytes is read by 16 lanes at random times: from once (the low end) to every
  // L2 miss (a granule a lane, 16x). The point: 65536 blocks in ceil(65536 / (132 SMs x 8)) = 63 waves,
  // each drawing 2^24 / 63 granules (16.25 MiB), a union of G (1 - exp(-draws / G)) = 14.35 MiB; a
  // wave's footprint 14.35 + 128 / 63 = 16.39 MiB, x's share of L2's 24 MiB kept part 21.0 MiB, 32.9% of
  // x; DRAM 64 + (63 x 14.35 - 64) x (1 - 0.329) = 628 MiB, 9.82x. (It was 1x: the footprint split
  // evenly over the waves, where random draws overlap across them.)
  const Level Dram = P.at("x", "dram");
  EXPECT_EQ(Dram.K, Kind::Range) << Dram.Basis;
  EXPECT_NEAR(Dram.Low, 1.0, 1e-3) << Dram.Basis;
  EXPECT_NEAR(Dram.Ratio, 9.82, 0.2) << Dram.Basis;
  EXPECT_NEAR(Dram.High, 16.0, 0.1) << Dram.Basis;
  // L2: each request's 32 sectors leave L1, which holds 224 KiB of x's 64 MiB (under 0.4% hits), and
  // the sharers of a sector are lanes drawn at random, not blocks of different SMs reading it in step:
  // no in-step merging, the point within 1% of 8x (it was 7.27x; the H200 counted the corpus's
  // gather_uniform at 3.32x of the kernel's bytes, x's 8x with y and idx at 1x: (7.96 + 2) / 3, 2026-12-05).
  const Level L2 = P.at("x", "l2");
  EXPECT_NEAR(L2.Ratio, 8.0, 0.08) << L2.Basis;
  EXPECT_EQ(L2.Basis.find("in step"), std::string::npos) << L2.Basis;
  std::string Unstated = Stated;
  Unstated.replace(Unstated.find(".indices(uniform(N))"), std::string(".indices(uniform(N))").size(), "");
  const Prediction U = predict(Unstated, "gather");
  EXPECT_EQ(U.at("x", "l1").K, Kind::NotPredicted);
  EXPECT_EQ(U.Run.Output.find("is addressed by the indices"), std::string::npos) << U.Run.Output;
}

// The note under an uncoalesced store names the levels' figures, or says that there are none and why:
// a transpose of 32 x 8 blocks evaluated with the assumed launch (256 threads, one per element of 'out')
// writes 'out' 4/3 times, so nothing is predicted; with its launch stated, the store's sectors are
// counted (32 lanes, 32 rows apart: 32 sectors for 4 used, 8x at L1).
TEST(TrafficEvaluation, ALevelsNoteSaysWhatIsNotPredictedAndWhy) {
  const std::string Kernel = R"(
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[static_cast<long>(x) * rows + (y + j)] = in[static_cast<long>(y + j) * cols + x];
}
inline constexpr auto spec = kernel<transpose>("transpose", custom(0, in<0>("in", f32, N, M), out<1>("out", f32, M, N)))
    .at(N(4096), M(4096)).sizes(N(arg<2>), M(arg<3>)))";
  const Prediction Assumed = predict(Kernel + ";\n", "transpose");
  EXPECT_EQ(Assumed.at("out", "l1").K, Kind::NotPredicted);
  EXPECT_NE(Assumed.Run.Output.find("at N = 4096, M = 4096 the traffic of 'out' is not predicted (the assumed launch"),
            std::string::npos)
      << Assumed.Run.Output;
  EXPECT_EQ(Assumed.Run.Output.find("moves not predicted"), std::string::npos) << Assumed.Run.Output;
  const Prediction Stated = predict(Kernel + ".block(32, 8).grid(ceil_div(M, 32), ceil_div(N, 32));\n", "transpose");
  EXPECT_VALUE(Stated.at("out", "l1"), 8.0);
  EXPECT_NE(Stated.Run.Output.find("at N = 4096, M = 4096 'out' moves 8x its compulsory bytes at L1, "), std::string::npos)
      << Stated.Run.Output;
  // 'out' is 64 MiB written into a 60 MiB L2: part of it may still be there when the kernel ends, so its
  // DRAM range starts under 1x, and the note says why (a reader takes 1x for the least it can move).
  EXPECT_LT(Stated.at("out", "dram").Low, 1.0);
  EXPECT_NE(Stated.Run.Output.find("at DRAM; under 1x at DRAM where its writes are still in L2 when the kernel ends"),
            std::string::npos)
      << Stated.Run.Output;
}

// Distinct indices against uniform ones, where a warp sees the difference: out[i] = table[idx[i] * 8],
// a table of R = 32 rows of 8 floats (one 32-byte sector a row, 1 KiB), N = 2^16 lookups. idx stated
// distinct over [0, R): element e holds a permutation of [0, 32) at e mod 32, so the 32 lanes of every
// warp (32 consecutive elements) read the 32 rows: 32 sectors a request, N / 32 = 2048 requests of
// 32 sectors over the table's 1 KiB: 2048x at L1. Stated uniform over [0, R), 32 draws of 32 rows hit
// 32 * (1 - (31/32)^32) = 20.3 distinct rows on average: about 1300x, well below.
TEST(TrafficEvaluation, DistinctIndicesGiveEveryLaneOfAWarpItsOwnRow) {
  const std::string Kernel = R"(
__global__ void lookup(float *out, const float *table, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[idx[i] * 8];
}
inline constexpr struct R final : dim<"R", 32> {} R;
inline constexpr struct Eight final : dim<"Eight", 8> {} Eight;
)";
  const auto spec = [](const std::string &Values) {
    return R"(inline constexpr auto spec = kernel<lookup>("lookup",
    custom(0, out<0>("out", f32, N), in<1>("table", f32, R, Eight), in<2>("idx", i32, N).indices()" + Values + R"()))
    .at(N(1 << 16)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
)";
  };
  const Prediction Distinct = predict(Kernel + spec("distinct(R)"), "lookup");
  ASSERT_NE(Distinct.Kernel, nullptr);
  const Level D = Distinct.at("table", "l1");
  EXPECT_EQ(D.K, Kind::Value) << D.Basis;
  EXPECT_NEAR(D.Ratio, 2048.0, 2048.0 * 1e-6) << D.Basis;
  EXPECT_NE(Distinct.Kernel->PredictionNote.find("'idx' distinct in [0, R = 32)"), std::string::npos) << Distinct.Kernel->PredictionNote;
  const Level U = predict(Kernel + spec("uniform(R)"), "lookup").at("table", "l1");
  EXPECT_NEAR(U.Ratio, 2048.0 * (1 - std::pow(31.0 / 32, 32)) / 1.0, 2048.0 * 0.05) << U.Basis;
}

// A gather whose footprint is the blocks' random draws: loss[t] = probs[t * V + target[t]], T = 4096
// tokens, V = 50257 (probs 823 MB, touched one float a token: 16 KiB compulsory), targets stated uniform
// over [0, V). Each token reads its own row, so each read is its own 64-byte granule at DRAM: 4096
// granules of 64 bytes over 16 KiB, 16x. The expected union of 4096 draws from the 12.9 million granules
// of probs is 4096 (1 - 4096 / (2 * 12.9e6)), 16x within 0.02%: a value, where a footprint that does
// not translate with the block is otherwise a range from the largest block's (1x) to the blocks' sum.
TEST(TrafficEvaluation, AGatheredFootprintIsTheExpectedUnionOfItsDraws) {
  const Prediction P = predict(R"(
__global__ void pick(float *loss, const float *probs, const int *target, int t, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t) loss[i] = probs[(long long)i * v + target[i]];
}
inline constexpr auto spec = kernel<pick>("pick",
    custom(0, out<0>("loss", f32, N), in<1>("probs", f32, N, M).touches(N), in<2>("target", i32, N).indices(uniform(M))))
    .at(N(4096), M(50257)).sizes(N(arg<3>), M(arg<4>)).block(256).grid(ceil_div(N, 256));
)", "pick");
  ASSERT_NE(P.Kernel, nullptr);
  const Level D = P.at("probs", "dram");
  EXPECT_EQ(D.K, Kind::Value) << D.Basis;
  EXPECT_NEAR(D.Ratio, 16.0, 16.0 * 0.01) << D.Basis;
}

// The same indices read by inline PTX: the statement is kept, but the evaluation follows only plain
// loads, and the note says so instead of claiming the indices were drawn.
TEST(TrafficEvaluation, IndicesReadByInlinePtxAreSaidNotFollowed) {
  const Prediction P = predict(R"(
__global__ void gather_asm(float *y, const float *x, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j;
    asm("ld.global.s32 %0, [%1];" : "=r"(j) : "l"(idx + i));
    y[i] = x[j];
  }
}
inline constexpr auto spec = kernel<gather_asm>("gather_asm",
    custom(0, out<0>("y", f32, N), in<1>("x", f32, N), in<2>("idx", i32, N).indices(uniform(N))))
    .at(N(1 << 20)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
)", "gather_asm");
  ASSERT_NE(P.Kernel, nullptr);
  EXPECT_EQ(P.at("x", "l1").K, Kind::NotPredicted);
  EXPECT_NE(P.Kernel->PredictionNote.find("but not read by a plain load the evaluation follows"), std::string::npos)
      << P.Kernel->PredictionNote;
}

// A causal mask's scores, one thread per (row t, column t2 <= t), T = 256, a block per row, 48 heads:
// 12288 blocks, block b on row t = b mod 256. Its line `v += q[d] * k[d]` (d < 64) issues per warp w of
// row t 64 requests for q (one address: 1 sector) and 64 for k (a lane per row of 3 KiB: a sector per
// active lane, min(32, t + 1 - 32 w) lanes). Over a head: requests 128 * sum_t (t / 32 + 1) = 128 * 1152,
// sectors 64 * (1152 + sum_t (t + 1)) = 64 * (1152 + 32896): 14.78 sectors a request, and qkv's 48 * 64 *
// 34048 sectors over its compulsory 2 * 4 * 256 * 768 floats are 532x at L1 (the H200 counted those
// 104,595,456 sectors on this line, 2026-12-03). The blocks the cache model evaluates (an SM's first,
// the middle, the last) sit mostly on row 0 and gave 11.95 a request and 270x; the grid's mean comes
// from blocks spread over it.
TEST(TrafficEvaluation, WorkThatVariesAlongTheGridIsAveragedOverBlocksSpreadOverIt) {
  const std::string Code = R"(
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct NH final : dim<"NH"> {} NH;
inline constexpr struct Three final : dim<"Three", 3> {} Three;
__global__ void scores(float* preatt, const float* qkv, int b_, int t_, int c_, int nh) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= b_ * nh * t_ * t_) return;
  const int t2 = i % t_, t = i / t_ % t_, h = i / (t_ * t_) % nh, b = i / (nh * t_ * t_);
  const int hs = c_ / nh;
  if (t2 > t) { preatt[i] = -1e30f; return; }
  const float* q = qkv + b * t_ * 3 * c_ + t * 3 * c_ + h * hs;
  const float* k = qkv + b * t_ * 3 * c_ + t2 * 3 * c_ + h * hs + c_;
  float v = 0.f;
  for (int d = 0; d < hs; ++d) v += q[d] * k[d];
  preatt[i] = v;
}
inline constexpr auto spec = kernel<scores>("scores",
    custom(0, out<0>("preatt", f32, B, NH, T, T), in<1>("qkv", f32, B, T, Three, C).touches(2 * B * T * C)))
    .at(B(4), NH(12), T(256), C(768)).sizes(B(arg<2>), T(arg<3>), C(arg<4>), NH(arg<5>)).block(256).grid(ceil_div(B * NH * T * T, 256));
)";
  const Prediction P = predict(Code, "scores");
  ASSERT_NE(P.Kernel, nullptr);
  EXPECT_NE(P.Kernel->PredictionNote.find("of 12288 blocks evaluated"), std::string::npos) << P.Kernel->PredictionNote;
  const auto *Line = P.access(lineOf(Code, "v += q[d] * k[d]"));
  ASSERT_NE(Line, nullptr);
  double Requests = 0, Sectors = 0;
  for (const auto &A : P.Kernel->PredictedAccesses)
    if (A.Line == Line->Line) Requests += A.Requests, Sectors += A.Requests * A.SectorsPerRequest;
  const double Exact = 34048.0 / (2 * 1152);
  EXPECT_NEAR(Sectors / Requests, Exact, 0.05 * Exact) << P.Kernel->PredictionNote;
  const Level L1 = P.at("qkv", "l1");
  EXPECT_LE(L1.Low, 532.0) << L1.Basis;
  EXPECT_GE(L1.High, 532.0) << L1.Basis;
  EXPECT_NEAR(L1.Ratio, 532.0, 0.1 * 532.0) << L1.Basis;

  // With a budget of warp instructions that the first blocks fit in but the spread ones do not (a
  // block of this kernel takes up to 8 warps x 64 iterations of about 8 instructions), fewer blocks
  // are spread over the grid: still a prediction, never "not predicted" for the budget.
  ::setenv("ROOFLINT_EVAL_BUDGET", "60000", 1);
  const Prediction Short = predict(Code, "scores");
  ::unsetenv("ROOFLINT_EVAL_BUDGET");
  ASSERT_NE(Short.Kernel, nullptr);
  const Level ShortL1 = Short.at("qkv", "l1");
  EXPECT_EQ(ShortL1.K, Kind::Range) << ShortL1.Basis;
  const std::string &Note = Short.Kernel->PredictionNote;
  const long Evaluated = std::strtol(Note.c_str(), nullptr, 10);
  EXPECT_GT(Evaluated, 0) << Note;
  EXPECT_LT(Evaluated, 74) << Note;  // 74 with the whole stratum (10 first blocks and 64 spread)
}

// torch.stack([a, b], -1) as one load through a choice of pointers: thread t copies (t odd ? b : a)[t / 2]
// to y[t], N = 2^20 floats each. A warp's request reads 16 consecutive floats of a (64 bytes, 2 sectors)
// and the same 16 of b (2 sectors): each tensor's part of the request is its own, 1x at L1 and L2 for
// both (no sector is read twice). Charged to one tensor, the request made a 2x and left b unpredicted.
TEST(TrafficEvaluation, ALoadThroughAChoiceOfPointersCountsEachTensorItsOwnSectors) {
  const std::string Code = R"(
__global__ void stack2(const float* a, const float* b, float* y, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 2 * n) {
    const float* src = (t & 1) ? b : a;
    y[t] = src[t >> 1];
  }
}
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr auto stack2_spec = kernel<stack2>("stack2", custom(0, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("y", f32, N, Two)))
    .at(N(1 << 20)).sizes(N(arg<3>)).block(256).grid(ceil_div(2 * N, 256));
)";
  const Prediction P = predict(Code, "stack2");
  for (const char *T : {"a", "b"}) {
    SCOPED_TRACE(T);
    EXPECT_VALUE(P.at(T, "l1"), 1.0);
    EXPECT_VALUE(P.at(T, "l2"), 1.0);
  }
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  const auto *Load = P.access(lineOf(Code, "y[t] = src[t >> 1]"));
  ASSERT_NE(Load, nullptr);
  bool Noted = false;
  for (const auto &A : P.Kernel->PredictedAccesses)
    if (A.Line == Load->Line && !A.Store) {
      EXPECT_NEAR(A.SectorsPerRequest, 4.0, 1e-9);  // the instruction's: 2 sectors of each
      Noted |= A.Note.find("its lanes address 'a' and 'b'") != std::string::npos;
    }
  EXPECT_TRUE(Noted);
}

// y[m][c] = x[m][c] + bias[c], M = 8192, C = 3072 floats, 256 threads a block: every row's 12 blocks
// read all of bias (12 KiB), and an SM's resident blocks mostly find its sectors in L1. However the
// blocks' figures extrapolate, each of bias's sectors is requested of L2 at least once: the range at L2
// starts at 1x, never below (it started at 1/96 of it).
TEST(TrafficEvaluation, ATensorReadWholeIsNeverPredictedBelowItsBytesAtL1OrL2) {
  const std::string Code = R"(
inline constexpr struct C final : dim<"C"> {} C;
__global__ void bias_add(const float* x, const float* bias, float* y, int m, int c) {
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (long)m * c) y[i] = x[i] + bias[i % c];
}
inline constexpr auto bias_add_spec = kernel<bias_add>("bias_add", custom(0, in<0>("x", f32, M, C), in<1>("bias", f32, C), out<2>("y", f32, M, C)))
    .at(M(8192), C(3072)).sizes(M(arg<3>), C(arg<4>)).block(256).grid(ceil_div(M * C, 256));
)";
  const Prediction P = predict(Code, "bias_add");
  for (const char *L : {"l1", "l2"}) {
    SCOPED_TRACE(L);
    const Level B = P.at("bias", L);
    ASSERT_NE(B.K, Kind::NotPredicted) << B.Basis;
    EXPECT_GE((B.K == Kind::Range ? B.Low : B.Ratio), 1.0 - 1e-9) << B.Basis;
  }
}

// A pair's two floats stored by two store instructions one after the other, N = 2^20 pairs: each store
// request writes half of each of 8 sectors (4 bytes a lane, 8 apart), the second the other halves: L1
// 2x (16 sectors for 256 bytes). Counted apart, L2 gets 16 sectors a warp, 2x (the range's top); the
// H200 joined such a pair's stores on the way (RoPE: 1.12x for its kernel, 1.62x counted apart), the H100
// a struct's four byte stores (cuda-samples' alignedTypes: 1.06x, 2.5x apart; docs/results.md): the
// point counts them once, 1x.
TEST(TrafficEvaluation, APairsTwoStoresToTheHalvesOfSectorsReachL2Once) {
  const std::string Code = R"(
__global__ void pairs(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];  // loaded once: a load between the stores would part them
    y[2 * i] = v * 2.f;
    y[2 * i + 1] = v * 3.f;
  }
}
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr auto pairs_spec = kernel<pairs>("pairs", custom(0, out<0>("y", f32, N, Two), in<1>("x", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "pairs");
  EXPECT_VALUE(P.at("y", "l1"), 2.0);
  EXPECT_RANGE(P.at("y", "l2"), 1.0, 1.0, 2.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
}

// One store instruction in a loop writes a lane's own row of M = 64 floats, a float an iteration (rows
// 256 bytes apart): each request touches 32 sectors for 128 bytes, 8x at L1, and a lane's next store is
// to the same sector. The H200 did not join a row's stores a loop iteration apart (a causal softmax's,
// 6.35x counted at L2, 6.0x apart, docs/results.md): only stores of two instructions back to back are
// joined, so L2 is 8x, a value. The loop is kept rolled (#pragma unroll 1): unrolled, its copies would
// be two instructions.
TEST(TrafficEvaluation, OneStoreInstructionALoopIterationApartIsNotJoined) {
  const std::string Code = R"(
__global__ void rows(float* y, int n, int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#pragma unroll 1
  for (int k = 0; k < m; ++k) y[(long)i * m + k] = float(k);
}
inline constexpr auto rows_spec = kernel<rows>("rows", custom(0, out<0>("y", f32, N, M)))
    .at(N(1 << 16), M(64)).sizes(N(arg<1>), M(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "rows");
  EXPECT_VALUE(P.at("y", "l1"), 8.0);
  EXPECT_VALUE(P.at("y", "l2"), 8.0);
}

// A lane's own 8 consecutive floats stored one by one, unrolled: 8 store instructions back to back, each
// request touching 32 sectors (a sector a lane) for 4 sectors' bytes: 8x at L1. Each store writes a part
// of the sectors the store before wrote; stores back to back are joined up to 64 sectors in a row, so
// the second joins the first (64) and the other six go apart: 7 sends a sector, 7x at L2, the point of a
// range from all of them joined (1x) to all 8 apart. The H100 counted 6.74x
// (scripts/probes/lane-chunks.sh, 2026-12-07: 14,124,732 write sectors for 2,097,152).
TEST(TrafficEvaluation, StoresBackToBackJoinUpTo64SectorsInARow) {
  const std::string Code = R"(
__global__ void eight_per_lane(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
#pragma unroll
  for (int j = 0; j < 8; ++j) y[i * 8 + j] = v + j;
}
inline constexpr struct E final : dim<"E", 8> {} E;
inline constexpr auto eight_spec = kernel<eight_per_lane>("eight_per_lane", custom(0, in<0>("x", f32, N), out<1>("y", f32, N, E)))
    .at(N(1 << 21)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "eight_per_lane");
  EXPECT_VALUE(P.at("y", "l1"), 8.0);
  EXPECT_RANGE(P.at("y", "l2"), 1.0, 7.0, 8.0);
}

// wmma fragments in global memory, requested as the H200 executes them (scripts/probes/wmma-global.sh):
// an f16 A fragment is four requests of 8 lines x 16 bytes (lane L: elements 2 (L % 4) and the next of
// line L / 4, then the same 8 elements right, then both again on the lines 8 below); an f32 accumulator
// stored row-major four of 8 lines x 32 bytes, column-major eight of 4 lines x 32 bytes. At pitches that
// are multiples of 16 bytes (as wmma requires) but not of 32, every other line starts 16 bytes into a
// sector: x at 4104 halves (8208 bytes) keeps each line's 16 bytes in one sector, 8 a request (4 for its
// 128 bytes); y at 4100 floats (16400 bytes) has four of a request's 8 lines of 32 bytes across two
// sectors: 12 a request (the H200, 2026-12-04: 48 a fragment at this pitch, 32 at 4096); z column-major
// at 16 floats: 4 a request, all used. 256 warps (R = 4096 rows of 16). Each warp's tile of y is 16 of
// its rows' 4100 floats: y touches R * 16 of them.
TEST(TrafficEvaluation, AWmmaFragmentIsTheRequestsTheChipIssuesForIt) {
  const std::string Code = R"(
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct L final : dim<"L", 2052> {} L;
inline constexpr struct P final : dim<"P", 4100> {} P;
inline constexpr struct S final : dim<"S", 16> {} S;
__global__ void fragments(const int* x, float* y, float* z, int rows) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (w * 16 >= rows) return;
  int a[8];
  __hmma_m16n16k16_ld_a(a, x + (long)w * 16 * 2052, 4104, 0);
  float c[8];
  for (int i = 0; i < 8; ++i) c[i] = (float)a[i];
  __hmma_m16n16k16_st_c_f32(y + (long)w * 16 * 4100, c, 4100, 0);
  __hmma_m16n16k16_st_c_f32(z + (long)w * 256, c, 16, 1);
}
inline constexpr auto fragments_spec = kernel<fragments>("fragments",
    custom(0, in<0>("x", i32, R, L), out<1>("y", f32, R, P).touches(R * 16), out<2>("z", f32, R, S)))
    .at(R(4096)).sizes(R(arg<3>)).block(128).grid(R / 64);
)";
  const Prediction P = predict(Code, "fragments");
  ASSERT_NE(P.Kernel, nullptr);
  const auto *Load = P.access(lineOf(Code, "__hmma_m16n16k16_ld_a("));
  const auto *Row = P.access(lineOf(Code, "__hmma_m16n16k16_st_c_f32(y"));
  const auto *Column = P.access(lineOf(Code, "__hmma_m16n16k16_st_c_f32(z"));
  ASSERT_NE(Load, nullptr);
  ASSERT_NE(Row, nullptr);
  ASSERT_NE(Column, nullptr);
  EXPECT_FALSE(Load->Store);
  EXPECT_NEAR(Load->Requests, 4.0 * 256, 1e-9);
  EXPECT_NEAR(Load->SectorsPerRequest, 8.0, 1e-9);
  EXPECT_NEAR(Load->IdealSectorsPerRequest, 4.0, 1e-9);
  EXPECT_TRUE(Row->Store);
  EXPECT_NEAR(Row->Requests, 4.0 * 256, 1e-9);
  EXPECT_NEAR(Row->SectorsPerRequest, 12.0, 1e-9);
  EXPECT_NEAR(Row->IdealSectorsPerRequest, 8.0, 1e-9);
  EXPECT_NEAR(Column->Requests, 8.0 * 256, 1e-9);
  EXPECT_NEAR(Column->SectorsPerRequest, 4.0, 1e-9);
  EXPECT_VALUE(P.at("z", "l1"), 1.0);
  EXPECT_VALUE(P.at("z", "l2"), 1.0);
}

// tf32 fragments (16 x 16 x 8), as the H200 loads them from global memory (wmma-global.sh): A (16 x 8
// floats) four requests of one float a lane, element L % 4 (+ 4) of line L / 4 (+ 8): 8 lines x 16 bytes,
// 8 sectors a request at a pitch of 64 floats, 32 a fragment for its 16 sectors of data, the other half
// of each sector found in L1 by the next request (L2 half of L1); B (8 x 16) element L / 4 (+ 8) of line
// L % 4 (+ 4): 4 lines x 32 bytes, 4 sectors a request, every one whole (L2 as L1). 512 warps, each its
// own A tile (rows 16 w..) and B tile (rows 8 w..).
TEST(TrafficEvaluation, Tf32FragmentsAreTheRequestsTheChipIssuesForThem) {
  const std::string Code = R"(
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct L final : dim<"L", 64> {} L;
inline constexpr struct Two final : dim<"Two", 2> {} Two;
__global__ void tf32_fragments(const int* a, const int* b, float* y, int rows) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (w * 16 >= rows) return;
  int fa[4], fb[4];
  __mma_tf32_m16n16k8_ld_a(fa, a + (long)w * 16 * 64, 64, 0);
  __mma_tf32_m16n16k8_ld_b(fb, b + (long)w * 8 * 64, 64, 0);
  y[blockIdx.x * blockDim.x + threadIdx.x] = (float)(fa[0] + fa[1] + fa[2] + fa[3] + fb[0] + fb[1] + fb[2] + fb[3]);
}
inline constexpr auto tf32_fragments_spec = kernel<tf32_fragments>("tf32_fragments",
    custom(0, in<0>("a", i32, R, L), in<1>("b", i32, R, L), out<2>("y", f32, R, Two)))
    .at(R(8192)).sizes(R(arg<3>)).block(128).grid(R / 64);
)";
  const Prediction P = predict(Code, "tf32_fragments");
  ASSERT_NE(P.Kernel, nullptr);
  const auto *A = P.access(lineOf(Code, "__mma_tf32_m16n16k8_ld_a("));
  const auto *B = P.access(lineOf(Code, "__mma_tf32_m16n16k8_ld_b("));
  ASSERT_NE(A, nullptr);
  ASSERT_NE(B, nullptr);
  EXPECT_NEAR(A->Requests, 4.0 * 512, 1e-9);
  EXPECT_NEAR(A->SectorsPerRequest, 8.0, 1e-9);
  EXPECT_NEAR(A->IdealSectorsPerRequest, 4.0, 1e-9);
  EXPECT_NEAR(B->Requests, 4.0 * 512, 1e-9);
  EXPECT_NEAR(B->SectorsPerRequest, 4.0, 1e-9);
  EXPECT_NEAR(P.at("a", "l2").Ratio / P.at("a", "l1").Ratio, 0.5, 1e-9);
  EXPECT_NEAR(P.at("b", "l2").Ratio / P.at("b", "l1").Ratio, 1.0, 1e-9);
}

// A wmma fragment loaded from shared memory moves nothing through global memory: no access at its line,
// and the kernel's own copy y[i] = x[i] + ... stays 1x at L1 and L2 (each warp request 128 contiguous
// bytes, 4 sectors).
TEST(TrafficEvaluation, AWmmaFragmentFromSharedMemoryIsNoGlobalAccess) {
  const std::string Code = R"(
__global__ void shared_fragment(const float* x, float* y, int n) {
  __shared__ int tile[16 * 16];
  tile[threadIdx.x % 256] = threadIdx.x;
  __syncthreads();
  int a[8];
  __hmma_m16n16k16_ld_a(a, tile, 16, 0);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + (float)a[0];
}
inline constexpr auto shared_fragment_spec = kernel<shared_fragment>("shared_fragment", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "shared_fragment");
  ASSERT_NE(P.Kernel, nullptr);
  EXPECT_EQ(P.access(lineOf(Code, "__hmma_m16n16k16_ld_a(")), nullptr);
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("y", "l1"), 1.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
}

/// A read at a stride of 33 floats (S, static) and a coalesced copy, for specs at sizes of a test's own.
const std::string StridedAndCopy = R"(
inline constexpr struct S final : dim<"S", 33> {} S;
__global__ void strided(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[(long)i * 33];
}
__global__ void copy(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
)";

// rooflint-traffic-bound: a gather of column 0 of x (N, 33) floats, N = 2^26, on the H200's datasheet
// DRAM roof (4.8 TB/s). Each lane's 4 bytes pull a 64-byte granule from DRAM: x 16x its 256 MiB of
// compulsory reads, a value: 4,294,967,296 bytes; y's 256 MiB of writes at least 1 - 60 / 256 = 0.765625x
// (60 MiB may still be in L2 at the end): 205,520,896 bytes. 4,500,488,192 bytes take 0.938 ms at 4.8
// TB/s, over the floor t_min of its 512 MiB of compulsory bytes, 0.112 ms: a remark at the spec. A
// coalesced copy's DRAM traffic is its compulsory bytes: none.
TEST(TrafficEvaluation, TrafficOverTheFloorIsARemarkAtTheSpec) {
  const std::string Code = StridedAndCopy + R"(
inline constexpr auto strided_spec = kernel<strided>("strided", custom(0, in<0>("x", f32, N, S).touches(N), out<1>("y", f32, N)))
    .at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto copy_spec = kernel<copy>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
)";
  const Prediction P = predict(Code, "strided");
  EXPECT_VALUE(P.at("x", "dram"), 16.0);
  const std::string Remark = "remark: kernel 'strided': its predicted DRAM traffic, at least 4.5 GB, takes at least 0.938 ms at "
                             "4.8 TB/s, over its floor t_min 0.112 ms at N = 67108864, S = 33: its DRAM traffic bounds it, not "
                             "its compulsory bytes [rooflint-traffic-bound]";
  EXPECT_NE(P.Run.Output.find(Remark), std::string::npos) << P.Run.Output;
  EXPECT_EQ(P.Run.Output.find("kernel 'copy': its predicted"), std::string::npos) << P.Run.Output;
}

// Kernels evaluated side by side give what one at a time gives: the same manifest, byte for byte, and
// the same diagnostics in the same order. The copy's DRAM figure shows the evaluations ran: a coalesced
// copy reads each of x's bytes once (1x).
TEST(TrafficEvaluation, KernelsEvaluatedAtOnceGiveWhatOneAtATimeGives) {
  const std::string Code = StridedAndCopy + R"(
__global__ void scale(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = 2 * x[i];
}
inline constexpr auto strided_spec = kernel<strided>("strided", custom(0, in<0>("x", f32, N, S).touches(N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto copy_spec = kernel<copy>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto scale_spec = kernel<scale>("scale", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(264);
)";
  RunOptions Alone, AtOnce;
  AtOnce.EvaluationThreads = 3;
  const Prediction One = predict(Code, "copy", Alone), Three = predict(Code, "copy", AtOnce);
  EXPECT_VALUE(One.at("x", "dram"), 1.0);
  EXPECT_EQ(One.Run.Results.Kernels.size(), 3u);
  EXPECT_EQ(manifestText(One), manifestText(Three));
  EXPECT_EQ(One.Run.Output, Three.Run.Output);
}

// A kernel's runs of blocks evaluated at once give what they give one after another, also where the
// budget of warp instructions runs out: in the first blocks (not predicted, the same reason), or in the
// blocks spread over the grid (fewer of them, the same ones). The blocks of a causal mask's rows vary in
// work along x, so the stratum runs; its 78 blocks (14 first ones, 64 spread) fit the default budget.
TEST(TrafficEvaluation, RunsEvaluatedAtOnceStopWhereOneAfterAnotherWould) {
  const std::string Code = CausalRows;
  RunOptions Alone, AtOnce;
  AtOnce.EvaluationThreads = 3;
  for (const std::string Budget : {"", "3000", "6000"}) {
    if (!Budget.empty()) ::setenv("ROOFLINT_EVAL_BUDGET", Budget.c_str(), 1);
    const Prediction One = predict(Code, "causal_rows", Alone), Three = predict(Code, "causal_rows", AtOnce);
    ::unsetenv("ROOFLINT_EVAL_BUDGET");
    ASSERT_NE(One.Kernel, nullptr);
    EXPECT_EQ(manifestText(One), manifestText(Three)) << "budget " << Budget;
    EXPECT_EQ(One.Run.Output, Three.Run.Output) << "budget " << Budget;
    const std::string &Note = One.Kernel->PredictionNote;
    const long Evaluated = std::strtol(Note.c_str(), nullptr, 10);
    if (Budget.empty()) EXPECT_EQ(Evaluated, 78) << Note;
    else if (Budget == "3000") EXPECT_NE(Note.find("budget of warp instructions ran out"), std::string::npos) << Note;
    else EXPECT_TRUE(Evaluated > 14 && Evaluated < 78) << Note;
  }
}

// Inline assembly the evaluation does not count (an asynchronous copy into shared memory) leaves its
// tensor unpredicted, and the reason quotes it as the source wrote it: operands %0 and %1 (LLVM's IR
// holds $0 and $1), on one line where the source split it over two.
TEST(TrafficEvaluation, UncountedInlineAssemblyIsQuotedAsTheSourceWroteIt) {
  const Prediction P = predict(R"(
__global__ void staged(const float* x, float* y, int n) {
  __shared__ float tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n"
               "cp.async.wait_all;" :: "l"(&tile[threadIdx.x]), "l"(x + i));
  __syncthreads();
  y[i] = tile[threadIdx.x];
}
inline constexpr auto spec = kernel<staged>("staged", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
    .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(N / 256);
)", "staged");
  const Level X = P.at("x", "dram");
  EXPECT_EQ(X.K, Kind::NotPredicted);
  EXPECT_NE(X.Basis.find("line 10: inline assembly 'cp.async.ca.shared.global [%0], [%1], 4; cp.async.wait_all;' touches "
                         "it in a way the evaluation does not count"),
            std::string::npos)
      << X.Basis;
  // A literal % is %% in the source (LLVM holds one).
  const Prediction Q = predict(R"(
__global__ void lane_counts(unsigned* counts) {
  asm volatile("red.global.add.u32 [%0], %%laneid;" :: "l"(counts + blockIdx.x));
}
inline constexpr auto spec = kernel<lane_counts>("lane_counts", custom(0, inout<0>("counts", u32, N)))
    .at(N(1024)).block(32).grid(N);
)", "lane_counts");
  EXPECT_NE(Q.at("counts", "l2").Basis.find("inline assembly 'red.global.add.u32 [%0], %%laneid;'"), std::string::npos)
      << Q.at("counts", "l2").Basis;
}

// 32 x 32-tile SGEMMs of one body at N = 2048, 4096 and 3072 (the next two tests).
const std::string TiledGemms32 = R"(
__device__ inline void tiled_body(const float* A, const float* B, float* C, int n) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / 32; ++t) {
    As[ty][tx] = A[row * n + t * 32 + tx];
    Bs[ty][tx] = B[(t * 32 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
__global__ void tiled(const float* A, const float* B, float* C, int n) { tiled_body(A, B, C, n); }
__global__ void tiled_big(const float* A, const float* B, float* C, int n) { tiled_body(A, B, C, n); }
__global__ void tiled_mid(const float* A, const float* B, float* C, int n) { tiled_body(A, B, C, n); }
#define GEMM(k, n) kernel<k>(#k, matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N))) \
    .at(N(n)).sizes(N(arg<3>)).block(32, 32).grid(ceil_div(N, 32), ceil_div(N, 32))
inline constexpr auto at_2048 = GEMM(tiled, 2048);
inline constexpr auto at_4096 = GEMM(tiled_big, 4096);
inline constexpr auto at_3072 = GEMM(tiled_mid, 3072);
)";

// A 32 x 32-tile SGEMM in grouped block order (a 1-D grid; groups of 8 block rows walked column by
// column, as Triton's grouped ordering) at M = N = K = 4096: 16384 blocks, 8 an SM by their 32
// registers, 1056 a wave. Any 1024 consecutive blocks cover all 128 panels of B, so every wave reads
// all of it, and what passes through L2 between two waves' reads of a panel (B's 64 MiB and A's panels)
// is past its 60 MiB: B comes from DRAM about once a wave, 15.5 times by hand. Blocks 1024 apart read
// the same panel, so sampled blocks of different waves share their footprints: the range (each granule
// once .. every block's read, 128x) without a point, where the waves' even shares of the union gave 1x.
TEST(TrafficEvaluation, TilesReadAgainByLaterWavesInAComputedOrderHaveNoPoint) {
  const std::string Code = R"(
__global__ void grouped32(float* C, const float* A, const float* B, int m, int n, int k) {
  __shared__ float As[32][33], Bs[32][33];
  const int grid_m = m / 32, grid_n = n / 32, per_group = 8 * grid_n;
  const int pid = blockIdx.x, first_m = (pid / per_group) * 8;
  const int gm = grid_m - first_m < 8 ? grid_m - first_m : 8;
  const int pm = first_m + (pid % per_group) % gm, pn = (pid % per_group) / gm;
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < k; k0 += 32) {
    for (int r = 0; r < 4; ++r) {
      As[ty + 8 * r][tx] = A[(pm * 32 + ty + 8 * r) * k + k0 + tx];
      Bs[ty + 8 * r][tx] = B[(k0 + ty + 8 * r) * n + pn * 32 + tx];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      for (int r = 0; r < 4; ++r) acc[r] += As[ty + 8 * r][kk] * Bs[kk][tx];
    __syncthreads();
  }
  for (int r = 0; r < 4; ++r) C[(pm * 32 + ty + 8 * r) * n + pn * 32 + tx] = acc[r];
}
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr auto grouped_spec = kernel<grouped32>("grouped32", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
    .at(M(4096), N(4096), K(4096)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(32, 8).grid(M * N / 1024).registers(32);
)";
  const Level B = predict(Code, "grouped32").at("B", "dram");
  EXPECT_EQ(B.K, Kind::Range) << B.Basis;
  EXPECT_FALSE(B.Pointed) << B.Basis;
  EXPECT_NEAR(B.Low, 1.0, 1e-6) << B.Basis;
  EXPECT_NEAR(B.High, 128.0, 1e-6) << B.Basis;
  EXPECT_NE(B.Basis.find("blocks of different waves read the same parts of it"), std::string::npos) << B.Basis;
}

// A 32 x 32-tile SGEMM: the blocks of a column of the grid read the same panel of B, one row of blocks
// apart in launch order, and each finds it in L2 unless what a row of blocks reads and writes in between
// fills L2 (its kept part 0.4 x 60 MiB = 24 MiB on the H200; gone in proportion up to 60 MiB).
// - N = 2048: a row of 64 blocks reads all of B (16 MiB), one panel of A (32 x 2048 x 4 bytes = 256 KiB)
//   and writes a row's share of C (16 MiB / 64 = 256 KiB): 16.5 MiB, within the kept part, so B's DRAM
//   point is 1x, in a range up to every block's read (64x).
// - N = 4096: a row reads B whole, 64 MiB, over L2: each of the 128 rows of blocks reads B from DRAM, 128x
//   (the H100 counted 42.2x for the corpus's kernel of this body at 4096, 2026-12-06: about 125x for B
//   beside A's 1x and C's 1x).
// - N = 3072: B 36 MiB + A's panel 384 KiB + C's share 36 MiB / 96 = 384 KiB = 36.75 MiB, 12.75 MiB over
//   the kept 24 of 60 MiB: gone for 12.75 / 36 = 35.42% of the 95 rows that read it again:
//   1 + 95 x 0.35417 = 34.65x.
// - N = 2048 on an A100 (40 MiB of L2, its kept part not measured): from nothing kept to the whole L2, the
//   row's 16.5 MiB are gone for 16.5 / 40 = 41.25% of the 63 rows that read B again: 1 + 63 x 0.4125 =
//   26.99x, in the same range.
TEST(TrafficEvaluation, ABlockFindsWhatTheRowOfBlocksBeforeReadWhereTheRowFitsL2) {
  const std::string &Code = TiledGemms32;
  const Level B2048 = predict(Code, "tiled").at("B", "dram");
  EXPECT_EQ(B2048.K, Kind::Range) << B2048.Basis;
  EXPECT_NEAR(B2048.Ratio, 1.0, 1e-6) << B2048.Basis;
  EXPECT_NEAR(B2048.Low, 1.0, 1e-6) << B2048.Basis;
  EXPECT_NEAR(B2048.High, 64.0, 1e-6) << B2048.Basis;
  const Level B4096 = predict(Code, "tiled_big").at("B", "dram");
  EXPECT_NEAR(B4096.Ratio, 128.0, 1e-6) << B4096.Basis;
  const Level B3072 = predict(Code, "tiled_mid").at("B", "dram");
  EXPECT_EQ(B3072.K, Kind::Range) << B3072.Basis;
  EXPECT_NEAR(B3072.Ratio, 34.65, 0.02) << B3072.Basis;
  RunOptions A100;
  A100.Gpu = "A100";
  const Level OnA100 = predict(Code, "tiled", A100).at("B", "dram");
  EXPECT_EQ(OnA100.K, Kind::Range) << OnA100.Basis;
  EXPECT_NEAR(OnA100.Ratio, 1 + 63 * 16.5 / 40, 1e-6) << OnA100.Basis;
  EXPECT_NEAR(OnA100.High, 64.0, 1e-6) << OnA100.Basis;
  EXPECT_NE(OnA100.Basis.find("not measured on this GPU"), std::string::npos) << OnA100.Basis;
}

// A register-tiled SGEMM in the image of SGEMM_CUDA's 2-D kernel at N = 4096: a 128 x 128 tile of C a
// block of 256 threads, 8 x 8 outputs a thread, blockIdx.x along the columns. The blocks of a column of
// tiles read the same panel of B, 32 apart in launch order. With 96 registers a thread an SM holds 2
// blocks (3072 registers a warp, 21 warps, 8 a block), a wave 2 x 132 = 264 blocks: 8.25 sharers of a
// panel a wave, in step (at least 4), so each wave reads B once. 1024 blocks: 4 waves, each covering
// whole rows of the grid, so all of B (64 MiB) a wave; what a wave reads (B, 9 panels of A, its C) is
// over the 60 MiB L2, so the next finds none of it: B 4x at DRAM. (The H200 counted 1.72x for
// SGEMM_CUDA's kernels of this shape, 2026-12-07: A 1x, B 4x and C's read and write at 0.88x give
// (64 + 256 + 113) / 256 MiB = 1.69x.) Without .registers the blocks an SM holds are not known (the
// threads would allow 8, one wave, B 1x; the launch distance has each of the 32 rows of blocks read B
// again after the 64 MiB of a row passed through L2, 32x): the range, from each granule once (1x) to
// every L2 miss from DRAM (each of the 32 rows of blocks reads all of B past L1: 32x), has no point, and
// the basis asks for the registers.
const std::string RegisterTiled = R"(
// M x K by K x N (the square kernels: all three n; the probe's long grids: M grows, N stays 4096).
__device__ inline void tile128_rect(const float* A, const float* B, float* C, int m, int n, int kd) {
  __shared__ float As[8][128];
  __shared__ float Bs[8][128];
  const int t = threadIdx.x, tr = t / 16, tc = t % 16;
  const float* a = A + (long)blockIdx.y * 128 * kd;
  const float* b = B + blockIdx.x * 128;
  float acc[8][8] = {};
  for (int k = 0; k < kd; k += 8) {
    for (int i = t; i < 1024; i += 256) {
      As[i % 8][i / 8] = a[(long)(i / 8) * kd + k + i % 8];
      Bs[i / 128][i % 128] = b[(long)(k + i / 128) * n + i % 128];
    }
    __syncthreads();
    for (int kk = 0; kk < 8; ++kk)
      for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) acc[r][c] += As[kk][tr * 8 + r] * Bs[kk][tc * 8 + c];
    __syncthreads();
  }
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) C[((long)blockIdx.y * 128 + tr * 8 + r) * n + blockIdx.x * 128 + tc * 8 + c] = acc[r][c];
}
__global__ void tile128(const float* A, const float* B, float* C, int n) { tile128_rect(A, B, C, n, n, n); }
__global__ void tile128_unstated(const float* A, const float* B, float* C, int n) { tile128_rect(A, B, C, n, n, n); }
__global__ void tile128_long(const float* A, const float* B, float* C, int m, int n, int kd) { tile128_rect(A, B, C, m, n, kd); }
__global__ void tile128_tail(const float* A, const float* B, float* C, int m, int n, int kd) { tile128_rect(A, B, C, m, n, kd); }
__global__ void tile128_light(const float* A, const float* B, float* C, int n) { tile128_rect(A, B, C, n, n, n); }
#define GEMM(k) kernel<k>(#k, matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N))) \
    .at(N(4096)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 128), ceil_div(N, 128))
inline constexpr auto stated = GEMM(tile128).registers(96);
inline constexpr auto unstated = GEMM(tile128_unstated);
inline constexpr auto light = GEMM(tile128_light).registers(40);
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr auto long_grid = kernel<tile128_long>("tile128_long", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N),
    out<2>("C", f32, M, N))).at(M(65536), N(4096), K(4096)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(256)
    .grid(ceil_div(N, 128), ceil_div(M, 128)).registers(96);
inline constexpr auto tail = kernel<tile128_tail>("tile128_tail", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N),
    out<2>("C", f32, M, N))).at(M(3200), N(4096), K(4096)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(256)
    .grid(ceil_div(N, 128), ceil_div(M, 128)).registers(96);
)";

TEST(TrafficEvaluation, BlocksThatShareATileInOneWaveReadItOnceAWave) {
  const Level Stated = predict(RegisterTiled, "tile128").at("B", "dram");
  EXPECT_EQ(Stated.K, Kind::Range) << Stated.Basis;
  EXPECT_NEAR(Stated.Ratio, 4.0, 1e-6) << Stated.Basis;
  EXPECT_NE(Stated.Basis.find("each wave of 264 co-resident blocks (2 blocks per SM (their registers, 96 a thread))"), std::string::npos)
      << Stated.Basis;
  const Level Unstated = predict(RegisterTiled, "tile128_unstated").at("B", "dram");
  EXPECT_EQ(Unstated.K, Kind::Range) << Unstated.Basis;
  EXPECT_FALSE(Unstated.Pointed) << Unstated.Basis;
  EXPECT_NEAR(Unstated.Low, 1.0, 1e-6) << Unstated.Basis;
  EXPECT_NEAR(Unstated.High, 32.0, 1e-6) << Unstated.Basis;
  EXPECT_NE(Unstated.Basis.find("no point estimate"), std::string::npos) << Unstated.Basis;
  // At M = 65536 (N and K 4096, the probe's longest grid) the 32 x 512 grid of 16384 blocks runs in 63
  // waves of 264, 8.25 sharers of a panel of B a wave, past the 16 waves measured in step: the range,
  // each granule once to each of the 512 rows of blocks reading B again (512x), without a point.
  const Level Long = predict(RegisterTiled, "tile128_long").at("B", "dram");
  EXPECT_EQ(Long.K, Kind::Range) << Long.Basis;
  EXPECT_FALSE(Long.Pointed) << Long.Basis;
  EXPECT_NEAR(Long.Low, 1.0, 1e-6) << Long.Basis;
  EXPECT_NEAR(Long.High, 512.0, 1e-6) << Long.Basis;
  EXPECT_NE(Long.Basis.find("here 2 blocks an SM, 63 waves: they may drift apart"), std::string::npos) << Long.Basis;
  // With 40 registers stated an SM holds 6 blocks (65536 / (40 x 256)): 1024 blocks in 1.3 waves of
  // 792, past the 3 blocks an SM measured in step (a 64-tile SGEMM of 6 an SM read B about 30 times
  // where its 5.2 waves give 6): the range without a point, each granule once to each of the 32 rows
  // of blocks reading B again.
  const Level Light = predict(RegisterTiled, "tile128_light").at("B", "dram");
  EXPECT_EQ(Light.K, Kind::Range) << Light.Basis;
  EXPECT_FALSE(Light.Pointed) << Light.Basis;
  EXPECT_NEAR(Light.Low, 1.0, 1e-6) << Light.Basis;
  EXPECT_NEAR(Light.High, 32.0, 1e-6) << Light.Basis;
  EXPECT_NE(Light.Basis.find("here 6 blocks an SM, 2 waves: they may drift apart"), std::string::npos) << Light.Basis;
  // At M = 3200 the 32 x 25 grid of 800 blocks runs in three waves of 264 and a last one of 8, which
  // holds 8 of the 32 panels of B: 3 + 8 / 32 = 3.25 reads of B (each wave's footprint over L2, as at
  // 4096: none of it found), not 4; the range's top: each of the 25 rows of blocks reads all of B.
  EXPECT_RANGE(predict(RegisterTiled, "tile128_tail").at("B", "dram"), 1.0, 3.25, 25.0);
  EXPECT_NE(Unstated.Basis.find("state the registers a thread (.registers(n)"), std::string::npos) << Unstated.Basis;
}

// The 32 x 32-tile GEMM at N = 2048 above (the H200: 132 SMs, two blocks of 1024 threads an SM): each
// block loads its 32 rows of A and 32 columns of B once through L1, 64 tiles of each, and the SM's two
// blocks (0 and 132: tiles (0, 0) and (4, 2)) share none: L2 64x for A, the range's top, down to each
// sector once (1x). The counters see fewer of the misses of sectors many SMs request in step (0.63-0.76
// of them for GEMMs of about one wave, 0.94 at 62 waves, on the H100 and the H200): the point counts the
// first request of each sector (1x) and 1 - 0.35 / sqrt(waves) of the rest, 4096 blocks over 264 at once,
// 15.5 waves: 1 + 63 x 0.9111 = 58.4x (64 x 0.9111 = 58.3x when the first requests merged too; the
// corpus's halo stencils, whose misses are mostly first requests, counted at L2 within 1% of the new
// points, 2-13% over the old: results.md).
TEST(TrafficEvaluation, SharedTilesRequestedInStepAreCountedFewerTimesAtL2) {
  const Prediction P = predict(TiledGemms32, "tiled");
  EXPECT_RANGE(P.at("A", "l2"), 1.0, 1 + 63 * (1 - 0.35 / std::sqrt(4096 / 264.0)), 64.0);
  EXPECT_VALUE(P.at("C", "l2"), 1.0);  // stores: not shared, counted as sent
}

// Dynamic shared memory decides what L1 keeps between a block's two passes over its row (1024 threads a
// block; each pass reads the row once, coalesced: x is 2x at L1 whatever the shared memory).
// - small: rows of 2048 floats (8 KiB) and 4 KiB of dynamic shared memory a block. An SM holds 2 blocks
//   (2048 threads), the smallest carve-out that holds them is 16 KiB, and the 240 KiB of L1 left keep
//   a working set up to 1/8 of it (30 KiB, the measured fraction CacheLevels holds): the SM's two rows,
//   16 KiB, stay between the passes: x is 1x at L2.
// - large: rows of 8192 floats (32 KiB) and 220 KiB a block. An SM holds one, the carve-out is 228 KiB,
//   and the 28 KiB of L1 left are less than the row: an LRU's second pass finds none of it (2x at L2,
//   the top). The row is past L1 by less than twice (W / C = 32 / 28): random replacement would serve
//   h = 0.7609 of the second pass (h = exp(-(1 - h) 32 / 28), by iteration), the point half of that,
//   2 - 0.3804 = 1.6196x; no policy serves more than 28 / 32 of it: the low end 1.125x. (The corpus's
//   copy of this kernel counted 1.45x of the kernel's bytes at L2 on the H100, 2026-12-07: x 1.9x.)
// - unstated: the kernel's extern array makes L2 and DRAM unknown; L1 stays 2x.
TEST(TrafficEvaluation, DynamicSharedMemoryDecidesWhatL1Keeps) {
  const std::string Code = R"(
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct L final : dim<"L"> {} L;
__device__ inline void centre(const float* x, float* y, int n) {
  extern __shared__ float partial[];
  const float* row = x + (long)blockIdx.x * n;
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += row[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  const float mean = partial[(threadIdx.x + 1) % blockDim.x] / n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[(long)blockIdx.x * n + i] = row[i] - mean;
}
__global__ void centre_small(const float* x, float* y, int n) { centre(x, y, n); }
__global__ void centre_large(const float* x, float* y, int n) { centre(x, y, n); }
__global__ void centre_unstated(const float* x, float* y, int n) { centre(x, y, n); }
__global__ void centre_huge(const float* x, float* y, int n) { centre(x, y, n); }
#define ROWS(k, n) kernel<k>(#k, custom(0, in<0>("x", f32, R, L), out<1>("y", f32, R, L))) \
    .at(R(4096), L(n)).sizes(R(grid_dim.x), L(arg<2>)).block(1024).grid(R)
inline constexpr auto small_spec = ROWS(centre_small, 2048).dynamic_shared(4096);
inline constexpr auto large_spec = ROWS(centre_large, 8192).dynamic_shared(220 * 1024);
inline constexpr auto unstated_spec = ROWS(centre_unstated, 2048);
inline constexpr auto huge_spec = ROWS(centre_huge, 2048).dynamic_shared(300000);
)";
  const Prediction Small = predict(Code, "centre_small");
  EXPECT_VALUE(Small.at("x", "l1"), 2.0);
  EXPECT_VALUE(Small.at("x", "l2"), 1.0);
  const Prediction Large = predict(Code, "centre_large");
  EXPECT_VALUE(Large.at("x", "l1"), 2.0);
  EXPECT_RANGE(Large.at("x", "l2"), 1.125, 1.6196, 2.0);
  ASSERT_NE(Large.Kernel, nullptr);
  EXPECT_EQ(Large.Kernel->PredictionLaunchText,
            "grid (4096, 1, 1), block (1024, 1, 1), 225280 bytes of dynamic shared memory a block");  // 220 * 1024
  const Prediction Unstated = predict(Code, "centre_unstated");
  EXPECT_VALUE(Unstated.at("x", "l1"), 2.0);
  for (const char *Level : {"l2", "dram"}) {
    const auto X = Unstated.at("x", Level);
    EXPECT_EQ(X.K, Kind::NotPredicted) << Level << ": " << X.Basis;
    EXPECT_NE(X.Basis.find("the kernel's dynamic shared memory ('partial', extern __shared__) is not stated"), std::string::npos)
        << X.Basis;
  }
  // 300000 bytes a block: more than the H200's 228 KiB carve-out less its 1 KiB reserved gives one block
  // (232448 bytes): no launch runs, nothing is predicted.
  const auto Huge = predict(Code, "centre_huge").at("x", "l1");
  EXPECT_EQ(Huge.K, Kind::NotPredicted) << Huge.Basis;
  EXPECT_NE(Huge.Basis.find("its blocks' shared memory, 0 bytes static and 300000 dynamic, is more than an SM of the H200 "
                            "gives a block (232448 bytes)"),
            std::string::npos)
      << Huge.Basis;
}

// Row sums over rows of 1 << log2n (cuda-samples' fastWalshTransform takes its length so), for the two
// tests below: one spec binding the logarithm with pow2(), one binding it as the size.
const std::string LogRowSums = R"(
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct L final : dim<"L"> {} L;
__global__ void row_sums(const float* x, float* y, int log2n) {
  const int n = 1 << log2n;
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[(long)blockIdx.x * n + i];
  if (threadIdx.x == 0) y[blockIdx.x] = s;
}
)";

// A row length the kernel takes as its logarithm (cuda-samples' fastWalshTransform: `1 << log2N`):
// bound with pow2(arg<2>), the evaluation runs with log2n = 11 for rows of 2048 and follows the loop.
// Each block reads its row once, coalesced (256 lanes over 2048 floats, 8 passes of whole sectors):
// x's L1 and L2 traffic is its bytes, 1x.
TEST(TrafficEvaluation, ALengthGivenAsItsLogarithmIsFollowed) {
  const std::string Code = LogRowSums + R"(
inline constexpr auto spec = kernel<row_sums>("row_sums", custom(0, in<0>("x", f32, R, L), out<1>("y", f32, R)))
    .at(R(4096), L(2048)).sizes(R(grid_dim.x), L(pow2(arg<2>))).block(256).grid(R);
)";
  const Prediction P = predict(Code, "row_sums");
  EXPECT_VALUE(P.at("x", "l1"), 1.0);
  EXPECT_VALUE(P.at("x", "l2"), 1.0);
  EXPECT_EQ(P.Run.Output.find("rooflint-size-binding"), std::string::npos) << P.Run.Output;
}

// The same kernel with the logarithm bound as the size, L(arg<2>): the evaluation gives log2n = 2048, so
// `1 << log2n` shifts a 32-bit int by 2048, undefined in C++ and poison in LLVM; the loop's condition
// cannot be decided. The reason names the shift and pow2(), not data (the kernel reads none to decide).
TEST(TrafficEvaluation, ALogarithmBoundAsTheSizeNamesTheShift) {
  const std::string Code = LogRowSums + R"(
inline constexpr auto spec = kernel<row_sums>("row_sums", custom(0, in<0>("x", f32, R, L), out<1>("y", f32, R)))
    .at(R(4096), L(2048)).sizes(R(grid_dim.x), L(arg<2>)).block(256).grid(R);
)";
  const Prediction P = predict(Code, "row_sums");
  const Level X = P.at("x", "l1");
  EXPECT_EQ(X.K, Kind::NotPredicted) << X.Basis;
  EXPECT_NE(X.Basis.find("depends on a 32-bit value shifted by 'log2n' = 2048, past its width: undefined (a parameter "
                         "that holds a size's base-2 logarithm is bound with N(pow2(arg<I>)))"),
            std::string::npos)
      << X.Basis;
  // And a warning at the spec: the verifier would read 11 from the launch as L.
  EXPECT_NE(P.Run.Output.find("warning: kernel 'row_sums': 'L' is read from parameter 'log2n' (arg<2>), by which the kernel "
                              "shifts a 32-bit value: 2048 at the spec's sizes, past its width, which is undefined; if "
                              "'log2n' holds the base-2 logarithm of 'L', bind it with L(pow2(arg<2>)) [rooflint-size-binding]"),
            std::string::npos)
      << P.Run.Output;
}

// A 5-point stencil through a shared tile of 34 x 10, 32 x 8 threads a block: warp 0 loads the row
// above the tile, warp 7 the row below. The optimizer sinks both arms' load and shared store into one
// block (line 0, its address a phi of the two rows); the merged load is reported at the first arm's
// line, where a load of it is written, and the shared store it sank with is not a global access. W = H
// = 1024: 32 x 128 blocks, 2 halo-row requests a block of 4 sectors each (32 contiguous floats): 8192
// requests; the centre load 8 a block (32768), 4 sectors each too.
TEST(TrafficEvaluation, ALoadMergedFromTwoArmsIsReportedAtAnArmsLine) {
  const std::string Code = R"(
__global__ void halo_rows(float* out, const float* in, int w, int h) {
  __shared__ float t[10][34];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  t[ty + 1][tx + 1] = in[y * w + x];
  if (ty == 0) t[0][tx + 1] = in[((y - 1) & (h - 1)) * w + x];
  if (ty == 7) t[9][tx + 1] = in[((y + 1) & (h - 1)) * w + x];
  __syncthreads();
  out[y * w + x] = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx + 1];
}
inline constexpr auto spec = kernel<halo_rows>("halo_rows", custom(3 * N * M, out<0>("out", f32, M, N), in<1>("in", f32, M, N)))
    .at(N(1024), M(1024)).sizes(N(arg<2>), M(arg<3>)).block(32, 8).grid(ceil_div(N, 32), ceil_div(M, 8));
)";
  const Prediction P = predict(Code, "halo_rows");
  ASSERT_NE(P.Kernel, nullptr);
  const unsigned Above = lineOf(Code, "if (ty == 0)"), Below = lineOf(Code, "if (ty == 7)");
  std::vector<const KernelRecord::PredictedAccess *> Halo;
  for (const auto &A : P.Kernel->PredictedAccesses) {
    EXPECT_EQ(A.Tensor.empty(), false) << "line " << A.Line << ": an access of no tensor (shared memory?)";
    EXPECT_NE(A.Line, 0u);
    if (A.Line == Above || A.Line == Below) Halo.push_back(&A);
  }
  ASSERT_EQ(Halo.size(), 1u) << "the halo rows' merged load at line " << Above << " or " << Below;
  EXPECT_EQ(Halo[0]->Tensor, "in");
  EXPECT_EQ(Halo[0]->Requests, 8192.0);
  EXPECT_EQ(Halo[0]->SectorsPerRequest, 4.0);
  ASSERT_NE(P.access(lineOf(Code, "t[ty + 1][tx + 1] = in")), nullptr);
  EXPECT_EQ(P.access(lineOf(Code, "t[ty + 1][tx + 1] = in"))->Requests, 32768.0);
}

// A gather through a hash of the index, y[i] = x[hash(i) & (NX - 1)]: no index tensor, yet its blocks'
// granules lie scattered over x as random draws (each block's 256 granules span x, no two blocks
// share). N = 2^22 reads of x, NX = 2^26 floats (256 MiB), the spec's compulsory bytes its N touches
// (16 MiB); H200: 132 SMs of 8 blocks (256 threads), 16384 blocks, 16 waves (15.5 rounded up); L2 60
// MiB, its kept part 24 MiB. By hand, the draws' model: 2^22 draws of x's 2^22 granules, union U = 256
// MiB (1 - 1/e) = 161.823 MiB; a wave's draws 256 / 16 = 16 MiB, their union within U 161.823 (1 -
// e^(-16 / 161.823)) = 15.2344 MiB; a wave's footprint with y's 16 MiB over the waves, 16.2344 MiB; the
// share of a wave's granules the kept part holds, 24 x 15.2344 / 16.2344 / 161.823 = 0.139175; the
// point U + (16 x 15.2344 - U) (1 - 0.139175) = 232.349 MiB: 14.5218x of 16 MiB. The range: from the
// compulsory bytes (1x) to a granule every read (16x). L1 and L2: a sector a lane, 8x. Before, the
// point sat at the low end (1x), as for a footprint that repeats from block to block.
TEST(TrafficEvaluation, AHashedGatherIsReadAsRandomDraws) {
  const Prediction P = predict(R"(
inline constexpr struct NX final : dim<"NX"> {} NX;
__device__ unsigned scramble(unsigned h) {
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h;
}
__global__ void hash_gather(float *y, const float *x, int n, int nx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[scramble(i) & (nx - 1)];
}
inline constexpr auto spec = kernel<hash_gather>("hash_gather", custom(0, in<1>("x", f32, NX).touches(N), out<0>("y", f32, N)))
    .at(N(1 << 22), NX(1 << 26)).sizes(N(arg<2>), NX(arg<3>)).block(256).grid(ceil_div(N, 256)).registers(12);
)", "hash_gather");
  ASSERT_NE(P.Kernel, nullptr);
  const Level D = P.at("x", "dram");
  EXPECT_EQ(D.K, Kind::Range) << D.Basis;
  EXPECT_NEAR(D.Low, 1.0, 1e-3) << D.Basis;
  EXPECT_NEAR(D.High, 16.0, 16.0 * 1e-3) << D.Basis;
  EXPECT_NEAR(D.Ratio, 14.5218, 14.5218 * 1e-5) << D.Basis;
  EXPECT_NE(D.Basis.find("scattered over it as random draws"), std::string::npos) << D.Basis;
  EXPECT_VALUE(P.at("x", "l1"), 8.0);
  EXPECT_VALUE(P.at("x", "l2"), 8.0);
}
