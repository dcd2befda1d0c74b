/// @file program_gemm_tiles.cu
/// One part of rooflint-traffic-corpus (program.cu): gemm_tiles.cu's kernels, specs and cases in a translation
/// unit of their own. nvcc's front end keeps what it evaluated for every spec of a unit until the unit
/// ends (the whole corpus in one unit took more than 23 GB), so the program is built in parts.
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "gemm_tiles.cu"

void run_gemm_tiles_part() { run_gemm_tiles_cases(); }
