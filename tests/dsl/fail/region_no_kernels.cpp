// expected-message: rooflint: region: a region names at least one kernel: region<k1, k2>(...)
// Invalid: a region of no kernels has nothing to launch (and nothing to verify).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<rowwise>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)));
#else
inline constexpr auto checked = region<>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)));
#endif
