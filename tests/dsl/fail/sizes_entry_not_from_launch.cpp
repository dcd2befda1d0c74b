// expected-message: rooflint: sizes: each entry must be a dimension read from the launch or defined by others: N(arg<0>), N(4 * arg<1>), R(grid_dim.x), HS(C / NH)
// Invalid: N(4096) is a fixed size, which belongs in .at(); sizes() reads sizes from launches.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).at(N(4096)).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(4096));
#endif
