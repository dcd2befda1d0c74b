/// @file llmc_layernorm_backward.cu
/// llm.c dev/cuda/layernorm_backward.cu (the file defines ENABLE_BF16): the layer norm's gradient at
/// N = B*T = 8 * 1024 rows of C = 768. Kernel 1 (f32: a thread per row, two passes over the row, two
/// atomicAdds into dweight and dbias per element), 256 threads a block; kernel 2 (bf16 throughout, as the
/// file's main instantiates it: a warp per row, dweight and dbias summed per block in shared memory,
/// then one f32 atomicAdd per channel and block into dweight_tmp and dbias_tmp), 256 threads a block,
/// 2*C floats of shared memory, as layernorm_backward2 launches it (its copy_to_dweight_dbias is not
/// launched here).
#include "public_kernels.h"

#define main llmc_layernorm_backward_main
#include "dev/cuda/layernorm_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;

// dinp += the row's gradient; dweight += sum over rows of norm * dout; dbias += sum of dout. About 12
// FLOP an element (norm 2, dnorm 1, the two row sums 3, dinp 5, dweight and dbias 2) in two passes.
inline constexpr auto layernorm_backward_kernel1_spec =
    kernel<layernorm_backward_kernel1>(
        "layernorm_backward_kernel1",
        custom(13 * B * T * C, inout<0>("dinp", f32, B, T, C), inout<1>("dweight", f32, C), inout<2>("dbias", f32, C),
               in<3>("dout", f32, B, T, C), in<4>("inp", f32, B, T, C), in<5>("weight", f32, C), in<6>("mean", f32, B, T),
               in<7>("rstd", f32, B, T)))
        .at(B(8), T(1024), C(768)).sizes(B(arg<8>), T(arg<9>), C(arg<10>)).block(256).grid(ceil_div(B * T, 256));

using layernorm_backward_kernel2_fn = void(floatX*, floatX*, floatX*, const floatX*, const floatX*, const floatX*,
                                           const floatX*, const floatX*, int, int, int, float*, float*);
// Kernel 2 leaves dweight and dbias (bf16) alone: it adds into the f32 dweight_tmp and dbias_tmp (not
// listed: a spec has at most 8 tensors).
inline constexpr auto layernorm_backward_kernel2_spec =
    kernel<layernorm_backward_kernel2_fn, layernorm_backward_kernel2<floatX, floatX, floatX, floatX>>(
        "layernorm_backward_kernel2",
        custom(13 * B * T * C, inout<0>("dinp", bf16, B, T, C),
               in<3>("dout", bf16, B, T, C), in<4>("inp", bf16, B, T, C), in<5>("weight", bf16, C), in<6>("mean", bf16, B, T),
               in<7>("rstd", bf16, B, T), inout<11>("dweight_tmp", f32, C), inout<12>("dbias_tmp", f32, C))
            .precision(f32))
        .at(B(8), T(1024), C(768)).sizes(B(arg<8>), T(arg<9>), C(arg<10>)).block(256).grid(ceil_div(B * T, 8))
        .dynamic_shared(8 * C);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, C = 768, N = B * T, threads = 256;
  if (corpus::wanted("layernorm_backward_kernel1")) {
    corpus::Case c("layernorm_backward_kernel1");
    float *dinp = c.zeros<float>(Z(N) * C), *dweight = c.zeros<float>(C), *dbias = c.zeros<float>(C);
    float *dout = c.zeros<float>(Z(N) * C), *inp = c.zeros<float>(Z(N) * C), *weight = c.zeros<float>(C);
    float *mean = c.zeros<float>(N), *rstd = c.zeros<float>(N);
    if (c.ready())
      layernorm_backward_kernel1<<<ceil_div(N, threads), threads>>>(dinp, dweight, dbias, dout, inp, weight, mean, rstd, B, T, C);
    c.done();
  }
  if (corpus::wanted("layernorm_backward_kernel2")) {
    corpus::Case c("layernorm_backward_kernel2");
    floatX *dinp = c.zeros<floatX>(Z(N) * C), *dweight = c.zeros<floatX>(C), *dbias = c.zeros<floatX>(C);
    floatX *dout = c.zeros<floatX>(Z(N) * C), *inp = c.zeros<floatX>(Z(N) * C), *weight = c.zeros<floatX>(C);
    floatX *mean = c.zeros<floatX>(N), *rstd = c.zeros<floatX>(N);
    float *dweight_tmp = c.zeros<float>(C), *dbias_tmp = c.zeros<float>(C);
    if (c.ready())
      layernorm_backward_kernel2<<<ceil_div(32 * N, threads), threads, 2 * C * sizeof(float)>>>(
          dinp, dweight, dbias, dout, inp, weight, mean, rstd, B, T, C, dweight_tmp, dbias_tmp);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
