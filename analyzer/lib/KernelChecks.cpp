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

bool isThreadIdxX(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) E = POE->getSyntacticForm()->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  llvm::StringRef Member;
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {  // CUDA's threadIdx.x is an MS property
    Base = MP->getBaseExpr();
    Member = MP->getPropertyDecl()->getName();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {  // a plain struct (mocks, HIP-like headers)
    Base = ME->getBase();
    if (const auto *ND = ME->getMemberDecl(); ND && ND->getIdentifier()) Member = ND->getName();
  } else {
    return false;
  }
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base); OVE && OVE->getSourceExpr())  // a pseudo-object's base
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  return DRE && DRE->getDecl()->getIdentifier() && DRE->getDecl()->getName() == spelling::ThreadIdx &&
         Member == spelling::LaneX;
}

/// An update of a local variable after its declaration: `V op= Value` (Value null for ++/--; op BO_Comma
/// when the variable's address escapes).
struct Update {
  BinaryOperatorKind Op;
  const Expr *Value;
};

/// The linear analysis of index expressions (see threadIdxXCoefficient).
///
/// Every variable and expression is evaluated once (memoised): index variables that form a chain, each
/// used several times by the next (`a1 = (a0 + a0) + (a0 + a0); a2 = (a1 + a1) + ...`), made the
/// recursive evaluation exponential (issue 13: 11 links took 62 s). Local variables are evaluated in declaration
/// order first, so a chain is followed link by link instead of recursively. Each step (a node visited,
/// a product term built) counts against a budget; once it is spent every answer is "cannot tell".
/// Coefficients are 64-bit and combined with checked arithmetic: one that overflows is not linear in
/// 64 bits and is "cannot tell" too.
class Linear {
public:
  Linear(const Stmt *Body, ASTContext &Ctx, std::uint64_t Budget) : Ctx(Ctx), Budget(Budget) {
    // Local variables that are assigned after their declaration, with every value they take.
    struct Collector : RecursiveASTVisitor<Collector> {
      std::map<const VarDecl *, std::vector<Update>> Assigned;
      std::vector<const VarDecl *> Locals;  // in declaration order
      static const VarDecl *local(const Expr *E) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->hasLocalStorage()) return V;
        return nullptr;
      }
      bool VisitVarDecl(VarDecl *V) {
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V)) Locals.push_back(V);
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (!BO->isAssignmentOp()) return true;
        if (const VarDecl *V = local(BO->getLHS()))
          Assigned[V].push_back({BO->getOpcode(), BO->getRHS()});
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *UO) {
        if (UO->isIncrementDecrementOp())
          if (const VarDecl *V = local(UO->getSubExpr())) Assigned[V].push_back({BO_AddAssign, nullptr});  // i++: i += 1
        return true;
      }
      bool VisitUnaryAddrOf(UnaryOperator *UO) {
        if (const VarDecl *V = local(UO->getSubExpr())) Assigned[V].push_back({BO_Comma, UO});  // escapes: unknown
        return true;
      }
    } C;
    C.TraverseStmt(const_cast<Stmt *>(Body));
    Assigned = std::move(C.Assigned);
    Locals = std::move(C.Locals);
  }

  /// The coefficient of threadIdx.x in @p E, or nullopt when it is not linear (or cannot be told).
  std::optional<SymbolicCoefficient> coefficient(const Expr *E) {
    if (!LocalsEvaluated) {
      LocalsEvaluated = true;
      for (const VarDecl *V : Locals) {
        std::optional<std::int64_t> Saved = WalkStep;
        variable(V, 0);
        WalkStep = Saved;  // a variable's own walk step counts only where an index uses it
      }
    }
    return coefficient(E, 0);
  }

  std::uint64_t visits() const { return Visits; }
  bool exhausted() const { return Exhausted; }

  /// Set by coefficient() when the index goes through a counter advanced by constant steps (a lane
  /// walking its own chunk: `for (j = 4 * i; j < n; ++j)`): the smallest step.
  std::optional<std::int64_t> WalkStep;

