// Reporting the device-side traffic analysis (Traffic.h) at the user's source lines.

#include <algorithm>
#include <set>
#include <tuple>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "rooflint/analyzer/Traffic.h"
#include "rooflint/model/describe.h"

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

std::string bytesText(std::int64_t B) {
  if (B >= 1024 * 1024) return model::format_significant(double(B) / (1024.0 * 1024.0)) + " MiB";
  if (B >= 1024) return model::format_significant(double(B) / 1024.0) + " KiB";
  return std::to_string(B) + " bytes";
}

/// The threads per block __launch_bounds__ states, or the assumed number.
int threadsPerBlock(const FunctionDecl &Kernel, bool &Assumed) {
  Assumed = true;
  if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>())
    if (const Expr *E = LB->getMaxThreads())
      if (auto V = E->getIntegerConstantExpr(Kernel.getASTContext()); V && *V > 0 && *V <= 1024) {
        Assumed = false;
        return static_cast<int>(V->getExtValue());
      }
  return AssumedThreadsPerBlock;
}

/// The rooflint-reread diagnostic of @p R: the layer condition at the spec's sizes when it gives the
/// tensor's rows, else the re-read alone.
void reportReRead(const ReRead &R, const KernelTraffic &T, const FunctionDecl &Kernel, Reporter &Report,
                  const KernelRecord *Record, SourceLocation Loc) {
  const std::string Times = std::to_string(R.Passes);
  std::string Head = "'" + R.Tensor + "' is read " + Times + " times by kernel '" + Kernel.getNameAsString() + "' (" +
                     Times + " loops over the same addresses)";
  const dsl::tensor_info *Tensor = nullptr;
  if (Record)
    for (const dsl::tensor_info &TI : Record->Spec.tensor_list())
      if (TI.arg == R.Param && TI.rank > 0) Tensor = &TI;
  if (!Tensor || !Record->Sized) {
    Report.report(DiagKind::ReRead, Loc, Head + "; whether the passes reach DRAM depends on the row's size, which no "
                                                "spec with sizes gives: up to " + Times + "x its compulsory reads");
    return;
  }
  const int Dim = Tensor->shape[Tensor->rank - 1];
  const std::string DimName(Record->Spec.dims[Dim].name.view());
  const std::int64_t Size = static_cast<std::int64_t>(Record->Sizes[Dim]);
  const std::int64_t E = static_cast<std::int64_t>(model::size_bytes(Tensor->dtype));
  bool Assumed = true;
  const int Threads = threadsPerBlock(Kernel, Assumed);
  const CacheLevels Levels;
  const LayerCondition C = layerCondition(R.Passes, Size * E, Threads, T.SharedBytes, Levels);
  std::string Message = Head + "; at " + DimName + " = " + std::to_string(Size) + " a row is " + bytesText(C.RowBytes) +
                        " and " + std::to_string(C.BlocksPerSm) + " blocks per SM (" + std::to_string(Threads) +
                        " threads a block" + (Assumed ? ", assumed" : "") + ") keep " + bytesText(C.SmWorkingSet) +
                        " between passes, ";
  if (C.FitsL1)
    Message += "within L1 (" + bytesText(C.L1Available) + " per SM): the passes cost 1x at L2 and DRAM";
  else if (C.FitsL2)
    Message += "over L1 (" + bytesText(C.L1Available) + " per SM) but within L2 (" + bytesText(Levels.L2Bytes) +
               " for " + std::to_string(Levels.Sms) + " SMs): " + Times + "x at L2, 1x at DRAM";
  else
    Message += "over L1 (" + bytesText(C.L1Available) + " per SM) and L2 (" + bytesText(Levels.L2Bytes) + " for " +
               std::to_string(Levels.Sms) + " SMs): the passes reach DRAM: " + Times + "x its compulsory reads";
  // The sizes where the passes stop fitting: rows of more than L1 / blocks, and L2 / (blocks * SMs), bytes.
  const std::int64_t FromL1 = C.L1Available / (std::int64_t(C.BlocksPerSm) * E) + 1;
  const std::int64_t FromL2 = Levels.L2Bytes / (std::int64_t(C.BlocksPerSm) * Levels.Sms * E) + 1;
  if (C.FitsL1) Message += "; from " + DimName + " = " + std::to_string(FromL1) + " " + Times + "x at L2, from " +
                           DimName + " = " + std::to_string(FromL2) + " " + Times + "x at DRAM";
  else if (C.FitsL2) Message += "; from " + DimName + " = " + std::to_string(FromL2) + " " + Times + "x at DRAM";
  if (C.FitsL1) Report.remark(DiagKind::ReRead, Loc, Message);
  else Report.report(DiagKind::ReRead, Loc, Message);
}

}  // namespace

