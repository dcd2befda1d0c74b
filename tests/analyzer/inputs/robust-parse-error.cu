// A file clang cannot parse. rooflint says once that it parses with clang 19 and what failed;
// with --allow-parse-errors the file is a warning and the run exits 0.
#include "cuda_mock.h"

__global__ void broken(float *x) { x[threadIdx.x] = undeclared_in_clang; }  // expected-error@:53 {{use of undeclared identifier 'undeclared_in_clang'}}
