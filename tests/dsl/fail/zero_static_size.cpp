// expected-message: rooflint: dim: a static size must be positive
// Invalid: A dimension of static size 0 has no elements.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr struct Z final : dim<"Z", 1> {} Z;
#else
inline constexpr struct Z final : dim<"Z", 0> {} Z;
#endif
