// expected-message: rooflint: touches: the touched part must not be empty
// Invalid: A kernel that must touch 0 elements of a tensor should not name it (or use uncounted<>).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(M), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(0), out<1>("y", f32, M)));
#endif
