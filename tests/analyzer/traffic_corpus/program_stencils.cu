/// @file program_stencils.cu
/// One part of rooflint-traffic-corpus (program.cu): stencils.cu's kernels, specs and cases in a translation
/// unit of their own. nvcc's front end keeps what it evaluated for every spec of a unit until the unit
/// ends (the whole corpus in one unit took more than 23 GB), so the program is built in parts.
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "stencils.cu"

void run_stencils_part() { run_stencils_cases(); }
