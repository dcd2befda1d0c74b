// expected-message: rooflint: matmul: lhs must have rank 2, shape (M,K)
// Invalid: A has three dimensions; matmul multiplies matrices (use bmm for a batch).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, Bt, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#endif
