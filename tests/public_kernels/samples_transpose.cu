/// @file samples_transpose.cu
/// cuda-samples Samples/6_Performance/transpose/transpose.cu: the copies (copy, copySharedMem) and the
/// transposes (transposeNaive, transposeCoalesced, transposeDiagonal) of an 8192 x 8192 f32 matrix, as
/// the sample launches them: 32 x 32 tiles, 32 x 16 threads a block.
#include "public_kernels.h"

#define main samples_transpose_main
#include "6_Performance/transpose/transpose.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct W final : dim<"W"> {} W;   // width: columns of idata
inline constexpr struct H final : dim<"H"> {} H;   // height: rows of idata

inline constexpr auto copy_op = custom(0, out<0>("odata", f32, H, W), in<1>("idata", f32, H, W));
inline constexpr auto transpose_op = custom(0, out<0>("odata", f32, W, H), in<1>("idata", f32, H, W));

inline constexpr auto transpose_copy_spec =
    kernel<::copy>("transpose_copy", copy_op)
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 16).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_copySharedMem_spec =
    kernel<copySharedMem>("transpose_copySharedMem", copy_op)
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 16).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transposeNaive_spec =
    kernel<transposeNaive>("transposeNaive", transpose_op)
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 16).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transposeCoalesced_spec =
    kernel<transposeCoalesced>("transposeCoalesced", transpose_op)
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 16).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transposeDiagonal_spec =
    kernel<transposeDiagonal>("transposeDiagonal", transpose_op)
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 16).grid(ceil_div(W, 32), ceil_div(H, 32));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int size = 8192;
  const struct {
    const char* name;
    void (*kernel)(float*, float*, int, int);
  } cases[] = {{"transpose_copy", ::copy}, {"transpose_copySharedMem", copySharedMem}, {"transposeNaive", transposeNaive},
               {"transposeCoalesced", transposeCoalesced}, {"transposeDiagonal", transposeDiagonal}};
  for (const auto& k : cases) {
    if (!corpus::wanted(k.name)) continue;
    corpus::Case c(k.name);
    float *odata = c.zeros<float>(Z(size) * size), *idata = c.zeros<float>(Z(size) * size);
    if (c.ready()) k.kernel<<<dim3(size / TILE_DIM, size / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(odata, idata, size, size);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
