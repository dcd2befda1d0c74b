/// @file nvml.cpp
/// NVML through dlopen with minimal prototypes copied in spirit from nvml.h (docs/cupti.md §4): every enum
/// is an int, nvmlDevice_t an opaque pointer. Entry points that a driver lacks stay null and their
/// readings stay empty.

#include "support/nvml.h"

#include <dlfcn.h>

#include <fmt/format.h>

namespace rooflint::runtime {

namespace {

using nvml_return = int;                 // nvmlReturn_t
constexpr nvml_return nvml_success = 0;  // NVML_SUCCESS
using nvml_handle = void*;               // nvmlDevice_t
constexpr int nvml_clock_sm = 1;         // NVML_CLOCK_SM
constexpr int nvml_clock_mem = 2;        // NVML_CLOCK_MEM
constexpr int nvml_temperature_gpu = 0;  // NVML_TEMPERATURE_GPU

}  // namespace

struct nvml_library::api {
  nvml_return (*init)() = nullptr;
  nvml_return (*shutdown)() = nullptr;
  const char* (*error_string)(nvml_return) = nullptr;
  nvml_return (*system_driver_version)(char*, unsigned) = nullptr;
  nvml_return (*handle_by_pci_bus_id)(const char*, nvml_handle*) = nullptr;
  nvml_return (*clock_info)(nvml_handle, int, unsigned*) = nullptr;
  nvml_return (*max_clock_info)(nvml_handle, int, unsigned*) = nullptr;
  nvml_return (*clock_event_reasons)(nvml_handle, unsigned long long*) = nullptr;
  nvml_return (*power_usage)(nvml_handle, unsigned*) = nullptr;
  nvml_return (*power_limit)(nvml_handle, unsigned*) = nullptr;
  nvml_return (*temperature)(nvml_handle, int, unsigned*) = nullptr;
  nvml_return (*persistence_mode)(nvml_handle, int*) = nullptr;
  nvml_return (*ecc_mode)(nvml_handle, int*, int*) = nullptr;
  nvml_return (*performance_state)(nvml_handle, int*) = nullptr;

