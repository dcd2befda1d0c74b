/// @file samples_threadFenceReduction.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh:
/// reduceSinglePass<128, true>, a sum of 2^26 f32 in one launch (the sample's 2^20 fit in L2): 64 blocks
/// of 128 threads (the sample's maxBlocks and maxThreads) each sum a grid-stride share into g_odata, and
/// the last block to retire (an atomicInc ticket after a __threadfence) sums those 64 partials into
/// g_odata[0].
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // elements
inline constexpr struct G final : dim<"G"> {} G;   // blocks: a partial sum each, the total in the first

inline constexpr auto reduceSinglePass_128_spec =
    kernel<reduceSinglePass<128, true>>("reduceSinglePass_128",
                                        custom(N, in<0>("g_idata", f32, N), out<1>("g_odata", f32, G)))
        .at(N(1 << 26), G(64)).sizes(N(arg<2>), G(grid_dim.x)).block(128).grid(G).dynamic_shared(512);
}  // namespace public_specs

static void run() {
  const unsigned n = 1u << 26, threads = 128, blocks = 64;  // the sample's maxThreads and maxBlocks
  if (!corpus::wanted("reduceSinglePass_128")) return;
  corpus::Case c("reduceSinglePass_128");
  float *in = c.zeros<float>(n), *out = c.zeros<float>(blocks);
  if (c.ready()) reduceSinglePass<128, true><<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
