// expected-message: rooflint: matmul: output must be written (out or inout)
// Invalid: C is declared with in<>, so the spec says the kernel only reads its result.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), in<2>("C", f32, M, N)));
#endif
