// Compiled with nvcc -std=c++17 (tests/dsl/CMakeLists.txt, compile-fail.dsl_before_cxx20.nvcc): the
// first error must be rooflint/dsl.h's "rooflint: ... needs C++20".
#include "rooflint/dsl.h"

using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

__global__ void saxpy(int n, float a, const float* x, float* y);
