/// @file llmc_matmul_backward_bias.cu
/// llm.c dev/cuda/matmul_backward_bias.cu (bf16: the file defines ENABLE_BF16): dbias[o] += sum over
/// the B*T rows of dout[:, o], at B = 8, T = 1024, OC = 3072 (the MLP's width). Kernel 1: a block per
/// column (OC blocks of 256 threads, a shared-memory tree), each thread walking the column with a stride
/// of OC elements; kernel 4: a block per 32 columns (OC/32 blocks of 256 threads), a warp reading 32
/// adjacent columns of a row, as the file's launchers make them.
#include "public_kernels.h"

#define main llmc_matmul_backward_bias_main
#include "dev/cuda/matmul_backward_bias.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct OC final : dim<"OC"> {} OC;

// A column sum: an add per element of dout, f32 accumulation.
inline constexpr auto bias_op =
    custom(B * T * OC, inout<0>("dbias", bf16, OC), in<1>("dout", bf16, B, T, OC)).precision(f32);

inline constexpr auto matmul_backward_bias_kernel1_spec =
    kernel<matmul_backward_bias_kernel1>("matmul_backward_bias_kernel1", bias_op)
        .at(B(8), T(1024), OC(3072)).sizes(B(arg<2>), T(arg<3>), OC(arg<4>)).block(256).grid(OC).dynamic_shared(1024);
inline constexpr auto matmul_backward_bias_kernel4_spec =
    kernel<matmul_backward_bias_kernel4>("matmul_backward_bias_kernel4", bias_op)
        .at(B(8), T(1024), OC(3072)).sizes(B(arg<2>), T(arg<3>), OC(arg<4>)).block(256).grid(OC / 32).dynamic_shared(1024);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, OC = 3072, threads = 256;
  for (int k : {1, 4}) {
    const char* name = k == 1 ? "matmul_backward_bias_kernel1" : "matmul_backward_bias_kernel4";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    floatX *dbias = c.zeros<floatX>(OC), *dout = c.zeros<floatX>(Z(B) * T * OC);
    if (c.ready() && k == 1) matmul_backward_bias_kernel1<<<OC, threads, threads * sizeof(float)>>>(dbias, dout, B, T, OC);
    if (c.ready() && k == 4) matmul_backward_bias_kernel4<<<OC / 32, threads, threads * sizeof(float)>>>(dbias, dout, B, T, OC);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
