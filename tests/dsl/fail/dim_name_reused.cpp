// expected-message: rooflint: kernel: two different dimension tags have the same name
// Invalid: Other is a second tag named "N", distinct from N: the spec names dimensions by their
// names, so the two would silently become one dimension with one size.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr struct Other final : dim<"Other"> {} Other;
#else
inline constexpr struct Other final : dim<"N"> {} Other;
#endif
inline constexpr auto checked = kernel<rowwise>("copy", custom(0, in<0>("x", f32, N), out<1>("y", f32, Other)));
