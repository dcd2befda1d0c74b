/// @file softmax.cu
/// Row softmax, y[r][:] = exp(x[r][:] - max) / sum(exp(x[r][:] - max)), over 65536 rows of 4096 f32
/// (1 GiB in, 1 GiB out): memory-bound, compulsory bytes 4RC read + 4RC written = 2.15 GB.
///  - softmax_naive: three kernels (row max, row sum, normalise), each reading the whole matrix. The matrix
///    is 17 times the 60 MiB L2, so every pass's reads reach DRAM: 3 GiB read instead of 1.
///  - softmax_online: one kernel, one block per row; the row is loaded once into registers (16 floats per
///    thread), each thread's (max, sum) is merged across the block with the online-softmax rule, and the
///    row is normalised from registers: one read, one write.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "rooflint/dsl.h"
#include "../common/block_reduce.cuh"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

inline constexpr int softmax_threads = 256;

// ---------------------------------------------------------------------------------------------------
// Naive: three passes, three kernels

/// Pass 1 of 3: row_max[r] = max(x[r][:]). One block per row, coalesced scalar loads.
__global__ void softmax_row_max(const float* x, float* row_max, int cols) {
  // x: (R,C)  row_max: (R)
  const float* row = x + static_cast<std::int64_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, row[j]);
  m = rooflint::examples::block_max(m);
  if (threadIdx.x == 0) row_max[blockIdx.x] = m;
}

/// Pass 2 of 3: row_sum[r] = sum(exp(x[r][:] - row_max[r])): reads the whole row again, from DRAM.
__global__ void softmax_row_sum(const float* x, const float* row_max, float* row_sum, int cols) {
  // x: (R,C)  row_max: (R)  row_sum: (R)
  const float* row = x + static_cast<std::int64_t>(blockIdx.x) * cols;
  const float m = row_max[blockIdx.x];
  float s = 0.f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s += expf(row[j] - m);
  s = rooflint::examples::block_sum(s);
  if (threadIdx.x == 0) row_sum[blockIdx.x] = s;
}

/// Pass 3 of 3: y = exp(x - max) / sum, reading the row a third
/// time. THE TEXTBOOK MISTAKE is the split itself: three passes over a matrix far larger than L2, so
/// DRAM reads are 3 times the compulsory ones.
__global__ void softmax_naive(const float* x, const float* row_max, const float* row_sum, float* y, int cols) {
  // x: (R,C)  row_max: (R)  row_sum: (R)  y: (R,C)
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * cols;
  const float m = row_max[blockIdx.x], inv = 1.f / row_sum[blockIdx.x];
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[offset + j] = expf(x[offset + j] - m) * inv;
}

// ---------------------------------------------------------------------------------------------------
// Single pass, online

/// Longest row softmax_online holds in registers: 256 threads x 4 float4.
inline constexpr int softmax_vectors_per_thread = 4;
inline constexpr int softmax_max_cols = softmax_threads * 4 * softmax_vectors_per_thread;  // 4096

/// Merges two partial softmax states (max m, sum s of exp(v - m)): the online-softmax rule.
__device__ __forceinline__ void softmax_merge(float& m, float& s, float m2, float s2) {
  const float m_new = fmaxf(m, m2);
  if (m_new == -INFINITY) return;  // both empty
  s = s * expf(m - m_new) + s2 * expf(m2 - m_new);
  m = m_new;
}

