/// @file llmc_global_norm.cu
/// llm.c dev/cuda/global_norm.cu (bf16: the file defines ENABLE_BF16): norm_kernel1<floatX>, the sum
/// of squares of the parameters' gradients into one float (a grid-stride loop, a block reduction, one
/// atomicAdd a block), over the file's count, (4*C*C + C*C) * 2 * 12 = 70,778,880 values at C = 768.
/// 512 threads a block and, as global_norm1 launches it on an H200 (132 SMs of 2048 threads),
/// 2048 * 132 / 512 = 528 blocks (fixed here: the spec's grid is the wrapper's launch).
#include "public_kernels.h"

#define main llmc_global_norm_main
#include "dev/cuda/global_norm.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;          // values
inline constexpr struct One final : dim<"One", 1> {} One;  // the one output

// A multiply and an add a value; out is read and written by the atomics.
inline constexpr auto norm_kernel1_spec =
    kernel<norm_kernel1<floatX>>("norm_kernel1",
                                 custom(2 * N, inout<0>("out", f32, One), in<1>("data", bf16, N)).precision(f32))
        .at(N(70778880)).sizes(N(arg<2>)).block(512).grid(528);
}  // namespace public_specs

static void run() {
  const std::size_t count = std::size_t(768 * 4 * 768 + 768 * 768) * 2 * 12;
  if (!corpus::wanted("norm_kernel1")) return;
  corpus::Case c("norm_kernel1");
  float* out = c.zeros<float>(1);
  floatX* data = c.zeros<floatX>(count);
  if (c.ready()) norm_kernel1<<<528, 512>>>(out, data, count);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
