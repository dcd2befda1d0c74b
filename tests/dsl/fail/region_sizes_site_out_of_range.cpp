// expected-message: rooflint: region: sizes<I>: I must be the index of one of the region's kernels
// Invalid: the region has two kernels, 0 and 1; there is no kernel 2 to read sizes at.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = region<rowwise, vadd>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)))
                                    .at(M(8)).sizes<1>(N(arg<3>));
#else
inline constexpr auto checked = region<rowwise, vadd>("rows", softmax(in("x", f32, M, N), out("y", f32, M, N)))
                                    .at(M(8)).sizes<2>(N(arg<3>));
#endif
