// expected-message: rooflint: conv: with groups == 1 the weight (C_out,C,kernel...) must take the input channel dimension C
// Invalid: Without groups the weight (Co,Cg,3,3) must take all C input channels, so its second dimension must be C.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo)));
#else
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, Cg, K3, K3), out<2>("y", f32, B, Co, Ho, Wo)));
#endif
