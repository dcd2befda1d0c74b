/// @file samples_reduction.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu: the sum reductions
/// reduce0 (interleaved, a thread an element), reduce3 (two elements a thread), reduce4<256> (the last
/// warp by shuffles) and reduce6<256> (a grid-stride loop over 64 blocks), of n = 2^24 ints, 256 threads a
/// block, a partial sum per block: the sample's defaults.
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/reduction/reduction_kernel.cu"

// The sample's host code (reduction.cpp, not built here) defines this; its launcher above refers to it.
extern "C" bool isPow2(unsigned int x) { return (x & (x - 1)) == 0; }

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // elements
inline constexpr struct G final : dim<"G"> {} G;   // blocks: one partial sum each

inline constexpr auto reduce_op = custom(N, in<0>("g_idata", i32, N), out<1>("g_odata", i32, G));

inline constexpr auto reduce0_spec =
    kernel<reduce0<int>>("reduce0", reduce_op).at(N(1 << 24), G(1 << 16)).sizes(N(arg<2>), G(grid_dim.x)).block(256).grid(G).dynamic_shared(1024);
inline constexpr auto reduce3_spec =
    kernel<reduce3<int>>("reduce3", reduce_op).at(N(1 << 24), G(1 << 15)).sizes(N(arg<2>), G(grid_dim.x)).block(256).grid(G).dynamic_shared(1024);
inline constexpr auto reduce4_256_spec =
    kernel<reduce4<int, 256>>("reduce4_256", reduce_op).at(N(1 << 24), G(1 << 15)).sizes(N(arg<2>), G(grid_dim.x)).block(256).grid(G).dynamic_shared(1024);
inline constexpr auto reduce6_256_spec =
    kernel<reduce6<int, 256, true>>("reduce6_256", reduce_op).at(N(1 << 24), G(64)).sizes(N(arg<2>), G(grid_dim.x)).block(256).grid(G).dynamic_shared(1024);
}  // namespace public_specs

static void run() {
  const unsigned n = 1u << 24, threads = 256, smem = threads * sizeof(int);
  const struct {
    const char* name;
    void (*kernel)(int*, int*, unsigned);
    unsigned blocks;
  } cases[] = {{"reduce0", reduce0<int>, n / threads},
               {"reduce3", reduce3<int>, n / (2 * threads)},
               {"reduce4_256", reduce4<int, 256>, n / (2 * threads)},
               {"reduce6_256", reduce6<int, 256, true>, 64}};  // the sample's maxBlocks
  for (const auto& k : cases) {
    if (!corpus::wanted(k.name)) continue;
    corpus::Case c(k.name);
    int *in = c.zeros<int>(n), *out = c.zeros<int>(k.blocks);
    if (c.ready()) k.kernel<<<k.blocks, threads, smem>>>(in, out, n);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
