/// @file simt.cu
/// FP32 and FP64 SIMT probes: each thread runs 16 independent fused multiply-add chains (a = a*b + c),
/// unrolled 16 deep, so a warp always has an FMA whose inputs are ready (FMA latency is about 4 cycles)
/// and the loop's counter and branch cost one instruction slot in 256. b and c are kernel arguments,
/// so nothing folds at compile time; the chains' sum is stored only when it equals a run-time NaN
/// (never), which the compiler cannot know, so no FMA is dead. FLOPs per launch are exact by
/// construction: grid x block x iterations x 16 chains x 2 (an FMA is two FLOPs). The 15 additions
/// that sum the chains at the end of each thread are not counted (under 1e-4 of the work).

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ceilings/ceilings.h"
#include "support/cuda_check.h"
#include "timing.h"

namespace rooflint::runtime {

namespace {

constexpr int fma_chains_per_thread = 16;
constexpr int fma_unroll = 16;  // iterations per trip of the loop; iterations are a multiple of it

template <class T, bool Count>
__global__ void fma_chains(std::int64_t iterations, T b, T c, T sentinel, T* out, unsigned long long* count) {
  T a[fma_chains_per_thread];
#pragma unroll
  for (int j = 0; j < fma_chains_per_thread; ++j) a[j] = static_cast<T>(threadIdx.x % 64) * T(0.001) + T(j);
  unsigned long long counted = 0;
  for (std::int64_t i = 0; i < iterations; i += fma_unroll) {
#pragma unroll
    for (int u = 0; u < fma_unroll; ++u) {
#pragma unroll
      for (int j = 0; j < fma_chains_per_thread; ++j) a[j] = fma(a[j], b, c);
      if constexpr (Count) counted += fma_chains_per_thread;
    }
  }
  T sum = 0;
#pragma unroll
  for (int j = 0; j < fma_chains_per_thread; ++j) sum += a[j];
  if (sum == sentinel) out[static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
  if constexpr (Count) atomicAdd(count, counted);
}

template <class T>
result<void> launch_fma(const fma_launch& l, T* out, unsigned long long* count, cudaStream_t s) {
  // b < 1 and c small: each chain converges to c / (1 - b) = 1; no overflow, no denormals.
  const T b = T(0.999), c = T(0.001), never = std::numeric_limits<T>::quiet_NaN();
  if (count)
    fma_chains<T, true><<<l.grid, l.block, 0, s>>>(l.iterations, b, c, never, out, count);
  else
    fma_chains<T, false><<<l.grid, l.block, 0, s>>>(l.iterations, b, c, never, out, nullptr);
  ROOFLINT_TRY_CUDA(cudaGetLastError());
  return success();
}

result<void> launch_fma(const fma_launch& l, bool fp64, void* out, unsigned long long* count, cudaStream_t s) {
  return fp64 ? launch_fma<double>(l, static_cast<double*>(out), count, s)
              : launch_fma<float>(l, static_cast<float*>(out), count, s);
}

}  // namespace

result<fma_launch> plan_fma_launch(const device_properties& device, bool fp64, double target_s,
                                   double guess_flops_per_s) {
  fma_launch l;
  l.block = 256;
  l.chains = fma_chains_per_thread;
  int blocks_per_sm = 0;
  if (fp64)
    ROOFLINT_TRY_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fma_chains<double, false>, l.block, 0));
  else
    ROOFLINT_TRY_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fma_chains<float, false>, l.block, 0));
  if (blocks_per_sm < 1) return error{error_code::internal, "the FMA probe kernel cannot be resident on an SM"};
  l.grid = blocks_per_sm * device.sm_count;  // one full wave: every block does the same work, no tail
  const double per_iteration = 2.0 * l.grid * l.block * l.chains;
  const double iterations = std::max(1.0, target_s * guess_flops_per_s / per_iteration);
  l.iterations = static_cast<std::int64_t>(std::ceil(iterations / fma_unroll)) * fma_unroll;
  return l;
}

result<std::uint64_t> count_fma_operations(const fma_launch& launch, bool fp64) {
  detail::device_buffer out, count;
  ROOFLINT_TRY(out.allocate(static_cast<std::size_t>(launch.grid) * launch.block * sizeof(double)));
  ROOFLINT_TRY(count.allocate(sizeof(unsigned long long)));
  ROOFLINT_TRY_CUDA(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
  ROOFLINT_TRY(launch_fma(launch, fp64, out.get(), count.as<unsigned long long>(), nullptr));
  ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  unsigned long long counted = 0;
  ROOFLINT_TRY_CUDA(cudaMemcpy(&counted, count.get(), sizeof counted, cudaMemcpyDeviceToHost));
  return static_cast<std::uint64_t>(counted);
}

result<compute_result> measure_simt(const device_properties& device, nvml_device nvml, probe which,
                                    const measure_settings& settings, const progress_fn& progress) {
  const bool fp64 = which == probe::fp64;
  // A first guess (128 FP32 lanes per SM at 2 GHz, FP64 at half that), then one calibration launch
  // rescales the iterations so that a launch takes about 10 ms whatever the device's FP64 ratio.
  const double guess = device.sm_count * 128.0 * 2 * 2e9 / (fp64 ? 2 : 1);
  auto plan = plan_fma_launch(device, fp64, 2e-3, guess);
  if (!plan) return plan.err();
  fma_launch l = *plan;
  detail::device_buffer out;
  ROOFLINT_TRY(out.allocate(static_cast<std::size_t>(l.grid) * l.block * sizeof(double)));
  detail::stream_guard stream;
  ROOFLINT_TRY(stream.create());
  void* const out_ptr = out.get();
  {
    auto calibrate = detail::time_launches(stream.get(), 2, [&](cudaStream_t s) { return launch_fma(l, fp64, out_ptr, nullptr, s); });
    if (!calibrate) return calibrate.err();
    const double seconds = std::max((*calibrate)[1], 1e-6);
    auto replanned = plan_fma_launch(device, fp64, 10e-3, l.flops() / seconds);
    if (!replanned) return replanned.err();
    l = *replanned;
  }
  const std::string launch = "grid " + std::to_string(l.grid) + " x block " + std::to_string(l.block);
  if (progress) progress(std::string(name(which)) + ": " + (fp64 ? "dfma" : "ffma") + "_chains " + launch + ", " +
                         std::to_string(l.chains) + " chains x " + std::to_string(l.iterations) + " iterations");
  auto timing = detail::measure_sustained(
      stream.get(), [&](cudaStream_t s) { return launch_fma(l, fp64, out_ptr, nullptr, s); }, nvml,
      settings.settle_s, settings.sustained_s);
  if (!timing) return timing.err();
  compute_result r;
  r.which = which;
  r.probe_name = fp64 ? "dfma_chains" : "ffma_chains";
  r.shape = launch;
  r.detail = std::to_string(l.chains) + " chains x " + std::to_string(l.iterations) + " iterations per thread";
  r.flops_per_launch = l.flops();
  detail::record_rates(r, *timing);
  return r;
}

}  // namespace rooflint::runtime
