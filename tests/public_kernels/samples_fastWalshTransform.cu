/// @file samples_fastWalshTransform.cu
/// cuda-samples Samples/5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh: fwtBatch2Kernel
/// (one radix-4 butterfly pass in global memory: a thread reads and writes 4 elements `stride` apart),
/// fwtBatch1Kernel (the last 11 stages of a row of 2048 in shared memory, N / 4 = 512 threads a block)
/// and modulateKernel (A *= B / N, 128 blocks of 256 threads in a grid-stride loop), over 2^26 f32
/// (the sample's 2^23 fit in L2), as fwtBatchGPU() and modulateGPU() launch them: fwtBatch2Kernel as
/// its first pass (stride N / 4), fwtBatch1Kernel over the 2^15 rows of 2048 that the passes leave.
/// The sample transforms in place; here the output is a buffer of its own.
#include "public_kernels.h"

#include <helper_cuda.h>  // the file's launchers check errors with it; fastWalshTransform.cu includes it first
#include "5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;            // batches (grid.y)
inline constexpr struct Q final : dim<"Q"> {} Q;            // groups of 4 * stride elements in a row
inline constexpr struct Four final : dim<"Four", 4> {} Four; // the butterfly's 4 elements, stride apart
inline constexpr struct S final : dim<"S"> {} S;            // stride (elements)
inline constexpr struct T final : dim<"T"> {} T;            // threads a row: Q * S
inline constexpr struct R final : dim<"R"> {} R;            // rows of fwtBatch1Kernel (a block each)
inline constexpr struct L final : dim<"L"> {} L;            // row length of fwtBatch1Kernel: 1 << log2N (its parameter 2)
inline constexpr struct N final : dim<"N"> {} N;            // elements of modulateKernel

// A radix-4 butterfly: 8 additions for 4 elements.
inline constexpr auto fwtBatch2Kernel_spec =
    kernel<fwtBatch2Kernel>("fwtBatch2Kernel",
                            custom(8 * M * Q * S, out<0>("d_Output", f32, M, Q, Four, S), in<1>("d_Input", f32, M, Q, Four, S)))
        .sizes(S(arg<2>), M(grid_dim.y), T(grid_dim.x * 256), Q(T / S)).at(S(1 << 24), M(1), T(1 << 24))
        .block(256).grid(ceil_div(T, 256), M);
// log2(L) stages of L additions and subtractions.
inline constexpr auto fwtBatch1Kernel_spec =
    kernel<fwtBatch1Kernel>("fwtBatch1Kernel", custom(11 * R * L, out<0>("d_Output", f32, R, L), in<1>("d_Input", f32, R, L)))
        .at(R(1 << 15), L(2048)).sizes(R(grid_dim.x), L(pow2(arg<2>))).block(512).grid(R).dynamic_shared(4 * L);
inline constexpr auto modulateKernel_spec =
    kernel<modulateKernel>("modulateKernel", custom(2 * N, inout<0>("d_A", f32, N), in<1>("d_B", f32, N)))
        .at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(128);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int log2Data = 26, dataN = 1 << log2Data, THREAD_N = 256;
  if (corpus::wanted("fwtBatch2Kernel")) {
    corpus::Case c("fwtBatch2Kernel");
    float *out = c.zeros<float>(Z(dataN)), *in = c.zeros<float>(Z(dataN));
    if (c.ready()) fwtBatch2Kernel<<<dim3(dataN / (4 * THREAD_N), 1), THREAD_N>>>(out, in, dataN / 4);
    c.done();
  }
  if (corpus::wanted("fwtBatch1Kernel")) {
    corpus::Case c("fwtBatch1Kernel");
    const int N = 1 << ELEMENTARY_LOG2SIZE, M = dataN / N;
    float *out = c.zeros<float>(Z(dataN)), *in = c.zeros<float>(Z(dataN));
    if (c.ready()) fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>(out, in, ELEMENTARY_LOG2SIZE);
    c.done();
  }
  if (corpus::wanted("modulateKernel")) {
    corpus::Case c("modulateKernel");
    float *a = c.zeros<float>(Z(dataN)), *b = c.zeros<float>(Z(dataN));
    if (c.ready()) modulateKernel<<<128, 256>>>(a, b, dataN);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
