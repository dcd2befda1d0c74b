/// @file program_review.cu
/// One part of rooflint-traffic-corpus (program.cu): review.cu's kernels, specs and cases in a translation
/// unit of their own. nvcc's front end keeps what it evaluated for every spec of a unit until the unit
/// ends (the whole corpus in one unit took more than 23 GB), so the program is built in parts.
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include "review.cu"

void run_review_part() { run_review_cases(); }
