/// @file llama2cu_inference.cu
/// llama2.cu (fp16 Llama-2 inference, one token a step): its eight kernels at the shapes of a 7B model's
/// decoding step (dim 4096, hidden 11008, 32 heads of 128, 2048 positions in the KV cache of layer 1 of 2), the
/// elementwise ones and the RMS norm and RoPE made large enough to leave L2, launched as its launchers
/// make them:
/// - `element_wise_add_kernel`, `silu_element_wise_mul_kernel` (in place), `convert_fp32_to_fp16`,
///   `convert_fp16_to_fp32`: an element a thread over 2^25 halves, 256 threads a block;
/// - `rmsnorm_kernel`: one block of 1024 threads over a row of 2^20 halves (four times the SM's L1),
///   read twice (the sum of squares, then the scaling) and the weight once;
/// - `mat_vec_kernel`: a warp per output row of an 11008 x 4096 weight (the FFN's up projection), 32 x 4
///   threads a block, each lane two bytes of the row a step, the input vector read by every warp;
/// - `RoPERotation_kernel`: a block per head of 128, a thread per pair, in place, over 2^17 heads;
/// - `MultiHeadAttention_kernel`: a block of 1024 threads per head; a thread per position reads that
///   position's 128 keys one by one (its lanes 8 KiB apart), then 128 threads walk the values down the
///   2048 positions.
#include "public_kernels.h"

// cub::Max, which the file's softmax uses, left CCCL in 3.0 (CUDA 13) for cuda::maximum.
#include <cub/cub.cuh>
#include <cuda/functional>
namespace cub {
using Max = ::cuda::maximum<>;
}

#define main llama2cu_main
#include "llama2.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;      // elements
inline constexpr struct C final : dim<"C"> {} C;      // the normalised row
inline constexpr struct K final : dim<"K"> {} K;      // the input vector of the matrix-vector product
inline constexpr struct Rows final : dim<"Rows"> {} Rows;  // its output rows
inline constexpr struct H final : dim<"H"> {} H;      // heads
inline constexpr struct D final : dim<"D"> {} D;      // head size
inline constexpr struct P final : dim<"P"> {} P;      // RoPE's pairs a head, D / 2
inline constexpr struct S final : dim<"S"> {} S;      // positions in the KV cache
inline constexpr struct Layers final : dim<"Layers", 2> {} Layers;  // the cache's layers: the kernel reads layer 1
inline constexpr struct E final : param<"E"> {} E;    // rmsnorm_kernel's elements a thread
inline constexpr struct Steps final : param<"Steps"> {} Steps;  // mat_vec_kernel's steps a lane
inline constexpr struct Off final : param<"Off"> {} Off;        // the layer's offset in the cache
inline constexpr struct Dim final : param<"Dim"> {} Dim;        // the cache's row, H * D

inline constexpr auto element_wise_add_kernel_spec =
    kernel<element_wise_add_kernel>("element_wise_add_kernel", elementwise(1, inout<0>("dest", f16, N), in<1>("src", f16, N)))
        .sizes(N(arg<2>)).at(N(1 << 25)).block(256).grid(ceil_div(N, 256));
inline constexpr auto silu_element_wise_mul_kernel_spec =
    kernel<silu_element_wise_mul_kernel>("silu_element_wise_mul_kernel",
                                         elementwise(6, inout<0>("dest", f16, N), in<1>("src", f16, N)).precision(f32))
        .sizes(N(arg<2>)).at(N(1 << 25)).block(256).grid(ceil_div(N, 256));
inline constexpr auto convert_fp32_to_fp16_spec =
    kernel<convert_fp32_to_fp16>("convert_fp32_to_fp16", unary(0, in<1>("in", f32, N), out<0>("out", f16, N)))
        .sizes(N(arg<2>)).at(N(1 << 25)).block(256).grid(ceil_div(N, 256));
inline constexpr auto convert_fp16_to_fp32_spec =
    kernel<convert_fp16_to_fp32>("convert_fp16_to_fp32", unary(0, in<1>("in", f16, N), out<0>("out", f32, N)))
        .sizes(N(arg<2>)).at(N(1 << 25)).block(256).grid(ceil_div(N, 256));
inline constexpr auto rmsnorm_kernel_spec =
    kernel<rmsnorm_kernel>("rmsnorm_kernel",
                           rooflint::dsl::rmsnorm(in<1>("x", f16, C), in<2>("weight", f16, C), out<0>("o", f16, C)).precision(f32))
        .sizes(C(arg<3>), E(arg<4>)).at(C(1 << 20), E(1024)).block(1024).grid(1);
// output[r] = sum_k weight[r][k] * input[k]: 2 FLOP a weight.
inline constexpr auto mat_vec_kernel_spec =
    kernel<mat_vec_kernel>("mat_vec_kernel", custom(2 * Rows * K, in<2>("weight", f16, Rows, K), in<1>("input", f16, K),
                                                    out<0>("output", f16, Rows)).precision(f32))
        .sizes(K(arg<3>), Rows(arg<4>), Steps(arg<5>)).at(K(4096), Rows(11008), Steps(128)).block(32, 4)
        .grid(ceil_div(Rows, 4));
