/// @file llmc_layernorm_forward.cu
/// llm.c dev/cuda/layernorm_forward.cu (f32): kernels 1 (a thread per row), 3 (a warp per row), 5 (a block
/// per row) and 6 (a warp per row, the row staged in shared memory) at N = B*T = 8192 rows of C = 768,
/// 256 threads a block (kernel 6: 32 x 8), as the file's launchers make them.
#include "public_kernels.h"

#define main llmc_layernorm_forward_main
#include "dev/cuda/layernorm_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // rows, B*T
inline constexpr struct C final : dim<"C"> {} C;   // channels

// out = (inp - mean) * rstd * weight + bias over each row, with the row's mean and rstd written.
inline constexpr auto layernorm_op =
    layernorm(in<3>("inp", f32, N, C), in<4>("weight", f32, C), in<5>("bias", f32, C), out<0>("out", f32, N, C))
        .with(out<1>("mean", f32, N), out<2>("rstd", f32, N));

inline constexpr auto layernorm_forward_kernel1_spec =
    kernel<layernorm_forward_kernel1>("layernorm_forward_kernel1", layernorm_op)
        .at(N(8192), C(768)).sizes(N(arg<6>), C(arg<7>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto layernorm_forward_kernel3_spec =
    kernel<layernorm_forward_kernel3>("layernorm_forward_kernel3", layernorm_op)
        .at(N(8192), C(768)).sizes(N(arg<6>), C(arg<7>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto layernorm_forward_kernel5_spec =
    kernel<layernorm_forward_kernel5>("layernorm_forward_kernel5", layernorm_op)
        .at(N(8192), C(768)).sizes(N(arg<6>), C(arg<7>)).block(256).grid(N);
inline constexpr auto layernorm_forward_kernel6_spec =
    kernel<layernorm_forward_kernel6>("layernorm_forward_kernel6", layernorm_op)
        .at(N(8192), C(768)).sizes(N(arg<6>), C(arg<7>)).block(32, 8).grid(ceil_div(N, 8))
        .dynamic_shared(40 * C);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int N = 8 * 1024, C = 768, threads = 256;
  for (int k : {1, 3, 5, 6}) {
    const char* name = k == 1 ? "layernorm_forward_kernel1" : k == 3 ? "layernorm_forward_kernel3"
                     : k == 5 ? "layernorm_forward_kernel5" : "layernorm_forward_kernel6";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    float *out = c.zeros<float>(Z(N) * C), *mean = c.zeros<float>(N), *rstd = c.zeros<float>(N);
    float *inp = c.zeros<float>(Z(N) * C), *weight = c.zeros<float>(C), *bias = c.zeros<float>(C);
    if (c.ready() && k == 1) layernorm_forward_kernel1<<<ceil_div(N, threads), threads>>>(out, mean, rstd, inp, weight, bias, N, C);
    if (c.ready() && k == 3) layernorm_forward_kernel3<<<ceil_div(N * 32, threads), threads>>>(out, mean, rstd, inp, weight, bias, N, C);
    if (c.ready() && k == 5) layernorm_forward_kernel5<<<N, threads>>>(out, mean, rstd, inp, weight, bias, N, C);
    if (c.ready() && k == 6) {
      const int rows = threads / 32;  // a warp per row; weight, bias and the block's rows in shared memory
      layernorm_forward_kernel6<<<ceil_div(N, rows), dim3(32, rows), (2 + rows) * C * sizeof(float)>>>(out, mean, rstd, inp, weight,
                                                                                                       bias, N, C);
    }
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
