// expected-message: rooflint: linear: X and W have different dtypes (state the precision: linear(...).precision(f16, f32))
// Invalid: a bf16 activation times an f16 weight; the fixed variant states bf16 math with f32 accumulate.
#include "common.h"

void mixed_linear(const __nv_bfloat16*, const __half*, float*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<mixed_linear>("linear", linear(in<0>("X", bf16, M, K), in<1>("W", f16, N, K), out<2>("Y", f32, M, N)).precision(bf16, f32));
#else
inline constexpr auto checked = kernel<mixed_linear>("linear", linear(in<0>("X", bf16, M, K), in<1>("W", f16, N, K), out<2>("Y", f32, M, N)));
#endif
