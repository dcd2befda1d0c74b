// expected-message: rooflint: linear: X (M,K) and W (N,K) must share the dimension K
// Invalid: W is given as (K,N), the transpose of how torch.nn.Linear stores it: linear computes X @ W^T with W (N,K).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("linear", linear(in<0>("x", f32, M, K), in<1>("w", f32, N, K), out<2>("y", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("linear", linear(in<0>("x", f32, M, K), in<1>("w", f32, K, N), out<2>("y", f32, M, N)));
#endif
