// expected-message: rooflint: conv: with groups > 1 the weight (C_out,C/groups,kernel...) needs a channel dimension of its own
// Invalid: With 4 groups each filter sees C/4 channels; reusing C for the weight would count 4 times the FLOPs.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, Cg, K3, K3), out<2>("y", f32, B, Co, Ho, Wo), {.groups = 4}));
#else
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo), {.groups = 4}));
#endif
