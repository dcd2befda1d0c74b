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
#include "support/cuda_check.h"
#include "timing.h"

namespace rooflint::runtime {

namespace {

constexpr int unroll = 4;  // loads in flight per thread before the first store: memory-level parallelism

/// out[i] = in[i] over n float4s (16 bytes read + 16 written per element).
__global__ void copy_float4(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (unroll - 1) * stride < n; i += unroll * stride) {
    float4 v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < unroll; ++u) out[i + u * stride] = v[u];
  }
  for (; i < n; i += stride) out[i] = in[i];
}

/// The same copy with streaming cache hints (ld.global.cs / st.global.cs: evict first), which keeps the
/// copied lines from displacing each other in L2 for no reuse.
__global__ void copy_float4_streaming(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (unroll - 1) * stride < n; i += unroll * stride) {
    float4 v[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) v[u] = __ldcs(in + i + u * stride);
#pragma unroll
    for (int u = 0; u < unroll; ++u) __stcs(out + i + u * stride, v[u]);
  }
  for (; i < n; i += stride) __stcs(out + i, __ldcs(in + i));
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

  auto run = [&](std::string name, std::string launch, double bytes_per_rep, const detail::launch_fn& fn)
      -> result<void> {
    if (progress) progress("bandwidth: " + name + (launch.empty() ? "" : " " + launch) + " over " + gib(bytes));
    auto warm = detail::time_launches(stream.get(), 2, fn);
    if (!warm) return warm.err();
    clock_sampler sampler(nvml);
    sampler.start();
    auto times = detail::time_launches(stream.get(), settings.bandwidth_repetitions, fn);
    const clock_summary clocks = sampler.stop();
    if (!times) return times.err();
    bandwidth_result r;
    r.name = std::move(name);
    r.launch = std::move(launch);
    r.bytes_per_repetition = bytes_per_rep;
    r.working_set_bytes = static_cast<double>(bytes);
    r.time = summarize(*times);
    r.clocks = clocks;
    results.push_back(std::move(r));
    return success();
  };

  for (const int block : blocks) {
    auto grid = full_grid(copy_float4, block, device.sm_count);
    if (!grid) return grid.err();
    const int g = *grid;
    ROOFLINT_TRY(run("copy_float4", launch_text(g, block), 2.0 * n_half * sizeof(float4), [=](cudaStream_t s) -> result<void> {
      copy_float4<<<g, block, 0, s>>>(in, out, n_half);
      return success();
    }));
  }
  for (const int block : blocks) {
    auto grid = full_grid(copy_float4_streaming, block, device.sm_count);
    if (!grid) return grid.err();
    const int g = *grid;
    ROOFLINT_TRY(run("copy_float4_streaming", launch_text(g, block), 2.0 * n_half * sizeof(float4), [=](cudaStream_t s) -> result<void> {
      copy_float4_streaming<<<g, block, 0, s>>>(in, out, n_half);
      return success();
    }));
  }
  for (const int block : blocks) {
    auto grid = full_grid(read_float4, block, device.sm_count);
    if (!grid) return grid.err();
    const int g = *grid;
    ROOFLINT_TRY(run("read_float4", launch_text(g, block), 1.0 * n_all * sizeof(float4), [=](cudaStream_t s) -> result<void> {
      read_float4<<<g, block, 0, s>>>(all, n_all, never, sink_ptr);
      return success();
    }));
  }
  for (const int block : blocks) {
    auto grid = full_grid(write_float4, block, device.sm_count);
    if (!grid) return grid.err();
    const int g = *grid;
    ROOFLINT_TRY(run("write_float4", launch_text(g, block), 1.0 * n_all * sizeof(float4), [=](cudaStream_t s) -> result<void> {
      write_float4<<<g, block, 0, s>>>(all, n_all, 1.0f);
      return success();
    }));
  }
  ROOFLINT_TRY(run("memcpy_d2d", "", 2.0 * n_half * sizeof(float4), [=](cudaStream_t s) -> result<void> {
    ROOFLINT_TRY_CUDA(cudaMemcpyAsync(out, in, n_half * sizeof(float4), cudaMemcpyDeviceToDevice, s));
    return success();
  }));
  ROOFLINT_TRY_CUDA(cudaStreamSynchronize(stream.get()));
  return results;
}

}  // namespace rooflint::runtime
