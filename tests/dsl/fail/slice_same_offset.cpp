// expected-message: rooflint: kernel: two slices of one parameter start at the same element
// Invalid: q and k are both slices of parameter 0 at offset 0; in a packed (B,S,3,Nh,D) buffer k starts
// Nh * D elements after q.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<flash>("attention", attention(in<0>("q", f16, B, Nh, S, D).slice(0), in<0>("k", f16, B, Nh, S, D).slice(Nh * D), in<0>("v", f16, B, Nh, S, D).slice(2 * Nh * D), out<3>("o", f16, B, Nh, S, D)));
#else
inline constexpr auto checked = kernel<flash>("attention", attention(in<0>("q", f16, B, Nh, S, D).slice(0), in<0>("k", f16, B, Nh, S, D).slice(0), in<0>("v", f16, B, Nh, S, D).slice(2 * Nh * D), out<3>("o", f16, B, Nh, S, D)));
#endif
