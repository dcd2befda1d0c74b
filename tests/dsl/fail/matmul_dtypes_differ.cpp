// expected-message: rooflint: matmul: lhs and rhs have different dtypes
// Invalid: A is f32 and B is f16, almost always a typo; a product that mixes them on purpose says
// matmul(mixed_precision, ...), as the fixed variant does.
#include "common.h"

void mixed_gemm(const float*, const __half*, float*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<mixed_gemm>("gemm", matmul(mixed_precision, in<0>("A", f32, M, K), in<1>("B", f16, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<mixed_gemm>("gemm", matmul(in<0>("A", f32, M, K), in<1>("B", f16, K, N), out<2>("C", f32, M, N)));
#endif
