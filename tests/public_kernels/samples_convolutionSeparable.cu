/// @file samples_convolutionSeparable.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu: the row
/// and column passes of a separable 17-tap convolution over the sample's 3072 x 3072 f32 image, tiles
/// with halos staged in shared memory, as its convolutionRowsGPU() and convolutionColumnsGPU() launch
/// them (16 x 4 and 16 x 8 threads).
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct H final : dim<"H"> {} H;      // image rows
inline constexpr struct W final : dim<"W"> {} W;      // image columns (imageW)
inline constexpr struct P final : dim<"P"> {} P;      // row pitch in elements (pitch)
inline constexpr struct Wi final : dim<"Wi"> {} Wi;   // the columns of each row the image uses: min(W, P)

// The kernels address rows by the pitch and test the halos against the width, so the spec reads both
// from the launch; the image is H rows of Wi = min(W, P) elements (the sample passes pitch = imageW).
inline constexpr auto convolution_op =
    custom(2 * KERNEL_LENGTH * H * Wi, out<0>("d_Dst", f32, H, Wi), in<1>("d_Src", f32, H, Wi));

inline constexpr auto convolutionRowsKernel_spec =
    kernel<convolutionRowsKernel>("convolutionRowsKernel", convolution_op)
        .sizes(W(arg<2>), H(arg<3>), P(arg<4>), Wi(min(W, P))).at(H(3072), W(3072), P(3072))
        .block(16, 4).grid(ceil_div(W, 128), ceil_div(H, 4));
inline constexpr auto convolutionColumnsKernel_spec =
    kernel<convolutionColumnsKernel>("convolutionColumnsKernel", convolution_op)
        .sizes(W(arg<2>), H(arg<3>), P(arg<4>), Wi(min(W, P))).at(H(3072), W(3072), P(3072))
        .block(16, 8).grid(ceil_div(W, 16), ceil_div(H, 64));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int imageW = 3072, imageH = 3072;  // the sample's main.cpp
  for (const bool rows : {true, false}) {
    const char* name = rows ? "convolutionRowsKernel" : "convolutionColumnsKernel";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    float *dst = c.zeros<float>(Z(imageW) * imageH), *src = c.zeros<float>(Z(imageW) * imageH);
    if (c.ready() && rows)
      convolutionRowsKernel<<<dim3(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y),
                              dim3(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y)>>>(dst, src, imageW, imageH, imageW);
    if (c.ready() && !rows)
      convolutionColumnsKernel<<<dim3(imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)),
                                 dim3(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y)>>>(dst, src, imageW, imageH, imageW);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
