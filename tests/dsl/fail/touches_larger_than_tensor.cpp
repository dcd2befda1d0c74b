// expected-message: rooflint: touches: the touched part is larger than the tensor
// Invalid: x (M,N) has M*N elements; a kernel cannot have to touch 2*M*N of them.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(M), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(2 * M * N), out<1>("y", f32, M)));
#endif
