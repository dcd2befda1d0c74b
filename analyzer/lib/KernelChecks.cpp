#include "rooflint/analyzer/KernelChecks.h"

#include <algorithm>
#include <limits>
#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "rooflint/analyzer/DslSpellings.h"
#include "rooflint/model/describe.h"

using namespace clang;

namespace rooflint::analyzer {
namespace {

/// The pointer parameter an access goes through: p[i], *(p + i), p[i].x; null for anything else.
const ParmVarDecl *accessedParam(const Expr *E, const Expr **Index = nullptr) {
  if (Index) *Index = nullptr;
  for (int Guard = 0; E && Guard < 16; ++Guard) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase();
      continue;
    }
    const Expr *Base = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      Base = AS->getBase();
      if (Index) *Index = AS->getIdx();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
      Base = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(Base); BO && BO->isAdditiveOp()) {
        const bool LhsPtr = BO->getLHS()->getType()->isPointerType();
        if (Index && BO->getOpcode() == BO_Add) *Index = LhsPtr ? BO->getRHS() : BO->getLHS();
        Base = LhsPtr ? BO->getLHS() : BO->getRHS();
      } else if (Index) {
        *Index = nullptr;  // *p: element 0, the same for every lane
      }
    } else {
      return nullptr;
    }
    Base = Base->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()); P && P->getType()->isPointerType()) return P;
    return nullptr;
  }
  return nullptr;
}

/// Writes through a parameter: assignments, ++/--, atomics (atomicAdd(&p[i], v)).
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  std::vector<std::pair<const ParmVarDecl *, const Expr *>> Writes;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) record(BO->getLHS(), BO);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) record(UO->getSubExpr(), UO);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *CE) {
    if (CE->isAssignmentOp() && CE->getNumArgs() > 0) record(CE->getArg(0), CE);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier() || !F->getName().starts_with("atomic") || CE->getNumArgs() == 0) return true;
    const Expr *Target = CE->getArg(0)->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Target); UO && UO->getOpcode() == UO_AddrOf) {
      record(UO->getSubExpr(), CE);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Target); BO && BO->isAdditiveOp()) {
      const Expr *P = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(P->IgnoreParenImpCasts()))
        if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl())) Writes.push_back({PV, CE});
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(Target)) {
      if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl())) Writes.push_back({PV, CE});
    }
    return true;
  }

private:
  void record(const Expr *Target, const Expr *Where) {
    if (const ParmVarDecl *P = accessedParam(Target)) Writes.push_back({P, Where});
  }
};

std::string quoted(llvm::StringRef S) { return "'" + S.str() + "'"; }

}  // namespace

namespace {

/// The name a parameter or tensor stands for, without the decorations kernel code adds to it: leading
/// and trailing underscores (`C_`, `_x`), a device or pointer prefix (`d_x`, `dev_x`, `p_x`, `g_x`) or
/// suffix (`x_ptr`, `xPtr`, `x_d`, `x_dev`, `x_gpu`, `x_buf`), in lower case. A bare `d` + name (`dout`) is
/// left alone: kernels of backward passes use it for a gradient, which is another tensor.
std::string stemOf(llvm::StringRef Name) {
  Name = Name.trim('_');
  for (llvm::StringRef Prefix : {"dev_", "d_", "p_", "g_"})
    if (Name.size() > Prefix.size() && Name.starts_with_insensitive(Prefix)) {
      Name = Name.drop_front(Prefix.size());
      break;
    }
  for (llvm::StringRef Suffix : {"_ptr", "Ptr", "_dev", "_gpu", "_buf", "_d", "_p"})
    if (Name.size() > Suffix.size() && Name.ends_with(Suffix)) {
      Name = Name.drop_back(Suffix.size());
      break;
    }
  return Name.trim('_').lower();
}

/// Whether @p Param is a usual spelling of the tensor name @p Tensor: the same stem (`C_`, `d_C`, `c_ptr`
/// for "C"), or, where the tensor is named like one of the spec's dimensions (a GEMM's output "C" beside
/// the channel dimension `C`, which a parameter named `C` would shadow), that name with a one-letter
/// suffix (`Cm`). And the other way round: a parameter named like a dimension, the tensor with the suffix.
bool usualSpelling(llvm::StringRef Tensor, llvm::StringRef Param, const dsl::spec &Spec) {
  if (Tensor == Param || stemOf(Tensor) == stemOf(Param)) return true;
  const auto isDim = [&](llvm::StringRef Name) { return Spec.dim_index(dsl::name_t(std::string_view(Name))) >= 0; };
  const auto suffixed = [&](llvm::StringRef Short, llvm::StringRef Long) {
    return isDim(Short) && Long.size() == Short.size() + 1 && Long.starts_with(Short) && llvm::isLower(Long.back());
  };
  return suffixed(Tensor, Param) || suffixed(Param, Tensor);
}

}  // namespace

