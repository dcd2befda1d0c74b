// expected-message: rooflint: indices: the kernel must read an index tensor
// Invalid: the values of a tensor the kernel only writes index nothing the kernel reads.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<gather_rows>("scatter", custom(0, in<0>("x", i32, M, N).indices(uniform(K)), out<1>("y", f32, K)));
#else
inline constexpr auto checked = kernel<scatter_rows>("scatter", custom(0, out<0>("x", i32, M, N).indices(uniform(K)), in<1>("y", f32, K)));
#endif
