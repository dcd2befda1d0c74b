/// @file rooflint-ceilings.cpp
/// rooflint-ceilings: measures the DRAM bandwidth and per-math-mode compute ceilings of a GPU, with the
/// clock state they were measured at, and writes them to a ceilings file (docs/ceilings.md).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ceilings/ceilings.h"
#include "rooflint/runtime/ceilings_check.h"

namespace {

using namespace rooflint::runtime;

constexpr int exit_ok = 0;
constexpr int exit_write_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_no_gpu = 3;
constexpr int exit_probe_failed = 4;
constexpr int exit_unsupported = 5;

constexpr const char* help_text = R"(usage: rooflint-ceilings [options]

Measures the ceilings of a GPU for the roofline: DRAM bandwidth (copy, read-only, write-only kernels
and cudaMemcpyAsync, read + write counted), FP32 and FP64 SIMT rates (FMA chains), and TF32, FP16,
BF16, FP8, INT8 and FP64 tensor-core rates (cuBLASLt GEMMs), each with the SM clock it ran at. Clocks,
power limits and modes are recorded through NVML, never changed. Writes a ceilings file for
'rooflint --ceilings' and 'rooflint-verify --ceilings', and prints a table with the ridge point of
each math mode.

options:
  -o, --output FILE   where to write the ceilings file (default: rooflint-ceilings.json)
  --quick             a short run for CI (2 GiB bandwidth working set, one GEMM shape, burst
                      figures: under 10 s on an H200)
  --thorough          the default: 8 GiB working set, three GEMM shapes x three algorithms, each
                      ceiling measured after 1.5 s of load so that a power-capped clock has settled
                      (under 60 s on an H200)
  --probes LIST       comma-separated subset of: bandwidth,fp32,fp64,tf32,fp16,bf16,fp8,int8,
                      fp64_tensor
                      (default: all; math modes the device lacks are skipped unless listed here)
  --device N          CUDA device index (default 0)
  -h, --help          this text

exit codes:
  0  every probe ran; the ceilings file is written
  1  the ceilings file could not be written
  2  bad usage (unknown option, bad probe name, bad device index)
  3  no GPU or no usable driver
  4  a probe failed; the others' figures are still written
  5  a probe named in --probes is not supported by this device (the others are still written)
)";

