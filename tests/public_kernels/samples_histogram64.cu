/// @file samples_histogram64.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/histogram/histogram64.cu: histogram64Kernel (a partial
/// 64-bin histogram per block of 64 threads, each thread reading up to 63 uint4 in a grid-stride loop)
/// and mergeHistogram64Kernel (a block per bin summing that bin over the partial histograms), over the
/// sample's 64 MiB of data as its histogram64() launches them.
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/histogram/histogram64.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;              // data, 32-bit words (read as uint4)
inline constexpr struct G final : dim<"G"> {} G;              // partial histograms: a block each
inline constexpr struct Bins final : dim<"Bins", 64> {} Bins;

inline constexpr auto histogram64Kernel_spec =
    kernel<histogram64Kernel>("histogram64Kernel", custom(4 * N, out<0>("d_PartialHistograms", u32, G, Bins), in<1>("d_Data", u32, N)))
        .at(N(16 * 1048576), G(4370)).sizes(N(4 * arg<2>), G(grid_dim.x)).block(64).grid(G);
inline constexpr auto mergeHistogram64Kernel_spec =
    kernel<mergeHistogram64Kernel>("mergeHistogram64Kernel",
                                   custom(G * Bins, out<0>("d_Histogram", u32, Bins), in<1>("d_PartialHistograms", u32, G, Bins)))
        .at(G(4370)).sizes(G(arg<2>)).block(256).grid(Bins);
}  // namespace public_specs

static void run() {
  const uint byteCount = 64 * 1048576;  // the sample's main.cpp
  const uint histogramCount = iDivUp(byteCount, HISTOGRAM64_THREADBLOCK_SIZE * iSnapDown(255, sizeof(data_t)));
  if (corpus::wanted("histogram64Kernel")) {
    corpus::Case c("histogram64Kernel");
    uint* partial = c.zeros<uint>(histogramCount * HISTOGRAM64_BIN_COUNT);
    data_t* data = c.zeros<data_t>(byteCount / sizeof(data_t));
    if (c.ready()) histogram64Kernel<<<histogramCount, HISTOGRAM64_THREADBLOCK_SIZE>>>(partial, data, byteCount / sizeof(data_t));
    c.done();
  }
  if (corpus::wanted("mergeHistogram64Kernel")) {
    corpus::Case c("mergeHistogram64Kernel");
    uint *histogram = c.zeros<uint>(HISTOGRAM64_BIN_COUNT), *partial = c.zeros<uint>(histogramCount * HISTOGRAM64_BIN_COUNT);
    if (c.ready()) mergeHistogram64Kernel<<<HISTOGRAM64_BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(histogram, partial, histogramCount);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
