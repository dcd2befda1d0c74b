// expected-message: rooflint: indices: the bound of the values is a dimension no tensor has
// Invalid: the values index some tensor, whose dimension bounds them.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<gather_rows>("gather", custom(0, in<0>("x", i32, M, N).indices(uniform(K)), out<1>("y", f32, K)));
#else
inline constexpr auto checked = kernel<gather_rows>("gather", custom(0, in<0>("x", i32, M, N).indices(uniform(J)), out<1>("y", f32, K)));
#endif
