#pragma once
// The traffic corpus's CUDA declarations. The analyzer's tests parse the corpus with their mock header
// and the vector types (aligned as CUDA's vector_types.h aligns them); the GPU program (program.cu,
// built by nvcc) defines ROOFLINT_CORPUS_REAL_CUDA and takes them from the toolkit. See README.md for
// what "truth" means here.
#ifdef ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>
#else
#include "cuda_mock.h"

struct __attribute__((aligned(8))) float2 { float x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
__device__ void __syncthreads();
#endif
