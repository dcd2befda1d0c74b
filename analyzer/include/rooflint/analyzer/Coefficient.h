#pragma once
/// @file Coefficient.h
/// A coefficient over named symbols, sum of integer * product(symbols): the stride of an index in
/// threadIdx.x as both the AST check (KernelChecks) and the device-side analysis (Traffic) compute it.
/// Every operation returns nullopt where a 64-bit coefficient would overflow.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"

namespace rooflint::analyzer {

/// Product of symbols (sorted) -> integer factor; no zero factors. Empty is zero.
using SymbolicCoefficient = std::map<std::vector<std::string>, std::int64_t>;

/// @p C as a coefficient (empty for 0).
SymbolicCoefficient constantCoefficient(std::int64_t C);

/// A + Sign * B.
std::optional<SymbolicCoefficient> addCoefficients(SymbolicCoefficient A, const SymbolicCoefficient &B,
                                                   std::int64_t Sign = 1);

/// A * B. @p Step, when given, is asked before each product term with its cost (1 + its symbols:
/// building it copies and sorts them); false stops the product (a budget spent).
std::optional<SymbolicCoefficient> multiplyCoefficients(const SymbolicCoefficient &A, const SymbolicCoefficient &B,
                                                        llvm::function_ref<bool(std::size_t)> Step = nullptr);

/// True for 0 and for a coefficient without symbols.
bool isConstant(const SymbolicCoefficient &C);
/// The constant term's factor (0 when none).
std::int64_t constantTerm(const SymbolicCoefficient &C);

/// The coefficient as written in a message ("n", "33", "2*n + 1").
std::string toString(const SymbolicCoefficient &C);

}  // namespace rooflint::analyzer
