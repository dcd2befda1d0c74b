/// @file reduction.cu
/// sum = x[0] + ... + x[N-1] over N = 2^28 f32 values (1 GiB) in one kernel: memory-bound, compulsory
/// bytes 4N + 4. A grid sized to fill the GPU once reads x with float4 loads (four in flight per
/// thread), reduces in registers, warps and shared memory, writes one partial per block, and the last
/// block to finish adds the partials (the "threadfence reduction": no second launch, no atomics on
/// floats, a deterministic result for a given grid).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "rooflint/dsl.h"
#include "../common/block_reduce.cuh"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

inline constexpr int reduction_threads = 256;
inline constexpr int reduction_max_blocks = 4096;  // capacity of the partials buffer

/// *sum = sum of x[0..n). partials (gridDim.x floats) and done (one counter, 0 before the first launch;
/// the last block resets it) are scratch. Launch with at most reduction_max_blocks blocks of 256 threads.
__global__ void __launch_bounds__(reduction_threads) reduce_sum(const float* x, float* partials, unsigned* done, float* sum, int n) {
  // x: (N)  sum: ()
  using rooflint::examples::block_sum;
  const int n4 = n / 4;
  const auto* x4 = reinterpret_cast<const float4*>(x);
  const int stride = gridDim.x * blockDim.x;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {  // four independent 16-byte loads in flight
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = x4[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += stride) {
    const float4 v = x4[i];
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc[1] += x[4 * n4 + threadIdx.x];  // the tail
  const float block_total = block_sum((acc[0] + acc[1]) + (acc[2] + acc[3]));

  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    __threadfence();  // the partial is visible device-wide before the counter says so
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  const volatile float* fresh = partials;  // volatile loads bypass L1: the other blocks' partials come from L2
  float s = 0.f;
  for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += fresh[b];
  s = block_sum(s);
  if (threadIdx.x == 0) {
    *sum = s;
    *done = 0;  // ready for the next launch
  }
}

namespace reduction_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// 1 FLOP per element (counted only under count_elementwise); compulsory bytes 4N + 4.
inline constexpr auto reduce_sum_spec =
    kernel<reduce_sum>("reduce_sum", reduction(in<0>("x", f32, N),  // x: (N)
                                               out<3>("sum", f32)),  // sum: ()
                       uncounted<1>("partials"), uncounted<2>("done"))
        .at(N(1 << 28))
        .sizes(N(arg<4>))  // at a launch: N = n
        .block(reduction_threads)
        .grid(1056)  // one full wave on the H200: 8 blocks of 256 threads on each of 132 SMs
        .expect(memory_bound);

static_assert(reduce_sum_spec.bytes_at(reduce_sum_spec.declared().bound) == 4.0 * (1 << 28) + 4);

/// @return Blocks for one full wave: 8 blocks of 256 threads per SM (2048 threads), at most the
/// partials' capacity (1056 on 132 SMs).
inline int blocks_for_device() {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return std::clamp(8 * sms, 1, reduction_max_blocks);
}

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(reduce_sum_spec, "H200"));

}  // namespace reduction_example

ROOFLINT_EXAMPLE_CHECK(reduce_sum) {
  using namespace rooflint::examples;
  bool ok = true;
  for (const int n : {(1 << 22) + 3, 1000, 3}) {
    const auto x = random_floats(n, 12, 0.f, 1.f);  // positive: the relative error stays meaningful
    device_buffer<float> dx(x), dpartials(reduction_max_blocks), dsum(1);
    device_buffer<unsigned> ddone(std::vector<unsigned>{0});
    const int blocks = reduction_example::blocks_for_device();
    for (int run = 0; run < 2; ++run)  // twice: the counter must have been reset by the first launch
      reduce_sum<<<blocks, reduction_threads>>>(dx, dpartials, ddone, dsum, n);
    if (!cuda_ok("reduce_sum")) return false;
    double want = 0;
    for (const float v : x) want += v;
    ok = close("sum", dsum.to_host(), {static_cast<float>(want)}, 1e-5, 1e-6) && ok;
  }
  return ok;
}

namespace reduction_example {

ROOFLINT_VERIFY_CASE(reduce_sum_n256M, reduce_sum_spec, N(1 << 28)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* x = ctx.random<float>(n);                          // (N)
  float* partials = ctx.poisoned<float>(reduction_max_blocks);    // scratch
  unsigned* done = ctx.copy_of(std::vector<unsigned>{0});         // scratch, reset by the kernel
  float* sum = ctx.poisoned<float>(1);                            // ()
  const int blocks = blocks_for_device();
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { reduce_sum<<<blocks, reduction_threads, 0, s>>>(x, partials, done, sum, n); },
  };
}

}  // namespace reduction_example
