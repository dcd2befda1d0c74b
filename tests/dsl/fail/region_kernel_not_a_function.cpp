// expected-message: rooflint: region: each kernel is a __global__ function or a library_kernel<"pattern">
// Invalid: 42 is neither a kernel function nor a library kernel's pattern.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<rowwise, library_kernel<"gemm">>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)));
#else
inline constexpr auto checked = region<rowwise, 42>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)));
#endif
