// expected-message: rooflint: sizes: a size must be read from an integer parameter (not a pointer, float or bool)
// Invalid: parameter 0 of vadd is the pointer to a, not the element count.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(arg<0>));
#endif
