/// @file llmc_fused_residual_forward.cu
/// llm.c dev/cuda/fused_residual_forward.cu (bf16: the file defines ENABLE_BF16): the residual add
/// fused with the layer norm, residual = inp1 + inp2, normed = layernorm(residual) * weight + bias, with
/// the rows' mean and rstd written, at N = B*T = 8192 rows of C = 768. fused_residual_forward2: a thread
/// per row (the residual written, then read back twice), 256 threads a block; kernel 4: a warp per row,
/// 16-byte loads and stores, 32 x 8 threads a block, as the file's launchers make them.
#include "public_kernels.h"

#define main llmc_fused_residual_forward_main
#include "dev/cuda/fused_residual_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // rows, B*T
inline constexpr struct C final : dim<"C"> {} C;   // channels

// As docs/dsl.md's worked fused_residual_forward5, in bf16 with f32 math.
inline constexpr auto fused_residual_op =
    layernorm(in<4>("inp1", bf16, N, C), in<6>("weight", bf16, C), in<7>("bias", bf16, C), out<1>("normed", bf16, N, C))
        .with(in<5>("inp2", bf16, N, C), out<0>("residual", bf16, N, C), out<2>("mean", bf16, N), out<3>("rstd", bf16, N))
        .precision(f32);

// fused_residual_forward2 shares its name with its host launcher: the function type picks the kernel.
using fused_residual_fn = void(floatX*, floatX*, floatX*, floatX*, const floatX*, const floatX*, const floatX*, const floatX*,
                               int, int);
inline constexpr auto fused_residual_forward2_spec =
    kernel<fused_residual_fn, fused_residual_forward2>("fused_residual_forward2", fused_residual_op)
        .at(N(8192), C(768)).sizes(N(arg<8>), C(arg<9>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto fused_residual_forward_kernel4_spec =
    kernel<fused_residual_forward_kernel4>("fused_residual_forward_kernel4", fused_residual_op)
        .at(N(8192), C(768)).sizes(N(arg<8>), C(arg<9>)).block(32, 8).grid(ceil_div(N, 8));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int N = 8 * 1024, C = 768, threads = 256;
  for (int k : {2, 4}) {
    const char* name = k == 2 ? "fused_residual_forward2" : "fused_residual_forward_kernel4";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    floatX *residual = c.zeros<floatX>(Z(N) * C), *normed = c.zeros<floatX>(Z(N) * C);
    floatX *mean = c.zeros<floatX>(N), *rstd = c.zeros<floatX>(N);
    floatX *inp1 = c.zeros<floatX>(Z(N) * C), *inp2 = c.zeros<floatX>(Z(N) * C);
    floatX *weight = c.zeros<floatX>(C), *bias = c.zeros<floatX>(C);
    if (c.ready() && k == 2)
      fused_residual_forward2<<<ceil_div(N, threads), threads>>>(residual, normed, mean, rstd, inp1, inp2, weight, bias, N, C);
    if (c.ready() && k == 4) {
      const int rows = threads / 32;  // a warp per row
      fused_residual_forward_kernel4<<<ceil_div(N, rows), dim3(32, rows)>>>(residual, normed, mean, rstd, inp1, inp2, weight,
                                                                           bias, N, C);
    }
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
