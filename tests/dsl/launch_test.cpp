// Sizes read from a launch (spec.sizes(...) and spec.bind_launch): each source, the scaling, the
// dimensions fixed another way, and what a launch that cannot bind reports.
#include <gtest/gtest.h>

#include "dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
void saxpy(int, float, const float*, float*) {}
void copy4(const float*, float*, long long) {}                 // n4 float4s: N = 4 * n4
void rows(const float*, float*, unsigned) {}                   // one block per row: M = gridDim.x
void sgemm(const float*, const float*, float*, int) {}
void pairs(const float*, float*, int) {}                       // n counts half-elements: N = n / 2

inline constexpr auto saxpy_spec =
    kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N), inout<3>("y", f32, N))).sizes(N(arg<0>));
inline constexpr auto copy4_spec =
    kernel<copy4>("copy4", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(4 * arg<2>));
inline constexpr auto rows_spec =
    kernel<rows>("rows", softmax(in<0>("x", f32, M, N), out<1>("y", f32, M, N))).sizes(M(grid_dim.x), N(arg<2>));
// K fixed by .at() (a kernel compiled for one depth); M and N read from the grid (16x16 tiles).
inline constexpr auto tiled_spec = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N),
                                                                 out<2>("C", f32, M, N)))
                                       .at(K(512))
                                       .sizes(M(grid_dim.y * 16), N(grid_dim.x * 16));
inline constexpr auto halves_spec =
    kernel<pairs>("pairs", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2> / 2));

launch_values with_arg(int index, std::int64_t value) {
  launch_values v;
  v.args[static_cast<std::size_t>(index)] = value;
  v.has_arg[static_cast<std::size_t>(index)] = true;
  return v;
}

double size_of(const spec& s, const binding_result& r, std::string_view dim) {
  return r.bound[static_cast<std::size_t>(s.dim_index(name_t(dim)))];
}
}  // namespace

TEST(LaunchSizes, RecordEachReadingAsData) {
  ASSERT_EQ(saxpy_spec.launch.kind, binding_kind::kernel);
  ASSERT_EQ(saxpy_spec.launch.size_count, 1);
  const launch_size& n = saxpy_spec.launch.sizes[0];
  EXPECT_EQ(n.dim.view(), "N");
  EXPECT_EQ(n.source, size_source::argument);
  EXPECT_EQ(n.index, 0);
  EXPECT_EQ(n.multiplier, 1);
  EXPECT_EQ(n.divisor, 1);
  const launch_size* m = rows_spec.launch.find(name_t("M"));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->source, size_source::grid_dim);
  EXPECT_EQ(m->index, 0);  // x
  EXPECT_EQ(tiled_spec.launch.find(name_t("M"))->index, 1);  // y
  EXPECT_EQ(tiled_spec.launch.find(name_t("K")), nullptr);   // fixed by .at()
  EXPECT_EQ(kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N), inout<3>("y", f32, N))).at(N(8)).launch.kind,
            binding_kind::none);
}

TEST(LaunchSizes, ReadAScalarArgument) {
  const auto r = saxpy_spec.bind_launch(with_arg(0, 1000));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(size_of(saxpy_spec, r, "N"), 1000);
  EXPECT_EQ(saxpy_spec.bytes_at(r.bound), 12.0 * 1000);  // x read, y read and written: 3 x 4 bytes
}

TEST(LaunchSizes, ScaleAnArgumentByAConstant) {
  const auto r = copy4_spec.bind_launch(with_arg(2, 256));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(size_of(copy4_spec, r, "N"), 1024);  // 4 * 256
  const auto h = halves_spec.bind_launch(with_arg(2, 300));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(size_of(halves_spec, h, "N"), 150);  // 300 / 2
}

TEST(LaunchSizes, ReadGridDimensionsAndKeepAtSizes) {
  launch_values v = with_arg(2, 4096);
  v.grid = {8, 4, 1};
  const auto r = rows_spec.bind_launch(v);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(size_of(rows_spec, r, "M"), 8);
  EXPECT_EQ(size_of(rows_spec, r, "N"), 4096);
  const auto t = tiled_spec.bind_launch(v);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(size_of(tiled_spec, t, "M"), 64);   // 4 * 16
  EXPECT_EQ(size_of(tiled_spec, t, "N"), 128);  // 8 * 16
  EXPECT_EQ(size_of(tiled_spec, t, "K"), 512);
  EXPECT_EQ(tiled_spec.flops_at(t.bound), 2.0 * 64 * 128 * 512);
}

TEST(LaunchSizes, ReportAnArgumentTheLaunchDidNotProvide) {
  const auto r = saxpy_spec.bind_launch(with_arg(1, 1000));  // argument 0 unreadable
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.missing.view(), "N");
}

TEST(LaunchSizes, ReportASizeThatIsNotPositiveOrNotExact) {
  const auto zero = saxpy_spec.bind_launch(with_arg(0, 0));
  EXPECT_FALSE(zero.ok());
  EXPECT_EQ(zero.violated.view(), "N");
  EXPECT_TRUE(zero.missing.empty());  // it did not bind, which is the one problem reported
  const auto odd = halves_spec.bind_launch(with_arg(2, 301));  // 301 / 2 is no whole size
  EXPECT_FALSE(odd.ok());
  EXPECT_EQ(odd.violated.view(), "N");
  const auto negative = saxpy_spec.bind_launch(with_arg(0, -5));
  EXPECT_EQ(negative.violated.view(), "N");
}

// Compile-time: the checks sizes() makes, as requires-expressions (the messages are in tests/dsl/fail).
// check_size_source is a require()-based check: it is a constant expression when the source is readable.
static_assert((detail::check_size_source<saxpy, argument_source<0>>(), true));
static_assert(detail::dims_distinct<dim<"M">, dim<"N">>());
static_assert(!detail::dims_distinct<dim<"M">, dim<"N">, dim<"M">>());  // M twice
static_assert(LaunchSize<decltype(N(arg<0>))>);
static_assert(!LaunchSize<decltype(N(4))>);                         // a fixed size is .at()'s
static_assert(!LaunchSource<int>);
