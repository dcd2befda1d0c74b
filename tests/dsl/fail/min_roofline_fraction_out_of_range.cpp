// expected-message: rooflint: min_roofline_fraction: the fraction must be in (0, 1]
// Invalid: A fraction is t_min / t_measured, stored 0..1: 80 (meant as 80%) can never be reached.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).min_roofline_fraction(0.8);
#else
inline constexpr auto checked = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N))).min_roofline_fraction(80);
#endif
