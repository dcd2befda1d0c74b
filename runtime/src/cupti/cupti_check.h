#pragma once
// ROOFLINT_TRY_CUPTI(call): runs a CUPTI call; on failure returns an error that names the call, the
// CUPTI code and what to do, from the enclosing function (which returns a rooflint::result).

#include <cupti_result.h>

#include <string>

#include "cupti/cupti.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::cupti::detail {

inline error_code code_of(CUptiResult r) {
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return error_code::permission_denied;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      return error_code::unavailable;
    case CUPTI_ERROR_INVALID_PARAMETER:
      return error_code::invalid_argument;
    default:
      return error_code::internal;
  }
}

/// What to do about @p r, or empty.
inline std::string advice(CUptiResult r) {
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return std::string("; ") + permission_fix;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return "; another profiler (ncu, nsys, cuda-gdb) is attached to this process: run rooflint-verify without it";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "; another process is profiling this GPU: run one profiler at a time";
    default:
      return {};
  }
}

inline error cupti_error(CUptiResult r, const char* call, const char* file, int line) {
  return {code_of(r), std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + describe(r) + advice(r)};
}

}  // namespace rooflint::runtime::cupti::detail

#define ROOFLINT_TRY_CUPTI(call)                                                                   \
  do {                                                                                             \
    if (const CUptiResult rooflint_cupti_status_ = (call); rooflint_cupti_status_ != CUPTI_SUCCESS) \
      return ::rooflint::runtime::cupti::detail::cupti_error(rooflint_cupti_status_, #call, __FILE__, __LINE__); \
  } while (0)
