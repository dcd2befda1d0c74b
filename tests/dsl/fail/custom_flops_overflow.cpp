// expected-message: rooflint: at: the FLOP count overflows a double at these sizes
// Invalid: 1e300 * N^2 at N = 2^30 is about 1.2e318 FLOP, past the largest double (1.8e308).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("op", custom(2 * N * N, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 30));
#else
inline constexpr auto checked = kernel<rowwise>("op", custom(1e300 * N * N, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 30));
#endif
