// Input of tests/runtime/inject_test.cpp: tests/runtime/data/inject-example.manifest.json is the
// analyzer's manifest of this file (regenerate: see the comment at the top of inject_test.cpp).
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;

__global__ void axpy(int n, float a, const float* x, float* y) {}
__global__ void copy4(const float* in, float* out, long long n4, short flag) {}
__global__ void rows(const float* x, float* y, unsigned cols) {}
__global__ void fixed(const float* x, float* y) {}

inline constexpr auto axpy_spec =
    kernel<axpy>("axpy", elementwise(2, in<2>("x", f32, N), inout<3>("y", f32, N))).sizes(N(arg<0>)).expect(memory_bound);
inline constexpr auto copy4_spec =
    kernel<copy4>("copy4", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(4 * arg<2>));
inline constexpr auto rows_spec =
    kernel<rows>("rows", softmax(in<0>("x", f32, R, C), out<1>("y", f32, R, C))).sizes(R(grid_dim.x), C(arg<2>));
// No .sizes(): rooflint-verify leaves it alone.
inline constexpr auto fixed_spec = kernel<fixed>("fixed", elementwise(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(64));
