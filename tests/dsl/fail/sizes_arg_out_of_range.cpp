// expected-message: rooflint: sizes: a size's argument index is past the kernel's last parameter
// Invalid: vadd has parameters 0 to 3; argument 4 does not exist, so N could never be read from a launch.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<4>));
#endif
