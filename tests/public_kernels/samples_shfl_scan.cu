/// @file samples_shfl_scan.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu: shfl_scan_test (an inclusive
/// scan of each block's 256 i32 in place, by warp shuffles, and the block's total to partial_sums) and
/// uniform_add (each block but the first adds the scanned total of the blocks before it, in place), over
/// 2^26 elements (the sample's 65,536 fit in L2), 256 threads a block, as shuffle_simple_test() launches
/// them (uniform_add over data + 256 and G - 1 blocks, reading the first G - 1 of the G totals; its
/// len, the total length, is read as P = len / 256 totals, since its threads past len return).
#include "public_kernels.h"

#define main samples_shfl_scan_main
#include "2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct G final : dim<"G"> {} G;              // blocks
inline constexpr struct Bs final : dim<"Bs", 256> {} Bs;      // elements a block (blockSize)
inline constexpr struct P final : dim<"P"> {} P;              // uniform_add: blocks' totals (len / 256)

inline constexpr auto shfl_scan_test_spec =
    kernel<shfl_scan_test>("shfl_scan_test", custom(G * Bs, inout<0>("data", i32, G, Bs), out<2>("partial_sums", i32, G)))
        .at(G(1 << 18)).sizes(G(grid_dim.x)).block(256).grid(G).dynamic_shared(32);
inline constexpr auto uniform_add_spec =
    kernel<uniform_add>("uniform_add", custom(G * Bs, inout<0>("data", i32, G, Bs), in<1>("partial_sums", i32, P).touches(G)))
        .at(G((1 << 18) - 1), P(1 << 18)).sizes(G(grid_dim.x), P(arg<2> / 256)).block(256).grid(G);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int n = 1 << 26, blockSize = 256, gridSize = n / blockSize, shmem = blockSize / 32 * sizeof(int);
  if (corpus::wanted("shfl_scan_test")) {
    corpus::Case c("shfl_scan_test");
    int *data = c.zeros<int>(Z(n)), *partial = c.zeros<int>(gridSize);
    if (c.ready()) shfl_scan_test<<<gridSize, blockSize, shmem>>>(data, 32, partial);
    c.done();
  }
  if (corpus::wanted("uniform_add")) {
    corpus::Case c("uniform_add");
    int *data = c.zeros<int>(Z(n)), *partial = c.zeros<int>(gridSize);
    if (c.ready()) uniform_add<<<gridSize - 1, blockSize>>>(data + blockSize, partial, n);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
