/// @file llmc_crossentropy_softmax_backward.cu
/// llm.c dev/cuda/crossentropy_softmax_backward.cu (f32): kernel 1, dlogits[b,t,v] += (probs[b,t,v] -
/// (v == targets[b,t])) * dlosses[b,t], a thread per element of the (B,T,V) logits, at B = 8, T = 1024,
/// V = 50257, 256 threads a block. The targets are compared, never used as addresses; every thread of a
/// row reads its row's target and dloss. The spec and case are named crossentropy_softmax_bw_kernel1 (a
/// kernel name has at most 31 characters).
#include "public_kernels.h"

#define main llmc_crossentropy_softmax_backward_main
#include "dev/cuda/crossentropy_softmax_backward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct V final : dim<"V"> {} V;

// A subtract, a multiply and an add an element.
inline constexpr auto crossentropy_softmax_backward_kernel1_spec =
    kernel<crossentropy_softmax_backward_kernel1>(
        "crossentropy_softmax_bw_kernel1",
        custom(3 * B * T * V, inout<0>("dlogits", f32, B, T, V), in<1>("dlosses", f32, B, T), in<2>("probs", f32, B, T, V),
               in<3>("targets", i32, B, T)))
        .at(B(8), T(1024), V(50257)).sizes(B(arg<4>), T(arg<5>), V(arg<6>)).block(256).grid(ceil_div(B * T * V, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, V = 50257, threads = 256;
  if (!corpus::wanted("crossentropy_softmax_bw_kernel1")) return;
  corpus::Case c("crossentropy_softmax_bw_kernel1");
  float *dlogits = c.zeros<float>(Z(B) * T * V), *dlosses = c.zeros<float>(Z(B) * T), *probs = c.zeros<float>(Z(B) * T * V);
  int* targets = c.upload(corpus::uniform_below(Z(B) * T, V, 3));
  if (c.ready())
    crossentropy_softmax_backward_kernel1<<<ceil_div(B * T * V, threads), threads>>>(dlogits, dlosses, probs, targets, B, T, V);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
