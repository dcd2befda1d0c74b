// Binding sizes (spec.bind at launch, spec.at for build-time verdicts) and the user's expectations.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <span>

#include "dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

namespace {
void sgemm(const float*, const float*, float*, int) {}
void fill(float*) {}
void sgemm_flags(const float*, const float*, float*, int*) {}

inline constexpr auto mnk = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K),    // A: (M,K)
                                                          in<1>("B", f32, K, N),    // B: (K,N)
                                                          out<2>("C", f32, M, N)));  // C: (M,N)

inline constexpr struct Four final : dim<"Four", 4> {} Four;  // a static size
inline constexpr auto quads = kernel<fill>("fill", custom(N * Four, out<0>("x", f32, N, Four)));  // x: (N,4)

double size_of(const spec& s, const binding_result& r, std::string_view dim) {
  return r.bound[static_cast<std::size_t>(s.dim_index(name_t(dim)))];
}
}  // namespace

TEST(Bind, GivesEveryDimensionItsSize) {
  const auto r = mnk.bind(M(3), N(5), K(7));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(size_of(mnk, r, "M"), 3);
  EXPECT_DOUBLE_EQ(size_of(mnk, r, "N"), 5);
  EXPECT_DOUBLE_EQ(size_of(mnk, r, "K"), 7);
  EXPECT_DOUBLE_EQ(mnk.flops_at(r.bound), 2.0 * 3 * 5 * 7);
}

TEST(Bind, ReportsTheFirstDimensionWithNoSize) {
  // The spec's dimensions are M, N, K (the FLOP formula's order); K is not given.
  const auto r = mnk.bind(M(3), N(5));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.missing.view(), "K");
  EXPECT_TRUE(r.unknown.empty());
}

TEST(Bind, ReportsADimensionTheSpecDoesNotHave) {
  const auto r = mnk.bind(M(3), N(5), K(7), T(9));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.unknown.view(), "T");
  EXPECT_TRUE(r.missing.empty());
}

TEST(Bind, ANonPositiveSizeIsViolated) {
  EXPECT_EQ(mnk.bind(M(0), N(5), K(7)).violated.view(), "M");
  EXPECT_EQ(mnk.bind(M(3), N(-5), K(7)).violated.view(), "N");
}

// At run time the bindings may come as a list (ROOFLINT_VERIFY_CASE's sizes): the same dimension twice
// there is violated, not "the last wins" (two sizes in one call, M(3), M(4), do not compile).
TEST(Bind, ADimensionGivenTwiceInAListIsViolated) {
  const std::array<size_binding, 4> list{M(3), N(5), M(4), K(7)};
  const auto r = mnk.bind(std::span<const size_binding>(list));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.violated.view(), "M");
}

TEST(Bind, ASizePastTwoToThe53IsViolated) {
  // 2^53 + 1 has no exact double; INT64_MAX would round to 2^63, past every int64.
  EXPECT_TRUE(mnk.bind(M(max_size), N(1), K(1)).ok());
  EXPECT_EQ(mnk.bind(M(max_size + 1), N(1), K(1)).violated.view(), "M");
  EXPECT_EQ(mnk.bind(M(1), N(INT64_MAX), K(1)).violated.view(), "N");
}

TEST(Bind, UsesStaticSizesWithoutBeingTold) {
  const auto r = quads.bind(N(10));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(size_of(quads, r, "Four"), 4);
  EXPECT_DOUBLE_EQ(quads.bytes_at(r.bound), 4.0 * 10 * 4);  // x written: 4 bytes * 10 * 4
}

TEST(Bind, ASizeThatDiffersFromTheStaticSizeIsViolated) {
  EXPECT_EQ(quads.bind(N(10), Four(5)).violated.view(), "Four");
  EXPECT_TRUE(quads.bind(N(10), Four(4)).ok());
}

TEST(At, DeclaresTheSizesOfTheBuildTimeVerdict) {
  constexpr auto declared = mnk.at(M(4096), N(2048), K(1024));
  constexpr auto r = declared.declared();
  static_assert(r.ok());
  // 2 * 4096 * 2048 * 1024 = 17,179,869,184 FLOP.
  EXPECT_DOUBLE_EQ(declared.flops_at(r.bound), 17179869184.0);
  EXPECT_DOUBLE_EQ(declared.dims[static_cast<std::size_t>(declared.dim_index(name_t("N")))].declared_size, 2048);
}

TEST(At, LeavesUndeclaredDimensionsMissing) {
  constexpr auto partial = mnk.at(M(4096));
  EXPECT_EQ(partial.declared().missing.view(), "N");
}

TEST(Expectations, AreStoredInTheSpec) {
  constexpr auto s = mnk.expect(compute_bound).max_traffic_ratio(1.5).min_roofline_fraction(0.6);
  EXPECT_EQ(s.expected.bound, expected_bound::compute);
  EXPECT_DOUBLE_EQ(s.expected.max_traffic_ratio, 1.5);
  EXPECT_DOUBLE_EQ(s.expected.min_roofline_fraction, 0.6);
  EXPECT_EQ(mnk.expected.bound, expected_bound::any);  // builders return copies
}

TEST(Kernel, RecordsNamesArgumentsAndRoles) {
  EXPECT_EQ(mnk.kernel_name.view(), "sgemm");
  EXPECT_EQ(mnk.kernel, &sgemm);
  ASSERT_EQ(mnk.tensor_count, 3);
  EXPECT_EQ(mnk.tensors[0].name.view(), "A");
  EXPECT_EQ(mnk.tensors[1].arg, 1);
  EXPECT_EQ(mnk.tensors[2].access, role::write);
  EXPECT_EQ(mnk.tensors[2].rank, 2);
  // C's shape is (M,N): indices of M and N in the spec's dimension table.
  EXPECT_EQ(mnk.tensors[2].shape[0], mnk.dim_index(name_t("M")));
  EXPECT_EQ(mnk.tensors[2].shape[1], mnk.dim_index(name_t("N")));
}

TEST(Kernel, RecordsUncountedPointersWithoutTraffic) {
  constexpr auto s = kernel<sgemm_flags>(
      "scratch", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)), uncounted<3>("flags"));
  ASSERT_EQ(s.tensor_count, 4);
  EXPECT_EQ(s.tensors[3].access, role::not_counted);
  EXPECT_EQ(s.tensors[3].arg, 3);
  const auto r = s.bind(M(2), N(2), K(2));
  EXPECT_DOUBLE_EQ(s.bytes_at(r.bound), 4.0 * (4 + 4 + 4));
}
