// expected-message: rooflint: expression: a min, max or ceil_div term is longer than 31 characters as text
// Invalid: a term is a dimension of the spec named by its text, and names have at most 31 characters.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("tiles", custom(2 * ceil_div(M * N, 4096), in<0>("x", f32, M, N), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("tiles", custom(2 * ceil_div(M * N * M + M * N * N + M, 4096), in<0>("x", f32, M, N), out<1>("y", f32, M)));
#endif
