#pragma once
/// @file dsl.h
/// rooflint's spec language: state what a CUDA kernel computes (tensor shapes, dtypes, roles, the
/// operation), checked at compile time against the kernel's signature. Header-only C++20; no CUDA,
/// no LLVM. See kernel.h for an example.

#include "rooflint/dsl/dim.h"
#include "rooflint/dsl/dtype.h"
#include "rooflint/dsl/kernel.h"
#include "rooflint/dsl/operation.h"
#include "rooflint/dsl/poly.h"
#include "rooflint/dsl/spec.h"
#include "rooflint/dsl/tensor.h"
#include "rooflint/dsl/tensor_concepts.h"
#include "rooflint/model.h"
