// expected-message: rooflint: precision: the accumulate dtype must be at least as wide as the compute dtype
// Invalid: f32 math cannot accumulate in bf16 (the other way round is meant: bf16 math, f32 accumulate).
#include "common.h"

void bf16_gemm(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<bf16_gemm>("gemm", matmul(in<0>("A", bf16, M, K), in<1>("B", bf16, K, N), out<2>("C", bf16, M, N)).precision(bf16, f32));
#else
inline constexpr auto checked = kernel<bf16_gemm>("gemm", matmul(in<0>("A", bf16, M, K), in<1>("B", bf16, K, N), out<2>("C", bf16, M, N)).precision(f32, bf16));
#endif
