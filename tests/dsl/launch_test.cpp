// Sizes read from a launch (spec.sizes(...) and spec.bind_launch): each source, the scaling, the
// dimensions fixed another way, and what a launch that cannot bind reports.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
void saxpy(int, float, const float*, float*) {}
void copy4(const float*, float*, long long) {}                 // n4 float4s: N = 4 * n4
void rows(const float*, float*, unsigned) {}                   // one block per row: M = gridDim.x
void sgemm(const float*, const float*, float*, int) {}
void pairs(const float*, float*, int) {}                       // n counts half-elements: N = n / 2
void fwt(float*, const float*, int) {}                         // rows of 2^log2N: N = 1 << log2N
void box(const float*, float*, int, int, int) {}               // rows of a box filter of radius r (argument 4)

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
// M rows of N: N = 2^log2N, M = gridDim.x; and N = 4 * 2^log2N (a kernel whose log2N counts float4s).
inline constexpr auto fwt_spec = kernel<fwt>("fwt", elementwise(0, out<0>("y", f32, M, N), in<1>("x", f32, M, N)))
                                     .sizes(M(grid_dim.x), N(pow2(arg<2>)));
inline constexpr auto fwt4_spec = kernel<fwt>("fwt4", elementwise(0, out<0>("y", f32, M, N), in<1>("x", f32, M, N)))
                                      .sizes(M(grid_dim.x), N(4 * pow2(arg<2>)));
// The radius is no tensor's size: a parameter (param<"Rd">) read from argument 4 states its value.
inline constexpr auto box_spec = kernel<box>("box", custom(3 * M * N, in<0>("x", f32, M, N), out<1>("y", f32, M, N)))
                                     .sizes(N(arg<2>), M(arg<3>), Rd(arg<4>))
                                     .at(N(2048), M(1024), Rd(14));

// A kernel of 300 parameters: x, y, then 298 ints (CUDA allows 32764 bytes of parameters). Its
// indices 128 to 299 did not fit the 8 bits the DSL once stored them in: arg<128..255> came out negative
// (and was dropped as no entry), arg<256> as argument 0.
template <std::size_t> using int_parameter = int;
template <class... Ints> void wide(const float*, float*, Ints...) {}
template <std::size_t... I> constexpr auto wide_of(std::index_sequence<I...>) { return &wide<int_parameter<I>...>; }
inline constexpr auto wide300 = wide_of(std::make_index_sequence<298>());
template <int I>
constexpr auto wide_spec = kernel<wide300>("wide", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<I>));

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