/// y = softmax(x) row by row in one pass: one block of 256 threads per row, cols a multiple of 4 and at
/// most 4096. Each thread loads up to 4 float4 (all loads issued before any use), computes its own
/// (max, sum), merges them across the warp with shuffles and across warps in shared memory, then writes
/// exp(v - max) / sum from the registers: x is read once and y written once.
__global__ void __launch_bounds__(softmax_threads) softmax_online(const float* x, float* y, int cols) {
  // x: (R,C)  y: (R,C)
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * cols;
  const auto* row = reinterpret_cast<const float4*>(x + offset);
  auto* out = reinterpret_cast<float4*>(y + offset);
  const int vectors = cols / 4;

  float4 v[softmax_vectors_per_thread];
#pragma unroll
  for (int u = 0; u < softmax_vectors_per_thread; ++u) {
    const int j = threadIdx.x + u * softmax_threads;
    v[u] = j < vectors ? row[j] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  }
  float m = -INFINITY;
#pragma unroll
  for (int u = 0; u < softmax_vectors_per_thread; ++u) m = fmaxf(m, fmaxf(fmaxf(v[u].x, v[u].y), fmaxf(v[u].z, v[u].w)));
  float s = 0.f;
  if (m != -INFINITY) {
#pragma unroll
    for (int u = 0; u < softmax_vectors_per_thread; ++u)
      s += (expf(v[u].x - m) + expf(v[u].y - m)) + (expf(v[u].z - m) + expf(v[u].w - m));
  }

#pragma unroll
  for (int offset_lane = 16; offset_lane > 0; offset_lane /= 2)
    softmax_merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset_lane), __shfl_xor_sync(0xffffffffu, s, offset_lane));
  __shared__ float warp_m[softmax_threads / 32], warp_s[softmax_threads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    warp_m[warp] = m;
    warp_s[warp] = s;
  }
  __syncthreads();
  m = warp_m[0];
  s = warp_s[0];
#pragma unroll
  for (int w = 1; w < softmax_threads / 32; ++w) softmax_merge(m, s, warp_m[w], warp_s[w]);

  const float inv = 1.f / s;
#pragma unroll
  for (int u = 0; u < softmax_vectors_per_thread; ++u) {
    const int j = threadIdx.x + u * softmax_threads;
    if (j < vectors)
      out[j] = make_float4(expf(v[u].x - m) * inv, expf(v[u].y - m) * inv, expf(v[u].z - m) * inv, expf(v[u].w - m) * inv);
  }
}

// ---------------------------------------------------------------------------------------------------
// Specs

namespace softmax_example {

using namespace rooflint::dsl;

inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;

/// The three-kernel region (rooflint/dsl/region.h): the spec names the three passes in launch order and
/// the operation's tensors without kernel parameters; the per-row max and sum between the passes are not
/// the operation's, so not compulsory traffic (the traffic to them is what the fused kernel saves). Both
/// verifiers sum the three kernels: the harness case launches all three (launches = 3 from the spec), and
/// rooflint-verify -- ./program measures each run of the three on one stream as one instance.
inline constexpr auto softmax_naive_spec =
    region<softmax_row_max, softmax_row_sum, softmax_naive>(
        "softmax_naive", softmax(in("x", f32, R, C),     // x: (R,C)
                                 out("y", f32, R, C)))   // y: (R,C)
        .at(R(65536), C(4096))
        .sizes<0>(R(grid_dim.x), C(arg<2>))  // at the launch of softmax_row_max: one block per row, C = cols
        .expect(memory_bound);

static_assert(softmax_naive_spec.launches() == 3);
static_assert(softmax_naive_spec.bytes_at(softmax_naive_spec.declared().bound) == 8.0 * 65536 * 4096);

inline constexpr auto softmax_online_spec =
    kernel<softmax_online>("softmax_online", softmax(in<0>("x", f32, R, C),     // x: (R,C)
                                                     out<1>("y", f32, R, C)))   // y: (R,C)
        .at(R(65536), C(4096))
        .sizes(R(grid_dim.x), C(arg<2>))  // at a launch: one block per row, C = cols
        .expect(memory_bound);

static_assert(softmax_online_spec.bytes_at(softmax_online_spec.declared().bound) == 8.0 * 65536 * 4096);

inline void launch_naive(const float* x, float* row_max, float* row_sum, float* y, int rows, int cols, cudaStream_t s = 0) {
  softmax_row_max<<<rows, softmax_threads, 0, s>>>(x, row_max, cols);
  softmax_row_sum<<<rows, softmax_threads, 0, s>>>(x, row_max, row_sum, cols);
  softmax_naive<<<rows, softmax_threads, 0, s>>>(x, row_max, row_sum, y, cols);
}

inline void launch_online(const float* x, float* y, int rows, int cols, cudaStream_t s = 0) {
  softmax_online<<<rows, softmax_threads, 0, s>>>(x, y, cols);
}

/// Host reference, in double.
inline std::vector<float> reference(const std::vector<float>& x, int rows, int cols) {
  std::vector<float> y(x.size());
  for (int r = 0; r < rows; ++r) {
    const float* row = &x[static_cast<std::size_t>(r) * cols];
    double m = -INFINITY, s = 0;
    for (int j = 0; j < cols; ++j) m = std::max(m, static_cast<double>(row[j]));
    for (int j = 0; j < cols; ++j) s += std::exp(row[j] - m);
    for (int j = 0; j < cols; ++j) y[static_cast<std::size_t>(r) * cols + j] = static_cast<float>(std::exp(row[j] - m) / s);
  }
  return y;
}

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(softmax_naive_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(softmax_online_spec, "H200"));

}  // namespace softmax_example

