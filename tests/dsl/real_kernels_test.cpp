// What real kernels do: extra counted outputs of normalisations and reductions, sizes that
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

// ---------------------------------------------------------------------------------------------
// Mixed precision stated once: the tensors' dtypes are the storage, .precision() the math
namespace {
void gelu_bf16(const __nv_bfloat16*, __nv_bfloat16*) {}
void gemm_bf16_simt(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*) {}
void gemm_fp8(const __nv_fp8_e4m3*, const __nv_fp8_e4m3*, __nv_bfloat16*) {}

// bf16 in, f32 math, bf16 out: a GELU converts each element to float (about 8 FLOP with tanh counted as 1).
inline constexpr auto gelu = kernel<gelu_bf16>("gelu", unary(8, in<0>("x", bf16, N), out<1>("y", bf16, N)).precision(f32));
// A bf16 GEMM done in f32 on CUDA cores (each operand converted to float, FFMA): the FP32 SIMT roof.
inline constexpr auto simt_gemm = kernel<gemm_bf16_simt>("gemm", matmul(in<0>("A", bf16, M, K), in<1>("B", bf16, K, N),
                                                                        out<2>("C", bf16, M, N)).precision(f32));
// The same storage without a stated precision runs on the BF16 tensor roof.
inline constexpr auto tensor_gemm = kernel<gemm_bf16_simt>("gemm", matmul(in<0>("A", bf16, M, K), in<1>("B", bf16, K, N),
                                                                          out<2>("C", bf16, M, N)));
// fp8 in, f32 accumulate, bf16 out.
inline constexpr auto fp8_gemm = kernel<gemm_fp8>("gemm_fp8", matmul(in<0>("A", fp8_e4m3, M, K), in<1>("B", fp8_e4m3, K, N),
                                                                     out<2>("C", bf16, M, N)).precision(fp8_e4m3, f32));
}  // namespace

TEST(Precision, Bf16StorageWithF32MathIsFp32SimtWorkOnBf16Bytes) {
  // N = 2^20: read 2 bytes and write 2 bytes per element, 4,194,304 bytes; 8 FLOP each.
  EXPECT_EQ(gelu.mode, model::math_mode::fp32_simt);
  EXPECT_TRUE(gelu.op.precision_stated);
  EXPECT_EQ(gelu.op.compute, model::dtype::f32);
  EXPECT_EQ(gelu.op.accumulate, model::dtype::f32);
  const auto r = gelu.bind(N(1 << 20));
  EXPECT_DOUBLE_EQ(gelu.bytes_at(r.bound), 4194304.0);
  EXPECT_DOUBLE_EQ(gelu.count_elementwise().flops_at(r.bound), 8.0 * (1 << 20));
}

TEST(Precision, TheComputeDtypePicksTheRoofOfAMatmul) {
  EXPECT_EQ(simt_gemm.mode, model::math_mode::fp32_simt);
  EXPECT_EQ(tensor_gemm.mode, model::math_mode::bf16_tensor);
  // M = N = K = 4096 in bf16: 3 * 2 * 4096^2 = 100,663,296 bytes either way.
  const auto r = simt_gemm.bind(M(4096), N(4096), K(4096));
  EXPECT_DOUBLE_EQ(simt_gemm.bytes_at(r.bound), 100663296.0);
  EXPECT_DOUBLE_EQ(tensor_gemm.bytes_at(r.bound), 100663296.0);
}

TEST(Precision, Fp8InputsWithF32AccumulateAndABf16Output) {
  EXPECT_EQ(fp8_gemm.mode, model::math_mode::fp8_tensor);
  EXPECT_EQ(fp8_gemm.op.compute, model::dtype::fp8_e4m3);
  EXPECT_EQ(fp8_gemm.op.accumulate, model::dtype::f32);
  // M = N = K = 8192: A and B 1 byte each, 2 * 8192^2 = 134,217,728; C bf16 2 * 8192^2 = 134,217,728.
  const auto r = fp8_gemm.bind(M(8192), N(8192), K(8192));
  EXPECT_DOUBLE_EQ(fp8_gemm.read_bytes_at(r.bound), 134217728.0);
  EXPECT_DOUBLE_EQ(fp8_gemm.written_bytes_at(r.bound), 134217728.0);
}

TEST(Precision, OperandsOfDifferentFp8FormatsStateTheirPrecision) {
  // e4m3 activations times e5m2 weights (compiles only with .precision(); tests/dsl/fail/matmul_dtypes_differ).
  constexpr auto mixed = matmul(in<0>("A", fp8_e4m3, M, K), in<1>("B", fp8_e5m2, K, N), out<2>("C", bf16, M, N));
  EXPECT_TRUE(mixed.mixed_operands);
  EXPECT_FALSE(mixed.info.precision_stated);
  EXPECT_TRUE(mixed.precision(fp8_e4m3, f32).info.precision_stated);
}

// A region (region.h) takes the same size terms and precision as a kernel.
namespace {
void gather_rows(const std::int32_t*, const float*, float*) {}
void scale_rows(float*) {}
inline constexpr auto region_lookup =
    region<gather_rows, scale_rows>("lookup_scale", custom(0, in("ids", i32, B, T),                               // ids: (B,T)
                                                           in("table", f32, V, D).touches(min(B * T, V) * D),  // table: (V,D)
                                                           out("y", f32, B, T, D)));                            // y: (B,T,D)
inline constexpr auto region_gelu = region<scale_rows>("gelu", unary(9, in("x", bf16, N), out("y", bf16, N)).precision(f32));
}  // namespace

TEST(SizeTerms, ARegionDerivesThemToo) {
  // B*T = 64*1024 = 65,536 tokens from V = 1000 rows, D = 768: table 4*1000*768 = 3,072,000; ids 262,144.
  const auto r = region_lookup.bind(B(64), T(1024), D(768), V(1000));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(region_lookup.read_bytes_at(r.bound), 3072000.0 + 262144.0);
  EXPECT_EQ(region_gelu.mode, model::math_mode::fp32_simt);
}
