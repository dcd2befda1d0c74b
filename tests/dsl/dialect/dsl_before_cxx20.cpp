// Compiled with -std=c++17 (tests/dsl/CMakeLists.txt, compile-fail.dsl_before_cxx20.*): the first error
// must be rooflint/dsl.h's "rooflint: ... needs C++20", not one from the headers it includes (under
// C++17 those start with `std::span`). The user's code below fails too, after it.
#include "rooflint/dsl.h"

using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