void checkBinding(const dsl::spec &Spec, const FunctionDecl &Kernel, const VarDecl &SpecVar, Reporter &Report) {
  const FunctionDecl *Def = Kernel.getDefinition();
  const FunctionDecl &F = Def ? *Def : Kernel;
  const std::string KernelName = F.getNameAsString();
  const std::string SpecName = SpecVar.getNameAsString();
  const unsigned NumParams = F.getNumParams();

  for (const dsl::tensor_info &T : Spec.tensor_list()) {
    const std::string TensorName(T.name.view());
    if (T.arg < 0 || static_cast<unsigned>(T.arg) >= NumParams) {
      if (Report.report(DiagKind::ParamName, SpecVar.getLocation(),
                        "tensor " + quoted(TensorName) + " is bound to parameter " + std::to_string(T.arg) +
                            ", but kernel " + quoted(KernelName) + " has " + std::to_string(NumParams) +
                            " parameters"))
        Report.note(F.getLocation(), "kernel " + quoted(KernelName) + " is declared here");
      continue;
    }
    const ParmVarDecl *P = F.getParamDecl(T.arg);
    if (!P->getIdentifier() || P->getName().empty() || usualSpelling(TensorName, P->getName(), Spec)) continue;
    if (T.sliced) continue;  // a part of a shared buffer (packed Q, K, V) is named for its part, not the buffer
    if (Report.report(DiagKind::ParamName, SpecVar.getLocation(),
                      "tensor " + quoted(TensorName) + " is bound to parameter " + std::to_string(T.arg) + " of " +
                          quoted(KernelName) + ", which is named " + quoted(P->getName()) +
                          "; the spec and the kernel disagree on what the parameter is"))
      Report.note(P->getLocation(), "parameter " + quoted(P->getName()) + " is declared here");
  }

  for (unsigned I = 0; I < NumParams; ++I) {
    const ParmVarDecl *P = F.getParamDecl(I);
    if (!P->getType()->isPointerType()) continue;
    const bool Covered = std::any_of(Spec.tensor_list().begin(), Spec.tensor_list().end(),
                                     [&](const dsl::tensor_info &T) { return T.arg == static_cast<int>(I); });
    if (Covered) continue;
    const std::string Name = P->getName().empty() ? "#" + std::to_string(I) : P->getNameAsString();
    const std::string Index = std::to_string(I);
    if (Report.report(DiagKind::UncoveredParam, P->getLocation(),
                      "pointer parameter " + quoted(Name) + " of kernel " + quoted(KernelName) +
                          " is not covered by spec " + quoted(SpecName) + "; its traffic is not counted"))
      Report.note(SpecVar.getLocation(), "bind it as a tensor (in<" + Index + ">, out<" + Index + ">, inout<" + Index +
                                             ">) or mark it uncounted<" + Index + ">(\"" + Name + "\") in the spec");
  }

  if (!F.getBody()) return;
  WriteFinder Writes;
  Writes.TraverseStmt(F.getBody());
  std::set<const ParmVarDecl *> Reported;
  for (const auto &[P, Where] : Writes.Writes) {
    const unsigned Arg = P->getFunctionScopeIndex();
    for (const dsl::tensor_info &T : Spec.tensor_list()) {
      if (T.arg != static_cast<int>(Arg) || T.access != dsl::role::read || !Reported.insert(P).second) continue;
      if (Report.report(DiagKind::ReadOnlyWritten, Where->getExprLoc(),
                        "kernel " + quoted(KernelName) + " writes through " + quoted(P->getName()) + ", which spec " +
                            quoted(SpecName) + " declares read-only (tensor " + quoted(std::string(T.name.view())) +
                            "); its written bytes are not counted",
                        Where->getSourceRange()))
        Report.note(SpecVar.getLocation(), "declare it inout<" + std::to_string(Arg) + "> or out<" +
                                               std::to_string(Arg) + "> in the spec");
    }
  }
}

}  // namespace rooflint::analyzer
