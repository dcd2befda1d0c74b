// expected-message: rooflint: expect: the spec already expects the other bound
// Invalid: the spec expects memory-bound, then compute-bound; one would silently win.
#include "common.h"

inline constexpr auto gemm = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#ifdef ROOFLINT_FIXED
inline constexpr auto checked = gemm.expect(compute_bound).expect(compute_bound);
#else
inline constexpr auto checked = gemm.expect(memory_bound).expect(compute_bound);
#endif
