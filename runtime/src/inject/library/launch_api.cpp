// What the injection library reads from a kernel launch API's callback (launch_api.h).

#include "inject/library/launch_api.h"

#include "inject/library/injection_support.h"

namespace rooflint::runtime::inject {

launch_call decode(CUpti_CallbackId cbid, const void* params) {
  launch_call c;
  const auto from = [&](const auto* p) {
    c.function = p->f;
    c.kernel_params = p->kernelParams;
    c.stream = p->hStream;
    c.shape = {{p->gridDimX, p->gridDimY, p->gridDimZ}, {p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes};
  };
  const auto from_config = [&](const CUlaunchConfig* cfg) {
    if (!cfg) return;
    c.stream = cfg->hStream;
    c.shape = {{cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ}, {cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ}, cfg->sharedMemBytes};
  };
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      from(p);
      c.extra = p->extra;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_ptsz_params*>(params);
      from(p);
      c.extra = p->extra;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: from(static_cast<const cuLaunchCooperativeKernel_params*>(params)); break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      from(static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params));
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      c.function = p->f;
      c.kernel_params = p->kernelParams;
      c.extra = p->extra;
      from_config(p->config);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_ptsz_params*>(params);
      c.function = p->f;
      c.kernel_params = p->kernelParams;
      c.extra = p->extra;
      from_config(p->config);
      break;
    }
    default: break;
  }
  return c;
}

std::pair<const void*, std::size_t> packed_buffer(void** extra) {
  const void* buffer = nullptr;
  std::size_t size = 0;
  for (int i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END && i < 16; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) size = *static_cast<std::size_t*>(extra[i + 1]);
  }
  return {buffer, size};
}

dsl::launch_values launch_values_of(const manifest_kernel& k, const launch_call& call) {
  const auto [packed, packed_size] = packed_buffer(call.extra);
  return launch_values_from(k, call.kernel_params, packed, packed_size, call.shape);
}

bool capturing(CUpti_CallbackId cbid, CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(stream_to_query(cbid, stream), &status) != CUDA_SUCCESS ||
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

const char* driver_api_name(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: return "cuLaunchKernel";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: return "cuLaunchKernel_ptsz";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: return "cuLaunchKernelEx";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: return "cuLaunchKernelEx_ptsz";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: return "cuLaunchCooperativeKernel";
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: return "cuLaunchCooperativeKernel_ptsz";
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch: return "cuGraphLaunch";
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: return "cuGraphLaunch_ptsz";
    default: return "other";
  }
}

}  // namespace rooflint::runtime::inject
