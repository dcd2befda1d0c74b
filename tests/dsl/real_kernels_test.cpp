// What real kernels do (issue 16): extra counted outputs of normalisations and reductions, sizes that
// are min, max or ceil-division of others, mixed precision stated once. Every expected byte count is
// counted by hand in the comment above it.
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

// ---------------------------------------------------------------------------------------------
// Extra counted outputs: operation::with()
namespace {
// llm.c's layernorm_forward: out, mean, rstd, inp, weight, bias (B,T,C).
void layernorm_forward(float*, float*, float*, const float*, const float*, const float*, int, int, int) {}
// A softmax that also writes each row's max and sum (the statistics its backward pass reads).
void softmax_stats(const float*, float*, float*, float*, int) {}
// A row max that also writes the index of the max (argmax).
void row_argmax(const float*, float*, std::int32_t*) {}

inline constexpr auto ln_forward =
    kernel<layernorm_forward>("layernorm_forward",
                              layernorm(in<3>("inp", f32, B, T, C),      // inp: (B,T,C)
                                        in<4>("weight", f32, C),         // weight: (C)
                                        in<5>("bias", f32, C),           // bias: (C)
                                        out<0>("out", f32, B, T, C))     // out: (B,T,C)
                                  .with(out<1>("mean", f32, B, T),       // mean: (B,T)
                                        out<2>("rstd", f32, B, T)));     // rstd: (B,T)

inline constexpr auto softmax_with_stats =
    kernel<softmax_stats>("softmax_stats", softmax(in<0>("x", f32, M, N),     // x: (M,N)
                                                   out<1>("y", f32, M, N))    // y: (M,N)
                                               .with(out<2>("max", f32, M),   // max: (M)
                                                     out<3>("sum", f32, M)));  // sum: (M)

inline constexpr auto argmax = kernel<row_argmax>("row_argmax", reduction(in<0>("x", f32, M, N),      // x: (M,N)
                                                                          out<1>("max", f32, M))      // max: (M)
                                                                    .with(out<2>("index", i32, M)));  // index: (M)
}  // namespace

TEST(ExtraOutputs, LayernormCountsMeanAndRstd) {
  // GPT-2 small, B=8, T=1024, C=768 (B*T = 8192 rows):
  //   read:    inp 4*8192*768 = 25,165,824; weight and bias 4*768 each = 6,144; in all 25,171,968
  //   written: out 25,165,824; mean and rstd 4*8192 each = 65,536; in all 25,231,360
  EXPECT_EQ(ln_forward.tensor_count, 6);
  EXPECT_TRUE(ln_forward.tensors[4].extra);
  EXPECT_TRUE(ln_forward.tensors[5].extra);
  EXPECT_FALSE(ln_forward.tensors[3].extra);
  EXPECT_EQ(to_string(ln_forward.written_bytes), "4*B*T*C + 8*B*T");
  const auto r = ln_forward.bind(B(8), T(1024), C(768));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(ln_forward.read_bytes_at(r.bound), 25171968.0);
  EXPECT_DOUBLE_EQ(ln_forward.written_bytes_at(r.bound), 25231360.0);
  // The FLOPs stay the layernorm's: 8 per element of the input, 8 * 6,291,456 = 50,331,648.
  EXPECT_DOUBLE_EQ(ln_forward.count_elementwise().flops_at(r.bound), 50331648.0);
}

TEST(ExtraOutputs, SoftmaxCountsRowMaxAndSum) {
  // M=4096 rows, N=1024: x and y 4*4096*1024 = 16,777,216 each; max and sum 4*4096 = 16,384 each.
  const auto r = softmax_with_stats.bind(M(4096), N(1024));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(softmax_with_stats.read_bytes_at(r.bound), 16777216.0);
  EXPECT_DOUBLE_EQ(softmax_with_stats.written_bytes_at(r.bound), 16777216.0 + 2 * 16384.0);
}

TEST(ExtraOutputs, ReductionCountsItsIndex) {
  // M=1000, N=512: x 4*512,000 = 2,048,000 read; max 4,000 and index (i32) 4,000 written.
  const auto r = argmax.bind(M(1000), N(512));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(argmax.read_bytes_at(r.bound), 2048000.0);
  EXPECT_DOUBLE_EQ(argmax.written_bytes_at(r.bound), 8000.0);
  EXPECT_EQ(argmax.tensors[2].dtype, model::dtype::i32);
}