// Each pair (q0, q1) of q and k becomes (q0 c - q1 s, q0 s + q1 c): 6 FLOP a pair.
inline constexpr auto RoPERotation_kernel_spec =
    kernel<RoPERotation_kernel>("RoPERotation_kernel",
                                custom(6 * H * P * 2, inout<0>("sq", f16, H, D), inout<1>("sk", f16, H, D), in<2>("f_real", f16, P),
                                       in<3>("f_imag", f16, P)).precision(f32))
        .sizes(H(arg<4>), D(arg<5>), P(D / 2)).at(H(1 << 17), D(128)).block(64).grid(H);
// Scores q.k over the positions, their softmax, the weighted sum of the values: 4 FLOP a (position,
// element) pair, the softmax's 5 a position.
inline constexpr auto MultiHeadAttention_kernel_spec =
    kernel<MultiHeadAttention_kernel>(
        "MultiHeadAttention_kernel",
        custom(4 * H * S * D + 5 * H * S, in<1>("sq", f16, H, D), in<2>("key_cache", f16, Layers, S, H, D).touches(S * H * D),
               in<3>("value_cache", f16, Layers, S, H, D).touches(S * H * D), out<0>("output", f16, H, D)).precision(f32))
        .sizes(H(arg<4>), D(arg<5>), Off(arg<6>), S(arg<7>), Dim(arg<8>)).at(H(32), D(128), Off(2048 * 4096), S(2048), Dim(4096))
        .block(1024).grid(H);
}  // namespace public_specs

/// A conversion kernel's case: @p n elements, 256 threads a block, as the file's launches (its index is
/// blockIdx.x * 256 + threadIdx.x).
template <class Out, class In>
static void convert_case(const char* name, void (*convert)(Out*, In*, int), int n) {
  if (!corpus::wanted(name)) return;
  corpus::Case c(name);
  Out* out = c.zeros<Out>(n);
  In* in = c.zeros<In>(n);
  if (c.ready()) convert<<<(n + 255) / 256, 256>>>(out, in, n);
  c.done();
}

static void run() {
  using Z = std::size_t;
  const int n = 1 << 25, threads = 256, blocks = (n + threads - 1) / threads;
  for (const char* name : {"element_wise_add_kernel", "silu_element_wise_mul_kernel"}) {
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    half *dest = c.zeros<half>(n), *src = c.zeros<half>(n);
    if (c.ready() && name[0] == 'e') element_wise_add_kernel<<<blocks, threads>>>(dest, src, n);
    if (c.ready() && name[0] == 's') silu_element_wise_mul_kernel<<<blocks, threads>>>(dest, src, n);
    c.done();
  }
  convert_case("convert_fp32_to_fp16", convert_fp32_to_fp16, n);
  convert_case("convert_fp16_to_fp32", convert_fp16_to_fp32, n);
  if (corpus::wanted("rmsnorm_kernel")) {
    const int size = 1 << 20;
    corpus::Case c("rmsnorm_kernel");
    half *o = c.zeros<half>(size), *x = c.zeros<half>(size), *weight = c.zeros<half>(size);
    if (c.ready()) rmsnorm_kernel<<<1, 1024>>>(o, x, weight, size, (size + 1023) / 1024);
    c.done();
  }
  if (corpus::wanted("mat_vec_kernel")) {
    const int k = 4096, rows = 11008;
    corpus::Case c("mat_vec_kernel");
    half *output = c.zeros<half>(rows), *input = c.zeros<half>(k), *weight = c.zeros<half>(Z(rows) * k);
    if (c.ready()) mat_vec_kernel<<<(rows + 3) / 4, dim3(32, 4)>>>(output, input, weight, k, rows, (k + 31) / 32);
    c.done();
  }
  if (corpus::wanted("RoPERotation_kernel")) {
    const int heads = 1 << 17, head_size = 128;
    corpus::Case c("RoPERotation_kernel");
    half *q = c.zeros<half>(Z(heads) * head_size), *k = c.zeros<half>(Z(heads) * head_size);
    half *f_real = c.zeros<half>(head_size / 2), *f_imag = c.zeros<half>(head_size / 2);
    if (c.ready()) RoPERotation_kernel<<<heads, head_size / 2>>>(q, k, f_real, f_imag, heads, head_size);
    c.done();
  }
  if (corpus::wanted("MultiHeadAttention_kernel")) {
    const int heads = 32, head_size = 128, seq_len = 2048, dim = heads * head_size;
    corpus::Case c("MultiHeadAttention_kernel");
    half *output = c.zeros<half>(dim), *q = c.zeros<half>(dim);
    const int layers = 2, loff = seq_len * dim;  // layer 1's keys and values
    half *key_cache = c.zeros<half>(Z(layers) * seq_len * dim), *value_cache = c.zeros<half>(Z(layers) * seq_len * dim);
    if (c.ready()) MultiHeadAttention_kernel<<<heads, 1024>>>(output, q, key_cache, value_cache, heads, head_size, loff, seq_len, dim);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
