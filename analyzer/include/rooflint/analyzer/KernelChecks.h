#pragma once
/// @file KernelChecks.h
/// Checks of a kernel's declaration and body against its spec: parameter names, uncovered pointer
/// parameters, read-only tensors written. (How its accesses coalesce comes from the evaluation of its
/// device code: TrafficModel.h.)

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::analyzer {

/// Checks that the parameter names @p Spec mentions match @p Kernel's, that every pointer parameter
/// is covered by a tensor or uncounted<>, and that no read-only tensor is written in the body.
void checkBinding(const dsl::spec &Spec, const clang::FunctionDecl &Kernel, const clang::VarDecl &SpecVar,
                  Reporter &Report);

}  // namespace rooflint::analyzer
