// expected-message: rooflint: sizes: a parameter is read from its argument as it is: R(arg<4>)
// Invalid: a parameter (param<"Rd">, a radius) states its argument's value; scaled, it would state
// another, which the kernel never sees.
#include "common.h"

void box(const float*, float*, int, int, int) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<box>("box", custom(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2>), Rd(arg<4>));
#else
inline constexpr auto checked = kernel<box>("box", custom(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2>), Rd(2 * arg<4>));
#endif
