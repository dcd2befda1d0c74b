// expected-message: rooflint: region: a library kernel's pattern must have 1 to 31 characters
// Invalid: patterns are stored in a spec's 32-byte names; 32 characters do not fit.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<library_kernel<"sm90_xmma_gemm">>("gemm", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)));
#else
inline constexpr auto checked = region<library_kernel<"sm90_xmma_gemm_f32f32_tf32f32_f32">>("gemm", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)));
#endif
