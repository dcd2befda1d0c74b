// expected-message: rooflint: tensor: every shape entry must be a dimension tag (N, S), not a number or an expression (N*S): give the product a dimension of its own
// Invalid: a flattened (N*S) shape written as an expression; a tensor's shape lists dimensions.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0>("x", f32, N, S), out<1>("y", f32, N, S)));
#else
inline constexpr auto checked = kernel<rowwise>("copy", elementwise(0, in<0>("x", f32, N * S), out<1>("y", f32, N * S)));
#endif
