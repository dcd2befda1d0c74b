// expected-message: rooflint: addmm: bias must have shape (N) or (M,N)
// Invalid: The bias is (M): addmm broadcasts a bias over the rows of C (M,N), so it is (N) or all of (M,N).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<mm4>("addmm", addmm(in<0>("bias", f32, N), in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<3>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<mm4>("addmm", addmm(in<0>("bias", f32, M), in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<3>("C", f32, M, N)));
#endif
