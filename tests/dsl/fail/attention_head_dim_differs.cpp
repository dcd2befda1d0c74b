// expected-message: rooflint: attention: Q (B,H,Sq,D) and K (B,H,Sk,D) must share the head dimension D
// Invalid: Q's head dimension is D and K's is E: Q K^T contracts the head dimension, so it must be the same.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, D), in<1>("k", f16, B, Nh, S, D), in<2>("v", f16, B, Nh, S, D), out<3>("o", f16, B, Nh, S, D)));
#else
inline constexpr auto checked = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, D), in<1>("k", f16, B, Nh, S, E), in<2>("v", f16, B, Nh, S, D), out<3>("o", f16, B, Nh, S, D)));
#endif