// ---------------------------------------------------------------------------------------------
// Sizes with min, max and ceil-division
namespace {
void embed(const std::int32_t*, const float*, float*) {}
void tiled(const float*, float*) {}

// An embedding lookup of B*T tokens from a V-row table reads at most min(B*T, V) distinct rows.
inline constexpr auto lookup = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T),                               // idx: (B,T)
                                                             in<1>("table", f32, V, D).touches(min(B * T, V) * D),  // table: (V,D)
                                                             out<2>("y", f32, B, T, D)));                            // y: (B,T,D)

// A tiled kernel that computes whole 128-wide tiles: 2 FLOP per element of ceil_div(N, 128) tiles.
inline constexpr auto tiles = kernel<tiled>("tiled", custom(2 * ceil_div(N, 128) * 128 * M, in<0>("x", f32, M, N),   // x: (M,N)
                                                            out<1>("y", f32, M, N)));                                  // y: (M,N)
}  // namespace

TEST(SizeTerms, PrintAsTheirText) {
  EXPECT_EQ(lookup.size_terms.count, 1);
  EXPECT_EQ(lookup.size_terms.terms[0].name.view(), "min(B*T, V)");
  EXPECT_EQ(to_string(lookup.read_bytes), "4*B*T + 4*D*min(B*T, V)");  // the dimension table's order
  EXPECT_EQ(to_string(tiles.flops), "256*ceil_div(N, 128)*M");  // the FLOP count's order
  EXPECT_EQ((max(2 * N + 1, K)).sizes.terms[0].name.view(), "max(2*N + 1, K)");
}

TEST(SizeTerms, AnEmbeddingLookupTouchesMinOfTokensAndRows) {
  // B*T = 8*1024 = 8192 tokens below V = 50257 rows: min = 8192 rows of D = 768 floats:
  // table 4*8192*768 = 25,165,824 bytes; idx 4*8192 = 32,768; y 25,165,824 written.
  auto r = lookup.bind(B(8), T(1024), D(768), V(50257));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(lookup.read_bytes_at(r.bound), 25165824.0 + 32768.0);
  EXPECT_DOUBLE_EQ(lookup.written_bytes_at(r.bound), 25165824.0);
  // B*T = 64*1024 = 65,536 tokens from a V = 1000-row table (repeated tokens): min = 1000 rows:
  // table 4*1000*768 = 3,072,000 bytes (not 4*65536*768 = 201,326,592, 65x the table); idx 262,144.
  r = lookup.bind(B(64), T(1024), D(768), V(1000));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(lookup.read_bytes_at(r.bound), 3072000.0 + 262144.0);
  EXPECT_DOUBLE_EQ(r.bound[static_cast<std::size_t>(lookup.dim_index(name_t("min(B*T, V)")))], 1000.0);
}

TEST(SizeTerms, CeilDivisionCountsWholeTiles) {
  // N = 1000: ceil(1000 / 128) = 8 tiles of 128 columns = 1024 columns; M = 3: 2*3*1024 = 6,144 FLOP.
  // N = 1024: exactly 8 tiles, the same 6,144.
  EXPECT_DOUBLE_EQ(tiles.flops_at(tiles.bind(M(3), N(1000)).bound), 6144.0);
  EXPECT_DOUBLE_EQ(tiles.flops_at(tiles.bind(M(3), N(1024)).bound), 6144.0);
  EXPECT_DOUBLE_EQ(tiles.flops_at(tiles.bind(M(3), N(1025)).bound), 2 * 3 * 1152.0);  // 9 tiles
}

TEST(SizeTerms, AMissingOperandNamesTheOperand) {
  // Without V the term has no size either; the dimension reported is V, the one the user must give.
  const auto r = lookup.bind(B(8), T(1024), D(768));
  EXPECT_EQ(r.missing.view(), "V");
}

TEST(Touches, ATouchedPartLargerThanItsTensorIsAnErrorAtBind) {
  // B*T*D of a (V,D) table: at B*T = 65,536 tokens and V = 1000 rows it is 65x the table.
  constexpr auto loose = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T),                      // idx: (B,T)
                                                       in<1>("table", f32, V, D).touches(B * T * D),   // table: (V,D)
                                                       out<2>("y", f32, B, T, D)));                     // y: (B,T,D)
  const auto r = loose.bind(B(64), T(1024), D(768), V(1000));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.too_large.view(), "table");
  EXPECT_TRUE(loose.bind(B(8), T(1024), D(768), V(50257)).ok());
}
