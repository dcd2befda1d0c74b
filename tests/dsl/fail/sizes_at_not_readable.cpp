// expected-message: rooflint: sizes: a dimension's .at() size is not one its launch source can give (a power of two for pow2(arg<I>), a whole multiple of a multiplier)
// Invalid: n = 2^arg<3> is never 1000, so the build has no value of the parameter for the size it evaluates.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).at(N(1024)).sizes(N(pow2(arg<3>)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).at(N(1000)).sizes(N(pow2(arg<3>)));
#endif
