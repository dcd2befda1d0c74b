#pragma once
// What the injection library reads from a kernel launch API's callback, for its measuring mode
// (injection.cpp) and its lines mode (line_observer.cpp): the APIs it subscribes to, a launch's
// arguments, shape and stream, and whether that stream is capturing a graph.

#include <cuda.h>
#include <cupti.h>

#include <cstddef>
#include <utility>

#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

/// The driver's kernel launch APIs: every runtime launch reaches one of them (docs/verifier.md).
inline constexpr CUpti_CallbackId kernel_launch_apis[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz};

/// What a launch API's parameters say: the function's arguments and its shape.
struct launch_call {
  CUfunction function = nullptr;  ///< a CUfunction, or a CUkernel cast to one (the launch APIs take either)
  void** kernel_params = nullptr;
  void** extra = nullptr;
  CUstream stream = nullptr;
  launch_shape shape;
};

/// @return The call of launch API @p cbid with parameters @p params (the callback's functionParams).
launch_call decode(CUpti_CallbackId cbid, const void* params);

/// @return The packed argument buffer of `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE), if any.
std::pair<const void*, std::size_t> packed_buffer(void** extra);

/// @return The values @p call provides to kernel @p k's spec (launch_values_from: its arguments, read
/// through kernelParams or the packed buffer, and its grid and block).
dsl::launch_values launch_values_of(const manifest_kernel& k, const launch_call& call);

/// Whether @p stream is capturing a CUDA graph (a launch on it is recorded, not run). Our own CUDA
/// calls would break the capture (a device synchronisation is not permitted during one), so such a
/// launch is seen and not measured. An answer the driver cannot give counts as capturing.
/// @p cbid: the launch API, whose null stream may be the thread's own (stream_to_query).
bool capturing(CUpti_CallbackId cbid, CUstream stream);

/// @return The API's name ("cuLaunchKernel", ...; "other" for an API not subscribed to).
const char* driver_api_name(CUpti_CallbackId cbid);

}  // namespace rooflint::runtime::inject
