// expected-message: rooflint: reduction: the output must have fewer dimensions than the input
// Invalid: The output keeps both of the input's dimensions, so nothing is reduced (that is a copy or elementwise).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("row_sum", reduction(in<0>("x", f32, M, N), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("row_sum", reduction(in<0>("x", f32, M, N), out<1>("y", f32, N, M)));
#endif
