// Scaled-dot-product attention, forward. FLOP rule (torch.utils.flop_counter sdpa_flop_count):
// 2*B*H*Sq*Sk*D (Q K^T) + 2*B*H*Sq*Sk*Dv (P V); causal masking not halved unless halve_causal().
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
void flash(const __half*, const __half*, const __half*, __half*) {}

inline constexpr auto self_attention = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, Dh),    // q: (B,H,S,D)
                                                                        in<1>("k", f16, B, Nh, S, Dh),    // k: (B,H,S,D)
                                                                        in<2>("v", f16, B, Nh, S, Dh),    // v: (B,H,S,D)
                                                                        out<3>("o", f16, B, Nh, S, Dh)));  // o: (B,H,S,D)

inline constexpr auto causal = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, Dh),   // q: (B,H,S,D)
                                                                in<1>("k", f16, B, Nh, S, Dh),   // k: (B,H,S,D)
                                                                in<2>("v", f16, B, Nh, S, Dh),   // v: (B,H,S,D)
                                                                out<3>("o", f16, B, Nh, S, Dh),  // o: (B,H,S,D)
                                                                masking::causal));

inline constexpr auto cross = kernel<flash>("cross", attention(in<0>("q", f16, B, Nh, Sq, Dh),    // q: (B,H,Sq,D)
                                                               in<1>("k", f16, B, Nh, Sk, Dh),    // k: (B,H,Sk,D)
                                                               in<2>("v", f16, B, Nh, Sk, Dv),    // v: (B,H,Sk,Dv)
                                                               out<3>("o", f16, B, Nh, Sq, Dv)));  // o: (B,H,Sq,Dv)
}  // namespace

TEST(Attention, FlopFormulaIsFourBHSSD) {
  EXPECT_EQ(to_string(self_attention.flops), "4*B*Nh*S^2*Dh");
}

TEST(Attention, CountsFourBHSSDFlops) {
  // B=2, H=16, S=1024, D=64: 4 * 2 * 16 * 1024^2 * 64 = 128 * 1,048,576 * 64 = 8,589,934,592.
  // f16 bytes: 4 tensors * 2 bytes * 2*16*1024*64 (= 2,097,152) = 16,777,216.
  const auto r = self_attention.bind(B(2), Nh(16), S(1024), Dh(64));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(self_attention.flops_at(r.bound), 8589934592.0);
  EXPECT_DOUBLE_EQ(self_attention.bytes_at(r.bound), 16777216.0);
}

TEST(Attention, CausalIsNotHalvedUnderTheTorchConvention) {
  const auto r = causal.bind(B(2), Nh(16), S(1024), Dh(64));
  EXPECT_TRUE(causal.op.causal);
  EXPECT_DOUBLE_EQ(causal.flops_at(r.bound), 8589934592.0);
  EXPECT_EQ(to_string(causal.convention), "torch.utils.flop_counter");
}

TEST(Attention, CausalIsHalvedWhenAsked) {
  // 8,589,934,592 / 2 = 4,294,967,296.
  constexpr auto halved = causal.halve_causal();
  const auto r = halved.bind(B(2), Nh(16), S(1024), Dh(64));
  EXPECT_DOUBLE_EQ(halved.flops_at(r.bound), 4294967296.0);
  EXPECT_EQ(to_string(halved.flops), "2*B*Nh*S^2*Dh");
  EXPECT_EQ(to_string(halved.convention), "torch.utils.flop_counter + causal halved");
}

TEST(Attention, ItsFlopBasisSaysWhetherCausalIsHalved) {
  EXPECT_EQ(flop_basis(causal), "torch.utils.flop_counter");
  EXPECT_EQ(flop_basis(causal.halve_causal()), "torch.utils.flop_counter, causal halved");
  EXPECT_EQ(flop_basis(self_attention.halve_causal()), "torch.utils.flop_counter");  // nothing to halve
}

TEST(Attention, HalvingLeavesNonCausalAttentionAlone) {
  constexpr auto dense = self_attention.halve_causal();
  const auto r = dense.bind(B(2), Nh(16), S(1024), Dh(64));
  EXPECT_DOUBLE_EQ(dense.flops_at(r.bound), 8589934592.0);
}

TEST(Attention, CrossAttentionCountsBothHeadDimensions) {
  // B=1, H=2, Sq=128, Sk=256, D=64, Dv=32: 2*1*2*128*256*(64 + 32) = 131,072 * 96 = 12,582,912.
  EXPECT_EQ(to_string(cross.flops), "2*B*Nh*Sq*Sk*Dh + 2*B*Nh*Sq*Sk*Dv");
  const auto r = cross.bind(B(1), Nh(2), Sq(128), Sk(256), Dh(64), Dv(32));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(cross.flops_at(r.bound), 12582912.0);
}
