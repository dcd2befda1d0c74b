// expected-message: rooflint: sizes: a dimension is neither read from the launch nor fixed by a static size, the operation or a preceding .at()
// Invalid: N is read from the launch and M fixed by .at(), but K has no size at a launch. The error
// names K: each compiler prints detail::dimension_without_size with K as its template argument
// (tests/dsl/CMakeLists.txt checks that too).
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(64), K(64)).sizes(N(arg<3>));
#else
inline constexpr auto checked = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N))).at(M(64)).sizes(N(arg<3>));
#endif
