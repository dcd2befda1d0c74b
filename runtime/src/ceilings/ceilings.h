#pragma once
/// @file ceilings.h
/// Measuring the ceilings of a GPU (rooflint-ceilings): DRAM bandwidth with copy, read-only and
/// write-only probes, FP32/FP64 SIMT rates with fused multiply-add chains, and tensor-core rates through
/// cuBLASLt, each with the clock state it ran at. docs/ceilings.md explains each probe and why.
///
/// Every figure is a rate at a recorded clock: the burst figure (the first repetitions, clocks still at
/// boost) and the sustained one (after the probe has run long enough for a power-capped clock to settle).
/// The ceiling is the higher of the two, so that t_min is a floor at whichever clock a kernel runs
/// (docs/ceilings.md, "Burst and sustained"); quick mode runs too briefly for a settled clock, and says so.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooflint/files/ceilings_file.h"
#include "support/clock_state.h"
#include "support/statistics.h"
#include "rooflint/runtime/device.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// The probes rooflint-ceilings can run (--probes names).
enum class probe : std::uint8_t { bandwidth, fp32, fp64, tf32, fp16, bf16, fp8, int8, fp64_tensor };
inline constexpr std::size_t probe_count = 9;

/// @return The --probes name of @p p ("bandwidth", "fp32", ...).
std::string_view name(probe p);
/// @return The probe with that name, or nullopt.
std::optional<probe> parse_probe(std::string_view text);
/// @return The math mode the probe measures (bandwidth: nullopt).
std::optional<model::math_mode> math_mode_of(probe p);

/// How long and how widely to measure.
struct measure_settings {
  bool thorough = false;
  double bandwidth_working_set_bytes = 2.0 * (1ull << 30);  ///< bytes touched per repetition, >> L2
  int bandwidth_repetitions = 50;                   ///< timed repetitions per launch shape
  double settle_s = 0.1;                            ///< s of load before the sustained window
  double sustained_s = 0.2;                         ///< s of the sustained window
  std::vector<std::int64_t> gemm_shapes_mnk;        ///< flattened (M, N, K) triples
  int gemm_algorithms = 1;                          ///< cuBLASLt heuristic candidates tried per shape

  static measure_settings quick();
  static measure_settings thorough_settings();
};


/// One bandwidth probe at one launch shape.
struct bandwidth_result {
  std::string name;               ///< "copy_float4", "read_float4", "write_float4", "memcpy_d2d", "read_l2_cg", ...
  model::memory_level level = model::memory_level::dram;  ///< the level whose roof it measures
  std::string direction = "copy"; ///< "read", "write" or "copy"
  std::string launch;             ///< "grid 1056 x block 256", empty for memcpy
  double bytes_per_repetition = 0;  ///< bytes read + written by one repetition (exact by construction)
  double working_set_bytes = 0;   ///< bytes of device memory touched
  timing_stats time;              ///< per repetition
  clock_summary clocks;
  /// @return bytes_per_repetition / median time, bytes/s.
  double bytes_per_s() const { return time.median_s > 0 ? bytes_per_repetition / time.median_s : 0; }
};

/// One compute probe: the best configuration found, burst and sustained.
struct compute_result {
  probe which = probe::fp32;
  std::string probe_name;         ///< "ffma_chains", "dfma_chains", "cublaslt"
  std::string shape;              ///< "8192x8192x8192" for GEMMs, launch shape for SIMT probes
  std::string detail;             ///< algorithm, chains, iterations
  double flops_per_launch = 0;    ///< FLOP (OP for INT8) per launch, exact by construction
  double burst_flops_per_s = 0;   ///< the first repetitions
  timing_stats sustained_time;    ///< per launch, in the sustained window
  clock_summary burst_clocks, sustained_clocks;
  bool sustained = false;         ///< the sustained window followed >= 1 s of load
  /// @return The sustained rate: flops_per_launch / sustained median, FLOP/s. The ceiling recorded is
  /// the higher of this and burst_flops_per_s.
  double flops_per_s() const { return sustained_time.median_s > 0 ? flops_per_launch / sustained_time.median_s : 0; }
};

/// Progress callback: one line ("bandwidth: copy_float4 grid 1056 x block 256 ...").
using progress_fn = std::function<void(const std::string&)>;

/// The SIMT FMA probe's launch: chains independent FMA chains per thread, iterations per chain.
struct fma_launch {
  int grid = 0, block = 0;
  int chains = 16;
  std::int64_t iterations = 0;
  /// @return FLOPs of one launch: threads x iterations x chains x 2 (an FMA is two FLOPs).
  double flops() const { return 2.0 * grid * block * static_cast<double>(iterations) * chains; }
};

/// @return A launch of the FFMA/DFMA probe sized for @p device that runs about @p target_s at @p
/// guess_flops_per_s.
result<fma_launch> plan_fma_launch(const device_properties& device, bool fp64, double target_s, double guess_flops_per_s);

/// Runs the FMA probe's kernel once with per-thread counting on; @return the FMAs the threads counted
/// (for the test that the FLOP count is exact).
result<std::uint64_t> count_fma_operations(const fma_launch& launch, bool fp64);

/// Runs the bandwidth probes of every level on the current device: DRAM (copy, read, write, memcpy),
/// L2 (a working set resident in L2, loads that bypass L1: ld.global.cg; stores st.global.cg; copy),
/// L1 (every block loads one small window that stays in each SM's L1: ld.global.ca), aggregate over SMs.
result<std::vector<bandwidth_result>> measure_bandwidth(const device_properties& device, nvml_device nvml,
                                                       const measure_settings& settings, const progress_fn& progress);

/// Runs the FFMA (fp32) or DFMA (fp64) probe.
result<compute_result> measure_simt(const device_properties& device, nvml_device nvml, probe which,
                                    const measure_settings& settings, const progress_fn& progress);

/// Runs a cuBLASLt probe (tf32, fp16, bf16, fp8, int8, fp64_tensor). Error code `unavailable` when the device or
/// cuBLASLt does not support the math mode.
result<compute_result> measure_gemm(const device_properties& device, nvml_device nvml, probe which,
                                    const measure_settings& settings, const progress_fn& progress);

/// Everything one run measured.
struct ceilings_run {
  device_properties device;
  ceilings::ceilings_file file;
  std::vector<bandwidth_result> bandwidth;
  std::vector<compute_result> compute;
  std::vector<std::pair<probe, error>> failures;  ///< probes that failed; the others are still in file
  std::string nvml_note;                          ///< why NVML is missing, empty when present
};

/// Runs @p probes on device @p ordinal. Fails (unavailable) only when there is no device; a probe that
/// fails is listed in failures and the others still run.
result<ceilings_run> measure_ceilings(int ordinal, const std::vector<probe>& probes, const measure_settings& settings,
                                      const progress_fn& progress);

/// @return The readable table: each ceiling, its probe and shape, clock, and the ridge per math mode.
std::string format_table(const ceilings_run& run);

}  // namespace rooflint::runtime
