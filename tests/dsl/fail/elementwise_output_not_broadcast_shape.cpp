// expected-message: rooflint: elementwise: every written tensor must have the shape all the tensors broadcast to
// Invalid: a (M,N) and c (N) broadcast to (M,N), but c, which is written, is (N): the M rows of the
// result have nowhere to go.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("rows", elementwise(1, in<0>("a", f32, M, N), out<1>("c", f32, M, N)));
#else
inline constexpr auto checked = kernel<rowwise>("rows", elementwise(1, in<0>("a", f32, M, N), out<1>("c", f32, N)));
#endif
