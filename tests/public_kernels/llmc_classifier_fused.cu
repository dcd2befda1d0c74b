/// @file llmc_classifier_fused.cu
/// llm.c dev/cuda/classifier_fused.cu (f32): fused_classifier_kernel1, the softmax, cross-entropy loss
/// and logit gradient in one pass a row: a warp per row of the (B*T, P) logits (V = 50257 columns used
/// of P = 50304, the vocabulary padded to a multiple of 128 bytes), the row read twice (an online
/// max and sum, then the gradient) and its target's logit once, losses[b,t] and dlogits[b,t,:V] written,
/// at B = 8, T = 1024, 256 threads a block (8 rows), as fused_classifier1 launches it. The targets are
/// drawn uniformly from [0, V) and the spec says so.
#include "public_kernels.h"

#define main llmc_classifier_fused_main
#include "dev/cuda/classifier_fused.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct V final : dim<"V"> {} V;   // the vocabulary: the columns used
inline constexpr struct P final : dim<"P"> {} P;   // the padded row
inline constexpr struct Vu final : dim<"Vu"> {} Vu;  // the columns of each row used: min(V, P) = V

// About 10 FLOP a logit: the online max and sum (5), the probability and the gradient (5). The logits
// and dlogits are stated as the (B,T,Vu) they use, Vu = min(V, P); their rows are P apart (as the
// convolutions' pitch in samples_convolutionSeparable.cu). The targets index [0, Vu).
inline constexpr auto fused_classifier_kernel1_spec =
    kernel<fused_classifier_kernel1>(
        "fused_classifier_kernel1",
        custom(10 * B * T * Vu, out<0>("dlogits", f32, B, T, Vu), out<1>("losses", f32, B, T),
               in<2>("logits", f32, B, T, Vu), in<3>("dlosses", f32, B, T),
               in<4>("targets", i32, B, T).indices(uniform(Vu))))
        .sizes(B(arg<5>), T(arg<6>), V(arg<7>), P(arg<8>), Vu(min(V, P))).at(B(8), T(1024), V(50257), P(50304))
        .block(256).grid(B * T / 8);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, V = 50257, P = 50304, threads = 256;
  if (!corpus::wanted("fused_classifier_kernel1")) return;
  corpus::Case c("fused_classifier_kernel1");
  float *dlogits = c.zeros<float>(Z(B) * T * P), *losses = c.zeros<float>(Z(B) * T);
  float *logits = c.zeros<float>(Z(B) * T * P), *dlosses = c.zeros<float>(Z(B) * T);
  int* targets = c.upload(corpus::uniform_below(Z(B) * T, V, 5));  // uniform over the vocabulary, as the spec states
  if (c.ready())
    fused_classifier_kernel1<<<B * T / (threads / 32), threads>>>(dlogits, losses, logits, dlosses, targets, B, T, V, P);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
