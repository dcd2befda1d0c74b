#pragma once
// Builders shared by the tests of rooflint-verify -- ./program (inject_test.cpp, inject_region_test.cpp):
// the analyzer's recorded manifests under data/, a kernel of one by name, and a measured launch.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooflint/runtime/inject.h"

namespace rooflint::inject_test {

using runtime::measurement;
using runtime::inject::manifest_kernel;

/// @return The kernels of the recorded manifest data/@p file; a test failure (and none) when it does not read.
inline std::vector<manifest_kernel> recorded_manifest(const std::string& file) {
  auto ks = runtime::inject::read_manifest(std::string(ROOFLINT_TEST_DATA_DIR) + "/" + file);
  EXPECT_TRUE(ks.ok()) << (ks.ok() ? "" : ks.err().message);
  return ks.ok() ? *ks : std::vector<manifest_kernel>{};
}

/// @return The kernel (or region) of @p ks named @p name; a test failure (and an empty kernel) when absent.
inline const manifest_kernel& kernel_named(const std::vector<manifest_kernel>& ks, const std::string& name) {
  for (const auto& k : ks)
    if (k.kernel_name == name) return k;
  ADD_FAILURE() << "no kernel " << name;
  static const manifest_kernel none;
  return none;
}

/// A launch measured on the H200, timed once at @p seconds, that read @p read_bytes from DRAM and wrote
/// @p written_bytes (which reach DRAM and are the L2 write sectors, 32 bytes each).
inline measurement measured_dram(double read_bytes, double written_bytes, double seconds) {
  measurement m;
  m.device.name = "NVIDIA H200";
  m.counters.available = true;
  m.counters.dram_read_bytes = read_bytes;
  m.counters.dram_write_bytes = written_bytes;
  m.counters.l2_write_sectors = written_bytes / 32;
  m.counters.duration_s = seconds;
  m.timing.available = true;
  m.timing.repetitions = 1;
  m.timing.median_s = m.timing.min_s = m.timing.max_s = seconds;
  return m;
}

}  // namespace rooflint::inject_test
