#pragma once
// The analyzer's contract with the spec language: specs that use every field of rooflint::dsl::spec.
// The test compiles this header (the DSL's own values) and analyses it (the values the analyzer reads
// through Clang's constant evaluator); the two must agree field by field. Plain C++ (host functions).
#include "rooflint/dsl.h"

namespace contract {
using namespace rooflint::dsl;
// clang-format off
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct Co final : dim<"Co"> {} Co;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct K3 final : dim<"K3", 3> {} K3;
inline constexpr struct Nh final : dim<"Nh"> {} Nh;
inline constexpr struct S final : dim<"S"> {} S;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct Hs final : dim<"Hs"> {} Hs;
// clang-format on

inline void conv_kernel(const float* x, const float* w, float* y, float* workspace) {}
inline void flash_kernel(const __half* q, const __half* k, const __half* v, __half* o) {}
inline void gelu_kernel(const __nv_bfloat16* x, __nv_bfloat16* y) {}
inline void embed_kernel(const float* table, const std::int32_t* ids, float* out, int rows) {}
inline void norm_kernel(const float* x, float* y, float* mean, float* rstd) {}
inline void packed_kernel(const float* qkv, const std::uint8_t* mask, float* out, int t, int d, int nh) {}

// Derived output sizes (stride 2, padding 1), a static dimension, an uncounted pointer, a math mode,
// expectations of every kind.
inline constexpr auto conv_spec =
    kernel<conv_kernel>("conv", conv2d(in<0>("x", f32, B, C, H, W),        // x: (B,C,H,W)
                                       in<1>("w", f32, Co, C, K3, K3),     // w: (Co,C,3,3)
                                       out<2>("y", f32, B, Co, Ho, Wo),    // y: (B,Co,Ho,Wo)
                                       {.stride = 2, .padding = 1}),
                        uncounted<3>("workspace"))
        .at(B(8), C(64), Co(128), H(56), W(56))
        .math(rooflint::model::math_mode::tf32_tensor)
        .expect(compute_bound)
        .max_traffic_ratio(1.5)
        .min_roofline_fraction(0.5);

// Causal attention with the convention switches on.
inline constexpr auto flash_spec =
    kernel<flash_kernel>("flash", attention(in<0>("q", f16, B, Nh, S, D),   // q: (B,Nh,S,D)
                                            in<1>("k", f16, B, Nh, S, D),   // k: (B,Nh,S,D)
                                            in<2>("v", f16, B, Nh, S, D),   // v: (B,Nh,S,D)
                                            out<3>("o", f16, B, Nh, S, D),  // o: (B,Nh,S,D)
                                            masking::causal))
        .halve_causal()
        .count_elementwise()
        .at(B(4), Nh(16), S(2048), D(128));

// A partial tensor (touches) with a min term, a custom FLOP count, and sizes read from a launch (an argument
// that holds T's base-2 logarithm, a block dimension with a divisor; V stays at its .at() size).
inline constexpr auto embed_spec =
    kernel<embed_kernel>("embed", custom(0, in<0>("table", f32, V, D).touches(min(T, V) * D),  // table: (V,D)
                                         in<1>("ids", i32, T),                         // ids: (T)
                                         out<2>("out", f32, T, D)))                    // out: (T,D)
        .at(V(50000), T(4096), D(768))
        .sizes(T(pow2(arg<3>)), D(block_dim.x / 2))
        .expect(memory_bound);

// Extra counted outputs (operation::with).
inline constexpr auto norm_spec =
    kernel<norm_kernel>("norm", layernorm(in<0>("x", f32, T, D),           // x: (T,D)
                                          out<1>("y", f32, T, D))          // y: (T,D)
                                    .with(out<2>("mean", f32, T),          // mean: (T)
                                          out<3>("rstd", f32, T)))         // rstd: (T)
        .at(T(4096), D(768));

// A stated precision: bf16 storage, f32 math and accumulate.
inline constexpr auto gelu_spec =
    kernel<gelu_kernel>("gelu", unary(8, in<0>("x", bf16, T, D), out<1>("y", bf16, T, D)).precision(f32))
        .at(T(4096), D(768));

// Parts of one parameter (slices at offsets), an unsigned dtype, and a dimension defined by others in
// .sizes(): Hs = D / Nh, a div term named "Hs".
inline constexpr auto packed_spec =
    kernel<packed_kernel>("packed", custom(2 * T * T * Nh * Hs, in<0>("q", f32, T, Nh, Hs).slice(0),       // q: (T,Nh,Hs)
                                           in<0>("k", f32, T, Nh, Hs).slice(Nh * Hs),                // k: (T,Nh,Hs)
                                           in<1>("mask", u8, T),                                     // mask: (T)
                                           out<2>("out", f32, T, Nh, Hs)))                           // out: (T,Nh,Hs)
        .sizes(T(arg<3>), D(arg<4>), Nh(arg<5>), Hs(D / Nh))
        .at(T(1024), D(768), Nh(12));  // after .sizes(): D is a dimension of the spec from its definition on
}  // namespace contract
