/// @file llmc_attention_backward.cu
/// llm.c dev/cuda/attention_backward.cu (f32): the backward of the permutes (permute_kernel_backward adds
/// dQ, dK and dV into the (B,N,3,NH,d) gradient of the QKV projection, unpermute_kernel_backward adds the
/// (B,N,NH,d) output gradient into (B,NH,N,d)) at GPT-2 small's N = 1024, NH = 12, d = 64 and the file's
/// B = 4; and the backward of the causal softmax, over the lower triangle of (B*NH) T x T matrices:
/// kernels 2 to 5 (a thread, a warp, or a warp per 8 columns t3 walking down the rows t >= t3 and along
/// each row up to t) at T = 256 and B*NH = 192, and the block-per-row kernels 6, 7 and 8 (<256>) at the
/// file's T = 1024 and B*NH = 48. Kernel 6 reads att and writes dpreatt up to the next multiple of 256
/// past the diagonal; kernel 8 reads and writes with cache-streaming hints (__ldcs, __stcs). Kernel 1
/// (one thread loops over every head) is left out: it runs for seconds.
#include "public_kernels.h"

#define main llmc_attention_backward_main
#include "dev/cuda/attention_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct N final : dim<"N"> {} N;     // sequence length
inline constexpr struct NH final : dim<"NH"> {} NH;  // heads
inline constexpr struct D final : dim<"D"> {} D;     // head size
inline constexpr struct Three final : dim<"Three", 3> {} Three;
inline constexpr struct BNH final : dim<"BNH"> {} BNH;  // B * NH attention matrices (the grid's y)
inline constexpr struct T final : dim<"T"> {} T;

inline constexpr auto permute_kernel_backward_spec =
    kernel<permute_kernel_backward>(
        "permute_kernel_backward",
        custom(3 * B * NH * N * D, inout<0>("dinp", f32, B, N, Three, NH, D), in<1>("dq", f32, B, NH, N, D),
               in<2>("dk", f32, B, NH, N, D), in<3>("dv", f32, B, NH, N, D)))
        .at(B(4), N(1024), NH(12), D(64)).sizes(B(arg<4>), N(arg<5>), NH(arg<6>), D(arg<7>))
        .block(256).grid(ceil_div(B * NH * N * D, 256));
inline constexpr auto unpermute_kernel_backward_spec =
    kernel<unpermute_kernel_backward>("unpermute_kernel_backward",
                                      custom(B * NH * N * D, inout<0>("dinp", f32, B, NH, N, D), in<1>("dout", f32, B, N, NH, D)))
        .at(B(4), N(1024), NH(12), D(64)).sizes(B(arg<2>), N(arg<3>), NH(arg<4>), D(arg<5>))
        .block(256).grid(ceil_div(B * N * NH * D, 256));

// dpreatt[t][t3] = scale * att[t][t3] * (datt[t][t3] - sum over t2 <= t of att[t][t2] * datt[t][t2]), t3 <= t:
// the lower triangle of each matrix (the diagonal included) is what the operation reads and writes.
inline constexpr auto triangle = BNH * T * (T + 1) / 2;
inline constexpr auto causal_backward =
    custom(4 * triangle, out<0>("dpreatt", f32, BNH, T, T).touches(triangle), in<1>("datt", f32, BNH, T, T).touches(triangle),
           in<2>("att", f32, BNH, T, T).touches(triangle));

