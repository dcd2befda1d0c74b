// expected-message: rooflint: region: sizes<I>: the I-th kernel is a library kernel, whose parameters are not ours
// Invalid: sizes cannot be read from cuBLAS's kernel (its parameter layout is the library's business).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<vadd, library_kernel<"gemm">>("gemm", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
                                    .at(M(8), K(8)).sizes<0>(N(arg<3>));
#else
inline constexpr auto checked = region<vadd, library_kernel<"gemm">>("gemm", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
                                    .at(M(8), K(8)).sizes<1>(N(arg<3>));
#endif
