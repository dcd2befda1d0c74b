// expected-message: rooflint: unary: the input must broadcast to the output's shape (aligned from the last dimension, each dimension the output's, missing, or of static size 1)
// Invalid: x is (M) and y is (M,N): aligned from the last dimension, x's M meets y's N. A row vector
// (N) broadcasts to (M,N); a column needs the shape (M,One), One a dimension of static size 1.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("expand", unary(0, in<0>("x", f32, N), out<1>("y", f32, M, N)));
#else
inline constexpr auto checked = kernel<rowwise>("expand", unary(0, in<0>("x", f32, M), out<1>("y", f32, M, N)));
#endif
