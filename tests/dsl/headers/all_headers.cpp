// The spec language and the model compile cleanly with -Wall -Wextra -Werror -Wpedantic: every
// public header, and every operation instantiated once (warnings in templates appear only then).
#include "rooflint/dsl.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/model.h"
#include "rooflint/model/describe.h"

namespace {
using namespace rooflint::dsl;
// clang-format off
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct Cg final : dim<"Cg"> {} Cg;
inline constexpr struct Co final : dim<"Co"> {} Co;
inline constexpr struct L final : dim<"L"> {} L;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct Lo final : dim<"Lo"> {} Lo;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct K3 final : dim<"K3", 3> {} K3;
inline constexpr struct S final : dim<"S"> {} S;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct One final : dim<"One", 1> {} One;
// clang-format on

void mm(const float*, const float*, float*) {}
void mm4(const float*, const float*, const float*, float*) {}
void batched(const __half*, const __half*, __half*) {}
void conv(const float*, const float*, float*) {}
void flash(const __nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*) {}
void unary_k(const float*, float*, int*) noexcept {}
void bytes_k(const unsigned char*, unsigned int*, int, int) {}
void packed(const float*, float*, int, int) {}
[[maybe_unused]] void overloaded(const float*, float*) {}  // the overload the spec does not pick
void overloaded(const double*, double*) {}
template <class T> void templated(const T*, T*) {}

constexpr auto s_matmul = kernel<mm>("matmul", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)))
                              .at(M(64), N(64), K(64)).expect(compute_bound).math(rooflint::model::math_mode::tf32_tensor);
constexpr auto s_bmm = kernel<batched>("bmm", bmm(in<0>("A", f16, Bt, M, K), in<1>("B", f16, Bt, K, N), out<2>("C", f16, Bt, M, N)));
constexpr auto s_addmm = kernel<mm4>("addmm", addmm(in<0>("b", f32, N), in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<3>("C", f32, M, N)));
constexpr auto s_linear = kernel<mm4>("linear", linear(in<0>("x", f32, M, K), in<1>("w", f32, N, K), in<2>("b", f32, N), out<3>("y", f32, M, N)));
constexpr auto s_conv1d = kernel<conv>("conv1d", conv1d(in<0>("x", f32, Bt, C, L), in<1>("w", f32, Co, C, K3), out<2>("y", f32, Bt, Co, Lo)));
constexpr auto s_conv2d = kernel<conv>("conv2d", conv2d(in<0>("x", f32, Bt, C, H, W), in<1>("w", f32, Co, Cg, K3, K3),
                                                        out<2>("y", f32, Bt, Co, Ho, Wo), {.stride = 2, .padding = 1, .groups = 2}));
constexpr auto s_attention = kernel<flash>("attention", attention(in<0>("q", bf16, Bt, H, S, D), in<1>("k", bf16, Bt, H, S, D),
                                                                  in<2>("v", bf16, Bt, H, S, D), out<3>("o", bf16, Bt, H, S, D), masking::causal))
                                 .halve_causal();
constexpr auto s_unary = kernel<unary_k>("unary", unary(1, in<0>("x", f32, N), out<1>("y", f32, N)), uncounted<2>("flags"))
                             .count_elementwise().max_traffic_ratio(1.5).min_roofline_fraction(0.5);
constexpr auto s_reduction = kernel<mm>("reduction", reduction(in<0>("x", f32, M, N), out<2>("y", f32, M)));
constexpr auto s_softmax = kernel<mm>("softmax", softmax(in<0>("x", f32, M, N), out<2>("y", f32, M, N)));
constexpr auto s_layernorm = kernel<mm4>("layernorm", layernorm(in<0>("x", f32, M, N), in<1>("g", f32, N), in<2>("b", f32, N), out<3>("y", f32, M, N)));
constexpr auto s_custom = kernel<mm>("custom", custom(2 * N * N, in<0>("x", f32, N).touches(0.5 * N), out<2>("y", f32, N)));
// Broadcasting, norms with optional parameters over other dimensions, unsigned dtypes, parts of one
// parameter, sizes defined by others, an overload and a template instantiation.
constexpr auto s_binary = kernel<mm>("binary", binary(1, in<0>("x", f32, M, N), in<1>("s", f32, M, One), out<2>("y", f32, M, N)));
constexpr auto s_elementwise = kernel<mm4>("elementwise", elementwise(2, in<0>("x", f32, M, N), in<1>("b", f32, N), in<2>("r", f32, M, N), out<3>("y", f32, M, N)));
constexpr auto s_rmsnorm = kernel<mm>("rmsnorm", rmsnorm(in<0>("x", f32, M, N), in<1>("g", f32, N), out<2>("y", f32, M, N)));
constexpr auto s_norm_over = kernel<mm>("norm_over", layernorm(in<0>("x", f32, Bt, C, H, W), in<1>("g", f32, C), out<2>("y", f32, Bt, C, H, W), over(H, W)));
constexpr auto s_softmax_over = kernel<mm>("softmax_over", softmax(in<0>("x", f32, M, N), out<2>("y", f32, M, N), over(M)));
constexpr auto s_bytes = kernel<bytes_k>("bytes", custom(N, in<0>("b", u8, N), inout<1>("bins", u32, K))).sizes(N(arg<2>), K(arg<3>));
constexpr auto s_packed = kernel<packed>("packed", custom(0, in<0>("q", f32, M, K).slice(0), in<0>("k", f32, M, K).slice(K), out<1>("y", f32, M, K)))
                              .sizes(M(arg<2>), N(arg<3>), K(N / 2));
constexpr auto s_overload = kernel<void(const double*, double*), overloaded>("overload", unary(1, in<0>("x", f64, N), out<1>("y", f64, N)));
constexpr auto s_template = kernel<templated<float>>("template", unary(1, in<0>("x", dtype_of<float>, N), out<1>("y", dtype_of<float>, N)));
}  // namespace

int main() {
  const rooflint::dsl::spec* all[] = {&s_matmul, &s_bmm, &s_addmm, &s_linear, &s_conv1d, &s_conv2d, &s_attention,
                                      &s_unary, &s_reduction, &s_softmax, &s_layernorm, &s_custom, &s_binary,
                                      &s_elementwise, &s_rmsnorm, &s_norm_over, &s_softmax_over, &s_bytes, &s_packed,
                                      &s_overload, &s_template};
  std::string text;
  for (const auto* s : all) text += to_string(s->flops) + ratio_to_string(s->flops, s->bytes()) + to_string(s->convention);
  const auto peaks = *rooflint::model::find_peaks("NVIDIA H200");
  const auto r = rooflint::model::classify(s_matmul.workload_at(s_matmul.declared().bound), peaks);
  text += rooflint::model::describe(r, peaks, s_matmul.mode, 1e-3);
  return text.empty() ? 1 : 0;
}
