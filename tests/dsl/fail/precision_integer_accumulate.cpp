// expected-message: rooflint: precision: integer math accumulates in an integer dtype, floating-point math in a floating-point one
// Invalid: i8 math accumulates in i32, not f32.
#include "common.h"

void i8_gemm(const std::int8_t*, const std::int8_t*, std::int32_t*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<i8_gemm>("gemm", matmul(in<0>("A", i8, M, K), in<1>("B", i8, K, N), out<2>("C", i32, M, N)).precision(i8, i32));
#else
inline constexpr auto checked = kernel<i8_gemm>("gemm", matmul(in<0>("A", i8, M, K), in<1>("B", i8, K, N), out<2>("C", i32, M, N)).precision(i8, f32));
#endif
