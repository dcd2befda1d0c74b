// expected-message: rooflint: bmm: operands must share the batch dimension
// Invalid: A is batched over Bt and B over Bu: a batched product pairs the i-th matrices of one batch.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<hbmm>("hbmm", bmm(in<0>("A", f16, Bt, M, K), in<1>("B", f16, Bt, K, N), out<2>("C", f16, Bt, M, N)));
#else
inline constexpr auto checked = kernel<hbmm>("hbmm", bmm(in<0>("A", f16, Bt, M, K), in<1>("B", f16, Bu, K, N), out<2>("C", f16, Bt, M, N)));
#endif
