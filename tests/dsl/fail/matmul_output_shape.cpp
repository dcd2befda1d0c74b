// expected-message: rooflint: matmul: output must have shape (M,N) for lhs (M,K) and rhs (K,N)
// Invalid: C is declared (N,M), the transpose of the product's (M,N).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, N, M)));
#endif
