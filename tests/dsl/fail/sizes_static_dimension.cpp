// expected-message: rooflint: sizes: a dimension with a static size cannot also be read from the launch
// Invalid: K3 has the static size 3; reading it from a launch would bind it a second way.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N, K3), in<1>("b", f32, N, K3), out<2>("c", f32, N, K3))).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N, K3), in<1>("b", f32, N, K3), out<2>("c", f32, N, K3))).sizes(N(arg<3>), K3(arg<3>));
#endif
