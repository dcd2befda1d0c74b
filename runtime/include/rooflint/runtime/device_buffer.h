#pragma once
/// @file device_buffer.h
/// Ownership of device memory: a std::unique_ptr whose deleter is cudaFree. The one owner of device
/// allocations in the runtime (a case's buffers, the L2 flush, the ceilings probes) and the examples;
/// each site allocates with cudaMalloc and reports a failure its own way, then hands the pointer here.

#include <cuda_runtime.h>

#include <memory>

namespace rooflint::runtime {

/// Frees device memory; a null pointer is left alone. The status is ignored: a destructor cannot
/// report it, and a context that died has freed the memory already.
struct cuda_free {
  void operator()(void* p) const noexcept {
    if (p) (void)cudaFree(p);
  }
};

/// Device memory of T elements (void: bytes), freed when the owner goes. Movable, not copyable.
template <class T = void>
using device_ptr = std::unique_ptr<T, cuda_free>;

}  // namespace rooflint::runtime
