// The device-side traffic analysis on the values it evaluates: divisions that trap, bound
// products past 64 bits, symbolic strides of several terms. Each message is worked out by hand.
#include <gtest/gtest.h>

#include "test_harness.h"

using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

std::vector<DiagRecord> uncoalesced(const std::string &Code) {
  const AnalysisRun R = analyze("#include \"cuda_mock.h\"\n" + Code, "values.cu");
  EXPECT_TRUE(R.Parsed) << R.Output;
  return named(R, "rooflint-uncoalesced");
}

}  // namespace

// Lane 0's index is INT64_MIN / -1: undefined, and x86's idiv traps (the analysis died with SIGFPE).
// No lane's address is then known: no warning, and the analysis goes on to the next kernel.
TEST(TrafficValues, DividesTheMostNegativeValueByMinusOneWithoutATrap) {
  const auto W = uncoalesced(R"(
__global__ void min_over_minus_one(const float* x, float* y) {
  const long long t = threadIdx.x;
  y[threadIdx.x] = x[(t + (-9223372036854775807LL - 1)) / (t - 1)];
}
__global__ void after(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x * 2]; }
)");
  ASSERT_EQ(W.size(), 1u);
  // Lanes 8 bytes apart: 32 lanes span 256 bytes, 8 sectors for 128 bytes used (4 sectors): 2x.
  EXPECT_NE(W[0].Message.find("a warp moves 256 bytes in 8 sectors for 128 bytes used (2x the traffic)"), std::string::npos)
      << W[0].Message;
}

// Two fields of a struct loaded from memory (no names in the IR): the stride is a - b elements. Both
// were the symbol "?" and cancelled, so the access looked like a broadcast and was not reported.
// As a runtime value X = a - b: X >= 8 puts each lane in its own sector (32 sectors for 4 used, 8x);
// X == 1 is unit stride (1x).
TEST(TrafficValues, KeepsTwoLoadedValuesApartInAStride) {
  const auto W = uncoalesced(R"(
struct Strides { int a, b; };
__global__ void two_loaded_strides(const float* x, float* y, Strides s) {
  y[blockIdx.x * blockDim.x + threadIdx.x] = x[threadIdx.x * s.a - threadIdx.x * s.b];
}
)");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].Message.find("(32 sectors instead of 4 when '-?1 + ?2' >= 8; 1x when '-?1 + ?2' == 1)"),
            std::string::npos)
      << W[0].Message;
}

// The stride 2*s elements of 4 bytes: 8 bytes per unit of s. Lanes reach a sector each at 32 bytes,
// so from 2*s = 8 (s = 4), and 2*s == 1 is unit stride. The message said "when '2*s' >= 4; 2x when
// '2*s' == 1", the values at s = 4 and s = 1 named as values of 2*s.
TEST(TrafficValues, StatesTheConditionOfASymbolicStrideInTheStrideAsWritten) {
  const auto W = uncoalesced(R"(
__global__ void twice_s(const float* x, float* y, int s) {
  y[blockIdx.x * blockDim.x + threadIdx.x] = x[threadIdx.x * 2 * s];
}
)");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].Message.find("stride '2*s' elements of 4 bytes: a warp moves up to 8x the traffic it uses (32 sectors "
                              "instead of 4 when '2*s' >= 8; 1x when '2*s' == 1)"),
            std::string::npos)
      << W[0].Message;
}

// Guards 3t < 3074457345618258602 and 5t > -1844674407370955161 bound no lane of a warp: all 32 run
// the store, 33 floats apart: a sector each, 32 sectors (1024 bytes) for 128 bytes used, 8x. The lanes'
// span from the two bounds (5 * 3074457345618258601 + ...) overflows 64 bits (UBSan in
// scripts/sanitize.sh reported it); it now bounds nothing.
TEST(TrafficValues, GuardBoundsPastSixtyFourBitsLeaveTheWholeWarp) {
  const auto W = uncoalesced(R"(
__global__ void huge_guards(const float* x, float* y) {
  const long long t = threadIdx.x;
  if (t * 3 < 3074457345618258602LL && t * 5 > -1844674407370955161LL) y[t * 33] = x[t];
}
)");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_NE(W[0].Message.find("a warp moves 1024 bytes in 32 sectors for 128 bytes used (8x the traffic)"), std::string::npos)
      << W[0].Message;
}
