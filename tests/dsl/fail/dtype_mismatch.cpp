// expected-message: rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds f32 or tf32 (float, float2, float3, float4)
// Invalid: B is declared f16 but parameter 1 of sgemm is 'const float *'.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f16, K, N), out<2>("C", f32, M, N)));
#endif
