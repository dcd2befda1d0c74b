// expected-message: rooflint: dynamic_shared: the bytes use a dimension the spec does not have
// Invalid: the bytes are counted at the spec's sizes, so they may use only the spec's dimensions.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).dynamic_shared(4 * N);
#else
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).dynamic_shared(4 * K);
#endif
