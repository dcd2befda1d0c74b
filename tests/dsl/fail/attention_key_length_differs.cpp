// expected-message: rooflint: attention: K (B,H,Sk,D) and V (B,H,Sk,Dv) must share the key length Sk
// Invalid: K has S keys but V has T values: attention weights every value by its key's score, one per key.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, D), in<1>("k", f16, B, Nh, S, D), in<2>("v", f16, B, Nh, S, D), out<3>("o", f16, B, Nh, S, D)));
#else
inline constexpr auto checked = kernel<flash>("flash", attention(in<0>("q", f16, B, Nh, S, D), in<1>("k", f16, B, Nh, S, D), in<2>("v", f16, B, Nh, T, D), out<3>("o", f16, B, Nh, S, D)));
#endif
