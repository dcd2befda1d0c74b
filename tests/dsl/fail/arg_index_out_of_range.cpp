// expected-message: rooflint: kernel: a tensor's argument index is past the kernel's last parameter
// Invalid: sgemm has 4 parameters (0 to 3); C is bound to parameter 5.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<5>("C", f32, M, N)));
#endif
