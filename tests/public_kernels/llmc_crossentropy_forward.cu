/// @file llmc_crossentropy_forward.cu
/// llm.c dev/cuda/crossentropy_forward.cu (f32): kernel 1, losses[b,t] = -log(probs[b,t,targets[b,t]]),
/// a thread per token, at B = 8, T = 1024, V = 50257, 256 threads a block. The targets are drawn
/// uniformly from [0, V) and the spec says so (`.indices(uniform(V))`): each token reads one element of
/// its row of probs.
#include "public_kernels.h"

#define main llmc_crossentropy_forward_main
#include "dev/cuda/crossentropy_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct V final : dim<"V"> {} V;

inline constexpr auto crossentropy_forward_kernel1_spec =
    kernel<crossentropy_forward_kernel1>("crossentropy_forward_kernel1",
                                         custom(0, out<0>("losses", f32, B, T), in<1>("probs", f32, B, T, V).touches(B * T),
                                                in<2>("targets", i32, B, T).indices(uniform(V))))
        .at(B(8), T(1024), V(50257)).sizes(B(arg<3>), T(arg<4>), V(arg<5>)).block(256).grid(ceil_div(B * T, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, V = 50257, threads = 256;
  if (!corpus::wanted("crossentropy_forward_kernel1")) return;
  corpus::Case c("crossentropy_forward_kernel1");
  float *losses = c.zeros<float>(Z(B) * T), *probs = c.zeros<float>(Z(B) * T * V);
  int* targets = c.upload(corpus::uniform_below(Z(B) * T, V, 2));  // uniform over the vocabulary, as the spec states
  if (c.ready()) crossentropy_forward_kernel1<<<ceil_div(B * T, threads), threads>>>(losses, probs, targets, B, T, V);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
