// expected-message: rooflint: kernel: two tensors are bound to the same kernel parameter (if each is a part of it, say where: .slice(offset))
// Invalid: A and B are both bound to parameter 0; B's data is parameter 1.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<0>("B", f32, K, N), out<2>("C", f32, M, N)));
#endif
