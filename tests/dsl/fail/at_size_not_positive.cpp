// expected-message: rooflint: at: a size must be positive
// Invalid: M(0): a dimension of size 0 has no work and no traffic; the verdict would divide by zero.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(64), N(64), K(64));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(0), N(64), K(64));
#endif
