// expected-message: rooflint: softmax: input and output must have the same shape
// Invalid: The output is (N,M), the transpose of the input (M,N): softmax keeps the shape.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("softmax", softmax(in<0>("x", f32, M, N), out<1>("y", f32, M, N)));
#else
inline constexpr auto checked = kernel<rowwise>("softmax", softmax(in<0>("x", f32, M, N), out<1>("y", f32, N, M)));
#endif
