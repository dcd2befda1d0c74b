// expected-message: rooflint: custom: the FLOP count uses a dimension that none of its tensors has
// Invalid: the FLOP count names K, which neither x nor y has, so nothing fixes its size.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("op", custom(2 * N, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("op", custom(2 * N * K, in<0>("x", f32, N), out<1>("y", f32, N)));
#endif
