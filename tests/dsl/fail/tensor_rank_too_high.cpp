// expected-message: rooflint: tensor: a tensor has at most 6 dimensions
// Invalid: Seven dimensions; a spec stores at most 6 per tensor (fold some into one dimension).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("copy", custom(0, in<0>("x", f32, M, N, K, B, S, D), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("copy", custom(0, in<0>("x", f32, M, N, K, B, S, D, T), out<1>("y", f32, M)));
#endif
