// expected-message: rooflint: matmul: lhs (M,K) and rhs (K,N) must contract the same dimension K
// Invalid: A is (M,K) but B is (J,N): a matmul contracts one dimension, so B's rows must be K, the same dimension tag.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, J, N), out<2>("C", f32, M, N)));
#endif
