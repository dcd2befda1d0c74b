// expected-message: rooflint: rmsnorm: gamma must have shape (C), the input's last dimension (or name the normalised dimensions: over(...))
// Invalid: gamma is (M), but an RMS norm over the last dimension N scales each of the N features.
#include "common.h"

void rms_affine(const float*, const float*, float*) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<rms_affine>("rmsnorm", rmsnorm(in<0>("x", f32, M, N), in<1>("gamma", f32, N), out<2>("y", f32, M, N)));
#else
inline constexpr auto checked = kernel<rms_affine>("rmsnorm", rmsnorm(in<0>("x", f32, M, N), in<1>("gamma", f32, M), out<2>("y", f32, M, N)));
#endif
