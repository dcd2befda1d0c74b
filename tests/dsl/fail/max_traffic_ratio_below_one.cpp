// expected-message: rooflint: max_traffic_ratio: the ratio must be at least 1
// Invalid: Compulsory bytes are a lower bound, so no kernel moves less than 1x of them; 0.5 could never pass.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).max_traffic_ratio(1.25);
#else
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).max_traffic_ratio(0.5);
#endif
