// expected-message: rooflint: tensor: the dtype must be a dtype tag (f32, bf16, i32, ...), not a C++ type (float) or a model::dtype value
// Invalid: the element's C++ type as a template argument; the dtype is the tag f32 (the kernel's
// float* parameter is checked against it).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N)));
#else
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0, float>("x", N), out<1>("y", f32, N)));
#endif
