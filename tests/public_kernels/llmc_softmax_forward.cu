/// @file llmc_softmax_forward.cu
/// llm.c dev/cuda/softmax_forward.cu (f32): kernels 1 (a thread per row), 2 and 4 (a block per row, the
/// exponentials written then read back), the online kernels 1 (a thread per row) and 2 (a warp per row)
/// and kernel 7 (a block per row, unrolled by 8), over the logits of GPT-2 small: N = B*T = 8192 rows of
/// C = V = 50257, 256 threads a block.
#include "public_kernels.h"

#define main llmc_softmax_forward_main
#include "dev/cuda/softmax_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // rows, B*T
inline constexpr struct C final : dim<"C"> {} C;   // columns, the vocabulary

inline constexpr auto softmax_op = softmax(in<1>("inp", f32, N, C), out<0>("out", f32, N, C));

inline constexpr auto softmax_forward_kernel1_spec =
    kernel<softmax_forward_kernel1>("softmax_forward_kernel1", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto softmax_forward_kernel2_spec =
    kernel<softmax_forward_kernel2>("softmax_forward_kernel2", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(N).dynamic_shared(1024);
inline constexpr auto softmax_forward_kernel4_spec =
    kernel<softmax_forward_kernel4>("softmax_forward_kernel4", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(N).dynamic_shared(32);
inline constexpr auto softmax_forward_online_kernel1_spec =
    kernel<softmax_forward_online_kernel1>("softmax_forward_online_kernel1", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto softmax_forward_online_kernel2_spec =
    kernel<softmax_forward_online_kernel2>("softmax_forward_online_kernel2", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto softmax_forward_kernel7_spec =
    kernel<softmax_forward_kernel7>("softmax_forward_kernel7", softmax_op)
        .at(N(8192), C(50257)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(N).dynamic_shared(64);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int N = 8 * 1024, C = 50257, threads = 256;
  const char* names[] = {"softmax_forward_kernel1", "softmax_forward_kernel2", "softmax_forward_kernel4",
                         "softmax_forward_online_kernel1", "softmax_forward_online_kernel2", "softmax_forward_kernel7"};
  for (int k = 0; k < 6; ++k) {
    if (!corpus::wanted(names[k])) continue;
    corpus::Case c(names[k]);
    float *out = c.zeros<float>(Z(N) * C), *inp = c.zeros<float>(Z(N) * C);
    if (c.ready()) switch (k) {
      case 0: softmax_forward_kernel1<<<ceil_div(N, threads), threads>>>(out, inp, N, C); break;
      case 1: softmax_forward_kernel2<<<N, threads, threads * sizeof(float)>>>(out, inp, N, C); break;
      case 2: softmax_forward_kernel4<<<N, threads, threads / 32 * sizeof(float)>>>(out, inp, N, C); break;
      case 3: softmax_forward_online_kernel1<<<ceil_div(N, threads), threads>>>(out, inp, N, C); break;
      case 4: softmax_forward_online_kernel2<<<ceil_div(N * 32, threads), threads>>>(out, inp, N, C); break;
      case 5: softmax_forward_kernel7<<<N, threads, 2 * threads / 32 * sizeof(float)>>>(out, inp, N, C); break;
    }
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
