// expected-message: rooflint: layernorm: gamma and beta must have shape (C), the input's last dimension
// Invalid: gamma is (M) but layernorm normalises over the last dimension N, so the scale has one entry per N.
#include "common.h"

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<norm_affine>("layernorm", layernorm(in<0>("x", f32, M, N), in<1>("gamma", f32, N), in<2>("beta", f32, N), out<3>("y", f32, M, N)));
#else
inline constexpr auto checked = kernel<norm_affine>("layernorm", layernorm(in<0>("x", f32, M, N), in<1>("gamma", f32, M), in<2>("beta", f32, M), out<3>("y", f32, M, N)));
#endif
