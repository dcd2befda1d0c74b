/// @file program_everyday2.cu
/// One part of rooflint-traffic-corpus (program.cu): everyday2.cu's kernels, specs and cases in a translation
/// unit of their own. nvcc's front end keeps what it evaluated for every spec of a unit until the unit
/// ends (the whole corpus in one unit took more than 23 GB), so the program is built in parts.
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "everyday2.cu"

void run_everyday2_part() { run_everyday2_cases(); }
