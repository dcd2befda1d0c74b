/// @file samples_recursiveGaussian.cu
/// cuda-samples Samples/5_Domain_Specific/recursiveGaussian/recursiveGaussian_kernel.cuh, as the sample
/// launches it (64 threads a block; 16 x 16 tiles for the transpose), on a 2048 x 2048 RGBA image:
/// d_transpose (through a shared tile), d_simpleRecursive_rgba and d_recursiveGaussian_rgba (a thread a
/// column: a forward pass down the column, then a reverse pass up it that reads the input again and the
/// output it wrote, and writes the output again).
#include "public_kernels.h"

#include "samples_helper_math.h"

#include "5_Domain_Specific/recursiveGaussian/recursiveGaussian_kernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct W final : dim<"W"> {} W;   // width
inline constexpr struct H final : dim<"H"> {} H;   // height

inline constexpr auto d_transpose_spec =
    kernel<d_transpose>("d_transpose", custom(0, out<0>("odata", u32, W, H), in<1>("idata", u32, H, W)))
        .at(W(2048), H(2048)).sizes(W(arg<2>), H(arg<3>)).block(16, 16).grid(ceil_div(W, 16), ceil_div(H, 16));
// A lerp a channel a pass (3 FLOPs), four channels, two passes and the reverse pass's average.
inline constexpr auto d_simpleRecursive_rgba_spec =
    kernel<d_simpleRecursive_rgba>("d_simpleRecursive_rgba",
                                   custom(32 * W * H, in<0>("id", u32, H, W), out<1>("od", u32, H, W)))
        .at(W(2048), H(2048)).sizes(W(arg<2>), H(arg<3>)).block(64).grid(ceil_div(W, 64));
// The forward pass: 7 FLOPs a channel, the reverse 8 and the sum: 16 a channel.
inline constexpr auto d_recursiveGaussian_rgba_spec =
    kernel<d_recursiveGaussian_rgba>("d_recursiveGaussian_rgba",
                                     custom(64 * W * H, in<0>("id", u32, H, W), out<1>("od", u32, H, W)))
        .at(W(2048), H(2048)).sizes(W(arg<2>), H(arg<3>)).block(64).grid(ceil_div(W, 64));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int w = 2048, h = 2048, nthreads = 64;  // the sample's nthreads
  if (corpus::wanted("d_transpose")) {
    corpus::Case c("d_transpose");
    uint *odata = c.zeros<uint>(Z(w) * h), *idata = c.zeros<uint>(Z(w) * h);
    if (c.ready()) d_transpose<<<dim3(w / BLOCK_DIM, h / BLOCK_DIM), dim3(BLOCK_DIM, BLOCK_DIM)>>>(odata, idata, w, h);
    c.done();
  }
  if (corpus::wanted("d_simpleRecursive_rgba")) {
    corpus::Case c("d_simpleRecursive_rgba");
    uint *id = c.zeros<uint>(Z(w) * h), *od = c.zeros<uint>(Z(w) * h);
    if (c.ready()) d_simpleRecursive_rgba<<<(w + nthreads - 1) / nthreads, nthreads>>>(id, od, w, h, 0.5f);
    c.done();
  }
  if (corpus::wanted("d_recursiveGaussian_rgba")) {
    corpus::Case c("d_recursiveGaussian_rgba");
    uint *id = c.zeros<uint>(Z(w) * h), *od = c.zeros<uint>(Z(w) * h);
    if (c.ready())
      d_recursiveGaussian_rgba<<<(w + nthreads - 1) / nthreads, nthreads>>>(id, od, w, h, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f,
                                                                           0.6f, 0.7f, 0.8f);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
