/// @file device.cpp
/// Device properties through the CUDA runtime, versions through the runtime, cuBLASLt and NVML.

#include "rooflint/runtime/device.h"

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/cuda_check.h"
#include "support/nvml.h"

namespace rooflint::runtime {

std::string format_cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string format_uuid(const unsigned char (&b)[16]) {
  // CUDA's spelling (nvidia-smi's too): GPU-8-4-4-4-12 hex digits of the 16 bytes.
  const auto hex = [&](int from, int to) { return fmt::format("{:02x}", fmt::join(&b[from], &b[to], "")); };
  return fmt::format("GPU-{}-{}-{}-{}-{}", hex(0, 4), hex(4, 6), hex(6, 8), hex(8, 10), hex(10, 16));
}

result<int> device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return error{error_code::unavailable,
                 std::string("no usable CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(status) +
                     " (" + cudaGetErrorString(status) +
                     "); check that the NVIDIA driver is installed and a GPU is visible (nvidia-smi)"};
  }
  if (count == 0)
    return error{error_code::unavailable, "no CUDA device: cudaGetDeviceCount found 0 devices"};
  return count;
}

result<device_properties> query_device(int ordinal) {
  auto count = device_count();
  if (!count) return count.err();
  if (ordinal < 0 || ordinal >= *count)
    return error{error_code::invalid_argument, "device " + std::to_string(ordinal) + " does not exist; there " +
                                                   (*count == 1 ? "is 1 device (0)"
                                                                : "are " + std::to_string(*count) + " devices (0-" +
                                                                      std::to_string(*count - 1) + ")")};
  device_properties d;
  d.ordinal = ordinal;
  cudaDeviceProp prop{};
  ROOFLINT_TRY_CUDA(cudaGetDeviceProperties(&prop, ordinal));
  d.name = prop.name;
  unsigned char uuid[16];
  for (int i = 0; i < 16; ++i) uuid[i] = static_cast<unsigned char>(prop.uuid.bytes[i]);
  d.uuid = format_uuid(uuid);
  char bus[32] = {};
  ROOFLINT_TRY_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal));
  d.pci_bus_id = bus;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  d.registers_per_sm = prop.regsPerMultiprocessor;
  d.warp_size = prop.warpSize;
  d.shared_bytes_per_sm = prop.sharedMemPerMultiprocessor;
  d.shared_bytes_per_block = prop.sharedMemPerBlockOptin;
  d.reserved_shared_bytes_per_block = prop.reservedSharedMemPerBlock;
  d.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  d.dram_bytes = prop.totalGlobalMem;
  ROOFLINT_TRY_CUDA(cudaSetDevice(ordinal));
  std::size_t free_bytes = 0, total_bytes = 0;
  ROOFLINT_TRY_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  d.free_bytes = free_bytes;
  ROOFLINT_TRY_CUDA(cudaDriverGetVersion(&d.driver_api_version));
  ROOFLINT_TRY_CUDA(cudaRuntimeGetVersion(&d.runtime_version));
  d.cuda_runtime_version = format_cuda_version(d.runtime_version);
  d.driver_version = "CUDA " + format_cuda_version(d.driver_api_version) + " driver";
  if (auto nvml = nvml_library::instance(); nvml->loaded())
    if (auto v = nvml->driver_version()) d.driver_version = *v;
  int major = 0, minor = 0, patch = 0;
  if (cublasLtGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasLtGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasLtGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
    d.cublas_version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  else
    d.cublas_version = "unknown";
  return d;
}

ceilings::device_info to_device_info(const device_properties& d) {
  ceilings::device_info info;
  info.name = d.name;
  info.uuid = d.uuid;
  info.compute_capability = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  info.sm_count = d.sm_count;
  info.l2_bytes = static_cast<double>(d.l2_bytes);
  info.dram_bytes = static_cast<double>(d.dram_bytes);
  info.shared_bytes_per_sm = static_cast<double>(d.shared_bytes_per_sm);
  info.shared_bytes_per_block = static_cast<double>(d.shared_bytes_per_block);
  info.reserved_shared_bytes_per_block = static_cast<double>(d.reserved_shared_bytes_per_block);
  info.max_threads_per_sm = d.max_threads_per_sm;
  info.max_blocks_per_sm = d.max_blocks_per_sm;
  info.registers_per_sm = d.registers_per_sm;
  info.warp_size = d.warp_size;
  info.driver_version = d.driver_version;
  info.cuda_runtime_version = d.cuda_runtime_version;
  info.cublas_version = d.cublas_version;
  return info;
}

}  // namespace rooflint::runtime
