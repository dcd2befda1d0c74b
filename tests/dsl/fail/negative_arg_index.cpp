// expected-message: rooflint: tensor: the kernel argument index must not be negative
// Invalid: Parameter indices count from 0.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<-1>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#endif
