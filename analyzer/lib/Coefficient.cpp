#include "rooflint/analyzer/Coefficient.h"

#include <algorithm>

#include "llvm/Support/CheckedArithmetic.h"

namespace rooflint::analyzer {

SymbolicCoefficient constantCoefficient(std::int64_t C) {
  return C == 0 ? SymbolicCoefficient{} : SymbolicCoefficient{{{}, C}};
}

std::optional<SymbolicCoefficient> addCoefficients(SymbolicCoefficient A, const SymbolicCoefficient &B,
                                                   std::int64_t Sign) {
  for (const auto &[Symbols, C] : B) {
    const std::optional<std::int64_t> Term = llvm::checkedMul(Sign, C);
    if (!Term) return std::nullopt;
    const std::optional<std::int64_t> Sum = llvm::checkedAdd(A[Symbols], *Term);
    if (!Sum) return std::nullopt;
    if (*Sum == 0) A.erase(Symbols);
    else A[Symbols] = *Sum;
  }
  return A;
}

std::optional<SymbolicCoefficient> multiplyCoefficients(const SymbolicCoefficient &A, const SymbolicCoefficient &B,
                                                        llvm::function_ref<bool(std::size_t)> Step) {
  SymbolicCoefficient Out;
  for (const auto &[SA, CA] : A)
    for (const auto &[SB, CB] : B) {
      if (Step && !Step(1 + SA.size() + SB.size())) return std::nullopt;
      const std::optional<std::int64_t> C = llvm::checkedMul(CA, CB);
      if (!C) return std::nullopt;
      std::vector<std::string> Symbols = SA;
      Symbols.insert(Symbols.end(), SB.begin(), SB.end());
      std::sort(Symbols.begin(), Symbols.end());
      auto Sum = addCoefficients(std::move(Out), SymbolicCoefficient{{Symbols, *C}});
      if (!Sum) return std::nullopt;
      Out = std::move(*Sum);
    }
  return Out;
}

bool isConstant(const SymbolicCoefficient &C) { return C.empty() || (C.size() == 1 && C.begin()->first.empty()); }

std::int64_t constantTerm(const SymbolicCoefficient &C) {
  const auto It = C.find({});
  return It == C.end() ? 0 : It->second;
}

std::string toString(const SymbolicCoefficient &C) {
  if (C.empty()) return "0";
  std::string S;
  // Highest degree first, so "2*n + 1".
  std::vector<std::pair<std::vector<std::string>, std::int64_t>> Terms(C.begin(), C.end());
  std::stable_sort(Terms.begin(), Terms.end(), [](const auto &A, const auto &B) { return A.first.size() > B.first.size(); });
  for (const auto &[Symbols, Coef] : Terms) {
    // The magnitude as unsigned: -INT64_MIN does not fit in int64_t.
    const std::uint64_t Abs = Coef < 0 ? 0 - static_cast<std::uint64_t>(Coef) : static_cast<std::uint64_t>(Coef);
    if (!S.empty()) S += Coef < 0 ? " - " : " + ";
    else if (Coef < 0) S += "-";
    std::string Product;
    for (const auto &Sym : Symbols) Product += (Product.empty() ? "" : "*") + Sym;
    if (Product.empty()) S += std::to_string(Abs);
    else S += (Abs == 1 ? "" : std::to_string(Abs) + "*") + Product;
  }
  return S;
}

}  // namespace rooflint::analyzer
