// expected-message: rooflint: kernel: the element type of the tensor's pointer parameter holds no dtype (char, bool, short and types without a storage_dtypes specialisation hold none); see the dtypes each type holds in docs/dsl.md
// Invalid: 'const short *' holds no dtype (there is no i16); 'const std::uint16_t *' holds u16.
#include "common.h"

#ifdef ROOFLINT_FIXED
void widen(const std::uint16_t*, float*) {}
inline constexpr auto checked = kernel<widen>("widen", unary(0, in<0>("x", u16, N), out<1>("y", f32, N)));
#else
void widen(const short*, float*) {}
inline constexpr auto checked = kernel<widen>("widen", unary(0, in<0>("x", u16, N), out<1>("y", f32, N)));
#endif
