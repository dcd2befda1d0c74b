// expected-message: rooflint: at: a dimension is given twice
// Invalid: M is given two sizes; one of them would silently win.
#include "common.h"

inline constexpr auto gemm = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)));
#ifdef ROOFLINT_FIXED
inline constexpr auto checked = gemm.at(M(64), N(64), K(64));
#else
inline constexpr auto checked = gemm.at(M(64), N(64), M(128), K(64));
#endif