private:
  /// A memoised answer: the coefficient, and the walk step its evaluation found.
  struct Memo {
    std::optional<SymbolicCoefficient> Value;
    std::optional<std::int64_t> Step;
    bool InProgress = false;
  };

  /// Counts one step; @return false once the budget is spent.
  bool step(std::uint64_t N = 1) {
    if (Exhausted) return false;
    if (Budget - Visits < N) {
      Visits = Budget;
      Exhausted = true;
      return false;
    }
    Visits += N;
    return true;
  }

  void mergeStep(std::optional<std::int64_t> S) {
    if (S && (!WalkStep || *S < *WalkStep)) WalkStep = S;
  }

  static std::optional<SymbolicCoefficient> add(SymbolicCoefficient A, const SymbolicCoefficient &B,
                                                std::int64_t Sign = 1) {
    return addCoefficients(std::move(A), B, Sign);
  }

  /// A * B within the budget (a term of k symbols costs 1 + k steps).
  std::optional<SymbolicCoefficient> multiply(const std::optional<SymbolicCoefficient> &A,
                                              const std::optional<SymbolicCoefficient> &B) {
    if (!A || !B) return std::nullopt;
    return multiplyCoefficients(*A, *B, [this](std::size_t Cost) { return step(Cost); });
  }

  static SymbolicCoefficient constant(std::int64_t C) { return constantCoefficient(C); }

  std::optional<SymbolicCoefficient> coefficient(const Expr *E, int Depth) {
    if (!E || Depth > MaxDepth || !step()) return std::nullopt;
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) return variable(DRE->getDecl(), Depth);  // memoised there
    if (auto It = Memos.find(E); It != Memos.end()) {
      mergeStep(It->second.Step);
      return It->second.Value;
    }
    const std::optional<std::int64_t> Outer = WalkStep;
    WalkStep.reset();
    std::optional<SymbolicCoefficient> Value = evaluate(E, Depth);
    if (Exhausted) return std::nullopt;  // an answer cut short by the budget is not kept
    Memos[E] = {Value, WalkStep};
    const std::optional<std::int64_t> Inner = WalkStep;
    WalkStep = Outer;
    mergeStep(Inner);
    return Value;
  }

  std::optional<SymbolicCoefficient> evaluate(const Expr *E, int Depth) {
    if (isThreadIdxX(E)) return constant(1);
    if (E->isValueDependent() || E->isTypeDependent()) return std::nullopt;
    if (E->isIntegerConstantExpr(Ctx)) return SymbolicCoefficient{};
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      auto L = coefficient(BO->getLHS(), Depth + 1);
      auto R = coefficient(BO->getRHS(), Depth + 1);
      switch (BO->getOpcode()) {
      case BO_Add:
      case BO_Sub:
        if (!L || !R) return std::nullopt;
        return add(std::move(*L), *R, BO->getOpcode() == BO_Sub ? -1 : 1);
      case BO_Mul:
        if (!L || !R) return std::nullopt;
        if (L->empty()) return multiply(R, value(BO->getLHS(), Depth + 1));
        if (R->empty()) return multiply(L, value(BO->getRHS(), Depth + 1));
        return std::nullopt;  // threadIdx.x * threadIdx.x: not linear
      case BO_Shl:
        if (L && R && R->empty())
          if (auto Shift = BO->getRHS()->getIntegerConstantExpr(Ctx); Shift && *Shift >= 0 && *Shift < 32)
            return multiply(L, constant(std::int64_t{1} << Shift->getExtValue()));
        return std::nullopt;
      case BO_Comma:
        return R;
      default:  // / % >> & | ^ comparisons: linear only when neither side depends on threadIdx.x
        if (L && R && L->empty() && R->empty()) return SymbolicCoefficient{};
        return std::nullopt;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      auto S = coefficient(UO->getSubExpr(), Depth + 1);
      if (!S) return std::nullopt;
      if (UO->getOpcode() == UO_Minus) return multiply(S, constant(-1));
      if (UO->getOpcode() == UO_Plus) return S;
      if (S->empty()) return S;
      return std::nullopt;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      auto T = coefficient(CO->getTrueExpr(), Depth + 1), F = coefficient(CO->getFalseExpr(), Depth + 1);
      if (T && F && *T == *F) return T;
      return std::nullopt;
    }
    if (isa<MemberExpr, MSPropertyRefExpr, PseudoObjectExpr>(E)) {
      // blockIdx.x, blockDim.x, threadIdx.y, s.field: not threadIdx.x; anything that contains it is unknown.
      const std::optional<bool> Contains = containsThreadIdxX(E, Depth);
      if (!Contains || *Contains) return std::nullopt;
      return SymbolicCoefficient{};
    }
    // Calls and anything else: uniform across the warp only when no operand depends on threadIdx.x.
    for (const Stmt *Child : E->children()) {
      const auto *CE = dyn_cast_or_null<Expr>(Child);
      if (!CE) continue;
      auto C = coefficient(CE, Depth + 1);
      if (!C || !C->empty()) return std::nullopt;
    }
    return SymbolicCoefficient{};
  }

  /// @return Whether @p S contains threadIdx.x; nullopt when the budget or the depth ran out.
  std::optional<bool> containsThreadIdxX(const Stmt *S, int Depth) {
    if (!S) return false;
    if (Depth > MaxDepth || !step()) return std::nullopt;
    if (const auto *E = dyn_cast<Expr>(S); E && isThreadIdxX(E)) return true;
    for (const Stmt *C : S->children()) {
      const std::optional<bool> In = containsThreadIdxX(C, Depth + 1);
      if (!In || *In) return In;
    }
    return false;
  }

  std::optional<SymbolicCoefficient> variable(const ValueDecl *D, int Depth) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage()) return SymbolicCoefficient{};  // uniform
    if (auto It = VarMemos.find(V); It != VarMemos.end()) {
      if (It->second.InProgress) return std::nullopt;  // `i = i + 1`, `i = j; j = i`: cannot tell
      mergeStep(It->second.Step);
      return It->second.Value;
    }
    VarMemos[V].InProgress = true;
    const std::optional<std::int64_t> Outer = WalkStep;
    WalkStep.reset();
    std::optional<SymbolicCoefficient> Value = evaluateVariable(V, Depth);
    if (Exhausted) return std::nullopt;
    VarMemos[V] = {Value, WalkStep, false};
    const std::optional<std::int64_t> Inner = WalkStep;
    WalkStep = Outer;
    mergeStep(Inner);
    return Value;
  }

  std::optional<SymbolicCoefficient> evaluateVariable(const VarDecl *V, int Depth) {
    std::optional<SymbolicCoefficient> C =
        V->getInit() ? coefficient(V->getInit(), Depth + 1) : std::optional<SymbolicCoefficient>(SymbolicCoefficient{});
    auto It = Assigned.find(V);
    if (It == Assigned.end()) return C;
    // Reassigned (a loop counter, a grid-stride index): the coefficient is known when every update keeps
    // it: `v += u` / `v -= u` / `++v` with u uniform across the warp, or `v = e` with e of the same coefficient.
    if (!C) return std::nullopt;
    std::optional<std::int64_t> Step;  // a counter advanced by constants only: the smallest |step|
    bool ConstantSteps = true;
    for (const Update &U : It->second) {
      std::int64_t S = 1;
      if (U.Value) {
        std::optional<llvm::APSInt> K = U.Value->getIntegerConstantExpr(Ctx);
        std::optional<std::int64_t> K64 = K ? K->tryExtValue() : std::nullopt;
        if (K64 && *K64 != std::numeric_limits<std::int64_t>::min()) S = *K64;
        else ConstantSteps = false;
      }
      if (U.Op != BO_AddAssign && U.Op != BO_SubAssign) ConstantSteps = false;
      S = S < 0 ? -S : S;
      if (S > 0 && (!Step || S < *Step)) Step = S;
    }
    if (ConstantSteps && Step) mergeStep(Step);
    for (const Update &U : It->second) {
      if (U.Op == BO_Comma) return std::nullopt;
      if (!U.Value) continue;
      auto VC = coefficient(U.Value, Depth + 1);
      if (!VC) return std::nullopt;
      if (U.Op == BO_AddAssign || U.Op == BO_SubAssign) {
        if (!VC->empty()) return std::nullopt;
      } else if (U.Op == BO_Assign) {
        if (*VC != *C) return std::nullopt;
      } else if (!(C->empty() && VC->empty())) {  // *=, <<=, ...: only a uniform variable stays uniform
        return std::nullopt;
      }
    }
    return C;
  }

  /// The value of a factor that does not depend on threadIdx.x: a constant, or symbols; nullopt when a
  /// constant does not fit in 64 bits, on overflow, or when the budget is spent.
  std::optional<SymbolicCoefficient> value(const Expr *E, int Depth) {
    if (Depth > MaxDepth || !step()) return std::nullopt;
    E = E->IgnoreParenCasts();
    if (auto C = E->getIntegerConstantExpr(Ctx)) {
      if (std::optional<std::int64_t> V = C->tryExtValue()) return constant(*V);
      return std::nullopt;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) return SymbolicCoefficient{{{DRE->getDecl()->getNameAsString()}, 1}};
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Mul) return multiply(value(BO->getLHS(), Depth + 1), value(BO->getRHS(), Depth + 1));
      if (BO->isAdditiveOp()) {
        std::optional<SymbolicCoefficient> L = value(BO->getLHS(), Depth + 1);
        std::optional<SymbolicCoefficient> R = value(BO->getRHS(), Depth + 1);
        if (!L || !R) return std::nullopt;
        return add(std::move(*L), *R, BO->getOpcode() == BO_Sub ? -1 : 1);
      }
    }
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Text =
        Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts()).str();
    return SymbolicCoefficient{{{Text.empty() ? "?" : Text}, 1}};
  }

  /// Deeper expressions are "cannot tell": the recursion stays far from the stack's end.
  static constexpr int MaxDepth = 64;

  ASTContext &Ctx;
  std::map<const VarDecl *, std::vector<Update>> Assigned;
  std::vector<const VarDecl *> Locals;
  bool LocalsEvaluated = false;
  std::map<const Expr *, Memo> Memos;
  std::map<const VarDecl *, Memo> VarMemos;
  std::uint64_t Budget;
  std::uint64_t Visits = 0;
  bool Exhausted = false;
};

