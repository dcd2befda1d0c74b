// Input of tests/runtime/inject_test.cpp (RealKernels): tests/runtime/data/real-kernels.manifest.json
// is the analyzer's manifest of this file (regenerate as the comment at the top of inject_test.cpp says,
// with this file and that manifest).
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct V final : dim<"V"> {} V;

// llm.c's layernorm_forward(out, mean, rstd, inp, weight, bias, B, T, C): mean and rstd are counted.
__global__ void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                                  const float* bias, int b, int t, int c) {}
// llm.c's encoder-style lookup: out (B,T,C) from a (V,C) table at B*T token ids.
__global__ void embed(float* out, const int* ids, const float* table, int b, int t, int c, int v) {}

inline constexpr auto layernorm_spec =
    kernel<layernorm_forward>("layernorm_forward",
                              layernorm(in<3>("inp", f32, B, T, C), in<4>("weight", f32, C), in<5>("bias", f32, C),
                                        out<0>("out", f32, B, T, C))
                                  .with(out<1>("mean", f32, B, T), out<2>("rstd", f32, B, T)))
        .sizes(B(arg<6>), T(arg<7>), C(arg<8>));
inline constexpr auto embed_spec =
    kernel<embed>("embed", custom(0, in<1>("ids", i32, B, T), in<2>("table", f32, V, C).touches(min(B * T, V) * C),
                                  out<0>("out", f32, B, T, C)))
        .sizes(B(arg<3>), T(arg<4>), C(arg<5>), V(arg<6>));
