// expected-message: rooflint: sizes: a size must be read from an integer parameter (not a pointer, float or bool)
// Invalid: the sizes are read at kernel 1 (vadd), whose parameter 0 is a pointer; kernel_spec's checks
// run against the site's own signature.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<rowwise, vadd>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)))
                                    .at(M(8)).sizes<1>(N(arg<3>));
#else
inline constexpr auto checked = region<rowwise, vadd>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)))
                                    .at(M(8)).sizes<1>(N(arg<0>));
#endif
