// expected-message: rooflint: registers: the spec already states them
// Invalid: a kernel has one register count; a second .registers() would silently win.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).registers(96);
#else
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).registers(96).registers(64);
#endif
