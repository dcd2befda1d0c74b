// expected-message: rooflint: touches: the touched part uses a dimension that no tensor has
// Invalid: the touched part names K, which no tensor of the spec has, so nothing fixes its size.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(M), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(K), out<1>("y", f32, M)));
#endif
