// expected-message: rooflint: sizes: the spec has no dimension of that name
// Invalid: J is no dimension of this spec (a typo for N, say): the reading would be ignored.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(J(arg<3>), N(grid_dim.x));
#endif
