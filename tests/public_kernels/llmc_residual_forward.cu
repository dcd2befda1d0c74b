/// @file llmc_residual_forward.cu
/// llm.c dev/cuda/residual_forward.cu (bf16: the file defines ENABLE_BF16): out = inp1 + inp2 over
/// N = B*T*C = 8 * 1024 * 768 elements, 256 threads a block; kernel 1 an element a thread, kernel 2 eight
/// (16 bytes) a thread.
#include "public_kernels.h"

#define main llmc_residual_forward_main
#include "dev/cuda/residual_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

inline constexpr auto residual_op = binary(1, in<1>("inp1", bf16, N), in<2>("inp2", bf16, N), out<0>("out", bf16, N)).precision(f32);

inline constexpr auto residual_forward_kernel1_spec =
    kernel<residual_forward_kernel1>("residual_forward_kernel1", residual_op)
        .at(N(8 * 1024 * 768)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto residual_forward_kernel2_spec =
    kernel<residual_forward_kernel2>("residual_forward_kernel2", residual_op)
        .at(N(8 * 1024 * 768)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 2048));
}  // namespace public_specs

static void run() {
  const int N = 8 * 1024 * 768, threads = 256;
  for (int k : {1, 2}) {
    const char* name = k == 1 ? "residual_forward_kernel1" : "residual_forward_kernel2";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    floatX *out = c.zeros<floatX>(N), *inp1 = c.zeros<floatX>(N), *inp2 = c.zeros<floatX>(N);
    if (c.ready() && k == 1) residual_forward_kernel1<<<ceil_div(N, threads), threads>>>(out, inp1, inp2, N);
    if (c.ready() && k == 2) residual_forward_kernel2<<<ceil_div(N, threads * x128::size), threads>>>(out, inp1, inp2, N);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