class AccessFinder : public RecursiveASTVisitor<AccessFinder> {
public:
  struct Access {
    const ParmVarDecl *Param;
    const Expr *Where;
    const Expr *Index;
  };
  std::vector<Access> Accesses;

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    const Expr *Index = nullptr;
    if (const ParmVarDecl *P = accessedParam(AS, &Index); P && Index) Accesses.push_back({P, AS, Index});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    const Expr *Index = nullptr;
    if (UO->getOpcode() == UO_Deref)
      if (const ParmVarDecl *P = accessedParam(UO, &Index); P && Index) Accesses.push_back({P, UO, Index});
    return true;
  }
};

std::string quoted(llvm::StringRef S) { return "'" + S.str() + "'"; }

}  // namespace


std::optional<SymbolicCoefficient> threadIdxXCoefficient(const Expr *Index, const Stmt *Body, ASTContext &Ctx,
                                                         CoalescingStats *Stats, std::uint64_t Budget) {
  Linear L(Body, Ctx, Budget);
  std::optional<SymbolicCoefficient> C = L.coefficient(Index);
  if (Stats) *Stats = {L.visits(), L.exhausted()};
  return C;
}

// The sector rule (docs/diagnostics/rooflint-uncoalesced.md): global memory moves in 32-byte sectors.
// A warp whose lane i touches element i*S (E bytes each, aligned start) spans 32*|S|*E bytes.
//  - |S|*E >= 32: every lane has sectors of its own: 32 * ceil(E/32) sectors.
//  - otherwise the gaps are under a sector, so every sector of the span is touched: 32*|S|*E / 32 = |S|*E.
// The ideal (unit stride) is ceil(32*E / 32) sectors; amplification = sectors / ideal. Floats at
// stride >= 8 move 8x the bytes they use. DRAM may move more (64-byte granularity on H100/H200).
// When the last lane's byte offset 31*|S|*E does not fit in 64 bits the addresses wrap and the count
// means nothing: nullopt.
std::optional<std::int64_t> sectorsPerWarp(std::int64_t Stride, std::int64_t ElementBytes) {
  if (ElementBytes <= 0 || Stride == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
  const std::int64_t S = Stride < 0 ? -Stride : Stride;
  const std::int64_t SectorsPerElement = ElementBytes / 32 + (ElementBytes % 32 != 0);  // ceil(E/32)
  const std::optional<std::int64_t> Gap = llvm::checkedMul(S, ElementBytes);
  if (!Gap || !llvm::checkedMul(*Gap, std::int64_t{31})) return std::nullopt;
  if (S == 0) return SectorsPerElement;
  if (*Gap >= 32) return llvm::checkedMul(SectorsPerElement, std::int64_t{32});
  return *Gap;
}

CoalescingStats checkCoalescing(const FunctionDecl &Kernel, Reporter &Report, std::uint64_t Budget) {
  const Stmt *Body = Kernel.getBody();
  if (!Body) return {};
  ASTContext &Ctx = Kernel.getASTContext();
  AccessFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  Linear L(Body, Ctx, Budget);
  std::set<std::pair<const ParmVarDecl *, unsigned>> Seen;
  for (const AccessFinder::Access &A : Finder.Accesses) {
    QualType Element = A.Param->getType()->getPointeeType();
    if (Element.isNull() || Element->isIncompleteType() || Element->isDependentType()) continue;
    const std::int64_t E = Ctx.getTypeSizeInChars(Element).getQuantity();
    if (E <= 0) continue;
    L.WalkStep.reset();
    std::optional<SymbolicCoefficient> C = L.coefficient(A.Index);
    if (L.exhausted()) {
      Report.remark(DiagKind::Uncoalesced, Kernel.getLocation(),
                    "the uncoalesced check of kernel " + quoted(Kernel.getName()) + " stopped after " +
                        std::to_string(L.visits()) +
                        " steps (the analysis budget of a kernel); its remaining accesses are not checked");
      break;
    }
    if (!C || C->empty()) continue;  // not linear (cannot tell) or the same element for the whole warp
    const bool Constant = C->size() == 1 && C->begin()->first.empty();
    const std::int64_t Stride = Constant ? C->begin()->second : 0;
    if (Constant && (Stride == 1 || Stride == -1)) continue;
    // A lane walking its own chunk of |Stride| elements (at most a 128-byte line) in steps smaller than
    // the chunk: the warp's later iterations use the rest of the sectors it fetched, so the traffic is
    // not amplified (a vectorised kernel's scalar tail loop).
    if (Constant && L.WalkStep && Stride != std::numeric_limits<std::int64_t>::min()) {
      const std::int64_t AbsStride = Stride < 0 ? -Stride : Stride;
      const std::optional<std::int64_t> Chunk = llvm::checkedMul(AbsStride, E);
      if (*L.WalkStep < AbsStride && Chunk && *Chunk <= 128) continue;
    }
    const SourceLocation Loc = A.Where->getExprLoc();
    if (!Seen.insert({A.Param, Loc.getRawEncoding()}).second) continue;
    const std::optional<std::int64_t> Ideal = sectorsPerWarp(1, E);
    const std::string Bytes = std::to_string(E) + (E == 1 ? " byte" : " bytes");
    std::string Message = "access through " + quoted(A.Param->getName()) + " is not unit-stride in 'threadIdx.x'; ";
    const std::string Unknown = ": the warp's byte offsets overflow 64 bits, so its traffic is unknown";
    if (Constant) {
      const std::optional<std::int64_t> Sectors = sectorsPerWarp(Stride, E);
      const std::optional<std::int64_t> Moved = Sectors ? llvm::checkedMul(*Sectors, std::int64_t{32}) : std::nullopt;
      const std::optional<std::int64_t> Used = llvm::checkedMul(E, std::int64_t{32});
      Message += "stride " + std::to_string(Stride) + " elements of " + Bytes;
      if (Ideal && Moved && Used)
        Message += ": a warp moves " + std::to_string(*Moved) + " bytes in " + std::to_string(*Sectors) +
                   " sectors for " + std::to_string(*Used) + " bytes used (" +
                   model::format_significant(double(*Sectors) / double(*Ideal)) + "x the traffic)";
      else
        Message += Unknown;
    } else {
      const std::optional<std::int64_t> Worst = sectorsPerWarp(32, E);
      const std::int64_t From = E >= 32 ? 1 : (32 + E - 1) / E;  // the smallest stride with a sector per lane
      Message += "stride " + quoted(toString(*C)) + " elements of " + Bytes;
      if (Ideal && Worst)
        Message += ": a warp moves up to " + model::format_significant(double(*Worst) / double(*Ideal)) +
                   "x the traffic it uses (" + std::to_string(*Worst) + " sectors instead of " +
                   std::to_string(*Ideal) + " when " + quoted(toString(*C)) + " >= " + std::to_string(From) + ")";
      else
        Message += Unknown;
    }
    if (Report.report(DiagKind::Uncoalesced, Loc, Message, A.Index->getSourceRange()))
      Report.note(A.Index->getBeginLoc(), "the index's coefficient of 'threadIdx.x' is " + quoted(toString(*C)) +
                                             "; consecutive lanes should touch consecutive elements");
  }
  return {L.visits(), L.exhausted()};
}

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