  std::string describe(nvml_return status) const {
    const char* text = error_string ? error_string(status) : nullptr;
    return text ? std::string(text) : "NVML error " + std::to_string(status);
  }
};

std::vector<std::string> decode_clock_event_reasons(std::uint64_t reasons) {
  static constexpr const char* names[] = {"gpu_idle",           "applications_clocks_setting",
                                          "sw_power_cap",       "hw_slowdown",
                                          "sync_boost",         "sw_thermal_slowdown",
                                          "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                          "display_clock_setting"};
  std::vector<std::string> out;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t mask = std::uint64_t{1} << bit;
    if (!(reasons & mask)) continue;
    if (bit < static_cast<int>(std::size(names))) {
      out.emplace_back(names[bit]);
    } else {
      out.push_back(fmt::format("unknown_{:#x}", mask));
    }
  }
  return out;
}

nvml_library* nvml_library::instance() {
  static nvml_library library;  // thread-safe initialisation; destroyed (nvmlShutdown) at exit
  return &library;
}

nvml_library::nvml_library() : api_(std::make_unique<api>()) {
  handle_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    why_not_ = std::string("NVML is unavailable: dlopen(\"libnvidia-ml.so.1\") failed: ") +
               (why ? why : "unknown reason") + "; clocks, power and throttle reasons will not be recorded";
    return;
  }
  auto resolve = [this](auto& fn, const char* symbol) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle_, symbol));
  };
  resolve(api_->init, "nvmlInit_v2");
  resolve(api_->shutdown, "nvmlShutdown");
  resolve(api_->error_string, "nvmlErrorString");
  resolve(api_->system_driver_version, "nvmlSystemGetDriverVersion");
  resolve(api_->handle_by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  resolve(api_->clock_info, "nvmlDeviceGetClockInfo");
  resolve(api_->max_clock_info, "nvmlDeviceGetMaxClockInfo");
  resolve(api_->clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!api_->clock_event_reasons)  // drivers before 535 name it by its deprecated name
    resolve(api_->clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  resolve(api_->power_usage, "nvmlDeviceGetPowerUsage");
  resolve(api_->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  resolve(api_->temperature, "nvmlDeviceGetTemperature");
  resolve(api_->persistence_mode, "nvmlDeviceGetPersistenceMode");
  resolve(api_->ecc_mode, "nvmlDeviceGetEccMode");
  resolve(api_->performance_state, "nvmlDeviceGetPerformanceState");
  if (!api_->init || !api_->shutdown || !api_->handle_by_pci_bus_id) {
    why_not_ = "NVML is unavailable: libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlShutdown or "
               "nvmlDeviceGetHandleByPciBusId_v2 (driver too old)";
    return;
  }
  if (const nvml_return status = api_->init(); status != nvml_success) {
    why_not_ = "NVML is unavailable: nvmlInit_v2 failed: " + api_->describe(status) +
               "; clocks, power and throttle reasons will not be recorded";
    return;
  }
  loaded_ = true;
}

nvml_library::~nvml_library() {
  if (loaded_) api_->shutdown();
  // The library stays mapped: other static destructors may still hold function pointers into it.
}

std::optional<std::string> nvml_library::driver_version() const {
  if (!loaded_ || !api_->system_driver_version) return std::nullopt;
  char text[96] = {};
  if (api_->system_driver_version(text, sizeof text) != nvml_success) return std::nullopt;
  return std::string(text);
}

result<nvml_device> nvml_library::device_by_pci_bus_id(const std::string& pci_bus_id) const {
  if (!loaded_) return error{error_code::unavailable, why_not_};
  nvml_handle handle = nullptr;
  if (const nvml_return status = api_->handle_by_pci_bus_id(pci_bus_id.c_str(), &handle); status != nvml_success)
    return error{error_code::unavailable, "nvmlDeviceGetHandleByPciBusId_v2(\"" + pci_bus_id +
                                              "\") failed: " + api_->describe(status)};
  return nvml_device{handle};
}

std::optional<unsigned> nvml_library::sm_mhz(nvml_device device) const {
  unsigned mhz = 0;
  if (!loaded_ || !device.handle || !api_->clock_info) return std::nullopt;
  if (api_->clock_info(device.handle, nvml_clock_sm, &mhz) != nvml_success) return std::nullopt;
  return mhz;
}

nvml_snapshot nvml_library::snapshot(nvml_device device) const {
  nvml_snapshot s;
  if (!loaded_ || !device.handle) return s;
  void* h = device.handle;
  unsigned u = 0;
  if (api_->clock_info && api_->clock_info(h, nvml_clock_sm, &u) == nvml_success) s.sm_mhz = u;
  if (api_->clock_info && api_->clock_info(h, nvml_clock_mem, &u) == nvml_success) s.memory_mhz = u;
  if (api_->max_clock_info && api_->max_clock_info(h, nvml_clock_sm, &u) == nvml_success) s.sm_max_mhz = u;
  if (api_->max_clock_info && api_->max_clock_info(h, nvml_clock_mem, &u) == nvml_success) s.memory_max_mhz = u;
  if (api_->power_usage && api_->power_usage(h, &u) == nvml_success) s.power_w = u / 1000.0;  // mW
  if (api_->power_limit && api_->power_limit(h, &u) == nvml_success) s.power_limit_w = u / 1000.0;  // mW
  if (api_->temperature && api_->temperature(h, nvml_temperature_gpu, &u) == nvml_success) s.temperature_c = u;
  unsigned long long reasons = 0;
  if (api_->clock_event_reasons && api_->clock_event_reasons(h, &reasons) == nvml_success)
    s.clock_event_reasons = reasons;
  int state = 0, pending = 0;
  if (api_->persistence_mode && api_->persistence_mode(h, &state) == nvml_success) s.persistence_mode = state == 1;
  if (api_->ecc_mode && api_->ecc_mode(h, &state, &pending) == nvml_success) s.ecc_enabled = state == 1;
  if (api_->performance_state && api_->performance_state(h, &state) == nvml_success) s.performance_state = state;
  return s;
}

}  // namespace rooflint::runtime
