// expected-message: rooflint: kernel: a written tensor is bound to a pointer to const
// Invalid: C is written but bound to parameter 1, a 'const float *': the kernel cannot write through it.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<2>("B", f32, K, N), out<1>("C", f32, M, N)));
#endif
