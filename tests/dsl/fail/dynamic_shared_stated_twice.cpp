// expected-message: rooflint: dynamic_shared: the spec already states it
// Invalid: one launch has one dynamic shared memory size; a second .dynamic_shared() would silently win.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked =
    kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).block(256).dynamic_shared(4 * N);
#else
inline constexpr auto checked =
    kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).block(256).dynamic_shared(4 * N).dynamic_shared(1024);
#endif
