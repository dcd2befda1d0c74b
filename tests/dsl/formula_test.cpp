// Formulas: polynomials over named dimensions printed highest degree first, and ratios with common
// factors cancelled (formula.h).
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

TEST(Formula, ZeroAndConstants) {
  EXPECT_EQ(to_string(poly{}), "0");
  EXPECT_EQ(to_string(poly(3.0)), "3");
  EXPECT_EQ(to_string(N - N), "0");  // terms that cancel are removed
}

TEST(Formula, HighestDegreeFirstWithSignsBetweenTerms) {
  EXPECT_EQ(to_string(M * M * N - 2 * N + 1), "M^2*N - 2*N + 1");
  EXPECT_EQ(to_string(poly{} - N), "-N");
  EXPECT_EQ(to_string(0.5 * N), "0.5*N");
}

TEST(Formula, NonIntegerCoefficientsKeepSixSignificantDigits) {
  EXPECT_EQ(to_string((1.0 * N) / 3.0), "0.333333*N");
  EXPECT_EQ(to_string(1e-7 * N), "1e-07*N");
  EXPECT_EQ(to_string(2.5 * M * N), "2.5*M*N");
}

TEST(Formula, LikeTermsAreCombined) {
  // M*N + N*M is 2*M*N, whatever order the factors were written in.
  EXPECT_EQ(to_string(M * N + N * M), "2*M*N");
}

TEST(Ratio, CancelsTheCommonMonomialAndIntegerFactor) {
  // 6*M*N / 4*M: common factor 2*M leaves 3*N / 2.
  EXPECT_EQ(ratio_to_string(6 * M * N, 4 * M), "3*N/2");
  // 2*N^3 / 12*N^2: common 2*N^2 leaves N / 6.
  EXPECT_EQ(ratio_to_string(2 * N * N * N, 12 * N * N), "N/6");
}

TEST(Ratio, SaysWhenThereAreNoBytes) {
  EXPECT_EQ(ratio_to_string(2 * N, poly{}), "undefined (no bytes)");
  EXPECT_EQ(ratio_to_string(poly{}, 4 * N), "0");
}

namespace {
inline void sizes_kernel(const float*, const float*, float*) {}
inline constexpr auto sizes_spec = kernel<sizes_kernel>("mnk", matmul(in<0>("A", f32, M, K),    // A: (M,K)
                                                                      in<1>("B", f32, K, N),    // B: (K,N)
                                                                      out<2>("C", f32, M, N)));  // C: (M,N)
}  // namespace

TEST(SizesText, ListsEachDimensionInTheSpecsOrderWithItsExactSize) {
  // 2^28 = 268435456 prints whole (no rounding to significant digits, no exponent).
  const auto bound = sizes_spec.bind(M(268435456), N(3), K(512)).bound;
  std::string want;
  for (int d = 0; d < sizes_spec.dim_count; ++d) {
    const std::string name(sizes_spec.dims[d].name.view());
    const std::string size = name == "M" ? "268435456" : name == "N" ? "3" : "512";
    want += (d ? ", " : "") + name + "=" + size;
  }
  EXPECT_EQ(sizes_text(sizes_spec, bound), want);
  EXPECT_NE(sizes_text(sizes_spec, bound, " = ").find("K = 512"), std::string::npos);
}

TEST(SizesText, ListsBindingsAsGiven) {
  const size_binding given[] = {N(268435456), K(512)};
  EXPECT_EQ(sizes_text(given), "N=268435456, K=512");
  EXPECT_EQ(sizes_text(given, " = "), "N = 268435456, K = 512");
}
