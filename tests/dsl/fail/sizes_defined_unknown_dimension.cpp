// expected-message: rooflint: sizes: the spec has no dimension of that name
// Invalid: J is no dimension of this spec, so defining it as M * K would define nothing.
#include "common.h"

void rows_of(const float*, float*, int, int, int) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rows_of>("rows", rmsnorm(in<0>("x", f32, N, C), out<1>("y", f32, N, C))).sizes(M(arg<2>), K(arg<3>), N(M * K), C(arg<4>));
#else
inline constexpr auto checked = kernel<rows_of>("rows", rmsnorm(in<0>("x", f32, N, C), out<1>("y", f32, N, C))).sizes(M(arg<2>), K(arg<3>), J(M * K), N(arg<3>), C(arg<4>));
#endif
