#pragma once
#include <stdlib.h>  // clang's cuda_wrappers/new calls ::malloc, which the toolkit's headers would declare
// The CUDA declarations the analyzer's test inputs need, without the toolkit (parsed with -nocudainc).
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))

struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;

__device__ float atomicAdd(float* address, float value);
