// expected-message: rooflint: bind: a dimension is given twice
// Invalid: the launch binds N twice; one of the sizes would silently win.
#include "common.h"

inline constexpr auto add = kernel<vadd>("vadd", elementwise(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
#ifdef ROOFLINT_FIXED
bool bound(std::int64_t n) { return add.bind(N(n)).ok(); }
#else
bool bound(std::int64_t n) { return add.bind(N(n), N(2 * n)).ok(); }
#endif
