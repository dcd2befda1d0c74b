// Convolution. FLOP rule (torch.utils.flop_counter conv_flop_count):
//   2 * N * C_out * prod(output spatial) * (C_in / groups) * prod(kernel);
// output size (PyTorch's Conv docs): floor((in + 2*padding - dilation*(kernel - 1) - 1) / stride) + 1.
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
void conv_f32(const float*, const float*, float*) {}

double size_of(const spec& s, const binding_result& r, std::string_view dim) {
  return r.bound[static_cast<std::size_t>(s.dim_index(name_t(dim)))];
}

// ResNet-50's stem: 7x7, stride 2, padding 3, 3 -> 64 channels.
inline constexpr auto stem = kernel<conv_f32>("stem", conv2d(in<0>("x", f32, Nb, C, H, W),       // x: (N,C,H,W)
                                                             in<1>("w", f32, Co, C, Kh, Kw),     // w: (Co,C,Kh,Kw)
                                                             out<2>("y", f32, Nb, Co, Ho, Wo),   // y: (N,Co,Ho,Wo)
                                                             {.stride = 2, .padding = 3}));

// Dilated 1-d convolution, no padding.
inline constexpr auto dilated = kernel<conv_f32>("dilated", conv1d(in<0>("x", f32, Nb, C, L),       // x: (N,C,L)
                                                                   in<1>("w", f32, Co, C, Kl),      // w: (Co,C,Kl)
                                                                   out<2>("y", f32, Nb, Co, Lo),    // y: (N,Co,Lo)
                                                                   {.dilation = 2}));

// Grouped 'same' 3x3 convolution: the output reuses H and W; the weight has Cg = C/groups channels.
inline constexpr auto grouped = kernel<conv_f32>("grouped", conv2d(in<0>("x", f32, Nb, C, H, W),     // x: (N,C,H,W)
                                                                   in<1>("w", f32, Co, Cg, K3, K3),  // w: (Co,C/4,3,3)
                                                                   out<2>("y", f32, Nb, Co, H, W),   // y: (N,Co,H,W)
                                                                   {.padding = 1, .groups = 4}));

// The same convolution forgetting the padding: its output cannot keep H and W.
inline constexpr auto unpadded_same = kernel<conv_f32>("unpadded", conv2d(in<0>("x", f32, Nb, C, H, W),   // x: (N,C,H,W)
                                                                          in<1>("w", f32, Co, C, K3, K3),  // w: (Co,C,3,3)
                                                                          out<2>("y", f32, Nb, Co, H, W)));  // y: (N,Co,H,W)

inline constexpr auto volume = kernel<conv_f32>("volume", conv3d(in<0>("x", f32, Nb, C, D, H, W),        // x: (N,C,D,H,W)
                                                                 in<1>("w", f32, Co, C, Kd, Kh, Kw),     // w: (Co,C,Kd,Kh,Kw)
                                                                 out<2>("y", f32, Nb, Co, Do, Ho, Wo)));  // y: (N,Co,Do,Ho,Wo)
}  // namespace

TEST(Conv2d, FlopFormulaFollowsTorch) {
  EXPECT_EQ(stem.op.name.view(), "conv2d");
  EXPECT_EQ(to_string(stem.flops), "2*Nb*Co*Ho*Wo*C*Kh*Kw");
}

TEST(Conv2d, DerivesTheOutputSizeFromStrideAndPadding) {
  // Ho = floor((224 + 2*3 - 1*(7-1) - 1) / 2) + 1 = floor(223/2) + 1 = 112.
  const auto r = stem.bind(Nb(8), C(3), H(224), W(224), Co(64), Kh(7), Kw(7));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(size_of(stem, r, "Ho"), 112);
  EXPECT_DOUBLE_EQ(size_of(stem, r, "Wo"), 112);
}

