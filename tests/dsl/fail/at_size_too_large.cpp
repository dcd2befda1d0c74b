// expected-message: rooflint: at: a size must be at most 2^53 (sizes are exact in a double up to there)
// Invalid: INT64_MAX elements cannot be held exactly as a double (nor by any GPU).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).at(N(INT64_C(1) << 53));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).at(N(INT64_MAX));
#endif
