#pragma once
/// @file nvml.h
/// NVML, loaded at run time with dlopen("libnvidia-ml.so.1") (the driver ships it; the build machines have
/// no nvml.h), with our own minimal prototypes. Read only: rooflint records clocks, power and modes and
/// never sets them. Everything degrades gracefully: without NVML, loaded() is false and why_not() says why.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// Clock-event (throttle) reason bits, as NVML's nvmlClocksEventReasons define them.
enum clock_event_reason : std::uint64_t {
  clock_event_gpu_idle = 0x1,
  clock_event_applications_clocks_setting = 0x2,
  clock_event_sw_power_cap = 0x4,
  clock_event_hw_slowdown = 0x8,
  clock_event_sync_boost = 0x10,
  clock_event_sw_thermal_slowdown = 0x20,
  clock_event_hw_thermal_slowdown = 0x40,
  clock_event_hw_power_brake_slowdown = 0x80,
  clock_event_display_clock_setting = 0x100,
};

/// @return The names of the bits set in @p reasons ("sw_power_cap", "hw_thermal_slowdown"), in bit order;
/// an unknown bit is named by its value ("unknown_0x200").
std::vector<std::string> decode_clock_event_reasons(std::uint64_t reasons);

/// One reading of a device's state. Fields NVML does not support on this device stay nullopt.
struct nvml_snapshot {
  std::optional<unsigned> sm_mhz;              ///< current SM clock, MHz
  std::optional<unsigned> memory_mhz;          ///< current memory clock, MHz
  std::optional<unsigned> sm_max_mhz;          ///< maximum SM clock, MHz
  std::optional<unsigned> memory_max_mhz;      ///< maximum memory clock, MHz
  std::optional<double> power_w;               ///< power draw, W
  std::optional<double> power_limit_w;         ///< enforced power limit, W
  std::optional<unsigned> temperature_c;       ///< GPU temperature, degrees Celsius
  std::optional<std::uint64_t> clock_event_reasons;  ///< clock_event_reason bits
  std::optional<bool> persistence_mode;
  std::optional<bool> ecc_enabled;             ///< current ECC mode
  std::optional<int> performance_state;        ///< P-state (0 = P0)
};

/// An NVML device handle (opaque).
struct nvml_device {
  void* handle = nullptr;
};

/// The process-wide NVML library. Thread-safe (NVML is).
class nvml_library {
 public:
  /// @return The library, loaded and initialised on first use (nvmlInit_v2), shut down at exit.
  static nvml_library* instance();

  bool loaded() const { return loaded_; }
  /// @return Why NVML is not available ("libnvidia-ml.so.1 not found: ..."), empty when loaded.
  const std::string& why_not() const { return why_not_; }

  /// @return The driver version string ("580.159.04"), or nullopt.
  std::optional<std::string> driver_version() const;

  /// @return The NVML handle of the device at PCI bus id @p pci_bus_id (from cudaDeviceGetPCIBusId:
  /// CUDA's and NVML's orderings differ unless CUDA_DEVICE_ORDER=PCI_BUS_ID).
  result<nvml_device> device_by_pci_bus_id(const std::string& pci_bus_id) const;

  /// @return Every reading NVML gives for @p device; unsupported ones stay empty.
  nvml_snapshot snapshot(nvml_device device) const;

  /// @return The current SM clock in MHz (the sampler's fast path), or nullopt.
  std::optional<unsigned> sm_mhz(nvml_device device) const;

  struct api;  ///< the resolved entry points (nvml.cpp)
  ~nvml_library();

 private:
  nvml_library();
  bool loaded_ = false;
  std::string why_not_;
  void* handle_ = nullptr;
  std::unique_ptr<api> api_;
};

}  // namespace rooflint::runtime
