#pragma once
/// @file ceilings_file.h
/// The ceilings file (docs/ceilings-schema.md): what rooflint-ceilings measured, read back by the
/// analyzer (--ceilings) and the verifier. Host C++ (nlohmann-json); no CUDA, no LLVM.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/model/gpu.h"
#include "rooflint/model/peaks.h"

namespace rooflint::ceilings {

/// The version this rooflint writes. Version 1 files (DRAM only) are still read, with a note.
inline constexpr int schema_version = 2;
inline constexpr int oldest_schema_version = 1;

/// What the device reported (cudaGetDeviceProperties). A figure 0 was not recorded (files written
/// before it was): the datasheet row of the same GPU gives it, or it stays unknown.
struct device_info {
  std::string name;                  ///< "NVIDIA H200"
  std::string uuid;
  std::string compute_capability;    ///< "9.0"
  int sm_count = 0;
  double l2_bytes = 0;               ///< bytes
  double dram_bytes = 0;             ///< bytes
  std::string driver_version;        ///< "580.159.04"
  std::string cuda_runtime_version;  ///< "13.0"
  std::string cublas_version;
  double shared_bytes_per_sm = 0;    ///< sharedMemPerMultiprocessor: the largest shared-memory configuration, bytes
  double shared_bytes_per_block = 0; ///< sharedMemPerBlockOptin: the most one block may use, bytes
  double reserved_shared_bytes_per_block = 0;  ///< reservedSharedMemPerBlock, bytes
  int max_threads_per_sm = 0;        ///< maxThreadsPerMultiProcessor
  int max_blocks_per_sm = 0;         ///< maxBlocksPerMultiProcessor
  int registers_per_sm = 0;          ///< regsPerMultiprocessor
  int warp_size = 0;                 ///< warpSize
};

/// NVML clock state sampled during the measurements.
struct clock_state {
  double sm_mhz_min = 0, sm_mhz_max = 0;  ///< MHz
  double memory_mhz = 0;                  ///< MHz
  double sm_max_mhz = 0;                  ///< MHz, the device's maximum
  double power_w_max = 0;                 ///< W
  double power_limit_w = 0;               ///< W
  double temperature_c_max = 0;           ///< degrees Celsius
  std::vector<std::string> throttle_reasons;
  bool persistence_mode = false;
  bool ecc_enabled = false;
};

struct bandwidth_probe {
  std::string name;
  double bytes_per_s = 0;         ///< bytes/s, read + write
  double spread = 0;              ///< (max - min) / median over repetitions, 0..1
  double working_set_bytes = 0;   ///< bytes
  std::string launch;             ///< grid and block shape
  std::string level;              ///< "dram", "l2", "l1" (model::memory_level names); version 1: "dram"
  std::string direction;          ///< "read", "write", "copy"; version 1: from the name (read_*, write_*, else copy)
};

struct compute_ceiling {
  double flops_per_s = 0;  ///< FLOP/s (OP/s for INT8)
  std::string probe;       ///< "ffma_chains", "cublaslt"
  std::string shape;       ///< "8192x8192x8192", empty for non-matmul probes
  double sm_mhz = 0;       ///< SM clock during the probe, MHz
  bool sustained = true;   ///< measured after the clock settled under the power cap
};

/// One roof of a level: the best probe of one direction.
struct level_ceiling {
  double bytes_per_s = 0;  ///< bytes/s, read + write counted; 0 = not measured
  std::string probe;       ///< the probe that set it ("read_l2_cg_float4")
};

/// The roofs of one level of the memory hierarchy.
struct level_ceilings {
  level_ceiling read, write, copy;
};

/// A whole ceilings file.
struct ceilings_file {
  int version = schema_version;
  std::string created_utc;
  std::string rooflint_version;
  std::string mode;  ///< "quick" or "thorough"
  device_info device;
  std::optional<clock_state> clocks;
  double bandwidth_bytes_per_s = 0;  ///< the bandwidth ceiling, bytes/s (read + write)
  std::string bandwidth_probe_name;
  std::vector<bandwidth_probe> bandwidth_probes;
  model::per_math_mode<std::optional<compute_ceiling>> compute;
  /// Roofs per level (model::memory_level order): DRAM, L2, L1. Version 1: DRAM from its probe names.
  std::array<level_ceilings, model::memory_level_count> levels{};
  /// What the reader noticed without rejecting the file ("version 1 file: ..."); not written.
  std::vector<std::string> notes;

  level_ceilings& level(model::memory_level l) { return levels[static_cast<std::size_t>(l)]; }
  const level_ceilings& level(model::memory_level l) const { return levels[static_cast<std::size_t>(l)]; }

  /// @return The peaks for the model (source measured). The device name views this object's string.
  model::peaks peaks() const;
  /// @return The GPU as predictions see it: these peaks, and the geometry the device reported over the
  /// datasheet row of the same GPU (model::find_gpu) for what it did not report; a figure neither gives
  /// stays 0, unknown. The device name views this object's string.
  model::gpu gpu() const;
};

/// @return The file as JSON text (2-space indent).
std::string to_json(const ceilings_file& file);

/// Parses @p text. On failure returns nullopt and sets @p error to what was wrong and where
/// ("malformed JSON at byte 120: ...", "'schema' is not \"rooflint-ceilings\"", "unsupported version 3",
/// "'/device/sm_count' is 4294967297, outside the plausible range 1 to 10000"). Every number is checked
/// against a plausible range (docs/ceilings-schema.md), every integer read at full width.
std::optional<ceilings_file> from_json(const std::string& text, std::string& error);

/// Reads and parses @p path; errors as from_json, plus a path that cannot be read or is not a regular
/// file (a directory, /dev/zero), refused before it is read.
std::optional<ceilings_file> load(const std::string& path, std::string& error);

/// Writes @p file to @p path; returns false and sets @p error when it cannot.
bool save(const ceilings_file& file, const std::string& path, std::string& error);

}  // namespace rooflint::ceilings
