#pragma once
// The traffic corpus's CUDA declarations: the analyzer tests' mock header and the vector types
// (aligned as CUDA's vector_types.h aligns them). See README.md for what "truth" means here.
#include "cuda_mock.h"

struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
__device__ void __syncthreads();