inline constexpr auto softmax_ar_backward_kernel2_spec =
    kernel<softmax_autoregressive_backward_kernel2>("softmax_ar_backward_kernel2", causal_backward)
        .at(BNH(192), T(256)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(ceil_div(T, 256), BNH);
inline constexpr auto softmax_ar_backward_kernel3_spec =
    kernel<softmax_autoregressive_backward_kernel3>("softmax_ar_backward_kernel3", causal_backward)
        .at(BNH(192), T(256)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(ceil_div(32 * T, 256), BNH);
inline constexpr auto softmax_ar_backward_kernel4_spec =
    kernel<softmax_autoregressive_backward_kernel4>("softmax_ar_backward_kernel4", causal_backward)
        .at(BNH(192), T(256)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(ceil_div(4 * T, 256), BNH);
inline constexpr auto softmax_ar_backward_kernel5_spec =
    kernel<softmax_autoregressive_backward_kernel5>("softmax_ar_backward_kernel5", causal_backward)
        .at(BNH(192), T(256)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(ceil_div(4 * T, 256), BNH);
inline constexpr auto softmax_ar_backward_kernel6_spec =
    kernel<softmax_autoregressive_backward_kernel6<256>>("softmax_ar_backward_kernel6", causal_backward)
        .at(BNH(48), T(1024)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(T, BNH);
inline constexpr auto softmax_ar_backward_kernel7_spec =
    kernel<softmax_autoregressive_backward_kernel7<256>>("softmax_ar_backward_kernel7", causal_backward)
        .at(BNH(48), T(1024)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(T, BNH);
inline constexpr auto softmax_ar_backward_kernel8_spec =
    kernel<softmax_autoregressive_backward_kernel8<256>>("softmax_ar_backward_kernel8", causal_backward)
        .at(BNH(48), T(1024)).sizes(T(arg<4>), BNH(grid_dim.y)).block(256).grid(T / 4, BNH);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int threads = 256;
  {
    const int B = 4, N = 1024, NH = 12, d = 64;
    const Z n = Z(B) * NH * N * d;
    const int blocks = ceil_div(B * NH * N * d, threads);
    if (corpus::wanted("permute_kernel_backward")) {
      corpus::Case c("permute_kernel_backward");
      float *dinp = c.zeros<float>(3 * n), *dq = c.zeros<float>(n), *dk = c.zeros<float>(n), *dv = c.zeros<float>(n);
      if (c.ready()) permute_kernel_backward<<<blocks, threads>>>(dinp, dq, dk, dv, B, N, NH, d);
      c.done();
    }
    if (corpus::wanted("unpermute_kernel_backward")) {
      corpus::Case c("unpermute_kernel_backward");
      float *dinp = c.zeros<float>(n), *dout = c.zeros<float>(n);
      if (c.ready()) unpermute_kernel_backward<<<blocks, threads>>>(dinp, dout, B, N, NH, d);
      c.done();
    }
  }
  // The launchers' grids (launch_softmax_2 .. 8), at B*NH = 16 * 12 and T = 256 for kernels 2 to 5, the
  // file's 4 * 12 and T = 1024 for 6 to 8; C = 768 (a head size of 64: the scale, not an address).
  const int C = 768, NH = 12;
  const float scale = 0.125f;
  const char* names[] = {"softmax_ar_backward_kernel2", "softmax_ar_backward_kernel3", "softmax_ar_backward_kernel4",
                         "softmax_ar_backward_kernel5", "softmax_ar_backward_kernel6", "softmax_ar_backward_kernel7",
                         "softmax_ar_backward_kernel8"};
  for (int k = 2; k <= 8; ++k) {
    if (!corpus::wanted(names[k - 2])) continue;
    const int B = k <= 5 ? 16 : 4, T = k <= 5 ? 256 : 1024;
    const Z n = Z(B) * NH * T * T;
    corpus::Case c(names[k - 2]);
    float *dpreatt = c.zeros<float>(n), *datt = c.zeros<float>(n), *att = c.zeros<float>(n);
    if (c.ready()) switch (k) {
      case 2: softmax_autoregressive_backward_kernel2<<<dim3(ceil_div(T, threads), B * NH), threads>>>(dpreatt, datt, att, B, T, C, NH); break;
      case 3: softmax_autoregressive_backward_kernel3<<<dim3(ceil_div(32 * T, threads), B * NH), threads>>>(dpreatt, datt, att, B, T, C, NH); break;
      case 4: softmax_autoregressive_backward_kernel4<<<dim3(ceil_div(4 * T, threads), B * NH), threads>>>(dpreatt, datt, att, B, T, C, NH); break;
      case 5: softmax_autoregressive_backward_kernel5<<<dim3(ceil_div(4 * T, threads), B * NH), threads>>>(dpreatt, datt, att, B, T, C, NH); break;
      case 6: softmax_autoregressive_backward_kernel6<256><<<dim3(T, B * NH), threads>>>(dpreatt, datt, att, B, T, C, NH); break;
      case 7: softmax_autoregressive_backward_kernel7<256><<<dim3(T, B * NH), threads>>>(dpreatt, datt, att, B, T, C, scale); break;
      case 8: softmax_autoregressive_backward_kernel8<256><<<dim3(T / 4, B * NH), threads>>>(dpreatt, datt, att, B, T, C, scale); break;
    }
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
