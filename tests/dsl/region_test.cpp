// Regions (region.h): a spec over several kernels or a library call. The counts are the operation's,
// computed by hand below; the kernels, the sites of the launch sizes and the launches a run makes are
// data of the spec.
#include <gtest/gtest.h>

#include "dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
void row_max(const float*, float*, int) {}
void row_sum(const float*, const float*, float*, int) {}
void normalise(const float*, const float*, const float*, float*, int) {}
// Split attention: S = Q K^T, P = softmax(S), O = P V, three kernels (grid: one block per (b, h) pair).
void scores(const __half*, const __half*, float*, int, int) {}
void probabilities(float*, int) {}
void weighted(const float*, const __half*, __half*, int, int) {}

inline constexpr auto softmax_3pass =
    region<row_max, row_sum, normalise>("softmax_3pass", softmax(in("x", f32, M, N), out("y", f32, M, N)))
        .at(M(65536), N(4096))
        .sizes<0>(M(grid_dim.x), N(arg<2>))
        .expect(memory_bound);

inline constexpr auto attention_split =
    region<scores, probabilities, weighted>(
        "attention_split", attention(in("Q", f16, B, Nh, Sq, Dh), in("K", f16, B, Nh, Sk, Dh),
                                     in("V", f16, B, Nh, Sk, Dh), out("O", f16, B, Nh, Sq, Dh)))
        .at(B(4), Nh(16), Dh(64))
        .sizes<2>(Sq(arg<3>), Sk(arg<4>));

inline constexpr auto sgemm_cublas =
    region<library_kernel<"gemm">>("sgemm_cublas", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096))
        .expect(compute_bound);

launch_values with_arg(int index, std::int64_t value, launch_values v = {}) {
  v.args[static_cast<std::size_t>(index)] = value;
  v.has_arg[static_cast<std::size_t>(index)] = true;
  return v;
}
}  // namespace

TEST(Region, CountsTheOperationNotTheScratch) {
  // softmax over (M,N) f32: x read once, y written once; the row max and sum between the passes are not
  // compulsory. At M = 65536, N = 4096: 4*65536*4096 = 1,073,741,824 bytes each way.
  const sizes s = softmax_3pass.declared().bound;
  EXPECT_EQ(softmax_3pass.read_bytes_at(s), 1073741824.0);
  EXPECT_EQ(softmax_3pass.written_bytes_at(s), 1073741824.0);
  EXPECT_EQ(softmax_3pass.flops_at(s), 0.0);  // torch.utils.flop_counter: softmax is 0 FLOP
  for (const tensor_info& t : softmax_3pass.tensor_list()) EXPECT_EQ(t.arg, -1) << t.name.view();
}

TEST(Region, NamesItsKernelsInLaunchOrder) {
  EXPECT_EQ(softmax_3pass.region.kernel_count, 3);
  EXPECT_EQ(softmax_3pass.launches(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(softmax_3pass.region.kernels[i].match, kernel_match::function);
  EXPECT_EQ(sgemm_cublas.launches(), 1);
  EXPECT_EQ(sgemm_cublas.region.kernels[0].match, kernel_match::library);
  EXPECT_EQ(sgemm_cublas.region.kernels[0].pattern.view(), "gemm");
  EXPECT_EQ(sgemm_cublas.launch.kind, binding_kind::none);  // no .sizes: verified by the harness only
  // A kernel's spec is one launch.
  constexpr auto one = kernel<row_max>("row_max", reduction(in<0>("x", f32, M, N), out<1>("m", f32, M)));
  EXPECT_FALSE(one.region.is_region());
  EXPECT_EQ(one.launches(), 1);
}

TEST(Region, ReadsSizesAtItsSite) {
  ASSERT_EQ(softmax_3pass.launch.kind, binding_kind::region);
  const launch_size* n = softmax_3pass.launch.find(name_t("N"));
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->site, 0);
  EXPECT_EQ(n->index, 2);
  launch_values v = with_arg(2, 1000);
  v.grid = {300, 1, 1};
  const binding_result r = softmax_3pass.bind_launch(v);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.bound[0], 300);
  EXPECT_EQ(r.bound[1], 1000);
  // The attention region reads the sequence lengths at its third kernel (site 2).
  EXPECT_EQ(attention_split.launch.find(name_t("Sq"))->site, 2);
  EXPECT_EQ(attention_split.launch.find(name_t("Sk"))->index, 4);
}

TEST(Region, AttentionAsOneRegion) {
  // B = 4, Nh = 16, Sq = Sk = 1024, Dh = 64, f16 (2 bytes): Q, K, V read and O written once each:
  // 4 tensors of 4*16*1024*64 = 4,194,304 elements = 8,388,608 bytes; reads 3 * 8,388,608 = 25,165,824.
  // FLOPs 4*B*Nh*Sq*Sk*Dh = 4*4*16*1024*1024*64 = 17,179,869,184 (torch sdpa_flop_count).
  const binding_result r = attention_split.bind_launch(with_arg(4, 1024, with_arg(3, 1024)));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(attention_split.read_bytes_at(r.bound), 25165824.0);
  EXPECT_EQ(attention_split.written_bytes_at(r.bound), 8388608.0);
  EXPECT_EQ(attention_split.flops_at(r.bound), 17179869184.0);
  EXPECT_EQ(attention_split.mode, rooflint::model::math_mode::fp16_tensor);
}

TEST(Region, LibraryCallCountsLikeItsKernel) {
  // cuBLAS SGEMM at 4096: 2*4096^3 = 137,438,953,472 FLOP over 12*4096^2 = 201,326,592 bytes, as the
  // stub-kernel spec of examples/sgemm counted it.
  const sizes s = sgemm_cublas.declared().bound;
  EXPECT_EQ(sgemm_cublas.flops_at(s), 137438953472.0);
  EXPECT_EQ(sgemm_cublas.bytes_at(s), 201326592.0);
  EXPECT_EQ(sgemm_cublas.expected.bound, expected_bound::compute);
}