void reportTraffic(const KernelTraffic &T, const FunctionDecl &Kernel, Reporter &Report, const KernelRecord *Record) {
  const SourceManager &SM = Kernel.getASTContext().getSourceManager();
  std::string Instantiation;
  if (Kernel.isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Instantiation);
    Kernel.getNameForDiagnostic(OS, Kernel.getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  }
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;
  std::vector<const TrafficAccess *> Ordered;
  for (const TrafficAccess &A : T.Accesses) Ordered.push_back(&A);
  std::stable_sort(Ordered.begin(), Ordered.end(), [](const TrafficAccess *X, const TrafficAccess *Y) {
    return std::tie(X->File, X->Line, X->Column) < std::tie(Y->File, Y->Line, Y->Column);
  });
  for (const TrafficAccess *AP : Ordered) {
    const TrafficAccess &A = *AP;
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
  for (const ReRead &R : T.ReReads) {
    const SourceLocation Loc = locationOf(SM, R.File, R.Line, R.Column);
    if (Loc.isValid() && !SM.isInSystemHeader(Loc)) reportReRead(R, T, Kernel, Report, Record, Loc);
  }
}

void predictTraffic(const KernelTraffic &T, const FunctionDecl &Kernel, KernelRecord &Record) {
  Record.TrafficAnalysed = true;
  Record.Predicted.clear();
  for (const dsl::tensor_info &TI : Record.Spec.tensor_list()) {
    if (TI.arg < 0) continue;
    double L2 = 1;
    bool Known = true, Coalesced = true;
    std::string Basis = "every access coalesced";
    for (const TrafficAccess &A : T.Accesses) {
      if (A.Param != TI.arg) continue;
      if (A.Pattern == LanePattern::Unknown || A.Overflows) {
        Known = false;
        Basis = "line " + std::to_string(A.Line) + ": the address depends on loaded data";
        continue;
      }
      if (A.ReusedInL1 || A.Amplification <= 1) continue;
      Coalesced = false;
      if (A.Amplification > L2) {
        L2 = A.Amplification;
        Basis = std::string(A.Store ? "store" : "load") + " line " + std::to_string(A.Line) + ": " +
                model::format_significant(A.Amplification) + "x per warp request";
      }
    }
    if (!Known) {
      Record.Predicted.push_back({std::string(TI.name.view()), TI.arg, "l2", 0, Basis});
      continue;
    }
    double Dram = Coalesced ? 1 : 0;  // 0: not predicted
    for (const ReRead &R : T.ReReads) {
      if (R.Param != TI.arg || TI.rank == 0 || !Record.Sized) continue;
      const int Dim = TI.shape[TI.rank - 1];
      bool Assumed = true;
      const LayerCondition C = layerCondition(R.Passes, std::int64_t(Record.Sizes[Dim]) * std::int64_t(model::size_bytes(TI.dtype)),
                                              threadsPerBlock(Kernel, Assumed), T.SharedBytes);
      L2 *= C.L2Ratio;
      if (Dram > 0) Dram *= C.DramRatio;
      Basis += "; read in " + std::to_string(R.Passes) + " passes (" + (C.FitsL1 ? "within L1" : C.FitsL2 ? "within L2" : "over L2") + ")";
    }
    const std::string Name(TI.name.view());
    Record.Predicted.push_back({Name, TI.arg, "l2", L2, Basis});
    if (Dram > 0) Record.Predicted.push_back({Name, TI.arg, "dram", Dram, Basis});
  }
}

}  // namespace rooflint::analyzer
