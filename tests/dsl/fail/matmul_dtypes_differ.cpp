// expected-message: rooflint: matmul: lhs and rhs have different dtypes (state the precision: matmul(...).precision(f16, f32))
// Invalid: A is f32 and B is f16, almost always a typo; a product that mixes them on purpose states
// its precision, as the fixed variant does (f16 math on tensor cores, f32 accumulate).
#include "common.h"

void mixed_gemm(const float*, const __half*, float*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<mixed_gemm>("gemm", matmul(in<0>("A", f32, M, K), in<1>("B", f16, K, N), out<2>("C", f32, M, N)).precision(f16, f32));
#else
inline constexpr auto checked = kernel<mixed_gemm>("gemm", matmul(in<0>("A", f32, M, K), in<1>("B", f16, K, N), out<2>("C", f32, M, N)));
#endif
