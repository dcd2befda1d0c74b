// expected-message: rooflint: indices: an index tensor has an integer dtype
// Invalid: float values cannot index a tensor; the statement belongs on the integer index array.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<gather_rows>("gather", custom(0, in<0>("x", i32, M, N).indices(uniform(K)), out<1>("y", f32, K)));
#else
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).indices(uniform(K)), out<1>("y", f32, K)));
#endif
