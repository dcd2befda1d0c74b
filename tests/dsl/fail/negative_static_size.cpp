// expected-message: rooflint: dim: a static size must be positive
// Invalid: A dimension of static size -4: sizes count elements.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr struct Z final : dim<"Z", 4> {} Z;
#else
inline constexpr struct Z final : dim<"Z", -4> {} Z;
#endif