int usage_error(const std::string& message) {
  std::cerr << "rooflint-ceilings: error: " << message << "\n(see rooflint-ceilings --help)\n";
  return exit_usage;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : text) {
    if (c == sep) {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  std::string output = "rooflint-ceilings.json";
  bool quick = false;
  int device = 0;
  bool probes_given = false;
  std::vector<probe> probes;
  for (std::size_t i = 0; i < probe_count; ++i) probes.push_back(static_cast<probe>(i));

  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    const bool has_inline = arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos;
    if (has_inline) {
      value = arg.substr(arg.find('=') + 1);
      arg = arg.substr(0, arg.find('='));
    }
    auto take_value = [&]() -> bool {
      if (has_inline) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << help_text;
      return exit_ok;
    } else if (arg == "--quick") {
      quick = true;
    } else if (arg == "--thorough") {
      quick = false;
    } else if (arg == "-o" || arg == "--output") {
      if (!take_value() || value.empty()) return usage_error("'" + arg + "' needs a file name");
      output = value;
    } else if (arg == "--device") {
      if (!take_value()) return usage_error("'--device' needs a device index");
      char* end = nullptr;
      const long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n < 0 || n > 1024)
        return usage_error("'--device' needs a device index (0, 1, ...), not '" + value + "'");
      device = static_cast<int>(n);
    } else if (arg == "--probes") {
      if (!take_value()) return usage_error("'--probes' needs a list such as bandwidth,fp32,bf16");
      probes.clear();
      probes_given = true;
      for (const auto& part : split(value, ',')) {
        const auto p = parse_probe(part);
        if (!p)
          return usage_error("unknown probe '" + part + "'; known probes: bandwidth, fp32, fp64, tf32, fp16, bf16, fp8, int8, fp64_tensor");
        if (std::find(probes.begin(), probes.end(), *p) == probes.end()) probes.push_back(*p);
      }
    } else {
      return usage_error("unknown option '" + arg + "'");
    }
  }

  const bool tty = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  std::size_t last_width = 0;
  auto progress = [&](const std::string& line) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = fmt::format("[{:5.1f} s] {}", t, line);
    if (tty) {
      std::cerr << "\r" << text << std::string(last_width > text.size() ? last_width - text.size() : 0, ' ') << std::flush;
      last_width = text.size();
    } else {
      std::cerr << text << "\n";
    }
  };

  const measure_settings settings = quick ? measure_settings::quick() : measure_settings::thorough_settings();
  auto count = device_count();
  if (!count) {
    std::cerr << "rooflint-ceilings: error: " << count.err().message << "\n";
    return exit_no_gpu;
  }
  if (device >= *count)
    return usage_error("device " + std::to_string(device) + " does not exist; there " +
                       (*count == 1 ? std::string("is 1 device (0)") : fmt::format("are {} devices (0-{})", *count, *count - 1)));

  auto run = measure_ceilings(device, probes, settings, progress);
  if (tty && last_width) std::cerr << "\r" << std::string(last_width, ' ') << "\r";
  if (!run) {
    std::cerr << "rooflint-ceilings: error: " << run.err().message << "\n";
    return run.err().code == rooflint::error_code::unavailable ? exit_no_gpu : exit_probe_failed;
  }

  // Math modes this device lacks are not failures unless they were asked for by name.
  int code = exit_ok;
  std::vector<std::pair<probe, rooflint::error>> failures;
  for (auto& [p, e] : run->failures) {
    if (e.code == rooflint::error_code::unavailable) {
      std::cerr << "rooflint-ceilings: " << (probes_given ? "error" : "note") << ": probe '" << name(p)
                << "' is not supported here: " << e.message << "\n";
      if (probes_given && code == exit_ok) code = exit_unsupported;
    } else {
      std::cerr << "rooflint-ceilings: error: probe '" << name(p) << "' failed: " << e.message << "\n";
      code = exit_probe_failed;
      failures.emplace_back(p, e);
    }
  }
  run->failures = failures;
  if (!run->nvml_note.empty()) std::cerr << "rooflint-ceilings: warning: " << run->nvml_note << "\n";

  // Probes not run this time keep their figures from an existing file of the same device and driver,
  // so that '--probes fp8' updates one ceiling of a file.
  if (auto previous = load_for_device(output, device)) {
    std::vector<std::string> kept;
    if (std::count(probes.begin(), probes.end(), probe::bandwidth) == 0 && previous->bandwidth_bytes_per_s > 0) {
      run->file.bandwidth_bytes_per_s = previous->bandwidth_bytes_per_s;
      run->file.bandwidth_probe_name = previous->bandwidth_probe_name;
      run->file.bandwidth_probes = previous->bandwidth_probes;
      run->file.levels = previous->levels;
      kept.emplace_back("bandwidth");
    }
    for (const probe p : {probe::fp32, probe::fp64, probe::tf32, probe::fp16, probe::bf16, probe::fp8, probe::int8,
                          probe::fp64_tensor}) {
      const auto mode = *math_mode_of(p);
      if (std::count(probes.begin(), probes.end(), p) == 0 && previous->compute[mode]) {
        run->file.compute[mode] = previous->compute[mode];
        kept.emplace_back(name(p));
      }
    }
    if (!kept.empty())
      std::cerr << "rooflint-ceilings: note: kept " << fmt::format("{}", fmt::join(kept, ", "))
                << " from the existing '" << output << "' (same GPU and driver; not measured this time)\n";
  }

  std::cout << format_table(*run);
  if (run->file.bandwidth_bytes_per_s <= 0) {
    // The schema needs the bandwidth: without it no ridge can be computed and readers reject the file.
    std::cerr << "rooflint-ceilings: error: no ceilings file written: it needs a bandwidth figure; "
              << (std::count(probes.begin(), probes.end(), probe::bandwidth)
                      ? "the bandwidth probe failed\n"
                      : "add 'bandwidth' to --probes (or update an existing file of this device)\n");
    return code == exit_ok ? exit_probe_failed : code;
  }
  std::string why;
  if (!rooflint::ceilings::save(run->file, output, why)) {
    std::cerr << "rooflint-ceilings: error: " << why << "\n";
    return exit_write_failed;
  }
  std::cout << "\nwrote " << output << " (" << run->file.mode << ", "
            << fmt::format("{:.1f}", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
            << " s)\n";
  return code;
}
