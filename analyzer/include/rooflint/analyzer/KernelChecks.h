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
#include "rooflint/analyzer/Coefficient.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::analyzer {

/// Checks that the parameter names @p Spec mentions match @p Kernel's, that every pointer parameter
/// is covered by a tensor or uncounted<>, and that no read-only tensor is written in the body.
void checkBinding(const dsl::spec &Spec, const clang::FunctionDecl &Kernel, const clang::VarDecl &SpecVar,
                  Reporter &Report);

/// The steps (nodes visited, product terms built) the uncoalesced check may take per kernel. Memoised,
/// a kernel costs about one step per node of its index expressions and their variables' initializers
/// (a 30-link index chain: about 250); the budget stops hostile input (a product of 20 sums of
/// distinct symbols expands to 2^20 terms) in well under a second.
inline constexpr std::uint64_t DefaultVisitBudget = 200000;

/// What the uncoalesced check of one kernel cost.
struct CoalescingStats {
  std::uint64_t Visits = 0;  ///< steps taken
  bool Exhausted = false;    ///< the budget ran out (the check stopped with a remark)
};

/// @return The coefficient of threadIdx.x in @p Index inside @p Body when @p Index is linear in it,
/// nullopt when it is not linear (or the analysis cannot tell: a coefficient that overflows 64 bits,
/// a spent budget). @p Stats, when given, receives the cost.
std::optional<SymbolicCoefficient> threadIdxXCoefficient(const clang::Expr *Index, const clang::Stmt *Body,
                                                         clang::ASTContext &Ctx, CoalescingStats *Stats = nullptr,
                                                         std::uint64_t Budget = DefaultVisitBudget);

/// Sectors of 32 bytes a warp of 32 lanes touches when lane i reads element i*Stride of
/// @p ElementBytes bytes (aligned start), or nullopt when the last lane's byte offset does not fit in
/// 64 bits (the count would mean nothing). See docs/diagnostics/rooflint-uncoalesced.md.
std::optional<std::int64_t> sectorsPerWarp(std::int64_t Stride, std::int64_t ElementBytes);

/// Reports global-memory accesses through pointer parameters of @p Kernel whose index is not
/// unit-stride in threadIdx.x, with the traffic amplification they imply. Stops with a remark when
/// @p Budget steps are spent; @return what it cost.
CoalescingStats checkCoalescing(const clang::FunctionDecl &Kernel, Reporter &Report,
                                std::uint64_t Budget = DefaultVisitBudget);

}  // namespace rooflint::analyzer
