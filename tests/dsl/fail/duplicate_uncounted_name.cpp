// expected-message: rooflint: kernel: two tensors have the same name
// Invalid: the uncounted pointer is named 'C' like the output tensor: reports name every binding.
#include "common.h"

void sgemm_flags(const float*, const float*, float*, int*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm_flags>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)), uncounted<3>("flags"));
#else
inline constexpr auto checked = kernel<sgemm_flags>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)), uncounted<3>("C"));
#endif
