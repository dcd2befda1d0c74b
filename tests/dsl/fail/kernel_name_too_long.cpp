// expected-message: rooflint: kernel: a kernel name must have 1 to 31 characters
// Invalid: Names are stored in 32 characters (with the terminating zero) so the analyzer can read them.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm_128x128_tile_f32", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm_128x128_tile_f32_double_buffered", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#endif
