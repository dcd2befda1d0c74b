// A spec that fails its own check (gamma of an RMS norm over the wrong dimension): the code is wrong for
// nvcc too, so rooflint says that a spec does not compile, with the check's message, and does not
// suggest --allow-parse-errors.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void rms_affine(const float* x, const float* gamma, float* y) {}

inline constexpr auto rms_spec =
    kernel<rms_affine>("rmsnorm", rmsnorm(in<0>("x", f32, M, N), in<1>("gamma", f32, M), out<2>("y", f32, M, N)));
