// Matrix products: matmul, bmm, addmm, linear. FLOP rule 2*M*N*K (torch.utils.flop_counter mm_flop,
// bmm_flop, addmm_flop; bias not counted); compulsory bytes every operand once at its dtype's size.
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

namespace {
void sgemm(const float*, const float*, float*, int) {}
void hbmm(const __half*, const __half*, __half*) {}
void addmm_f32(const float*, const float*, const float*, float*) {}
void linear_bf16(const __nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*) {}

inline constexpr auto square_sgemm = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, N, N),    // A: (N,N)
                                                                   in<1>("B", f32, N, N),    // B: (N,N)
                                                                   out<2>("C", f32, N, N)));  // C: (N,N)

inline constexpr auto sgemm_mnk = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K),    // A: (M,K)
                                                                in<1>("B", f32, K, N),    // B: (K,N)
                                                                out<2>("C", f32, M, N)));  // C: (M,N)

inline constexpr auto batched = kernel<hbmm>("hbmm", bmm(in<0>("A", f16, Bt, M, K),    // A: (Bt,M,K)
                                                         in<1>("B", f16, Bt, K, N),    // B: (Bt,K,N)
                                                         out<2>("C", f16, Bt, M, N)));  // C: (Bt,M,N)

inline constexpr auto with_bias = kernel<addmm_f32>("addmm", addmm(in<0>("bias", f32, N),   // bias: (N)
                                                                   in<1>("A", f32, M, K),   // A: (M,K)
                                                                   in<2>("B", f32, K, N),   // B: (K,N)
                                                                   out<3>("C", f32, M, N)));  // C: (M,N)

inline constexpr auto dense = kernel<linear_bf16>("linear", linear(in<0>("x", bf16, M, K),    // x: (M,K)
                                                                   in<1>("w", bf16, N, K),    // w: (N,K)
                                                                   in<2>("b", bf16, N),       // b: (N)
                                                                   out<3>("y", bf16, M, N)));  // y: (M,N)

double intensity_at(const spec& s, const sizes& z) { return model::intensity(s.workload_at(z)); }
}  // namespace

TEST(SquareMatmul, IntensityIsNOverSix) {
  // FLOPs 2*N^3; bytes 3 tensors * 4 bytes * N^2 = 12*N^2; AI = 2*N^3 / 12*N^2 = N/6.
  EXPECT_EQ(ratio_to_string(square_sgemm.flops, square_sgemm.bytes()), "N/6");
  EXPECT_EQ(to_string(square_sgemm.flops), "2*N^3");
  EXPECT_EQ(to_string(square_sgemm.bytes()), "12*N^2");
}

TEST(SquareMatmul, IntensityAt512Is85Point33) {
  // 512 / 6 = 85.333... FLOP/byte.
  const auto r = square_sgemm.bind(N(512));
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(intensity_at(square_sgemm, r.bound), 85.3333333, 1e-6);
}

TEST(SquareMatmul, At4096Counts137GFlopAnd201MBytes) {
  // 2 * 4096^3 = 2 * 68,719,476,736 = 137,438,953,472 FLOP;
  // 12 * 4096^2 = 12 * 16,777,216 = 201,326,592 bytes; AI = 4096 / 6 = 682.666... FLOP/byte.
  const auto r = square_sgemm.bind(N(4096));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(square_sgemm.flops_at(r.bound), 137438953472.0);
  EXPECT_DOUBLE_EQ(square_sgemm.bytes_at(r.bound), 201326592.0);
  EXPECT_DOUBLE_EQ(square_sgemm.read_bytes_at(r.bound), 134217728.0);    // A and B: 8 * 4096^2
  EXPECT_DOUBLE_EQ(square_sgemm.written_bytes_at(r.bound), 67108864.0);  // C: 4 * 4096^2
  EXPECT_NEAR(intensity_at(square_sgemm, r.bound), 682.6666667, 1e-6);
}

TEST(SquareMatmul, RunsOnTheFp32SimtRoofByDefault) {
  EXPECT_EQ(square_sgemm.mode, model::math_mode::fp32_simt);
  EXPECT_EQ(square_sgemm.math(model::math_mode::tf32_tensor).mode, model::math_mode::tf32_tensor);
}

TEST(Matmul, FlopFormulaIsTwoMNK) { EXPECT_EQ(to_string(sgemm_mnk.flops), "2*M*N*K"); }

TEST(Matmul, NonSquareIntensityKeepsEveryTerm) {
  // bytes 4*M*K (A) + 4*K*N (B) + 4*M*N (C); dividing 2*M*N*K and the bytes by 2 leaves
  // M*N*K / (2*M*K + 2*N*K + 2*M*N) (dimensions print in the FLOP formula's order M, N, K).
  EXPECT_EQ(to_string(sgemm_mnk.bytes()), "4*M*K + 4*N*K + 4*M*N");
  EXPECT_EQ(ratio_to_string(sgemm_mnk.flops, sgemm_mnk.bytes()), "M*N*K/(2*M*K + 2*N*K + 2*M*N)");
}

TEST(Matmul, NonSquareValuesAtMNK) {
  // M=128, N=256, K=64: FLOPs 2*128*256*64 = 4,194,304;
  // bytes 4*(128*64 + 64*256 + 128*256) = 4*(8192 + 16384 + 32768) = 229,376.
  const auto r = sgemm_mnk.bind(M(128), N(256), K(64));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(sgemm_mnk.flops_at(r.bound), 4194304.0);
  EXPECT_DOUBLE_EQ(sgemm_mnk.bytes_at(r.bound), 229376.0);
}

TEST(Bmm, CountsTwoMNKPerBatch) {
  // Bt=8, M=64, N=32, K=16: FLOPs 2*8*64*32*16 = 524,288;
  // f16 bytes 2*(8*64*16 + 8*16*32 + 8*64*32) = 2*(8192 + 4096 + 16384) = 57,344.
  EXPECT_EQ(to_string(batched.flops), "2*Bt*M*N*K");
  const auto r = batched.bind(Bt(8), M(64), N(32), K(16));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(batched.flops_at(r.bound), 524288.0);
  EXPECT_DOUBLE_EQ(batched.bytes_at(r.bound), 57344.0);
  EXPECT_EQ(batched.mode, model::math_mode::fp16_tensor);
}

TEST(Addmm, DoesNotCountTheBiasInFlopsButReadsIt) {
  // M=128, N=64, K=32: FLOPs 2*128*64*32 = 524,288 (bias add not counted, as torch);
  // bytes 4*(64 + 128*32 + 32*64 + 128*64) = 4*(64 + 4096 + 2048 + 8192) = 57,600.
  EXPECT_EQ(to_string(with_bias.flops), "2*M*N*K");
  const auto r = with_bias.bind(M(128), N(64), K(32));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(with_bias.flops_at(r.bound), 524288.0);
  EXPECT_DOUBLE_EQ(with_bias.bytes_at(r.bound), 57600.0);
}

TEST(Linear, CountsTwoMNKWithWeightStoredNByK) {
  // M=256, K=1024, N=4096: FLOPs 2*256*4096*1024 = 2,147,483,648;
  // bf16 bytes 2*(256*1024 + 4096*1024 + 4096 + 256*4096) = 2*5,509,120 = 11,018,240.
  EXPECT_EQ(to_string(dense.flops), "2*M*N*K");
  const auto r = dense.bind(M(256), K(1024), N(4096));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(dense.flops_at(r.bound), 2147483648.0);
  EXPECT_DOUBLE_EQ(dense.bytes_at(r.bound), 11018240.0);
  EXPECT_EQ(dense.mode, model::math_mode::bf16_tensor);
}
