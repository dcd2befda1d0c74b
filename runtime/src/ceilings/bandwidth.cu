/// @file bandwidth.cu
/// DRAM bandwidth probes: copy, read-only and write-only kernels with 16-byte (float4) accesses and a
/// grid-stride loop over a working set many times the L2, plus cudaMemcpyAsync device-to-device as a
/// second opinion. No arithmetic to hide behind: every byte counted is a byte the kernel must move.
///
/// No L2 flush between repetitions: the working set is at least 8x the L2 (2 GiB quick, 8 GiB thorough,
/// against 60 MiB on an H200) and every repetition sweeps it in the same order, so the lines the
/// previous sweep left in L2 (its last addresses) are evicted by the new sweep's first addresses before
/// it reaches them: a cyclic sweep larger than the cache gets no hits under LRU-like replacement, and
/// under any replacement at most L2 / working set (3% quick, 0.7% thorough) of the reads. A repetition's
/// dirty lines still in L2 at its end are written back during the next repetition, which is timed too:
/// in the steady state of back-to-back repetitions every written byte reaches DRAM in a timed window.
/// (The verifier flushes L2 before each kernel because its kernels' working sets are small.)

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ceilings/ceilings.h"
#include "rooflint/model/peaks.h"
#include "support/cuda_check.h"
#include "timing.h"

namespace rooflint::runtime {

namespace {

constexpr int unroll = 4;  // loads in flight per thread before the first store: memory-level parallelism

/// Plain loads and stores: the default cache policy.
struct plain_access {
  __device__ __forceinline__ static float4 load(const float4* __restrict__ p) { return *p; }
  __device__ __forceinline__ static void store(float4* __restrict__ p, float4 v) { *p = v; }
};

/// Streaming cache hints (ld.global.cs / st.global.cs: evict first), which keep the copied lines from
/// displacing each other in L2 for no reuse.
struct streaming_access {
  __device__ __forceinline__ static float4 load(const float4* __restrict__ p) { return __ldcs(p); }
  __device__ __forceinline__ static void store(float4* __restrict__ p, float4 v) { __stcs(p, v); }
};

/// out[i] = in[i] over n float4s (16 bytes read + 16 written per element), U loads in flight per thread
/// (U x 16 bytes) before the first store, each load and store by Access's cache policy.
template <int U, class Access = plain_access>
__global__ void copy_float4_unrolled(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = Access::load(in + i + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) Access::store(out + i + u * stride, v[u]);
  }
  for (; i < n; i += stride) Access::store(out + i, Access::load(in + i));
}

/// The copy with U loads in flight per thread over a contiguous chunk per block (each block copies
/// n / gridDim.x float4s, U x blockDim.x at a time): whole DRAM pages per block instead of a
/// grid-wide stride, the access pattern of cudaMemcpy's kernel.
template <int U>
__global__ void copy_float4_chunked(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t chunk = (n + gridDim.x - 1) / gridDim.x;
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  std::size_t i = begin + threadIdx.x;
  for (; i + (U - 1) * blockDim.x < end; i += static_cast<std::size_t>(U) * blockDim.x) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = streaming_access::load(in + i + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; ++u) streaming_access::store(out + i + u * blockDim.x, v[u]);
  }
  for (; i < end; i += blockDim.x) streaming_access::store(out + i, streaming_access::load(in + i));
}

// Cache-level accesses in PTX, volatile so that the compiler neither hoists a load out of the pass
// loop nor merges repeated loads of the same address: every load counted is a load executed.
__device__ __forceinline__ float4 load_cg(const float4* p) {  // L2 only: bypasses L1
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ float4 load_ca(const float4* p) {  // cached in L1
  float4 v;
  asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ void store_cg(float4* p, float4 v) {  // to L2 (stores do not allocate in L1)
  asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}

__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

/// L2 read: @p passes sweeps over n float4s resident in L2 with ld.global.cg, 4 loads in flight per
/// thread; the sum is stored only when it equals @p sentinel (NaN: never), so no load is dead.
__global__ void read_l2_cg(const float4* __restrict__ in, std::size_t n, int passes, float sentinel, float* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc[4] = {};
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t i = first;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const float4 a = load_cg(in + i), b = load_cg(in + i + stride), c = load_cg(in + i + 2 * stride),
                   d = load_cg(in + i + 3 * stride);
      acc[0] += sum4(a);
      acc[1] += sum4(b);
      acc[2] += sum4(c);
      acc[3] += sum4(d);
    }
    for (; i < n; i += stride) acc[0] += sum4(load_cg(in + i));
  }
  const float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  if (sum == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// L2 write: @p passes sweeps of st.global.cg over n float4s resident in L2.
__global__ void write_l2_cg(float4* __restrict__ out, std::size_t n, int passes, float value) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int pass = 0; pass < passes; ++pass) {
    const float4 v = make_float4(value + pass, value, value, value);
    for (std::size_t i = first; i < n; i += stride) store_cg(out + i, v);
  }
}

