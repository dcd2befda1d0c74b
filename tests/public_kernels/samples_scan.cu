/// @file samples_scan.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/scan/scan.cu: the three kernels of scanExclusiveLarge(),
/// an exclusive scan of 256 arrays of 262,144 u32 (MAX_LARGE_ARRAY_SIZE), 2^26 elements in all
/// (MAX_BATCH_ELEMENTS; the sample's 6.8 million fit in L2): scanExclusiveShared (each block scans 1024
/// elements, a uint4 a thread), scanExclusiveShared2 (the scan of the 1024-element blocks' totals: a
/// thread reads the last element of its block from the source and the first pass's output, 4 KiB apart)
/// and uniformUpdate (each block adds its offset to its 1024 elements in place), 256 threads a block.
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/scan/scan.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;            // elements (grid.x * 1024)
inline constexpr struct E final : dim<"E"> {} E;            // elements an array (size)
inline constexpr struct A final : dim<"A"> {} A;            // arrays: N / E
inline constexpr struct Nb final : dim<"Nb"> {} Nb;         // blocks of 1024 elements (N / 1024)
inline constexpr struct Blk final : dim<"Blk", 1024> {} Blk; // elements a block scans (4 * THREADBLOCK_SIZE)
inline constexpr struct Lb final : dim<"Lb"> {} Lb;         // blocks an array (arrayLength / 1024)
inline constexpr struct Ab final : dim<"Ab"> {} Ab;         // arrays: Nb / Lb

// A scan adds once per element.
inline constexpr auto scanExclusiveShared_spec =
    kernel<scanExclusiveShared>("scanExclusiveShared", custom(A * E, out<0>("d_Dst", u32, A, E), in<1>("d_Src", u32, A, E)))
        .sizes(E(arg<2>), N(grid_dim.x * 1024), A(N / E)).at(E(1024), N(1 << 26)).block(256).grid(ceil_div(A * E, 1024));
// Reads the last element of each 1024-element block of the source and of the first pass's output.
inline constexpr auto scanExclusiveShared2_spec =
    kernel<scanExclusiveShared2>("scanExclusiveShared2",
                                 custom(2 * Ab * Lb, out<0>("d_Buf", u32, Ab, Lb), in<1>("d_Dst", u32, Nb, Blk).touches(Nb),
                                        in<2>("d_Src", u32, Nb, Blk).touches(Nb)))
        .sizes(Nb(arg<3>), Lb(arg<4>), Ab(Nb / Lb)).at(Nb(1 << 16), Lb(256)).block(256).grid(ceil_div(Nb, 256));
inline constexpr auto uniformUpdate_spec =
    kernel<uniformUpdate>("uniformUpdate", custom(Nb * Blk, inout<0>("d_Data", u32, Nb, Blk), in<1>("d_Buffer", u32, Nb)))
        .at(Nb(1 << 16)).sizes(Nb(grid_dim.x)).block(256).grid(Nb);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const uint n = MAX_BATCH_ELEMENTS, arrayLength = MAX_LARGE_ARRAY_SIZE, blocks = n / (4 * THREADBLOCK_SIZE);
  if (corpus::wanted("scanExclusiveShared")) {
    corpus::Case c("scanExclusiveShared");
    uint *dst = c.zeros<uint>(Z(n)), *src = c.zeros<uint>(Z(n));
    if (c.ready()) scanExclusiveShared<<<blocks, THREADBLOCK_SIZE>>>((uint4*)dst, (uint4*)src, 4 * THREADBLOCK_SIZE);
    c.done();
  }
  if (corpus::wanted("scanExclusiveShared2")) {
    corpus::Case c("scanExclusiveShared2");
    uint *buf = c.zeros<uint>(blocks), *dst = c.zeros<uint>(Z(n)), *src = c.zeros<uint>(Z(n));
    if (c.ready())
      scanExclusiveShared2<<<iDivUp(blocks, THREADBLOCK_SIZE), THREADBLOCK_SIZE>>>(buf, dst, src, blocks,
                                                                                  arrayLength / (4 * THREADBLOCK_SIZE));
    c.done();
  }
  if (corpus::wanted("uniformUpdate")) {
    corpus::Case c("uniformUpdate");
    uint *data = c.zeros<uint>(Z(n)), *buf = c.zeros<uint>(blocks);
    if (c.ready()) uniformUpdate<<<blocks, THREADBLOCK_SIZE>>>((uint4*)data, buf);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