TEST(LaunchSizes, AParameterStatesItsArgumentsValue) {
  ASSERT_GE(box_spec.dim_index(name_t("Rd")), 0);
  const launch_size* r = box_spec.launch.find(name_t("Rd"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->source, size_source::argument);
  EXPECT_EQ(r->index, 4);
  const binding_result declared = box_spec.declared();
  ASSERT_TRUE(declared.ok());
  EXPECT_EQ(size_of(box_spec, declared, "Rd"), 14);
  EXPECT_EQ(box_spec.bytes_at(declared.bound), 8.0 * 2048 * 1024);  // x read, y written: the radius moves nothing
  launch_values v = with_arg(2, 512);
  v.args[3] = 256;
  v.has_arg[3] = true;
  v.args[4] = 3;
  v.has_arg[4] = true;
  const auto bound = box_spec.bind_launch(v);
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(size_of(box_spec, bound, "Rd"), 3);
  EXPECT_EQ(box_spec.bytes_at(bound.bound), 8.0 * 512 * 256);
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

TEST(LaunchSizes, KeepEveryArgumentIndexAKernelCanHave) {
  for (const auto& [spec, index] : {std::pair{wide_spec<2>, 2}, {wide_spec<127>, 127}, {wide_spec<128>, 128},
                                    {wide_spec<255>, 255}, {wide_spec<256>, 256}, {wide_spec<299>, 299}}) {
    ASSERT_EQ(spec.launch.size_count, 1) << "arg<" << index << "> was dropped";
    EXPECT_EQ(spec.launch.sizes[0].index, index);
  }
  // A launch provides the first max_launch_args (64) arguments: arg<63> binds; arg<256> is unreadable,
  // never argument 0 (which holds 7 here).
  launch_values v = with_arg(63, 1000);
  v.args[0] = 7;
  v.has_arg[0] = true;
  EXPECT_EQ(size_of(wide_spec<63>, wide_spec<63>.bind_launch(v), "N"), 1000);
  const auto r = wide_spec<256>.bind_launch(v);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.missing.view(), "N");
}

// A tensor's parameter index is as wide: in<200> is parameter 200 (it was stored as 200 - 256 = -56),
// and in<127> an ordinary parameter, not a region's tensor (127 was the region's mark, refused by kernel<>).
template <std::size_t I>
using far_parameter = std::conditional_t<I == 127, const float*, std::conditional_t<I == 200, float*, int>>;
template <class... Ps> void far(Ps...) {}
template <std::size_t... I> constexpr auto far_of(std::index_sequence<I...>) { return &far<far_parameter<I>...>; }
inline constexpr auto far201 = far_of(std::make_index_sequence<201>());

TEST(KernelTensors, KeepEveryParameterIndexAKernelCanHave) {
  constexpr auto s = kernel<far201>("far", elementwise(0, in<127>("x", f32, N), out<200>("y", f32, N))).at(N(8));
  ASSERT_EQ(s.tensor_list().size(), 2u);
  EXPECT_EQ(s.tensor_list()[0].arg, 127);
  EXPECT_EQ(s.tensor_list()[1].arg, 200);
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

TEST(LaunchSizes, ReadAnArgumentThatHoldsASizesLogarithm) {
  launch_values v = with_arg(2, 11);
  v.grid = {32768, 1, 1};
  const auto r = fwt_spec.bind_launch(v);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(size_of(fwt_spec, r, "N"), 2048);  // 2^11
  EXPECT_EQ(size_of(fwt_spec, r, "M"), 32768);
  const auto four = fwt4_spec.bind_launch(v);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(size_of(fwt4_spec, four, "N"), 8192);  // 4 * 2^11
  const launch_size& n = *fwt_spec.launch.find(name_t("N"));
  EXPECT_TRUE(n.power_of_two);
  // The inverse the analyzer evaluates a kernel with: the exponent of a power of two, none otherwise.
  EXPECT_EQ(n.source_value(2048), 11);
  EXPECT_EQ(n.source_value(1), 0);
  EXPECT_EQ(n.source_value(3000), -1);
  EXPECT_EQ(fwt4_spec.launch.find(name_t("N"))->source_value(8192), 11);
  EXPECT_EQ(fwt4_spec.launch.find(name_t("N"))->source_value(2), -1);  // not 4 times a power of two
  EXPECT_EQ(saxpy_spec.launch.sizes[0].source_value(1000), 1000);
  EXPECT_EQ(copy4_spec.launch.sizes[0].source_value(1024), 256);
}

TEST(LaunchSizes, BindTheLargestExponentAndNoProductPast2To62) {
  const launch_size& n = *fwt_spec.launch.find(name_t("N"));
  EXPECT_EQ(n.size_from(62), std::int64_t{1} << 62);
  EXPECT_EQ(fwt4_spec.launch.find(name_t("N"))->size_from(62), 0);  // 4 * 2^62 does not fit
  EXPECT_EQ(fwt4_spec.launch.find(name_t("N"))->size_from(60), std::int64_t{1} << 62);
  EXPECT_EQ(copy4_spec.launch.sizes[0].size_from(std::int64_t{1} << 61), 0);      // 4 * 2^61 is past 2^62
  EXPECT_EQ(copy4_spec.launch.sizes[0].size_from(-(std::int64_t{1} << 62)), 0);  // negative: no size, no overflow
}

// Why a value gives no size, one case each (the runtime words its message from it): halves is
// N(arg<2> / 2), copy4 N(4 * arg<2>), fwt N(pow2(arg<2>)).
TEST(LaunchSizes, SayWhyAValueGivesNoSize) {
  using refusal = launch_size::refusal;
  const launch_size& halves = halves_spec.launch.sizes[0];
  const launch_size& copy4 = copy4_spec.launch.sizes[0];
  const launch_size& fwt = *fwt_spec.launch.find(name_t("N"));
  EXPECT_EQ(halves.read(302).size, 151);
  EXPECT_EQ(halves.read(302).refused, refusal::none);
  EXPECT_EQ(halves.read(301).refused, refusal::not_whole);
  EXPECT_EQ(halves.read(0).refused, refusal::not_positive);
  EXPECT_EQ(copy4.read(-3).refused, refusal::not_positive);
  EXPECT_EQ(copy4.read(std::int64_t{1} << 61).refused, refusal::past_limit);  // 4 * 2^61 = 2^63
  EXPECT_EQ(copy4.read(std::int64_t{1} << 60).size, std::int64_t{1} << 62);
  EXPECT_EQ(fwt.read(63).refused, refusal::exponent_out_of_range);
  EXPECT_EQ(fwt.read(-1).refused, refusal::exponent_out_of_range);
  EXPECT_EQ(fwt.read(11).size, 2048);
  static_assert(launch_size{.multiplier = 3, .divisor = 2}.read(5).refused == launch_size::refusal::not_whole);  // 15 / 2
}

// .dynamic_shared(): the bytes a block is launched with, a polynomial of the spec's dimensions kept as
// data (a row of N floats a block: 4 * N bytes, 16384 at N = 4096); unstated, 0 and not stated.
TEST(LaunchShape, RecordTheDynamicSharedMemory) {
  constexpr auto staged = rows_spec.block(256).dynamic_shared(4 * N);
  static_assert(staged.shape.shared_stated && !rows_spec.shape.shared_stated);
  EXPECT_EQ(staged.shape.shared.divisor, 1);
  std::array<double, max_dims> at{};
  at[static_cast<std::size_t>(staged.dim_index(name_t("N")))] = 4096;
  EXPECT_DOUBLE_EQ(staged.shape.shared.numerator.evaluate(at), 16384.0);
  EXPECT_DOUBLE_EQ(rows_spec.shape.shared.numerator.evaluate(at), 0.0);
  constexpr auto fixed = rows_spec.dynamic_shared(49152);
  EXPECT_DOUBLE_EQ(fixed.shape.shared.numerator.evaluate(at), 49152.0);
}

// .registers(): the registers ptxas allocates a thread, kept as stated; unstated, 0.
TEST(LaunchShape, RecordTheRegistersAThread) {
  constexpr auto tiled = rows_spec.block(256).registers(96);
  static_assert(tiled.shape.registers == 96 && rows_spec.shape.registers == 0);
  EXPECT_EQ(tiled.shape.registers, 96);
}

TEST(LaunchSizes, ReportAnExponentOutOfRange) {
  for (const std::int64_t exponent : {-1, 63, 1000}) {
    launch_values v = with_arg(2, exponent);
    v.grid = {4, 1, 1};
    const auto r = fwt_spec.bind_launch(v);
    EXPECT_FALSE(r.ok()) << exponent;
    EXPECT_EQ(r.violated.view(), "N") << exponent;
  }
}

// Compile-time: the checks sizes() makes, as requires-expressions (the messages are in tests/dsl/fail).
// check_size_source is a require()-based check: it is a constant expression when the source is readable.
static_assert((detail::check_size_source<saxpy, argument_source<0>>(), true));
static_assert(detail::dims_distinct<dim<"M">, dim<"N">>());
static_assert(!detail::dims_distinct<dim<"M">, dim<"N">, dim<"M">>());  // M twice
static_assert(LaunchSize<decltype(N(arg<0>))>);
static_assert(!LaunchSize<decltype(N(4))>);                         // a fixed size is .at()'s
static_assert(!LaunchSource<int>);
