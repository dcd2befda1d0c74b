// Kernels whose cubin tests/runtime/line_traffic_test.cpp correlates with CUPTI (no GPU needed): the
// build compiles this file to a cubin with -lineinfo and to one without. Each marked access is alone on
// its line; the test reads the markers from this file and expects the load or store's PCs on them.

__device__ __forceinline__ float through_helper(const float* p) {
  return *p;  // [helper.load]
}

__global__ void copy_kernel(const float* in, float* out) {  // in, out: (gridDim.x * blockDim.x)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];  // [copy.load]
  out[i] = v;             // [copy.store]
}

__global__ void inlined_kernel(const float* in, float* out, int n) {  // in: (2 n), out: (n)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = through_helper(in + i) + through_helper(in + n + i);  // [inlined.store]
}
