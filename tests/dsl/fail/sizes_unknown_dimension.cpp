// expected-message: rooflint: sizes: a dimension no tensor has must be read from an argument, whose value it states: R(arg<4>)
// Invalid: J is no dimension of this spec (a typo for N, say). Read from an argument it would state that
// parameter's value; read from the grid it states nothing, and the reading would be ignored.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(J(grid_dim.x), N(arg<3>));
#endif
