#pragma once
/// @file l2_flush.h
/// Evicting L2 before a measured launch with a read-only sweep (docs/cupti.md §6): a kernel that reads a
/// buffer of 3x the L2 size and writes nothing (a memset would leave dirty lines whose write-back lands
/// in the measured kernel's DRAM writes). The sweep also writes back whatever was dirty before it, so
/// the measured window starts with a clean L2.

#include <cuda_runtime.h>

#include <cstddef>

#include "rooflint/runtime/device_buffer.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

class l2_flush {
 public:
  /// Allocates the sweep buffer on the current device: @p multiple x its L2 size (at least 2).
  static result<l2_flush> create(double multiple = 3);

  /// Enqueues the sweep on @p stream (it does not synchronise).
  result<void> enqueue(cudaStream_t stream) const;

  /// @return Bytes the sweep reads.
  std::size_t bytes() const { return bytes_; }
  /// @return The device's L2 size in bytes.
  std::size_t l2_bytes() const { return l2_bytes_; }

 private:
  l2_flush() = default;
  device_ptr<unsigned> buffer_;
  device_ptr<unsigned> sink_;
  std::size_t bytes_ = 0;
  std::size_t l2_bytes_ = 0;
  int blocks_ = 0;
};

}  // namespace rooflint::runtime