TEST(Conv2d, ResNetStemFlops) {
  // 2 * 8 * 64 * 112*112 * 3 * 7*7: 64*12544 = 802,816; *8 = 6,422,528; *3 = 19,267,584;
  // *49 = 944,111,616 MAC; *2 = 1,888,223,232 FLOP (118.0M MAC per image, ResNet-50's stem).
  const auto r = stem.bind(Nb(8), C(3), H(224), W(224), Co(64), Kh(7), Kw(7));
  EXPECT_DOUBLE_EQ(stem.flops_at(r.bound), 1888223232.0);
  // bytes 4*(8*3*224*224 + 64*3*7*7 + 8*64*112*112) = 4*(1,204,224 + 9,408 + 6,422,528) = 30,544,640.
  EXPECT_DOUBLE_EQ(stem.bytes_at(r.bound), 30544640.0);
}

TEST(Conv2d, AGivenOutputSizeThatContradictsTheOptionsIsViolated) {
  // 224 with stride 2, padding 3, kernel 7 gives 112, not 111.
  const auto r = stem.bind(Nb(8), C(3), H(224), W(224), Co(64), Kh(7), Kw(7), Ho(111));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.violated.view(), "Ho");
}

TEST(Conv2d, AKernelLargerThanThePaddedInputIsViolated) {
  // 4 + 2*3 - 6 - 1 = 3 -> floor(3/2) + 1 = 2 fits; 2 + 6 - 6 - 1 = 1 -> 1 fits; kernel 9 on 2: 2 + 6 - 8 - 1 < 0.
  EXPECT_TRUE(stem.bind(Nb(1), C(3), H(2), W(2), Co(1), Kh(7), Kw(7)).ok());
  const auto r = stem.bind(Nb(1), C(3), H(2), W(2), Co(1), Kh(9), Kw(7));
  EXPECT_EQ(r.violated.view(), "Ho");
}

TEST(Conv1d, DilationWidensTheWindow) {
  // Lo = floor((100 + 0 - 2*(3-1) - 1) / 1) + 1 = 96; FLOPs 2 * 1 * 8 * 96 * 4 * 3 = 18,432.
  const auto r = dilated.bind(Nb(1), C(4), L(100), Co(8), Kl(3));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(size_of(dilated, r, "Lo"), 96);
  EXPECT_DOUBLE_EQ(dilated.flops_at(r.bound), 18432.0);
  EXPECT_EQ(dilated.op.name.view(), "conv1d");
}

TEST(Conv2d, GroupedCountsTheInputChannelsPerGroup) {
  // N=2, C=32, groups=4 -> Cg=8, Co=64, H=W=56 kept by padding 1 around a 3x3 kernel:
  // 2 * 2 * 64 * 56*56 * 8 * 3*3 = 256 * 3136 = 802,816; *8 = 6,422,528; *9 = 57,802,752.
  const auto r = grouped.bind(Nb(2), C(32), Cg(8), Co(64), H(56), W(56));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(grouped.flops_at(r.bound), 57802752.0);
}

TEST(Conv2d, GroupsThatDoNotDivideTheChannelsAreViolated) {
  // Cg * groups must equal C: 7 * 4 = 28 != 32.
  const auto r = grouped.bind(Nb(2), C(32), Cg(7), Co(64), H(56), W(56));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.violated.view(), "C");
}

TEST(Conv2d, ASameConvolutionWithoutPaddingIsViolated) {
  // A 3x3 kernel without padding makes 56 into 54, so the output cannot reuse H.
  const auto r = unpadded_same.bind(Nb(1), C(3), Co(8), H(56), W(56));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.violated.view(), "H");
}

TEST(Conv3d, CountsEveryKernelDimension) {
  // 10^3 input, 3^3 kernel, stride 1, no padding: 8^3 = 512 outputs per channel;
  // 2 * 1 * 4 * 512 * 2 * 27 = 221,184.
  const auto r = volume.bind(Nb(1), C(2), D(10), H(10), W(10), Co(4), Kd(3), Kh(3), Kw(3));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(volume.flops_at(r.bound), 221184.0);
  EXPECT_EQ(volume.op.name.view(), "conv3d");
}
