// What the counters see of cp.async copies and wmma stores (async-copy.sh): each kernel moves a known
// number of bytes, so the counters' sectors can be set against them.
//   copy_ca / copy_cg: every thread copies 16 bytes of x into shared memory (cp.async.ca / .cg), then
//     writes them to y: x and y are n floats each, n / 8 sectors of x read, as many of y written.
//   copy_ld: the same with a plain 16-byte load (the reference: op_ld counts these).
//   wmma_store: each warp stores one 16 x 16 float tile of y (row-major, leading dimension 16 * warps):
//     1 KiB a tile, 32 sectors.
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void copy_ca(const float4* x, float4* y) {
  __shared__ float4 s[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(&s[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(x + i));
  asm volatile("cp.async.wait_all;\n" ::);
  y[i] = s[threadIdx.x];
}

__global__ void copy_cg(const float4* x, float4* y) {
  __shared__ float4 s[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(&s[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(x + i));
  asm volatile("cp.async.wait_all;\n" ::);
  y[i] = s[threadIdx.x];
}

__global__ void copy_ld(const float4* x, float4* y) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  y[i] = x[i];
}

__global__ void wmma_store(float* y, int warps) {
  using namespace nvcuda;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::store_matrix_sync(y + warp * 16, acc, 16 * warps, wmma::mem_row_major);
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "copy_ca";
  const int n4 = 1 << 22;  // float4s: 64 MiB a tensor
  float4 *x = nullptr, *y = nullptr;
  cudaMalloc(&x, sizeof(float4) * n4);
  cudaMalloc(&y, sizeof(float4) * n4);
  cudaMemset(x, 0, sizeof(float4) * n4);
  for (int rep = 0; rep < 2; ++rep) {
    if (!std::strcmp(which, "copy_ca")) copy_ca<<<n4 / 256, 256>>>(x, y);
    else if (!std::strcmp(which, "copy_cg")) copy_cg<<<n4 / 256, 256>>>(x, y);
    else if (!std::strcmp(which, "copy_ld")) copy_ld<<<n4 / 256, 256>>>(x, y);
    else wmma_store<<<1024, 256>>>(reinterpret_cast<float*>(y), 1024 * 8);  // 8192 tiles of 16 x 16 floats
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", which, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
