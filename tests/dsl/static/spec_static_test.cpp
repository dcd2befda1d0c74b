// Compile-time tests of spec values: FLOPs, bytes and bindings evaluated by the compiler, with the
// same functions the analyzer and the runtime use. Values worked out by hand in the comments.
#include "../dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

namespace {
void sgemm(const float*, const float*, float*, int) {}
void vadd(const float*, const float*, float*, int) {}
void conv(const float*, const float*, float*) {}
void saxpy(int, float, const float*, float*) noexcept {}

constexpr auto square = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, N, N),    // A: (N,N)
                                                      in<1>("B", f32, N, N),    // B: (N,N)
                                                      out<2>("C", f32, N, N)));  // C: (N,N)
constexpr auto at4096 = square.bind(N(4096));
static_assert(at4096.ok());
static_assert(square.flops_at(at4096.bound) == 137438953472.0);  // 2 * 4096^3
static_assert(square.bytes_at(at4096.bound) == 201326592.0);     // 12 * 4096^2
static_assert(square.flops.term_count == 1 && square.flops.terms[0].coefficient == 2);
static_assert(square.dim_count == 1);
static_assert(square.mode == model::math_mode::fp32_simt);
static_assert(square.math(model::math_mode::tf32_tensor).mode == model::math_mode::tf32_tensor);

// 4096 / 6 = 682.67 > 13.94: compute-bound on an H200's FP32 roof, decided by the compiler.
constexpr auto h200 = *model::find_peaks("NVIDIA H200");
static_assert(model::classify(square.workload_at(at4096.bound), h200).verdict == model::bound::compute);
// 64 / 6 = 10.67 < 13.94: memory-bound.
static_assert(model::classify(square.workload_at(square.bind(N(64)).bound), h200).verdict == model::bound::memory);

constexpr auto add = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("c", f32, N)));
// The FLOP count typed in the spec (1 per element) counts under every convention, as custom()'s does.
static_assert(add.flops_at(add.bind(N(12)).bound) == 12);
static_assert(add.count_elementwise().flops_at(add.bind(N(12)).bound) == 12);
static_assert(add.bytes_at(add.bind(N(12)).bound) == 144);                        // 12 bytes per element

// A kernel declared noexcept binds like any other; saxpy's y is read and written: 12 bytes per element.
constexpr auto ax = kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N), inout<3>("y", f32, N)));
static_assert(ax.bytes_at(ax.bind(N(1)).bound) == 12);

// Conv output size: floor((32 + 2*1 - 2*(3-1) - 1) / 2) + 1 = floor(29/2) + 1 = 15.
constexpr auto c = kernel<conv>("conv", conv2d(in<0>("x", f32, Nb, C, H, W),         // x: (N,C,H,W)
                                               in<1>("w", f32, Co, C, K3, K3),       // w: (Co,C,3,3)
                                               out<2>("y", f32, Nb, Co, Ho, Wo),     // y: (N,Co,Ho,Wo)
                                               {.stride = 2, .padding = 1, .dilation = 2}));
constexpr auto c_bound = c.bind(Nb(1), C(1), Co(1), H(32), W(32));
static_assert(c_bound.ok());
static_assert(c_bound.bound[static_cast<std::size_t>(c.dim_index(name_t("Ho")))] == 15);
static_assert(c.flops_at(c_bound.bound) == 2.0 * 15 * 15 * 9);  // 2 * N*Co * Ho*Wo * C * 3*3
// at() checks the declared sizes against the operation when the spec is built.
static_assert(c.at(Nb(1), C(1), Co(1), H(32), W(32), Ho(15)).declared().ok());
static_assert(!c.bind(Nb(1), C(1), Co(1), H(32), W(32), Ho(16)).ok());
// A static size binds itself: K3 is 3 without being given.
static_assert(c_bound.bound[static_cast<std::size_t>(c.dim_index(name_t("K3")))] == 3);

// Polynomials: built and evaluated by the compiler.
constexpr poly p = (M + N) * (M - N);  // M^2 - N^2
constexpr double mn[] = {5, 3};
static_assert(p.evaluate(mn) == 16);
static_assert((p - M * M + N * N).is_zero());
static_assert((2 * M * N / 4.0).evaluate(mn) == 7.5);
}  // namespace
