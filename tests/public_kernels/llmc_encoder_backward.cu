/// @file llmc_encoder_backward.cu
/// llm.c dev/cuda/encoder_backward.cu (f32): the encoder's gradient, dwte[inp[b,t],:] += dout[b,t,:] and
/// dwpe[t,:] += dout[b,t,:], at GPT-2 small's sizes (B = 8, T = 1024, C = 768, V = 50257, 1024
/// positions). Kernel 1: a thread per element of dout, 256 threads a block, two atomicAdds a thread;
/// kernel 2: a thread per channel (C threads, 256 a block: 3 blocks), each walking all B*T tokens with
/// plain read-modify-writes. The token ids are drawn uniformly from [0, V) and the specs say so.
#include "public_kernels.h"

#define main llmc_encoder_backward_main
#include "dev/cuda/encoder_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct V final : dim<"V"> {} V;   // rows of dwte (the vocabulary)
inline constexpr struct P final : dim<"P"> {} P;   // rows of dwpe (the longest sequence)

// Two adds an element of dout; dwte is read and written at most min(B*T, V) rows, dwpe rows 0..T-1.
inline constexpr auto encoder_backward_op =
    custom(2 * B * T * C, inout<0>("dwte", f32, V, C).touches(min(B * T, V) * C), inout<1>("dwpe", f32, P, C).touches(min(T, P) * C),
           in<2>("dout", f32, B, T, C), in<3>("inp", i32, B, T).indices(uniform(V)));

inline constexpr auto encoder_backward_kernel1_spec =
    kernel<encoder_backward_kernel1>("encoder_backward_kernel1", encoder_backward_op)
        .at(B(8), T(1024), C(768), V(50257), P(1024)).sizes(B(arg<4>), T(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(B * T * C, 256));
inline constexpr auto encoder_backward_kernel2_spec =
    kernel<encoder_backward_kernel2>("encoder_backward_kernel2", encoder_backward_op)
        .at(B(8), T(1024), C(768), V(50257), P(1024)).sizes(B(arg<4>), T(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(C, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, C = 768, V = 50257, threads = 256;
  for (int k : {1, 2}) {
    const char* name = k == 1 ? "encoder_backward_kernel1" : "encoder_backward_kernel2";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    float *dwte = c.zeros<float>(Z(V) * C), *dwpe = c.zeros<float>(Z(T) * C), *dout = c.zeros<float>(Z(B) * T * C);
    int* inp = c.upload(corpus::uniform_below(Z(B) * T, V, 4));  // uniform over the vocabulary, as the specs state
    if (c.ready() && k == 1) encoder_backward_kernel1<<<ceil_div(B * T * C, threads), threads>>>(dwte, dwpe, dout, inp, B, T, C);
    if (c.ready() && k == 2) encoder_backward_kernel2<<<ceil_div(C, threads), threads>>>(dwte, dwpe, dout, inp, B, T, C);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
