// expected-message: rooflint: touches: the touched part is larger than the tensor
// Invalid: max(M, N)*N elements of an (M,N) tensor is more than all M*N of them once N > M; min is meant.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(min(M, N) * N), out<1>("y", f32, M)));
#else
inline constexpr auto checked = kernel<rowwise>("gather", custom(0, in<0>("x", f32, M, N).touches(max(M, N) * N), out<1>("y", f32, M)));
#endif
