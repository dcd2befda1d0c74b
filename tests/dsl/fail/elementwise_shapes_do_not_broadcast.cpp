// expected-message: rooflint: elementwise: the shapes do not broadcast (aligned from the last dimension, two dimensions must be the same, or one missing or of static size 1)
// Invalid: a is (M,N) and b is (N,M): aligned from the last dimension, N meets M and M meets N.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, M, N), in<1>("b", f32, N), out<2>("c", f32, M, N)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, M, N), in<1>("b", f32, N, M), out<2>("c", f32, M, N)));
#endif
