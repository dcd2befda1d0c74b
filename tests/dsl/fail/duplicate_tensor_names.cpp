// expected-message: rooflint: kernel: two tensors have the same name
// Invalid: Two tensors are named 'A': reports and the analyzer name tensors, so names must be distinct.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("A", f32, K, N), out<2>("C", f32, M, N)));
#endif
