// expected-message: rooflint: elementwise: at least one tensor must be written
// Invalid: both tensors are in<>: an elementwise operation that writes nothing has no result.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("scale", elementwise(1, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("scale", elementwise(1, in<0>("x", f32, N), in<1>("y", f32, N)));
#endif
