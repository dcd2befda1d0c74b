// expected-message: rooflint: kernel: a tensor without a kernel parameter belongs to a region (region.h); bind it to a parameter: in<0>("x", f32, N)
// Invalid: kernel<vadd> binds tensors to vadd's parameters; in("a", ...) names none.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#else
inline constexpr auto checked = kernel<vadd>("vadd", elementwise(1, in("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#endif
