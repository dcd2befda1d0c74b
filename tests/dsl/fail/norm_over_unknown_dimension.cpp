// expected-message: rooflint: layernorm: over(...) must name dimensions of the input, each once
// Invalid: the input is (B,C,H,W) and has no dimension K to normalise over.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rowwise>("instance_norm", layernorm(in<0>("x", f32, B, C, H, W), out<1>("y", f32, B, C, H, W), over(H, W)));
#else
inline constexpr auto checked = kernel<rowwise>("instance_norm", layernorm(in<0>("x", f32, B, C, H, W), out<1>("y", f32, B, C, H, W), over(H, K)));
#endif
