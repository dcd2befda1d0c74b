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

// Toolkit code inlined into the user's lines: __ldg inside a helper of the user's, __ldg and atomicAdd
// called directly. CUPTI puts their instructions on the toolkit headers' lines; the report puts them on
// the helper's line and the kernel's.
__device__ __forceinline__ float cached_load(const float* p) {
  return __ldg(p);  // [helper.ldg]
}

__global__ void toolkit_kernel(const float* in, float* out, int n) {  // in: (2 n), out: (7)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = cached_load(in + i) * __ldg(in + n + i);  // [toolkit.ldg]
  atomicAdd(out + i % 7, v);                                 // [toolkit.atomic]
}