/// L2 copy: @p passes copies of n float4s from @p in to @p out, both resident in L2 (ld/st .cg).
__global__ void copy_l2_cg(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n, int passes) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int pass = 0; pass < passes; ++pass) {
    std::size_t i = first;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const float4 a = load_cg(in + i), b = load_cg(in + i + stride), c = load_cg(in + i + 2 * stride),
                   d = load_cg(in + i + 3 * stride);
      store_cg(out + i, a);
      store_cg(out + i + stride, b);
      store_cg(out + i + 2 * stride, c);
      store_cg(out + i + 3 * stride, d);
    }
    for (; i < n; i += stride) store_cg(out + i, load_cg(in + i));
  }
}

/// L1 read: every block sweeps the same window of n float4s (a few KiB, resident in every SM's L1
/// after the first pass) @p passes times with ld.global.ca, 4 loads in flight per thread. Aggregate
/// over SMs: the rate all SMs' L1s serve together.
__global__ void read_l1_ca(const float4* __restrict__ window, int n, int passes, float sentinel, float* sink) {
  float acc[4] = {};
  for (int pass = 0; pass < passes; ++pass) {
    int i = threadIdx.x;
    for (; i + 3 * static_cast<int>(blockDim.x) < n; i += 4 * blockDim.x) {
      const float4 a = load_ca(window + i), b = load_ca(window + i + blockDim.x), c = load_ca(window + i + 2 * blockDim.x),
                   d = load_ca(window + i + 3 * blockDim.x);
      acc[0] += sum4(a);
      acc[1] += sum4(b);
      acc[2] += sum4(c);
      acc[3] += sum4(d);
    }
    for (; i < n; i += blockDim.x) acc[0] += sum4(load_ca(window + i));
  }
  const float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  if (sum == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// Sums n float4s per thread; stores the sum only when it equals @p sentinel (NaN at run time, so never),
/// which the compiler cannot know: every load feeds a value that might be stored, so none is dead.
__global__ void read_float4(const float4* __restrict__ in, std::size_t n, float sentinel, float* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc[unroll] = {};
  for (; i + (unroll - 1) * stride < n; i += unroll * stride) {
    float4 v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < unroll; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n; i += stride) {
    const float4 v = in[i];
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  float sum = 0;
#pragma unroll
  for (int u = 0; u < unroll; ++u) sum += acc[u];
  if (sum == sentinel) sink[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// out[i] = (value, value, value, value) over n float4s (16 bytes written per element).
__global__ void write_float4(float4* __restrict__ out, std::size_t n, float value) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const float4 v = make_float4(value, value, value, value);
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = v;
}

template <class Kernel>
result<int> full_grid(Kernel kernel, int block, int sm_count) {
  int blocks_per_sm = 0;
  ROOFLINT_TRY_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, block, 0));
  if (blocks_per_sm < 1)
    return error{error_code::internal, "bandwidth kernel cannot run with " + std::to_string(block) + " threads per block"};
  return blocks_per_sm * sm_count;
}

std::string launch_text(int grid, int block) {
  return "grid " + std::to_string(grid) + " x block " + std::to_string(block);
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1ull << 30));
  return text;
}

}  // namespace

