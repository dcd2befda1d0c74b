// expected-message: rooflint: registers: a thread has 1 to 255 registers
// Invalid: no thread has more than 255 registers (ptxas's limit); a count past it is a typo, not a kernel.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).block(256).registers(255);
#else
inline constexpr auto checked = kernel<rowwise>("rows", custom(0, in<0>("x", f32, M, N), out<1>("y", f32, M))).block(256).registers(256);
#endif
