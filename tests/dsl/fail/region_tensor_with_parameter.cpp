// expected-message: rooflint: region: a region's tensors name no kernel parameter: in("x", f32, N), not in<0>("x", f32, N)
// Invalid: a region's kernels have different signatures, so parameter 0 means nothing for the region.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<rowwise, rowwise>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)));
#else
inline constexpr auto checked = region<rowwise, rowwise>("rows", softmax(in<0>("x", f32, M, N), out("y", f32, M, N)));
#endif
