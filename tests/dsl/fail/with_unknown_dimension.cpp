// expected-message: rooflint: with: every dimension of an extra tensor must be a dimension of the operation's tensors
// Invalid: the row statistics of an (M,N) layernorm are (M); K is no dimension of the operation.
#include "common.h"

void ln_stats(const float*, float*, float*) {}
#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<ln_stats>("ln", layernorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N)).with(out<2>("mean", f32, M)));
#else
inline constexpr auto checked = kernel<ln_stats>("ln", layernorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N)).with(out<2>("mean", f32, K)));
#endif
