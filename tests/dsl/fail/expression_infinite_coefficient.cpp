// expected-message: rooflint: expression: a coefficient must be finite
// Invalid: an infinite FLOP count per element gives no floor at any size.
#include <limits>

#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("op", custom(1e30 * N, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("op", custom(std::numeric_limits<double>::infinity() * N, in<0>("x", f32, N), out<1>("y", f32, N)));
#endif
