// expected-message: rooflint: reduction: every dimension of the output must be a dimension of the input
// Invalid: Reducing x (M,N) cannot produce a K: a reduction keeps some of its input's dimensions.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("row_sum", reduction(in<0>("x", f32, M, N), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("row_sum", reduction(in<0>("x", f32, M, N), out<1>("y", f32, K)));
#endif
