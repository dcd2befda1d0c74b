// Input of tests/runtime/inject_region_test.cpp: tests/runtime/data/inject-region.manifest.json is the
// analyzer's manifest of this file (regenerate: see the comment at the top of inject_region_test.cpp).
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;

__global__ void row_max(const float* x, float* m, int cols) {}
__global__ void row_sum(const float* x, const float* m, float* s, int cols) {}
__global__ void normalise(const float* x, const float* m, const float* s, float* y, int cols) {}
__global__ void axpy(int n, float a, const float* x, float* y) {}
__global__ void gemm_prologue(const float* a, float* b, int m, int n) {}

// Three passes, sizes read at the first kernel.
inline constexpr auto softmax_3pass =
    region<row_max, row_sum, normalise>("softmax_3pass", softmax(in("x", f32, R, C), out("y", f32, R, C)))
        .sizes<0>(R(grid_dim.x), C(arg<2>))
        .expect(memory_bound);
// A kernel of ours followed by a library's GEMM, sizes read at ours; K fixed.
inline constexpr auto prologue_gemm =
    region<gemm_prologue, library_kernel<"xmma_gemm">>(
        "prologue_gemm", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
        .at(K(512))
        .sizes<0>(M(arg<2>), N(arg<3>));
// A library call alone: no sizes from a launch, the harness verifies it.
inline constexpr auto sgemm_lib =
    region<library_kernel<"gemm">>("sgemm_lib", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096));
inline constexpr auto axpy_spec =
    kernel<axpy>("axpy", elementwise(2, in<2>("x", f32, N), inout<3>("y", f32, N))).sizes(N(arg<0>));
