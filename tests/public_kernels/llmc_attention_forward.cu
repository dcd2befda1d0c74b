/// @file llmc_attention_forward.cu
/// llm.c dev/cuda/attention_forward.cu (its f32 kernels): permute_kernel, which splits the (B,N,3,NH,d)
/// output of the QKV projection into Q, K and V of (B,NH,N,d), and unpermute_kernel, which turns the
/// (B,NH,N,d) attention output back into (B,N,NH,d); GPT-2 small's B = 8, N = T = 1024, NH = 12, d = 64,
/// 256 threads a block, a thread per element.
#include "public_kernels.h"

#define main llmc_attention_forward_main
#include "dev/cuda/attention_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct N final : dim<"N"> {} N;     // sequence length
inline constexpr struct NH final : dim<"NH"> {} NH;  // heads
inline constexpr struct D final : dim<"D"> {} D;     // head size
inline constexpr struct Three final : dim<"Three", 3> {} Three;

inline constexpr auto permute_kernel_spec =
    kernel<permute_kernel>("permute_kernel",
                           custom(0, out<0>("q", f32, B, NH, N, D), out<1>("k", f32, B, NH, N, D), out<2>("v", f32, B, NH, N, D),
                                  in<3>("inp", f32, B, N, Three, NH, D)))
        .at(B(8), N(1024), NH(12), D(64)).sizes(B(arg<4>), N(arg<5>), NH(arg<6>), D(arg<7>))
        .block(256).grid(ceil_div(B * NH * N * D, 256));
inline constexpr auto unpermute_kernel_spec =
    kernel<unpermute_kernel>("unpermute_kernel", custom(0, in<0>("inp", f32, B, NH, N, D), out<1>("out", f32, B, N, NH, D)))
        .at(B(8), N(1024), NH(12), D(64)).sizes(B(arg<2>), N(arg<3>), NH(arg<4>), D(arg<5>))
        .block(256).grid(ceil_div(B * NH * N * D, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, N = 1024, NH = 12, d = 64, threads = 256;
  const Z n = Z(B) * NH * N * d;
  const int blocks = ceil_div(B * NH * N * d, threads);
  if (corpus::wanted("permute_kernel")) {
    corpus::Case c("permute_kernel");
    float *q = c.zeros<float>(n), *k = c.zeros<float>(n), *v = c.zeros<float>(n), *inp = c.zeros<float>(3 * n);
    if (c.ready()) permute_kernel<<<blocks, threads>>>(q, k, v, inp, B, N, NH, d);
    c.done();
  }
  if (corpus::wanted("unpermute_kernel")) {
    corpus::Case c("unpermute_kernel");
    float *inp = c.zeros<float>(n), *out = c.zeros<float>(n);
    if (c.ready()) unpermute_kernel<<<blocks, threads>>>(inp, out, B, N, NH, d);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
