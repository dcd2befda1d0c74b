/// @file run.cpp
/// Runs the selected probes on one device and assembles the ceilings file and the table.

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "rooflint/model/describe.h"
#include "rooflint/model/roofline.h"
#include "ceilings/ceilings.h"
#include "support/cuda_check.h"

#ifndef ROOFLINT_VERSION
#define ROOFLINT_VERSION "unknown"
#endif

namespace rooflint::runtime {

namespace {
constexpr std::string_view probe_names[probe_count] = {"bandwidth", "fp32", "fp64", "tf32", "fp16", "bf16", "fp8", "int8", "fp64_tensor"};
}

std::string_view name(probe p) { return probe_names[static_cast<std::size_t>(p)]; }

std::optional<probe> parse_probe(std::string_view text) {
  for (std::size_t i = 0; i < probe_count; ++i)
    if (probe_names[i] == text) return static_cast<probe>(i);
  return std::nullopt;
}

std::optional<model::math_mode> math_mode_of(probe p) {
  switch (p) {
    case probe::bandwidth: return std::nullopt;
    case probe::fp32: return model::math_mode::fp32_simt;
    case probe::fp64: return model::math_mode::fp64;
    case probe::tf32: return model::math_mode::tf32_tensor;
    case probe::fp16: return model::math_mode::fp16_tensor;
    case probe::bf16: return model::math_mode::bf16_tensor;
    case probe::fp8: return model::math_mode::fp8_tensor;
    case probe::int8: return model::math_mode::int8_tensor;
    case probe::fp64_tensor: return model::math_mode::fp64_tensor;
  }
  return std::nullopt;
}

measure_settings measure_settings::quick() {
  measure_settings s;
  s.thorough = false;
  s.bandwidth_working_set_bytes = double(2ull << 30);
  s.bandwidth_repetitions = 30;
  s.settle_s = 0.1;
  s.sustained_s = 0.2;
  s.gemm_shapes_mnk = {8192, 8192, 8192};
  s.gemm_algorithms = 1;
  return s;
}

measure_settings measure_settings::thorough_settings() {
  measure_settings s;
  s.thorough = true;
  s.bandwidth_working_set_bytes = double(8ull << 30);  // the copy moves 4 GiB, as the torch peer does
  s.bandwidth_repetitions = 100;
  s.settle_s = 1.5;  // the H200's SM clock falls under the power cap within about a second of GEMMs
  s.sustained_s = 1.0;
  s.gemm_shapes_mnk = {4096, 4096, 4096, 8192, 8192, 8192, 8192, 8192, 16384};
  s.gemm_algorithms = 3;
  return s;
}

namespace {

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

result<ceilings_run> measure_ceilings(int ordinal, const std::vector<probe>& probes, const measure_settings& settings,
                                      const progress_fn& progress) {
  auto device = query_device(ordinal);
  if (!device) return device.err();
  ROOFLINT_TRY_CUDA(cudaSetDevice(ordinal));
  ROOFLINT_TRY_CUDA(cudaFree(nullptr));  // create the context before the first timed thing

  ceilings_run run;
  run.device = *device;
  nvml_library* nvml = nvml_library::instance();
  nvml_device nvml_dev;
  if (nvml->loaded()) {
    if (auto d = nvml->device_by_pci_bus_id(device->pci_bus_id)) nvml_dev = *d;
    else run.nvml_note = d.err().message;
  } else {
    run.nvml_note = nvml->why_not();
  }

  clock_summary all_clocks;
  for (const probe p : probes) {
    if (p == probe::bandwidth) {
      auto r = measure_bandwidth(*device, nvml_dev, settings, progress);
      if (!r) {
        run.failures.emplace_back(p, r.err());
        continue;
      }
      for (const auto& b : *r) all_clocks.merge(b.clocks);
      run.bandwidth = std::move(*r);
    } else {
      auto r = (p == probe::fp32 || p == probe::fp64) ? measure_simt(*device, nvml_dev, p, settings, progress)
                                                      : measure_gemm(*device, nvml_dev, p, settings, progress);
      if (!r) {
        run.failures.emplace_back(p, r.err());
        continue;
      }
      all_clocks.merge(r->burst_clocks);
      all_clocks.merge(r->sustained_clocks);
      run.compute.push_back(std::move(*r));
    }
  }

  ceilings::ceilings_file& f = run.file;
  f.created_utc = utc_now();
  f.rooflint_version = ROOFLINT_VERSION;
  f.mode = settings.thorough ? "thorough" : "quick";
  f.device = to_device_info(*device);
  if (nvml_dev.handle) f.clocks = to_clock_state(nvml->snapshot(nvml_dev), all_clocks);
  // Per level, each direction's roof is its best probe (the median rate of its repetitions) (cudaMemcpy included in DRAM copy: a kernel can
  // move data as fast as it does, so the copy roof must not sit below it).
  for (const auto& b : run.bandwidth) {
    f.bandwidth_probes.push_back({b.name, b.bytes_per_s(), b.time.spread(), b.working_set_bytes, b.launch,
                                  std::string(model::name(b.level)), b.direction});
    ceilings::level_ceilings& level = f.level(b.level);
    ceilings::level_ceiling& roof = b.direction == "read" ? level.read : b.direction == "write" ? level.write : level.copy;
    if (b.bytes_per_s() > roof.bytes_per_s) roof = {b.bytes_per_s(), b.name};
    if (b.level == model::memory_level::dram && b.bytes_per_s() > f.bandwidth_bytes_per_s) {
      f.bandwidth_bytes_per_s = b.bytes_per_s();
      f.bandwidth_probe_name = b.name;
    }
  }
  for (const auto& c : run.compute) {
    ceilings::compute_ceiling ceiling;
    // The ceiling is the higher of the burst and the sustained rate. t_min must be a floor for every
    // kernel, and a short kernel runs at the boost clock: on the H200 (2026-11-30) cuBLAS HGEMM at 4096
    // ran in 0.202 ms, under the floor of the sustained FP16 figure (650 TFLOP/s, clock capped at
    // 1425-1815 MHz) and within the burst one (774 TFLOP/s).
    const bool burst_is_higher = c.burst_flops_per_s > c.flops_per_s();
    ceiling.flops_per_s = burst_is_higher ? c.burst_flops_per_s : c.flops_per_s();
    ceiling.probe = c.probe_name;
    ceiling.shape = c.probe_name == "cublaslt" ? c.shape : "";
    const clock_summary& clocks = burst_is_higher ? c.burst_clocks : c.sustained_clocks;
    ceiling.sm_mhz = clocks.samples ? clocks.sm_mhz_mean : 0;
    ceiling.sustained = c.sustained && !burst_is_higher;
    f.compute[*math_mode_of(c.which)] = ceiling;
  }
  return run;
}

namespace {

std::string rate(double value, const char* unit) {
  if (value >= 1e12) return fmt::format("{:.1f} T{}", value / 1e12, unit);
  return fmt::format("{:.1f} G{}", value / 1e9, unit);
}

std::string mhz_range(const clock_summary& c) {
  if (c.samples == 0) return "-";
  if (c.sm_mhz_min == c.sm_mhz_max) return fmt::format("{:.0f}", c.sm_mhz_min);
  return fmt::format("{:.0f}-{:.0f}", c.sm_mhz_min, c.sm_mhz_max);
}

}  // namespace

std::string format_table(const ceilings_run& run) {
  const auto& f = run.file;
  std::string out;
  out += fmt::format("rooflint-ceilings {} on '{}' ({}, {} SMs, L2 {:.0f} MiB, CC {}), driver {}, CUDA {}, cuBLAS {}\n",
                     f.mode, f.device.name, f.device.uuid, f.device.sm_count, f.device.l2_bytes / (1 << 20),
                     f.device.compute_capability, f.device.driver_version, f.device.cuda_runtime_version,
                     f.device.cublas_version);
  if (f.clocks)
    out += fmt::format("clocks: SM {:.0f}-{:.0f} MHz (max {:.0f}), memory {:.0f} MHz, power up to {:.0f} W of {:.0f} W, "
                       "{:.0f} C, throttle reasons: {}, persistence {}, ECC {}\n",
                       f.clocks->sm_mhz_min, f.clocks->sm_mhz_max, f.clocks->sm_max_mhz, f.clocks->memory_mhz,
                       f.clocks->power_w_max, f.clocks->power_limit_w, f.clocks->temperature_c_max,
                       f.clocks->throttle_reasons.empty() ? std::string("none")
                                                          : fmt::format("{}", fmt::join(f.clocks->throttle_reasons, ", ")),
                       f.clocks->persistence_mode ? "on" : "off", f.clocks->ecc_enabled ? "on" : "off");
  else
    out += "clocks: not recorded (" + run.nvml_note + ")\n";

  if (!run.bandwidth.empty()) {
    constexpr const char* row = "  {:<5} {:<24} {:<5} {:>11}  {:>6}  {:<22}  {}\n";
    out += "\nbandwidth per level, read + write counted\n";
    out += fmt::format(row, "level", "probe", "dir", "rate", "spread", "launch", "SM MHz");
    for (const auto& b : run.bandwidth)
      out += fmt::format(row, model::label(b.level), b.name, b.direction, rate(b.bytes_per_s(), "B") + "/s",
                         fmt::format("{:.1f}%", 100 * b.time.spread()), b.launch.empty() ? "-" : b.launch, mhz_range(b.clocks));
    out += "  roofs (best probe per level and direction):\n";
    for (const model::memory_level l : model::memory_levels) {
      const auto& c = f.level(l);
      const auto roof = [&](const ceilings::level_ceiling& x) {
        return x.bytes_per_s > 0 ? fmt::format("{}/s ({})", rate(x.bytes_per_s, "B"), x.probe) : std::string("-");
      };
      out += fmt::format("    {:<5} read {}, write {}, copy {}\n", model::label(l), roof(c.read), roof(c.write), roof(c.copy));
    }
    if (const auto& d = f.level(model::memory_level::dram); d.copy.bytes_per_s > 0) {
      double memcpy_rate = 0, kernel_rate = 0;
      for (const auto& b : run.bandwidth) {
        if (b.level != model::memory_level::dram || b.direction != "copy") continue;
        if (b.name == "memcpy_d2d") memcpy_rate = b.bytes_per_s();
        else kernel_rate = std::max(kernel_rate, b.bytes_per_s());
      }
      if (memcpy_rate > 0)
        out += fmt::format("  best copy kernel {}/s = {:.3f}x cudaMemcpyAsync device-to-device {}/s (same buffers, same run)\n",
                           rate(kernel_rate, "B"), kernel_rate / memcpy_rate, rate(memcpy_rate, "B"));
    }
    out += fmt::format("  DRAM ceiling for the single-roof model: {}/s ({})\n", rate(f.bandwidth_bytes_per_s, "B"),
                       f.bandwidth_probe_name);
  }

  if (!run.compute.empty()) {
    const model::peaks p = f.peaks();
    constexpr const char* row = "  {:<12} {:>15} {:>15}  {:<12} {:<22} {:>9} {:>13}{}\n";
    out += "\ncompute ceilings (the higher of burst and sustained is the ceiling, so t_min is a floor for short kernels\n"
           "at the boost clock too; ridge = ceiling / bandwidth ceiling)\n";
    out += fmt::format(row, "math mode", "sustained", "burst", "probe", "shape", "SM MHz", "ridge", "");
    for (const auto& c : run.compute) {
      const model::math_mode m = *math_mode_of(c.which);
      const char* unit = c.which == probe::int8 ? "OP" : "FLOP";
      const std::string ridge = p.dram_bytes_per_s > 0 ? fmt::format("{:.1f} {}/B", model::ridge(p, m), unit)
                                                       : std::string("-");
      out += fmt::format(row, model::name(m), rate(c.flops_per_s(), unit) + "/s", rate(c.burst_flops_per_s, unit) + "/s",
                         c.probe_name, c.shape, mhz_range(c.sustained_clocks), ridge,
                         c.sustained ? "" : "  (burst: too short for the clock to settle)");
      out += fmt::format("  {:<12} {}; {:.0f} {} per launch (exact by construction), median {} over {} launches\n", "",
                         c.detail, c.flops_per_launch, unit, model::format_duration(c.sustained_time.median_s),
                         c.sustained_time.repetitions);
    }
    if (auto it = std::find_if(run.compute.begin(), run.compute.end(), [](const auto& c) { return c.which == probe::fp32; });
        it != run.compute.end() && it->sustained_clocks.samples > 0) {
      const double lanes = f.device.sm_count * 128.0 * 2 * it->sustained_clocks.sm_mhz_mean * 1e6;
      out += fmt::format("  fp32_simt is {:.1f}% of SMs x 128 lanes x 2 FLOP x {:.0f} MHz = {}/s\n",
                         100 * it->flops_per_s() / lanes, it->sustained_clocks.sm_mhz_mean, rate(lanes, "FLOP"));
    }
  }
  for (const auto& [p, e] : run.failures)
    out += fmt::format("\nprobe '{}' failed ({}): {}\n", name(p), rooflint::name(e.code), e.message);
  return out;
}

}  // namespace rooflint::runtime
