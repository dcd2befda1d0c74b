// expected-message: rooflint: sizes: pow2() takes a parameter as it is: pow2(arg<2>), scaled after (4 * pow2(arg<2>))
// Invalid: 2^(4 * n) is not what a parameter holding a logarithm gives; scale the power instead.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(4 * pow2(arg<3>)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).sizes(N(pow2(4 * arg<3>)));
#endif
