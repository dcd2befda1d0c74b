// expected-message: rooflint: kernel: a spec has at most 8 tensors and uncounted pointers
// Invalid: Nine bindings; a spec stores at most 8.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<nine>("nine", custom(0, in<0>("a", f32, N), in<1>("b", f32, N), in<2>("c", f32, N), in<3>("d", f32, N), in<4>("e", f32, N), in<5>("f", f32, N), in<6>("g", f32, N), out<8>("i", f32, N)));
#else
inline constexpr auto checked = kernel<nine>("nine", custom(0, in<0>("a", f32, N), in<1>("b", f32, N), in<2>("c", f32, N), in<3>("d", f32, N), in<4>("e", f32, N), in<5>("f", f32, N), in<6>("g", f32, N), in<7>("h", f32, N), out<8>("i", f32, N)));
#endif
