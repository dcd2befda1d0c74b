// expected-message: rooflint: elementwise: all tensors must have the same shape
// Invalid: b is (M) while a and c are (N): an elementwise operation pairs element i of every tensor.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, M), out<2>("c", f32, N)));
#endif
