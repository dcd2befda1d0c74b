// expected-message: rooflint: conv: weight (C_out,...) and output (N,C_out,...) must share C_out
// Invalid: The weight has C output channels but the output has Co: each output channel has one filter.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo)));
#else
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, C, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo)));
#endif
