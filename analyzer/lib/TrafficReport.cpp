// Reporting the device-side traffic analysis (Traffic.h) at the user's source lines.

#include <set>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "rooflint/analyzer/Traffic.h"

using namespace clang;

namespace rooflint::analyzer {
namespace {

/// The host AST's location of a device-side debug location (the same file, parsed once).
SourceLocation locationOf(const SourceManager &SM, const std::string &File, unsigned Line, unsigned Column) {
  if (File.empty() || Line == 0) return {};
  auto FE = SM.getFileManager().getOptionalFileRef(File);
  if (!FE) return {};
  return SM.translateFileLineCol(*FE, Line, Column == 0 ? 1 : Column);
}

/// The left-hand side of the assignment whose operator is at @p Loc (a store's debug location is its
/// '='): the diagnostic points at the access, as for loads.
class AssignmentFinder : public RecursiveASTVisitor<AssignmentFinder> {
public:
  explicit AssignmentFinder(SourceLocation Loc) : Loc(Loc) {}
  const Expr *Lhs = nullptr;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && BO->getOperatorLoc() == Loc) Lhs = BO->getLHS();
    return !Lhs;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *CE) {
    if (CE->isAssignmentOp() && CE->getOperatorLoc() == Loc && CE->getNumArgs() > 0) Lhs = CE->getArg(0);
    return !Lhs;
  }

private:
  SourceLocation Loc;
};

}  // namespace

void reportTraffic(const KernelTraffic &T, const FunctionDecl &Kernel, Reporter &Report) {
  const SourceManager &SM = Kernel.getASTContext().getSourceManager();
  std::string Instantiation;
  if (Kernel.isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Instantiation);
    Kernel.getNameForDiagnostic(OS, Kernel.getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  }
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;
  for (const TrafficAccess &A : T.Accesses) {
    const std::string Message = uncoalescedMessage(A);
    if (Message.empty()) continue;
    const SourceLocation Loc = locationOf(SM, A.File, A.Line, A.Column);
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc)) continue;
    if (!Seen.insert({A.Line, A.Column, Message}).second) continue;
    SourceLocation At = Loc;
    SourceRange Range;
    if (A.Store && Kernel.getBody()) {
      AssignmentFinder Finder(Loc);
      Finder.TraverseStmt(Kernel.getBody());
      if (Finder.Lhs) {
        At = Finder.Lhs->getExprLoc();
        Range = Finder.Lhs->getSourceRange();
      }
    }
    if (!Report.report(DiagKind::Uncoalesced, At, Message, Range)) continue;
    if (A.Pattern == LanePattern::Affine || A.Pattern == LanePattern::Symbolic)
      Report.note(At, "the index's coefficient of 'threadIdx.x' is '" + A.LaneCoefficient +
                           "'; consecutive lanes should touch consecutive elements");
    if (!Instantiation.empty()) Report.note(Kernel.getLocation(), "in instantiation '" + Instantiation + "'");
  }
}

}  // namespace rooflint::analyzer
