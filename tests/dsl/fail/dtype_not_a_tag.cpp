// expected-message: rooflint: tensor: the dtype must be a dtype tag (f32, bf16, i32, ...), not a C++ type (float) or a model::dtype value
// Invalid: dtype::f32 is the model's enum value; a spec names the dtype tag f32.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0>("x", dtype::f32, N), out<1>("y", f32, N)));
#endif
