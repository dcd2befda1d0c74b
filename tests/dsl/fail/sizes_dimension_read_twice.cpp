// expected-message: rooflint: sizes: a dimension is read from the launch twice
// Invalid: N is read from parameter 3 and from gridDim.x: two readings could disagree at a launch.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>), N(grid_dim.x));
#endif
