// expected-message: rooflint: sizes: the sizes are already read from the launch (call sizes() once)
// Invalid: a second sizes() would replace or mix with the first binding.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>)).sizes(N(grid_dim.x));
#endif
