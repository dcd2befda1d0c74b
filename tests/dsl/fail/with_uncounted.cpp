// expected-message: rooflint: with: an extra tensor must be in, out or inout (an uncounted pointer goes to kernel())
// Invalid: an operation's extra tensors are counted; a scratch pointer is bound by kernel() instead.
#include "common.h"

void ln_scratch(const float*, float*, float*) {}
#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<ln_scratch>("ln", layernorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N)), uncounted<2>("scratch"));
#else
inline constexpr auto checked = kernel<ln_scratch>("ln", layernorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N)).with(uncounted<2>("scratch")));
#endif
