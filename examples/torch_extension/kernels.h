#pragma once
/// @file kernels.h
/// The host launchers of kernels.cu, as the extension's glue (binding.cpp) calls them: raw device
/// pointers, sizes and the stream to launch on. Each returns the launch's error (cudaGetLastError).
/// No torch header here or in kernels.cu: the analyzer reads kernels.cu with rooflint's include
/// directories alone.

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

namespace torch_extension_example {

/// out = x + alpha * y over n floats (n >= 0; nothing is launched for 0).
cudaError_t launch_scaled_add(const float* x, const float* y, float* out, int n, float alpha, cudaStream_t stream);

/// y[r] = sum of row r of x, a (rows, cols) row-major bf16 matrix, summed in float, one thread a row.
cudaError_t launch_row_sum(const __nv_bfloat16* x, float* y, int rows, int cols, cudaStream_t stream);

}  // namespace torch_extension_example
