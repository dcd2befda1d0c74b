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
