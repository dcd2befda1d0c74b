// expected-message: rooflint: custom: the FLOP count must not be negative
// Invalid: N - 2*N*N is negative at every N >= 1.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("op", custom(2 * N * N - N, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("op", custom(N - 2 * N * N, in<0>("x", f32, N), out<1>("y", f32, N)));
#endif
