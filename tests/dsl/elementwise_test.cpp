// Elementwise, reduction, softmax, layernorm and custom operations; read_write tensors; touches().
// Per-element rules (rooflint's own, operation.h): reduction 1, softmax 5, layernorm 6 (8 with affine);
// torch.utils.flop_counter counts all of them as 0, the default convention.
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

namespace {
void vadd(const float*, const float*, float*, int) {}
void saxpy(int, float, const float*, float*) {}
void rowwise(const float*, float*) {}
void norm_affine(const float*, const float*, const float*, float*) {}
void embed(const std::int32_t*, const float*, float*) {}
void sum_all(const float*, float*) {}

inline constexpr auto vector_add = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N),    // a: (N)
                                                               in<1>("b", f32, N),    // b: (N)
                                                               out<2>("c", f32, N)));  // c: (N)

inline constexpr auto saxpy_spec = kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N),      // x: (N)
                                                                      inout<3>("y", f32, N)));  // y: (N)

inline constexpr auto row_sum = kernel<rowwise>("row_sum", reduction(in<0>("x", f32, M, N),   // x: (M,N)
                                                                     out<1>("y", f32, M)));   // y: (M)

inline constexpr auto row_softmax = kernel<rowwise>("softmax", softmax(in<0>("x", f32, M, N),    // x: (M,N)
                                                                       out<1>("y", f32, M, N)));  // y: (M,N)

inline constexpr auto plain_norm = kernel<rowwise>("layernorm", layernorm(in<0>("x", f32, M, N),    // x: (M,N)
                                                                          out<1>("y", f32, M, N)));  // y: (M,N)

inline constexpr auto affine_norm = kernel<norm_affine>("layernorm", layernorm(in<0>("x", f32, M, N),     // x: (M,N)
                                                                               in<1>("gamma", f32, N),   // gamma: (N)
                                                                               in<2>("beta", f32, N),    // beta: (N)
                                                                               out<3>("y", f32, M, N)));  // y: (M,N)

inline constexpr auto custom_square = kernel<rowwise>("gram", custom(2 * N * N * M, in<0>("x", f32, M, N),  // x: (M,N)
                                                                     out<1>("g", f32, N, N)));              // g: (N,N)

// An embedding lookup reads B*T rows of the (V,D) table, not all V: only those are compulsory.
inline constexpr auto lookup = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T),                        // idx: (B,T)
                                                             in<1>("table", f32, V, D).touches(B * T * D),   // table: (V,D)
                                                             out<2>("y", f32, B, T, D)));                     // y: (B,T,D)
// The same lookup with its token ids stated uniform over the vocabulary V.
inline constexpr auto lookup_uniform = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T).indices(uniform(V)),
                                                                     in<1>("table", f32, V, D).touches(B * T * D),
                                                                     out<2>("y", f32, B, T, D)));
// And with each token a row of its own: distinct ids below V.
inline constexpr auto lookup_distinct = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T).indices(distinct(V)),
                                                                      in<1>("table", f32, V, D).touches(B * T * D),
                                                                      out<2>("y", f32, B, T, D)));
}  // namespace

TEST(VectorAdd, OneFlopPerTwelveBytesWhenElementwiseIsCounted) {
  // 1 FLOP per element; bytes 4 (a) + 4 (b) + 4 (c) = 12 per element.
  constexpr auto counted = vector_add.count_elementwise();
  EXPECT_EQ(ratio_to_string(counted.flops, counted.bytes()), "1/12");
  const auto r = counted.bind(N(1 << 20));
  EXPECT_DOUBLE_EQ(counted.flops_at(r.bound), 1048576.0);
  EXPECT_DOUBLE_EQ(counted.bytes_at(r.bound), 12582912.0);
  EXPECT_NEAR(model::intensity(counted.workload_at(r.bound)), 1.0 / 12, 1e-15);
  EXPECT_EQ(to_string(counted.convention), "torch.utils.flop_counter + elementwise counted");
}

TEST(VectorAdd, ATypedFlopCountCountsUnderTheTorchConvention) {
  // torch.utils.flop_counter has no rule for pointwise work and counts it as 0; the 1 FLOP per element
  // here is typed by the spec's author, so it counts as custom()'s does: N FLOP over 12*N bytes.
  EXPECT_EQ(to_string(vector_add.flops), "N");
  EXPECT_EQ(to_string(vector_add.bytes()), "12*N");
  const auto r = vector_add.bind(N(1 << 20));
  EXPECT_DOUBLE_EQ(vector_add.flops_at(r.bound), 1048576.0);
  EXPECT_EQ(ratio_to_string(vector_add.flops, vector_add.bytes()), "1/12");
}

