/// @file verify.cu
/// A verifier binary over the consumer's kernel: links the installed rooflint::runtime.
#include <rooflint/runtime/verify.h>
#include <rooflint/runtime/verify_case.h>

#include "kernels.h"

ROOFLINT_VERIFY_CASE(consumer_saxpy_n16M, consumer::saxpy_spec, consumer::N(1 << 24)) {
  const auto n = ctx.size(consumer::N);
  const float* x = ctx.random<float>(n);
  float* y = ctx.random<float>(n);
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) {
        consumer_saxpy<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(static_cast<int>(n), 2.0f, x, y);
      },
  };
}

int main(int argc, char** argv) { return rooflint::verify_main(argc, argv); }
