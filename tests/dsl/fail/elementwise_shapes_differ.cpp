// expected-message: rooflint: binary: both inputs must broadcast to the output's shape (aligned from the last dimension, each dimension the output's, missing, or of static size 1)
// Invalid: b is (M) while a and c are (N): aligned from the last dimension, M meets N, and neither is
// missing or of static size 1. The message names binary, the operation written.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, M), out<2>("c", f32, N)));
#endif
