/// @file program_indexed.cu
/// One part of rooflint-traffic-corpus (program.cu): indexed.cu's kernels, specs and cases in a translation
/// unit of their own (program_gathers.cu says why the program is built in parts).
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "indexed.cu"

void run_indexed_part() { run_indexed_cases(); }
