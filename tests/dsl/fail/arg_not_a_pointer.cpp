// expected-message: rooflint: kernel: a tensor must be bound to a pointer parameter
// Invalid: Parameter 3 of sgemm is the int size, not a pointer to C's data.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<3>("C", f32, M, N)));
#endif