TEST(ReadWrite, AnInoutTensorIsCountedTwice) {
  // saxpy: x read (4N), y read and written (4N + 4N): 12*N bytes, 8*N of them read.
  EXPECT_EQ(to_string(saxpy_spec.read_bytes), "8*N");
  EXPECT_EQ(to_string(saxpy_spec.written_bytes), "4*N");
  EXPECT_EQ(to_string(saxpy_spec.bytes()), "12*N");
  // 2 FLOP (multiply, add) per element: AI 2/12 = 1/6 with elementwise FLOPs counted.
  constexpr auto counted = saxpy_spec.count_elementwise();
  EXPECT_EQ(ratio_to_string(counted.flops, counted.bytes()), "1/6");
}

TEST(Reduction, CountsOneFlopPerInputElement) {
  // M=1024, N=4096: M*N = 4,194,304 adds; bytes 4*(M*N + M) = 4*4,195,328 = 16,781,312.
  constexpr auto counted = row_sum.count_elementwise();
  EXPECT_EQ(to_string(counted.flops), "M*N");
  const auto r = counted.bind(M(1024), N(4096));
  EXPECT_DOUBLE_EQ(counted.flops_at(r.bound), 4194304.0);
  EXPECT_DOUBLE_EQ(counted.bytes_at(r.bound), 16781312.0);
  EXPECT_EQ(to_string(row_sum.flops), "0");
}

TEST(Reduction, ToAScalarCountsOneFlopPerElementAndFourBytesOut) {
  // Sum of x (N) into s (), a tensor of rank 0: N adds; bytes 4*N + 4.
  constexpr auto total = kernel<sum_all>("sum", reduction(in<0>("x", f32, N), out<1>("s", f32))).count_elementwise();
  EXPECT_EQ(total.tensors[1].rank, 0);
  EXPECT_EQ(to_string(total.flops), "N");
  EXPECT_EQ(to_string(total.bytes()), "4*N + 4");
}

TEST(Softmax, CountsFiveFlopsPerElement) {
  // 5 * 1024 * 4096 = 20,971,520; bytes 8 * 4,194,304 = 33,554,432.
  constexpr auto counted = row_softmax.count_elementwise();
  const auto r = counted.bind(M(1024), N(4096));
  EXPECT_DOUBLE_EQ(counted.flops_at(r.bound), 20971520.0);
  EXPECT_DOUBLE_EQ(counted.bytes_at(r.bound), 33554432.0);
  EXPECT_EQ(to_string(row_softmax.flops), "0");
}

TEST(Layernorm, CountsSixFlopsPerElementWithoutAffine) {
  constexpr auto counted = plain_norm.count_elementwise();
  EXPECT_EQ(to_string(counted.flops), "6*M*N");
  EXPECT_EQ(to_string(plain_norm.flops), "0");
}

TEST(Layernorm, CountsEightFlopsPerElementWithAffine) {
  // 8 * 1024 * 4096 = 33,554,432 FLOP; bytes 4*(2*M*N + 2*N) = 4*(8,388,608 + 8,192) = 33,587,200.
  constexpr auto counted = affine_norm.count_elementwise();
  const auto r = counted.bind(M(1024), N(4096));
  EXPECT_DOUBLE_EQ(counted.flops_at(r.bound), 33554432.0);
  EXPECT_DOUBLE_EQ(counted.bytes_at(r.bound), 33587200.0);
  EXPECT_EQ(to_string(affine_norm.flops), "0");
}

TEST(Custom, CountsTheGivenFlopsUnderEveryConvention) {
  EXPECT_EQ(to_string(custom_square.flops), "2*N^2*M");
  EXPECT_EQ(to_string(custom_square.count_elementwise().flops), "2*N^2*M");
}

TEST(Touches, AnEmbeddingLookupCountsOnlyTheRowsItReads) {
  // B=8, T=1024, D=768, V=50257: table B*T*D*4 = 8192*768*4 = 25,165,824 (not V*D*4 = 154,389,504);
  // idx 4*B*T = 32,768; y 25,165,824; in all 50,364,416 bytes.
  EXPECT_TRUE(lookup.tensors[1].partial);
  EXPECT_FALSE(lookup.tensors[0].partial);
  const auto r = lookup.bind(B(8), T(1024), D(768), V(50257));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(lookup.read_bytes_at(r.bound), 25165824.0 + 32768.0);
  EXPECT_DOUBLE_EQ(lookup.bytes_at(r.bound), 50364416.0);
  EXPECT_EQ(to_string(lookup.bytes()), "8*B*T*D + 4*B*T");
}

