// expected-message: rooflint: layernorm: every dimension of gamma and beta must be a dimension of the input
// Invalid: an instance norm of (B,C,H,W) over (H,W) scales each channel, gamma (C); gamma (K) names a
// dimension the input does not have.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<norm_affine>("instance_norm", layernorm(in<0>("x", f32, B, C, H, W), in<1>("gamma", f32, C), in<2>("beta", f32, C), out<3>("y", f32, B, C, H, W), over(H, W)));
#else
inline constexpr auto checked = kernel<norm_affine>("instance_norm", layernorm(in<0>("x", f32, B, C, H, W), in<1>("gamma", f32, K), in<2>("beta", f32, K), out<3>("y", f32, B, C, H, W), over(H, W)));
#endif
