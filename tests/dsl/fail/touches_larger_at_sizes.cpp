// expected-message: rooflint: at: the touched part of a tensor is larger than the tensor at these sizes
// Invalid: B*T = 4096 lookups of D elements each touch more than the whole (M,D) table of 1024 rows;
// the compulsory part of a table is at most all of it.
#include "common.h"

void embed(const std::int32_t*, const float*, float*) {}

inline constexpr auto lookup = kernel<embed>("embed", custom(0, in<0>("idx", i32, B, T), in<1>("table", f32, M, D).touches(B * T * D), out<2>("y", f32, B, T, D)));
#ifdef ROOFLINT_FIXED
inline constexpr auto checked = lookup.at(B(8), T(64), M(1024), D(256));
#else
inline constexpr auto checked = lookup.at(B(8), T(512), M(1024), D(256));
#endif
