// expected-message: rooflint: slice: the offset must not be negative
// Invalid: a slice starts at or after its parameter's first element; -D is before it.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<flash>("attention", attention(in<0>("q", f16, B, Nh, S, D).slice(0), in<0>("k", f16, B, Nh, S, D).slice(Nh * D), in<0>("v", f16, B, Nh, S, D).slice(2 * Nh * D), out<3>("o", f16, B, Nh, S, D)));
#else
inline constexpr auto checked = kernel<flash>("attention", attention(in<0>("q", f16, B, Nh, S, D).slice(0), in<0>("k", f16, B, Nh, S, D).slice(0 - D), in<0>("v", f16, B, Nh, S, D).slice(2 * Nh * D), out<3>("o", f16, B, Nh, S, D)));
#endif