result<std::vector<bandwidth_result>> measure_bandwidth(const device_properties& device, nvml_device nvml,
                                                       const measure_settings& settings, const progress_fn& progress) {
  // Working set: as asked, but leave 20% of free memory to others; a multiple of 32 bytes so that the
  // copy's two halves are whole float4 arrays.
  double working_set = std::min(settings.bandwidth_working_set_bytes, 0.8 * static_cast<double>(device.free_bytes));
  const std::size_t bytes = static_cast<std::size_t>(working_set) / 32 * 32;
  if (bytes < 8 * device.l2_bytes)
    return error{error_code::failed_precondition,
                 "only " + gib(static_cast<double>(bytes)) + " of device memory is free for the bandwidth probe; it "
                 "needs at least 8x the L2 (" + gib(8.0 * device.l2_bytes) + ") so that the L2 cannot serve it"};
  detail::device_buffer buffer, sink;
  ROOFLINT_TRY(buffer.allocate(bytes));
  ROOFLINT_TRY(sink.allocate(sizeof(float) * 1024 * device.sm_count * 4));
  detail::stream_guard stream;
  ROOFLINT_TRY(stream.create());
  // Defined contents (0x3f3f3f3f = 0.747 as a float): no NaNs or denormals in the read probe's sums.
  ROOFLINT_TRY_CUDA(cudaMemsetAsync(buffer.get(), 0x3f, bytes, stream.get()));
  ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream.get()));

  float4* const all = buffer.as<float4>();
  const std::size_t n_all = bytes / sizeof(float4);      // read and write probes: the whole buffer
  const std::size_t n_half = n_all / 2;                  // copy: first half to second half
  const float4* const in = all;
  float4* const out = all + n_half;
  const float never = std::numeric_limits<float>::quiet_NaN();
  float* const sink_ptr = sink.as<float>();

  std::vector<int> blocks = settings.thorough ? std::vector<int>{256, 512, 1024} : std::vector<int>{256, 1024};
  std::vector<bandwidth_result> results;
  using model::memory_level;

  auto run = [&](std::string name, memory_level level, std::string direction, std::string launch, double bytes_per_rep,
                 double working_set_bytes, const detail::launch_fn& fn) -> result<void> {
    if (progress)
      progress("bandwidth: " + std::string(model::label(level)) + " " + name + (launch.empty() ? "" : " " + launch) +
               " over " + gib(working_set_bytes));
    auto warm = detail::time_launches(stream.get(), 2, fn);
    if (!warm) return warm.err();
    clock_sampler sampler(nvml);
    sampler.start();
    auto times = detail::time_launches(stream.get(), settings.bandwidth_repetitions, fn);
    const clock_summary clocks = sampler.stop();
    if (!times) return times.err();
    bandwidth_result r;
    r.name = std::move(name);
    r.level = level;
    r.direction = std::move(direction);
    r.launch = std::move(launch);
    r.bytes_per_repetition = bytes_per_rep;
    r.working_set_bytes = working_set_bytes;
    r.time = summarize(*times);
    r.clocks = clocks;
    results.push_back(std::move(r));
    return success();
  };
  // One probe kernel over each block size, at a full grid (whole waves of resident blocks).
  auto sweep = [&](auto kernel, const std::string& name, memory_level level, const std::string& direction,
                   double bytes_per_rep, double working_set_bytes, auto launch) -> result<void> {
    for (const int block : blocks) {
      auto grid = full_grid(kernel, block, device.sm_count);
      if (!grid) return grid.err();
      const int g = *grid;
      ROOFLINT_TRY(run(name, level, direction, launch_text(g, block), bytes_per_rep, working_set_bytes,
                       [=](cudaStream_t s) -> result<void> {
                         launch(g, block, s);
                         return success();
                       }));
    }
    return success();
  };
  const double ws = static_cast<double>(bytes);
  const double copy_bytes = 2.0 * n_half * sizeof(float4);
  const double all_bytes = 1.0 * n_all * sizeof(float4);

  // DRAM. The copy probes should reach cudaMemcpy's device-to-device rate (measured last, same buffer):
  // more bytes in flight per thread (4 or 8 float4 loads before the first store), streaming hints, and
  // a chunk per block instead of a grid-wide stride.
  ROOFLINT_TRY(sweep(copy_float4_unrolled<unroll>, "copy_float4", memory_level::dram, "copy", copy_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { copy_float4_unrolled<unroll><<<g, b, 0, s>>>(in, out, n_half); }));
  ROOFLINT_TRY(sweep(copy_float4_unrolled<8>, "copy_float4_u8", memory_level::dram, "copy", copy_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { copy_float4_unrolled<8><<<g, b, 0, s>>>(in, out, n_half); }));
  ROOFLINT_TRY(sweep(copy_float4_unrolled<unroll, streaming_access>, "copy_float4_streaming", memory_level::dram, "copy", copy_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { copy_float4_unrolled<unroll, streaming_access><<<g, b, 0, s>>>(in, out, n_half); }));
  ROOFLINT_TRY(sweep(copy_float4_chunked<8>, "copy_float4_chunked_u8", memory_level::dram, "copy", copy_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { copy_float4_chunked<8><<<g, b, 0, s>>>(in, out, n_half); }));
  ROOFLINT_TRY(sweep(read_float4, "read_float4", memory_level::dram, "read", all_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { read_float4<<<g, b, 0, s>>>(all, n_all, never, sink_ptr); }));
  ROOFLINT_TRY(sweep(write_float4, "write_float4", memory_level::dram, "write", all_bytes, ws,
                     [=](int g, int b, cudaStream_t s) { write_float4<<<g, b, 0, s>>>(all, n_all, 1.0f); }));
  ROOFLINT_TRY(run("memcpy_d2d", memory_level::dram, "copy", "", copy_bytes, ws, [=](cudaStream_t s) -> result<void> {
    ROOFLINT_TRY_CUDA(cudaMemcpyAsync(out, in, n_half * sizeof(float4), cudaMemcpyDeviceToDevice, s));
    return success();
  }));

  // L2: a working set of a quarter of the L2 (15 MiB on an H200) stays resident after the warm-up
  // launches (no flush between repetitions, nothing else touches the L2); loads bypass L1 (.cg) so
  // every load is an L2 request. A launch sweeps it enough times to move ~1 GiB (quick) / 4 GiB.
  {
    const std::size_t l2_ws = std::max<std::size_t>(1 << 20, static_cast<std::size_t>(device.l2_bytes) / 4 / 32 * 32);
    const std::size_t n_l2 = l2_ws / sizeof(float4), n_l2_half = n_l2 / 2;
    const double target = settings.thorough ? 4.0 * (1ull << 30) : 1.0 * (1ull << 30);
    const int passes = std::max(1, static_cast<int>(target / static_cast<double>(l2_ws)));
    const double l2_bytes = static_cast<double>(passes) * n_l2 * sizeof(float4);
    const double l2_copy_bytes = 2.0 * passes * n_l2_half * sizeof(float4);
    const float4* l2_in = all;
    float4* l2_out = all + n_l2_half;
    ROOFLINT_TRY(sweep(read_l2_cg, "read_l2_cg", memory_level::l2, "read", l2_bytes, static_cast<double>(l2_ws),
                       [=](int g, int b, cudaStream_t s) { read_l2_cg<<<g, b, 0, s>>>(all, n_l2, passes, never, sink_ptr); }));
    ROOFLINT_TRY(sweep(write_l2_cg, "write_l2_cg", memory_level::l2, "write", l2_bytes, static_cast<double>(l2_ws),
                       [=](int g, int b, cudaStream_t s) { write_l2_cg<<<g, b, 0, s>>>(all, n_l2, passes, 1.0f); }));
    ROOFLINT_TRY(sweep(copy_l2_cg, "copy_l2_cg", memory_level::l2, "copy", l2_copy_bytes, static_cast<double>(l2_ws),
                       [=](int g, int b, cudaStream_t s) { copy_l2_cg<<<g, b, 0, s>>>(l2_in, l2_out, n_l2_half, passes); }));
  }

  // L1: every block sweeps the same 16 KiB window (1024 float4s), resident in each SM's L1 after its
  // first pass; bytes counted as the L1 level counts them (every loaded byte, hits included).
  {
    constexpr int window = 1024;
    const int passes = settings.thorough ? 2048 : 512;
    for (const int block : blocks) {
      auto grid = full_grid(read_l1_ca, block, device.sm_count);
      if (!grid) return grid.err();
      const int g = *grid;
      const double l1_bytes = static_cast<double>(g) * passes * window * sizeof(float4);
      ROOFLINT_TRY(run("read_l1_ca", memory_level::l1, "read", launch_text(g, block), l1_bytes, window * sizeof(float4),
                       [=](cudaStream_t s) -> result<void> {
                         read_l1_ca<<<g, block, 0, s>>>(all, window, passes, never, sink_ptr);
                         return success();
                       }));
    }
  }
  ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream.get()));
  return results;
}

}  // namespace rooflint::runtime
