/// @file llmc_encoder_forward.cu
/// llm.c dev/cuda/encoder_forward.cu (bf16: the file defines ENABLE_BF16): the three encoder kernels,
/// out[b,t,:] = wte[inp[b,t],:] + wpe[t,:], at GPT-2 small's sizes (B = 8, T = 1024, C = 768, V = 50257,
/// 1024 positions), 256 threads a block. The token ids are drawn uniformly from [0, V) and the specs
/// say so (`.indices(uniform(V))`), so the table's gathers are evaluated.
#include "public_kernels.h"

#define main llmc_encoder_forward_main
#include "dev/cuda/encoder_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct V final : dim<"V"> {} V;   // rows of wte (the vocabulary)
inline constexpr struct P final : dim<"P"> {} P;   // rows of wpe (the longest sequence)

// The tokens repeat, so the table is read at most min(B*T, V) rows; positions 0..T-1 of wpe.
inline constexpr auto encoder_op = custom(B * T * C, out<0>("out", bf16, B, T, C), in<1>("inp", i32, B, T).indices(uniform(V)),
                                          in<2>("wte", bf16, V, C).touches(min(B * T, V) * C),
                                          in<3>("wpe", bf16, P, C).touches(min(T, P) * C));

// kernel1: a thread per token walking its C channels.
inline constexpr auto encoder_forward_kernel1_spec =
    kernel<encoder_forward_kernel1>("encoder_forward_kernel1", encoder_op)
        .at(B(8), T(1024), C(768), V(50257), P(1024)).sizes(B(arg<4>), T(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(B * T, 256));
// kernel2: a thread per element.
inline constexpr auto encoder_forward_kernel2_spec =
    kernel<encoder_forward_kernel2>("encoder_forward_kernel2", encoder_op)
        .at(B(8), T(1024), C(768), V(50257), P(1024)).sizes(B(arg<4>), T(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(B * T * C, 256));
// kernel3: 8 bf16 (16 bytes) a thread.
inline constexpr auto encoder_forward_kernel3_spec =
    kernel<encoder_forward_kernel3>("encoder_forward_kernel3", encoder_op)
        .at(B(8), T(1024), C(768), V(50257), P(1024)).sizes(B(arg<4>), T(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(B * T * C, 2048));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, C = 768, V = 50257, threads = 256;
  for (int k = 1; k <= 3; ++k) {
    const char* name = k == 1 ? "encoder_forward_kernel1" : k == 2 ? "encoder_forward_kernel2" : "encoder_forward_kernel3";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    floatX* out = c.zeros<floatX>(Z(B) * T * C);
    int* inp = c.upload(corpus::uniform_below(Z(B) * T, V, 1));  // uniform over the vocabulary, as the specs state
    floatX *wte = c.zeros<floatX>(Z(V) * C), *wpe = c.zeros<floatX>(Z(T) * C);
    if (c.ready() && k == 1) encoder_forward_kernel1<<<ceil_div(B * T, threads), threads>>>(out, inp, wte, wpe, B, T, C);
    if (c.ready() && k == 2) encoder_forward_kernel2<<<ceil_div(B * T * C, threads), threads>>>(out, inp, wte, wpe, B, T, C);
    if (c.ready() && k == 3)
      encoder_forward_kernel3<<<ceil_div(B * T * C, threads * x128::size), threads>>>(out, inp, wte, wpe, B, T, C);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
