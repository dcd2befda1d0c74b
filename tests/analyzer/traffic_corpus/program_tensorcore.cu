/// @file program_tensorcore.cu
/// One part of rooflint-traffic-corpus (program.cu): tensorcore.cu's kernels, specs and cases in a
/// translation unit of their own (program_everyday2.cu says why the program is built in parts).
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "tensorcore.cu"

void run_tensorcore_part() { run_tensorcore_cases(); }
