/// @file rooflint-ceilings.cpp
/// rooflint-ceilings: measures the DRAM bandwidth and per-math-mode compute ceilings of a GPU, with the
/// clock state they were measured at, and writes them to a ceilings file (docs/ceilings.md).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ceilings/ceilings.h"
#include "cli.h"
#include "rooflint/files/atomic_file.h"
#include "rooflint/runtime/ceilings_check.h"

namespace {

using namespace rooflint::runtime;
namespace cli = rooflint::runtime::cli;

constexpr int exit_ok = 0;
constexpr int exit_write_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_no_gpu = 3;
constexpr int exit_probe_failed = 4;
constexpr int exit_unsupported = 5;

constexpr const char* description =
    "Measures the ceilings of a GPU for the roofline: DRAM bandwidth (copy, read-only, write-only kernels\n"
    "and cudaMemcpyAsync, read + write counted), L2 bandwidth (reads, writes and a copy that bypass L1, over a\n"
    "quarter of L2) and L1 bandwidth (every SM re-reading a 16 KiB window), the roofs of the hierarchical\n"
    "roofline that rooflint-verify judges each level by, FP32 and FP64 SIMT rates (FMA chains), and TF32, FP16,\n"
    "BF16, FP8, INT8 and FP64 tensor-core rates (cuBLASLt GEMMs), each with the SM clock it ran at. Clocks,\n"
    "power limits and modes are recorded through NVML, never changed. Writes a ceilings file for\n"
    "'rooflint --ceilings' and 'rooflint-verify --ceilings', and prints a table with the ridge point of\n"
    "each math mode.";

constexpr const char* exit_codes_text = R"(exit codes:
  0  every probe ran; the ceilings file is written
  1  the ceilings file could not be written (checked before the probes run, and when writing)
  2  bad usage (unknown option, bad probe name, bad device index, a value given to a flag)
  3  no GPU or no usable driver
  4  a probe failed (the others' figures are still written), or an internal error (the message says what)
  5  a probe named in --probes is not supported by this device (the others are still written))";

int usage_error(const std::string& message) {
  rooflint::runtime::cli::print_error("rooflint-ceilings", message);
  std::cerr << "(see 'rooflint-ceilings --help')\n";
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

/// The command line, parsed.
struct options {
  std::string output = "rooflint-ceilings.json";
  bool quick = false;
  int device = 0;
  std::string probe_list;
  bool probes_given = false;  ///< --probes named the probes (else: all)
  std::vector<probe> probes;
};

/// Parses the command line into @p o. @return An exit status when the run ends here (--help, an error).
std::optional<int> parse_options(int argc, char** argv, options& o) {
  CLI::App app(description, "rooflint-ceilings");
  cli::configure(app, exit_codes_text);
  app.add_option("-o,--output", o.output, "where to write the ceilings file (default: rooflint-ceilings.json)")->type_name("FILE");
  auto* quick = app.add_flag("--quick", o.quick, "a short run for CI (2 GiB bandwidth working set, one GEMM shape, burst figures: under 10 s on an H200)");
  app.add_flag("--thorough", [&](std::int64_t) { o.quick = false; },
               "the default: 8 GiB working set, three GEMM shapes x three algorithms, each ceiling measured after 1.5 s "
               "of load so that a power-capped clock has settled (under 60 s on an H200)")
      ->excludes(quick);
  app.add_option("--probes", o.probe_list,
                 "comma-separated subset of: bandwidth,fp32,fp64,tf32,fp16,bf16,fp8,int8,fp64_tensor (bandwidth: DRAM, L2 and L1; default: all; "
                 "math modes the device lacks are skipped unless listed here)")->type_name("LIST");
  app.add_option("--device", o.device, "CUDA device index (default 0)")->type_name("N")->check(cli::device_index());
  if (const auto code = cli::parse(app, argc, argv, exit_usage)) return *code;
  if (o.output.empty()) return usage_error("'--output' needs a file name");

  o.probes_given = app.count("--probes") > 0;
  if (o.probes_given) {
    for (const auto& part : split(o.probe_list, ',')) {
      const auto p = parse_probe(part);
      if (!p)
        return usage_error("unknown probe '" + part + "'; known probes: bandwidth, fp32, fp64, tf32, fp16, bf16, fp8, int8, fp64_tensor");
      if (std::find(o.probes.begin(), o.probes.end(), *p) == o.probes.end()) o.probes.push_back(*p);
    }
  } else {
    for (std::size_t i = 0; i < probe_count; ++i) o.probes.push_back(static_cast<probe>(i));
  }
  return std::nullopt;
}

/// One line per probe step on stderr, "[  t s] ...": rewritten in place on a terminal, appended otherwise.
class progress_line {
public:
  explicit progress_line(std::chrono::steady_clock::time_point start) : start_(start) {}
  void operator()(const std::string& line) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::string text = fmt::format("[{:5.1f} s] {}", t, line);
    if (tty_) {
      std::cerr << "\r" << text << std::string(last_width_ > text.size() ? last_width_ - text.size() : 0, ' ') << std::flush;
      last_width_ = text.size();
    } else {
      std::cerr << text << "\n";
    }
  }
  /// Clears the terminal's line.
  void clear() const {
    if (tty_ && last_width_) std::cerr << "\r" << std::string(last_width_, ' ') << "\r";
  }

private:
  std::chrono::steady_clock::time_point start_;
  bool tty_ = isatty(STDERR_FILENO);
  std::size_t last_width_ = 0;
};

/// Reports the probes that failed; math modes this device lacks are not failures unless they were asked
/// for by name. Keeps only the real failures in the run. @return The exit status so far.
int report_failures(ceilings_run& run, bool probes_given) {
  int code = exit_ok;
  std::vector<std::pair<probe, rooflint::error>> failures;
  for (auto& [p, e] : run.failures) {
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
  run.failures = failures;
  if (!run.nvml_note.empty()) std::cerr << "rooflint-ceilings: warning: " << run.nvml_note << "\n";
  return code;
}

/// Probes not run this time keep their figures from an existing file of the same device and driver,
/// so that '--probes fp8' updates one ceiling of a file.
void keep_previous_figures(ceilings_run& run, const options& o) {
  auto previous = load_for_device(o.output, o.device);
  if (!previous) return;
  const auto ran = [&](probe p) { return std::count(o.probes.begin(), o.probes.end(), p) != 0; };
  std::vector<std::string> kept;
  if (!ran(probe::bandwidth) && previous->bandwidth_bytes_per_s > 0) {
    run.file.bandwidth_bytes_per_s = previous->bandwidth_bytes_per_s;
    run.file.bandwidth_probe_name = previous->bandwidth_probe_name;
    run.file.bandwidth_probes = previous->bandwidth_probes;
    run.file.levels = previous->levels;
    kept.emplace_back("bandwidth");
  }
  for (const probe p : {probe::fp32, probe::fp64, probe::tf32, probe::fp16, probe::bf16, probe::fp8, probe::int8,
                        probe::fp64_tensor}) {
    const auto mode = *math_mode_of(p);
    if (!ran(p) && previous->compute[mode]) {
      run.file.compute[mode] = previous->compute[mode];
      kept.emplace_back(name(p));
    }
  }
  if (!kept.empty())
    std::cerr << "rooflint-ceilings: note: kept " << fmt::format("{}", fmt::join(kept, ", "))
              << " from the existing '" << o.output << "' (same GPU and driver; not measured this time)\n";
}

/// Prints the table and writes the file (whole or not at all). @return The exit status.
int write_results(const ceilings_run& run, const options& o, int code, std::chrono::steady_clock::time_point start) {
  std::cout << format_table(run);
  if (run.file.bandwidth_bytes_per_s <= 0) {
    // The schema needs the bandwidth: without it no ridge can be computed and readers reject the file.
    std::cerr << "rooflint-ceilings: error: no ceilings file written: it needs a bandwidth figure; "
              << (std::count(o.probes.begin(), o.probes.end(), probe::bandwidth)
                      ? "the bandwidth probe failed\n"
                      : "add 'bandwidth' to --probes (or update an existing file of this device)\n");
    return code == exit_ok ? exit_probe_failed : code;
  }
  std::string why;
  if (!rooflint::ceilings::save(run.file, o.output, why)) {
    std::cerr << "rooflint-ceilings: error: " << why << "\n";
    return exit_write_failed;
  }
  std::cout << "\nwrote " << o.output << " (" << run.file.mode << ", "
            << fmt::format("{:.1f}", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
            << " s)\n";
  return code;
}

int measure_main(int argc, char** argv) {
  options o;
  if (const auto code = parse_options(argc, argv, o)) return *code;
  // Before the probes (up to a minute), not after: the ceilings file must be writable.
  if (auto why = rooflint::io::check_writable(o.output)) {
    cli::print_error("rooflint-ceilings", *why);
    return exit_write_failed;
  }
  const auto start = std::chrono::steady_clock::now();
  progress_line progress(start);
  const measure_settings settings = o.quick ? measure_settings::quick() : measure_settings::thorough_settings();
  auto count = device_count();
  if (!count) {
    std::cerr << "rooflint-ceilings: error: " << count.err().message << "\n";
    return exit_no_gpu;
  }
  if (o.device >= *count)
    return usage_error("device " + std::to_string(o.device) + " does not exist; there " +
                       (*count == 1 ? std::string("is 1 device (0)") : fmt::format("are {} devices (0-{})", *count, *count - 1)));

  auto run = measure_ceilings(o.device, o.probes, settings, [&](const std::string& line) { progress(line); });
  progress.clear();
  if (!run) {
    std::cerr << "rooflint-ceilings: error: " << run.err().message << "\n";
    return run.err().code == rooflint::error_code::unavailable ? exit_no_gpu : exit_probe_failed;
  }
  const int code = report_failures(*run, o.probes_given);
  keep_previous_figures(*run, o);
  return write_results(*run, o, code, start);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return measure_main(argc, argv);
  } catch (const std::exception& e) {  // a failure no check foresaw: said, with the documented status
    cli::print_error("rooflint-ceilings", std::string("internal error: ") + e.what());
    return exit_probe_failed;
  }
}
