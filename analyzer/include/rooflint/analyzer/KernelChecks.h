#pragma once
/// @file KernelChecks.h
/// Checks of a kernel's declaration and body: the spec's binding (parameter names, uncovered pointer
/// parameters, read-only tensors written) and global-memory accesses that are not unit-stride in
/// threadIdx.x (rooflint-uncoalesced).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::analyzer {

/// Checks that the parameter names @p Spec mentions match @p Kernel's, that every pointer parameter
/// is covered by a tensor or uncounted<>, and that no read-only tensor is written in the body.
void checkBinding(const dsl::spec &Spec, const clang::FunctionDecl &Kernel, const clang::VarDecl &SpecVar,
                  Reporter &Report);

/// A linear coefficient: sum of integer * product(symbols). Empty is zero.
using SymbolicCoefficient = std::map<std::vector<std::string>, std::int64_t>;

/// @return The coefficient of threadIdx.x in @p Index inside @p Body when @p Index is linear in it,
/// nullopt when it is not linear (or the analysis cannot tell).
std::optional<SymbolicCoefficient> threadIdxXCoefficient(const clang::Expr *Index, const clang::Stmt *Body,
                                                         clang::ASTContext &Ctx);

/// @return The coefficient as written in a message ("n", "33", "2*n + 1").
std::string toString(const SymbolicCoefficient &C);

/// Sectors of 32 bytes a warp of 32 lanes touches when lane i reads element i*Stride of
/// @p ElementBytes bytes (aligned start). See docs/diagnostics/rooflint-uncoalesced.md.
std::int64_t sectorsPerWarp(std::int64_t Stride, std::int64_t ElementBytes);

/// Reports global-memory accesses through pointer parameters of @p Kernel whose index is not
/// unit-stride in threadIdx.x, with the traffic amplification they imply.
void checkCoalescing(const clang::FunctionDecl &Kernel, Reporter &Report);

}  // namespace rooflint::analyzer
