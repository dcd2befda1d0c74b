// expected-message: rooflint: at: the size differs from the static size of the dimension
// Invalid: K3 is declared with the static size 3; declaring 5 for it contradicts the declaration.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo))).at(K3(3));
#else
inline constexpr auto checked = kernel<conv_f32>("conv", conv2d(in<0>("x", f32, B, C, H, W), in<1>("w", f32, Co, C, K3, K3), out<2>("y", f32, B, Co, Ho, Wo))).at(K3(5));
#endif
