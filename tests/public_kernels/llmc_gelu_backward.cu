/// @file llmc_gelu_backward.cu
/// llm.c dev/cuda/gelu_backward.cu (bf16: the file defines ENABLE_BF16): the tanh GELU's gradient,
/// dinp = gelu'(inp) * dout, over N = B*T*C = 8 * 1024 * 3072 elements (the MLP's hidden activations,
/// OC = 3072), 256 threads a block; gelu_backward1 an element a thread, gelu_backward2 eight (16 bytes)
/// a thread, as the file's launchers make them.
#include "public_kernels.h"

#define main llmc_gelu_backward_main
#include "dev/cuda/gelu_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

// The kernels share their names with the file's host launchers: the function type picks the kernel.
using gelu_backward_fn = void(floatX*, const floatX*, const floatX*, int);

// About 20 FLOP an element (the cube, tanh, cosh, sech^2 and the products), in f32.
inline constexpr auto gelu_backward_op =
    elementwise(20, in<1>("inp", bf16, N), in<2>("dout", bf16, N), out<0>("dinp", bf16, N)).precision(f32);

inline constexpr auto gelu_backward1_spec =
    kernel<gelu_backward_fn, gelu_backward1>("gelu_backward1", gelu_backward_op)
        .at(N(8 * 1024 * 3072)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto gelu_backward2_spec =
    kernel<gelu_backward_fn, gelu_backward2>("gelu_backward2", gelu_backward_op)
        .at(N(8 * 1024 * 3072)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 2048));
}  // namespace public_specs

static void run() {
  const int N = 8 * 1024 * 3072, threads = 256;
  for (int k : {1, 2}) {
    const char* name = k == 1 ? "gelu_backward1" : "gelu_backward2";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    floatX *dinp = c.zeros<floatX>(N), *inp = c.zeros<floatX>(N), *dout = c.zeros<floatX>(N);
    if (c.ready() && k == 1) gelu_backward1<<<ceil_div(N, threads), threads>>>(dinp, inp, dout, N);
    if (c.ready() && k == 2) gelu_backward2<<<ceil_div(N, threads * x128::size), threads>>>(dinp, inp, dout, N);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
