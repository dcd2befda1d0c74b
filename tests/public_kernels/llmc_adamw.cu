/// @file llmc_adamw.cu
/// llm.c dev/cuda/adamw.cu (f32): the AdamW update, kernel 1 (naive) and kernel 2 (values kept in
/// registers), over N = 2^26 parameters (256 MiB a tensor), 512 threads a block as the file's launchers.
#include "public_kernels.h"

// The file's device lerp() meets C++20's std::lerp, which <math.h> brings into the global namespace:
// renamed in the file, as its main is.
#define main llmc_adamw_main
#define lerp llmc_adamw_lerp
#include "dev/cuda/adamw.cu"
#undef lerp
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // parameters

// params, m and v are read and written, grads read.
inline constexpr auto adamw_op =
    elementwise(10, inout<0>("params_memory", f32, N), in<1>("grads_memory", f32, N), inout<2>("m_memory", f32, N),
                inout<3>("v_memory", f32, N));

inline constexpr auto adamw_kernel1_spec =
    kernel<adamw_kernel1>("adamw_kernel1", adamw_op).at(N(1 << 26)).sizes(N(arg<4>)).block(512).grid(ceil_div(N, 512));
inline constexpr auto adamw_kernel2_spec =
    kernel<adamw_kernel2>("adamw_kernel2", adamw_op).at(N(1 << 26)).sizes(N(arg<4>)).block(512).grid(ceil_div(N, 512));
}  // namespace public_specs

static void run() {
  const long N = 1l << 26;
  const unsigned threads = 512, blocks = ceil_div(N, long(threads));
  // The file's defaults (lr 1e-3, betas 0.9 and 0.999, eps 1e-8, no weight decay) at step t = 10.
  const float beta1_correction = 1.0f - powf(0.9f, 10), beta2_correction = 1.0f - powf(0.999f, 10);
  for (int k : {1, 2}) {
    const char* name = k == 1 ? "adamw_kernel1" : "adamw_kernel2";
    if (!corpus::wanted(name)) continue;
    corpus::Case c(name);
    float *params = c.zeros<float>(N), *grads = c.zeros<float>(N), *m = c.zeros<float>(N), *v = c.zeros<float>(N);
    if (c.ready() && k == 1)
      adamw_kernel1<<<blocks, threads>>>(params, grads, m, v, N, 1e-3f, 0.9f, 0.999f, beta1_correction, beta2_correction, 1e-8f, 0.0f);
    if (c.ready() && k == 2)
      adamw_kernel2<<<blocks, threads>>>(params, grads, m, v, N, 1e-3f, 0.9f, 0.999f, beta1_correction, beta2_correction, 1e-8f, 0.0f);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
