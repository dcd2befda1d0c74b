#pragma once
/// @file cuda_check.h
/// ROOFLINT_TRY_CUDA(call): runs a CUDA runtime call; on failure clears the sticky error state where
/// it can and returns rooflint::error{internal (or unavailable for no device), "file:line: call: cause"}
/// from the enclosing function (which returns a rooflint::result). nvbench's macro, without exceptions.

#include <cuda_runtime.h>

#include <string>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime::detail {

inline error cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls are not blamed for it
  const error_code code = (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
                              ? error_code::unavailable
                              : error_code::internal;
  return {code, std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                    cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")"};
}

}  // namespace rooflint::runtime::detail

#define ROOFLINT_TRY_CUDA(call)                                                             \
  do {                                                                                      \
    if (const cudaError_t rooflint_status_ = (call); rooflint_status_ != cudaSuccess)      \
      return ::rooflint::runtime::detail::cuda_error(rooflint_status_, #call, __FILE__, __LINE__); \
  } while (0)
