/// @file llmc_matmul_forward.cu
/// llm.c dev/cuda/matmul_forward.cu (f32): kernel 1 (a thread per output, 16 x 16 blocks), add_bias
/// (the bias after cuBLAS's GEMM, 256 threads) and kernel 4 (128 x 128 tiles, 8 x 8 outputs a thread) at
/// GPT-2 small's MLP shape: BT = B*T = 8192 rows, C = 768 in, OC = 3072 out.
#include "public_kernels.h"

#define main llmc_matmul_forward_main
#include "dev/cuda/matmul_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct BT final : dim<"BT"> {} BT;   // rows, B*T
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct OC final : dim<"OC"> {} OC;

// out = inp @ weight^T + bias.
inline constexpr auto matmul_forward_kernel1_spec =
    kernel<matmul_forward_kernel1>("matmul_forward_kernel1",
                                   linear(in<1>("inp", f32, BT, C), in<2>("weight", f32, OC, C), in<3>("bias", f32, OC),
                                          out<0>("out", f32, BT, OC)))
        .at(BT(8192), C(768), OC(3072)).sizes(BT(arg<4>), C(arg<5>), OC(arg<6>))
        .block(16, 16).grid(ceil_div(BT, 16), ceil_div(OC, 16));
// out += bias, over (B,T,OC).
inline constexpr auto add_bias_spec =
    kernel<add_bias>("add_bias", elementwise(1, inout<0>("out", f32, B, T, OC), in<1>("bias", f32, OC)))
        .at(B(8), T(1024), OC(3072)).sizes(B(arg<2>), T(arg<3>), OC(arg<4>))
        .block(256).grid(ceil_div(B * T * OC, 256));
// Kernel 4 is launched without the row count: a block per 128 rows.
inline constexpr auto matmul_forward_kernel4_spec =
    kernel<matmul_forward_kernel4>("matmul_forward_kernel4",
                                   linear(in<1>("inp", f32, BT, C), in<2>("weight", f32, OC, C), in<3>("bias", f32, OC),
                                          out<0>("out", f32, BT, OC)))
        .at(BT(8192), C(768), OC(3072)).sizes(BT(grid_dim.x * 128), C(arg<4>), OC(arg<5>))
        .block(16, 16).grid(ceil_div(BT, 128), ceil_div(OC, 128))
        .registers(128);  // ptxas (nvcc 13.0, sm_90, -Xptxas -v): two blocks an SM
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, BT = B * T, C = 768, OC = 3072;
  for (const char* name : {"matmul_forward_kernel1", "add_bias", "matmul_forward_kernel4"}) {
    if (!corpus::wanted(name)) continue;
    const std::string k = name;
    corpus::Case c(name);
    float *out = c.zeros<float>(Z(BT) * OC), *bias = c.zeros<float>(OC);
    float *inp = k == "add_bias" ? nullptr : c.zeros<float>(Z(BT) * C), *weight = k == "add_bias" ? nullptr : c.zeros<float>(Z(OC) * C);
    if (c.ready() && k == "matmul_forward_kernel1")
      matmul_forward_kernel1<<<dim3(ceil_div(BT, 16), ceil_div(OC, 16)), dim3(16, 16)>>>(out, inp, weight, bias, BT, C, OC);
    if (c.ready() && k == "add_bias") add_bias<<<ceil_div(OC * BT, 256), 256>>>(out, bias, B, T, OC);
    if (c.ready() && k == "matmul_forward_kernel4")
      matmul_forward_kernel4<<<dim3(ceil_div(BT, 128), ceil_div(OC, 128)), dim3(16, 16)>>>(out, inp, weight, bias, C, OC);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
