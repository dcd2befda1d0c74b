// expected-message: rooflint: tensor: a tensor name must have 1 to 31 characters
// Invalid: An empty name: diagnostics and reports name every tensor.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#endif
