#pragma once
/// @file dsl.h
/// rooflint's spec language: state what a CUDA kernel computes (tensor shapes, dtypes, roles, the
/// operation), checked at compile time against the kernel's signature. Header-only C++20; no CUDA,
/// no LLVM. See kernel.h for an example.

// C++20 first, so that an older dialect gives this one message instead of pages of errors from the
// headers below (under C++17 the first is `std::span` unknown). MSVC keeps __cplusplus at 199711L
// unless /Zc:__cplusplus is given; _MSVC_LANG carries its dialect.
#if defined(_MSVC_LANG) && _MSVC_LANG > __cplusplus
#define ROOFLINT_DETAIL_CPLUSPLUS _MSVC_LANG
#else
#define ROOFLINT_DETAIL_CPLUSPLUS __cplusplus
#endif
#if ROOFLINT_DETAIL_CPLUSPLUS < 202002L
#undef ROOFLINT_DETAIL_CPLUSPLUS
#error "rooflint: rooflint/dsl.h needs C++20 (-std=c++20; nvcc: -std=c++20; CMake: link rooflint::dsl, which requires cxx_std_20 and cuda_std_20)"
#else
#undef ROOFLINT_DETAIL_CPLUSPLUS

#include "rooflint/dsl/dim.h"
#include "rooflint/dsl/dtype.h"
#include "rooflint/dsl/kernel.h"
#include "rooflint/dsl/operation.h"
#include "rooflint/dsl/poly.h"
#include "rooflint/dsl/region.h"
#include "rooflint/dsl/spec.h"
#include "rooflint/dsl/tensor.h"
#include "rooflint/dsl/tensor_concepts.h"
#include "rooflint/model.h"

#endif  // C++20
