/// @file llmc_matmul_backward.cu
/// llm.c dev/cuda/matmul_backward.cu (f32): the bias gradient, a sum over the B*T rows of dout for each of
/// its OC columns, at the file's B = 8, T = 1024, OC = 3072. The naive kernel: a thread per column (128 a
/// block, as the file's commented launcher has it), each walking its column down the rows, a warp reading
/// 32 adjacent columns of a row at a time; the faster one: a block of 512 threads per column, each thread
/// reading every 512th row of it (a stride of OC elements), then a shared-memory tree.
#include "public_kernels.h"

#define main llmc_matmul_backward_main
#include "dev/cuda/matmul_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct OC final : dim<"OC"> {} OC;

// A column sum: an add per element of dout (the kernels accumulate in double).
inline constexpr auto bias_op = custom(B * T * OC, out<0>("dbias", f32, OC), in<1>("dout", f32, B, T, OC));

inline constexpr auto matmul_backward_bias_kernel_naive_spec =
    kernel<matmul_backward_bias_kernel_naive>("matmul_backward_bias_naive", bias_op)
        .at(B(8), T(1024), OC(3072)).sizes(B(arg<2>), T(arg<3>), OC(arg<4>)).block(128).grid(ceil_div(OC, 128));
inline constexpr auto matmul_backward_bias_kernel_faster_spec =
    kernel<matmul_backward_bias_kernel_faster>("matmul_backward_bias_faster", bias_op)
        .at(B(8), T(1024), OC(3072)).sizes(B(arg<2>), T(arg<3>), OC(arg<4>)).block(512).grid(OC).dynamic_shared(2048);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, OC = 3072;
  if (corpus::wanted("matmul_backward_bias_naive")) {
    corpus::Case c("matmul_backward_bias_naive");
    float *dbias = c.zeros<float>(OC), *dout = c.zeros<float>(Z(B) * T * OC);
    if (c.ready()) matmul_backward_bias_kernel_naive<<<ceil_div(OC, 128), 128>>>(dbias, dout, B, T, OC);
    c.done();
  }
  if (corpus::wanted("matmul_backward_bias_faster")) {
    corpus::Case c("matmul_backward_bias_faster");
    float *dbias = c.zeros<float>(OC), *dout = c.zeros<float>(Z(B) * T * OC);
    if (c.ready()) matmul_backward_bias_kernel_faster<<<OC, 512, 512 * sizeof(float)>>>(dbias, dout, B, T, OC);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
