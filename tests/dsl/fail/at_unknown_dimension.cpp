// expected-message: rooflint: at: the spec has no dimension of that name
// Invalid: J is no dimension of this spec (a typo for K, say), so its size would be silently ignored.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(64), N(64), K(64));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(64), N(64), J(64));
#endif
