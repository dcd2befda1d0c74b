// expected-message: rooflint: at: a size contradicts the operation (a conv output size or C_in/groups)
// Invalid: A 3x3 kernel with stride 1 and no padding makes 32 into 30, not 32.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo))).at(B(1), C(3), Co(8), H(32), W(32), Ho(30), Wo(30));
#else
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo))).at(B(1), C(3), Co(8), H(32), W(32), Ho(32), Wo(32));
#endif