TEST(Touches, TheWholeTensorIsCompulsoryWithoutIt) {
  // Without touches() the whole table is read: 4*V*D bytes, whatever B and T are.
  constexpr auto whole = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T),       // idx: (B,T)
                                                       in<1>("table", f32, V, D),     // table: (V,D)
                                                       out<2>("y", f32, B, T, D)));   // y: (B,T,D)
  const auto r = whole.bind(B(8), T(1024), D(768), V(50257));
  EXPECT_DOUBLE_EQ(whole.read_bytes_at(r.bound), 154389504.0 + 32768.0);
}

// The math mode by operation (model::math_mode_by_operation): contractions on tensor-core dtypes use the
// tensor roof; a layernorm, softmax, reduction or elementwise operation on bf16/f16 storage uses the
// FP32 SIMT roof of the arithmetic it really does; .math() still chooses.
namespace {
void norm_bf16(const __nv_bfloat16*, __nv_bfloat16*) {}
void softmax_f16(const __half*, __half*) {}
void add_f64(const double*, double*) {}

inline constexpr auto bf16_norm = kernel<norm_bf16>("ln_bf16", layernorm(in<0>("x", bf16, M, N),    // x: (M,N)
                                                                         out<1>("y", bf16, M, N)));  // y: (M,N)
inline constexpr auto f16_softmax = kernel<softmax_f16>("sm_f16", softmax(in<0>("x", f16, M, N),    // x: (M,N)
                                                                          out<1>("y", f16, M, N)));  // y: (M,N)
inline constexpr auto f64_copy = kernel<add_f64>("f64", elementwise(1, in<0>("x", f64, N),    // x: (N)
                                                                    out<1>("y", f64, N)));  // y: (N)
inline constexpr auto bf16_norm_on_tensor = bf16_norm.math(model::math_mode::bf16_tensor);
}  // namespace

TEST(MathModeByOperation, NormalisationOnBf16RunsOnTheFp32SimtRoof) {
  static_assert(bf16_norm.mode == model::math_mode::fp32_simt);
  EXPECT_EQ(bf16_norm.mode, model::math_mode::fp32_simt);
  EXPECT_FALSE(bf16_norm.mode_chosen);
  EXPECT_EQ(f16_softmax.mode, model::math_mode::fp32_simt);
  EXPECT_EQ(f64_copy.mode, model::math_mode::fp64);
}

TEST(MathModeByOperation, ASpecCanStillChooseTheTensorRoof) {
  EXPECT_EQ(bf16_norm_on_tensor.mode, model::math_mode::bf16_tensor);
  EXPECT_TRUE(bf16_norm_on_tensor.mode_chosen);
}

TEST(MathModeByOperation, ContractionsKeepTheDtypesTensorRoof) {
  EXPECT_EQ(model::math_mode_by_operation(model::dtype::bf16, true), model::math_mode::bf16_tensor);
  EXPECT_EQ(model::math_mode_by_operation(model::dtype::fp8_e4m3, true), model::math_mode::fp8_tensor);
  EXPECT_EQ(model::math_mode_by_operation(model::dtype::i8, true), model::math_mode::int8_tensor);
  EXPECT_EQ(model::math_mode_by_operation(model::dtype::i8, false), model::math_mode::fp32_simt);
  EXPECT_TRUE(is_contraction(op_kind::attention));
  EXPECT_TRUE(is_contraction(op_kind::conv));
  EXPECT_FALSE(is_contraction(op_kind::layernorm));
  EXPECT_FALSE(is_contraction(op_kind::reduction));
}

TEST(Indices, TheSpecRecordsTheDistributionOfAnIndexTensorAndItsBound) {
  static_assert(lookup_uniform.tensors[0].indices == index_distribution::uniform);
  // V is the table's first dimension; its index in the spec's table is where the bound points.
  EXPECT_EQ(lookup_uniform.tensors[0].index_bound, lookup_uniform.dim_index(name_t("V")));
  EXPECT_GE(lookup_uniform.tensors[0].index_bound, 0);
  EXPECT_EQ(lookup_uniform.tensors[1].indices, index_distribution::unstated);
  EXPECT_EQ(lookup.tensors[0].indices, index_distribution::unstated);
  EXPECT_EQ(lookup.tensors[0].index_bound, -1);
  static_assert(lookup_distinct.tensors[0].indices == index_distribution::distinct);
  EXPECT_EQ(lookup_distinct.tensors[0].index_bound, lookup_distinct.dim_index(name_t("V")));
  EXPECT_EQ(name(index_distribution::distinct), "distinct");
  // The statement is about the values, not the bytes: the same compulsory bytes as without it.
  EXPECT_EQ(to_string(lookup_uniform.bytes()), to_string(lookup.bytes()));
  EXPECT_EQ(to_string(lookup_distinct.bytes()), to_string(lookup.bytes()));
}
