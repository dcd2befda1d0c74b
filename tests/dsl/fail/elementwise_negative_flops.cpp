// expected-message: rooflint: binary: the FLOP count per element must not be negative
// Invalid: -1 FLOP per element: a count of work cannot be negative (0 is allowed, for a copy).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", binary(0, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", binary(-1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#endif
