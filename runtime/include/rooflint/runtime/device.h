#pragma once
/// @file device.h
/// What the CUDA runtime says about a device: name, UUID, SM count, L2 size, compute capability,
/// memory, and the driver, CUDA runtime and cuBLAS versions. Read only; nothing is changed.

#include <cstddef>
#include <string>

#include "rooflint/files/ceilings_file.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// One CUDA device as the runtime sees it.
struct device_properties {
  int ordinal = 0;                    ///< CUDA device index
  std::string name;                   ///< "NVIDIA H200"
  std::string uuid;                   ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it
  std::string pci_bus_id;             ///< "0000:65:00.0", to find the same device in NVML
  int cc_major = 0, cc_minor = 0;     ///< compute capability
  int sm_count = 0;                   ///< streaming multiprocessors
  int max_threads_per_sm = 0;         ///< resident threads per SM
  int max_blocks_per_sm = 0;          ///< resident blocks per SM
  int registers_per_sm = 0;           ///< 32-bit registers per SM
  int warp_size = 0;                  ///< threads per warp
  std::size_t shared_bytes_per_sm = 0;     ///< the largest shared-memory configuration of an SM, bytes
  std::size_t shared_bytes_per_block = 0;  ///< the most one block may use (opted in), bytes
  std::size_t reserved_shared_bytes_per_block = 0;  ///< shared memory the system reserves per block, bytes
  std::size_t l2_bytes = 0;           ///< L2 cache size, bytes
  std::size_t dram_bytes = 0;         ///< global memory, bytes
  std::size_t free_bytes = 0;         ///< global memory free when queried, bytes
  int driver_api_version = 0;         ///< cudaDriverGetVersion (13000 = CUDA 13.0)
  int runtime_version = 0;            ///< cudaRuntimeGetVersion
  std::string driver_version;         ///< NVML's "580.159.04"; "CUDA 13.0 driver" when NVML is missing
  std::string cuda_runtime_version;   ///< "13.0"
  std::string cublas_version;         ///< "13.0.0", of the libcublasLt loaded
};

/// @return The number of CUDA devices; an error with code `unavailable` (and what to do) when there is
/// no device or no usable driver.
result<int> device_count();

/// @return The properties of device @p ordinal (errors: invalid_argument for a bad index,
/// unavailable without a device or driver).
result<device_properties> query_device(int ordinal);

/// @return "13.0" for 13000 (CUDA's version encoding: 1000 * major + 10 * minor).
std::string format_cuda_version(int version);

/// @return The canonical "GPU-8-4-4-4-12" form of a 16-byte UUID.
std::string format_uuid(const unsigned char (&bytes)[16]);

/// @return The device part of a ceilings file.
ceilings::device_info to_device_info(const device_properties& d);

}  // namespace rooflint::runtime