ROOFLINT_EXAMPLE_CHECK(softmax_naive) {
  using namespace rooflint::examples;
  const int rows = 300, cols = 4096;
  const auto x = random_floats(static_cast<std::size_t>(rows) * cols, 13, -8.f, 8.f);
  device_buffer<float> dx(x), dmax(rows), dsum(rows), dy(x.size());
  softmax_example::launch_naive(dx, dmax, dsum, dy, rows, cols);
  if (!cuda_ok("softmax_naive")) return false;
  return close("y", dy.to_host(), softmax_example::reference(x, rows, cols), 1e-4, 1e-9);
}

ROOFLINT_EXAMPLE_CHECK(softmax_online) {
  using namespace rooflint::examples;
  bool ok = true;
  for (const int cols : {4096, 1000, 12}) {  // full rows, and rows that leave threads without data
    const int rows = 300;
    const auto x = random_floats(static_cast<std::size_t>(rows) * cols, 14, -8.f, 8.f);
    device_buffer<float> dx(x), dy(x.size());
    softmax_example::launch_online(dx, dy, rows, cols);
    if (!cuda_ok("softmax_online")) return false;
    ok = close("y", dy.to_host(), softmax_example::reference(x, rows, cols), 1e-4, 1e-9) && ok;
  }
  return ok;
}

namespace softmax_example {

ROOFLINT_VERIFY_CASE(softmax_naive_65536x4096, softmax_naive_spec, R(65536), C(4096)) {
  const int rows = static_cast<int>(ctx.size(R)), cols = static_cast<int>(ctx.size(C));
  const float* x = ctx.random<float>(static_cast<std::size_t>(rows) * cols);  // (R,C)
  float* row_max = ctx.poisoned<float>(rows);                                 // (R), scratch
  float* row_sum = ctx.poisoned<float>(rows);                                 // (R), scratch
  float* y = ctx.poisoned<float>(static_cast<std::size_t>(rows) * cols);      // (R,C)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { launch_naive(x, row_max, row_sum, y, rows, cols, s); },
  };  // launches: the region's three kernels
}

ROOFLINT_VERIFY_CASE(softmax_online_65536x4096, softmax_online_spec, R(65536), C(4096)) {
  const int rows = static_cast<int>(ctx.size(R)), cols = static_cast<int>(ctx.size(C));
  const float* x = ctx.random<float>(static_cast<std::size_t>(rows) * cols);  // (R,C)
  float* y = ctx.poisoned<float>(static_cast<std::size_t>(rows) * cols);      // (R,C)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { launch_online(x, y, rows, cols, s); },
  };
}

}  // namespace softmax_example
