// Reporting the device-side traffic analysis (Traffic.h) at the user's source lines.

#include <algorithm>
#include <bit>
#include <span>
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
                  const KernelRecord *Record, SourceLocation Loc, const model::gpu &Gpu) {
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
  const std::optional<CacheLevels> Known = CacheLevels::of(Gpu.geometry);
  if (!Known) {
    Report.report(DiagKind::ReRead, Loc, Head + "; whether the passes reach DRAM depends on the caches of '" +
                                             std::string(Gpu.peaks.device) + "', whose sizes rooflint does not know: up to " +
                                             Times + "x its compulsory reads");
    return;
  }
  const CacheLevels &Levels = *Known;
  const int Dim = Tensor->shape[Tensor->rank - 1];
  const std::string DimName(Record->Spec.dims[Dim].name.view());
  const std::int64_t Size = static_cast<std::int64_t>(Record->Sizes[Dim]);
  const std::int64_t E = static_cast<std::int64_t>(model::size_bytes(Tensor->dtype));
  bool Assumed = true;
  const int Threads = threadsPerBlock(Kernel, Assumed);
  const LayerCondition C = layerCondition(R.Passes, Size * E, Threads, T.SharedBytes, Levels);
  std::string Message = Head + "; at " + DimName + " = " + std::to_string(Size) + " a row is " + bytesText(C.RowBytes) +
                        " and " + std::to_string(C.BlocksPerSm) + " blocks per SM (" + std::to_string(Threads) +
                        " threads a block" + (Assumed ? ", assumed" : "") + ") keep " + bytesText(C.SmWorkingSet) +
                        " between passes, ";
  const std::string L1 = "L1 (" + bytesText(C.L1Available) + " per SM beside a " + bytesText(C.SharedConfig) +
                         " shared-memory configuration)";
  const std::string L2 = "L2 (" + bytesText(Levels.L2Bytes) + " for " + std::to_string(Levels.Sms) + " SMs: " +
                         bytesText(C.SmWorkingSet * Levels.Sms) + " of rows)";
  const std::string Between = "between 1x and " + Times + "x";
  if (C.InL1 == Kept::All) {
    Message += "within " + L1 + ": the passes cost 1x at L2 and DRAM";
  } else {
    Message += C.InL1 == Kept::Part ? "of which " + L1 + " keeps part: " + Between + " at L2"
                                    : "over " + L1 + ": " + Times + "x at L2";
    Message += C.InL2 == Kept::All    ? "; within " + L2 + ": 1x at DRAM"
               : C.InL2 == Kept::Part ? "; of which " + L2 + " keeps part: " + Between + " at DRAM"
                                      : "; over " + L2 + ": the passes reach DRAM: " + Times + "x its compulsory reads";
  }
  // The first sizes whose rows a level no longer keeps whole (CacheLevels' kept fractions).
  const auto firstOver = [&](double Capacity, std::int64_t Copies) {
    return std::to_string(std::int64_t(Capacity / double(std::int64_t(C.BlocksPerSm) * Copies * E)) + 1);
  };
  const std::string FromL1 = firstOver(Levels.L1KeptFraction * double(C.L1Available), 1);
  const std::string FromL2 = firstOver(Levels.L2KeptFraction * double(Levels.L2Bytes), Levels.Sms);
  if (C.InL1 == Kept::All)
    Message += "; from " + DimName + " = " + FromL1 + " the passes reach L2, from " + DimName + " = " + FromL2 + " DRAM";
  else if (C.InL2 == Kept::All)
    Message += "; from " + DimName + " = " + FromL2 + " they reach DRAM";
  if (C.InL1 == Kept::All) Report.remark(DiagKind::ReRead, Loc, Message);
  else Report.report(DiagKind::ReRead, Loc, Message);
}

}  // namespace

void reportTraffic(const KernelTraffic &T, const FunctionDecl &Kernel, Reporter &Report, const KernelRecord *Record,
                   const model::gpu &Gpu) {
  const SourceManager &SM = Kernel.getASTContext().getSourceManager();
  std::string Instantiation;
  if (Kernel.isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Instantiation);
    Kernel.getNameForDiagnostic(OS, Kernel.getASTContext().getPrintingPolicy(), /*Qualified=*/true);
  }
  // Every site of every access, in source order: a group's members written on several lines share its
  // figure, each reported (and silenced by NOLINT) at its own line.
  struct Item {
    const TrafficAccess *A;
    const TrafficSite *S;
  };
  std::vector<Item> Ordered;
  for (const TrafficAccess &A : T.Accesses)
    for (const TrafficSite &S : A.Sites) Ordered.push_back({&A, &S});
  std::stable_sort(Ordered.begin(), Ordered.end(), [](const Item &X, const Item &Y) {
    return std::tie(X.S->File, X.S->Line, X.S->Column) < std::tie(Y.S->File, Y.S->Line, Y.S->Column);
  });
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  for (const Item &It : Ordered) {
    const TrafficAccess &A = *It.A;
    const TrafficSite &Site = *It.S;
    const std::string Message = uncoalescedMessage(A);
    if (Message.empty()) continue;
    const SourceLocation Loc = locationOf(SM, Site.File, Site.Line, Site.Column);
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc)) continue;
    if (!Seen.insert({Site.File, Site.Line, Site.Column, Message}).second) continue;
    SourceLocation At = Loc;
    SourceRange Range;
    if (Site.Store && Kernel.getBody()) {
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
                           "'; consecutive lanes should touch consecutive elements" +
                           (A.LaneCoefficient.find('?') != std::string::npos
                                ? " ('?1', '?2', ...: values loaded from memory, such as a struct's fields)"
                                : ""));
    std::set<unsigned> Others;
    for (const TrafficSite &S : A.Sites)
      if (S.Line != Site.Line || S.File != Site.File) Others.insert(S.Line);
    if (!Others.empty()) {
      std::string Lines;
      for (unsigned L : Others) Lines += (Lines.empty() ? "" : ", ") + std::to_string(L);
      Report.note(At, std::string("one warp request with the ") + (A.Store ? "stores" : "loads") + " at line" +
                          (Others.size() > 1 ? "s " : " ") + Lines +
                          " (the same block, addresses within 128 bytes): the sectors counted are theirs together");
    }
    if (!Instantiation.empty()) Report.note(Kernel.getLocation(), "in instantiation '" + Instantiation + "'");
  }
  for (const ReRead &R : T.ReReads) {
    const SourceLocation Loc = locationOf(SM, R.File, R.Line, R.Column);
    if (Loc.isValid() && !SM.isInSystemHeader(Loc)) reportReRead(R, T, Kernel, Report, Record, Loc, Gpu);
  }
}

void predictTraffic(const KernelTraffic &T, const FunctionDecl &Kernel, KernelRecord &Record, const model::gpu &Gpu) {
  Record.TrafficAnalysed = true;
  Record.Predicted.clear();
  const std::optional<CacheLevels> Known = CacheLevels::of(Gpu.geometry);
  if (!Known) {
    const std::string Unknown = "the cache sizes of '" + std::string(Gpu.peaks.device) +
                                "' are not known (neither the datasheet table nor the ceilings file gives them)";
    for (const dsl::tensor_info &TI : Record.Spec.tensor_list())
      if (TI.arg >= 0)
        for (const char *Level : {"dram", "l2", "l1"}) Record.Predicted.push_back({std::string(TI.name.view()), TI.arg, Level, 0, Unknown, false});
    return;
  }
  const CacheLevels &Levels = *Known;
  // The kernel's footprint at the spec's sizes: every tensor's compulsory bytes. Within L2, each sector
  // comes from DRAM once, whatever the access pattern (no eviction before the kernel ends).
  double Footprint = 0;
  bool FootprintKnown = Record.Sized;
  for (const dsl::tensor_info &TI : Record.Spec.tensor_list()) {
    if (TI.access == dsl::role::not_counted) continue;
    const double E = TI.elements.evaluate(std::span<const double>(Record.Sizes.values.data(), Record.Sizes.values.size()));
    if (!(E > 0)) FootprintKnown = false;
    Footprint += E * double(model::size_bytes(TI.dtype));
  }
  const bool FitsL2 = FootprintKnown && Footprint <= double(Levels.L2Bytes);
  const std::string FootprintText = "the kernel's tensors (" + bytesText(std::int64_t(Footprint)) + ")";
  // The tensors re-read across the grid (a load whose address misses a grid index the stores use) and
  // their bytes together: what L2 must hold for the re-reads not to reach DRAM.
  const auto missingOf = [&](int Arg) {
    unsigned M = 0;
    for (const TrafficAccess &A : T.Accesses)
      if (A.Param == Arg && !A.Store && A.Pattern != LanePattern::Unknown) M |= T.StoreIndices & ~A.Indices;
    return M;
  };
  double Reused = 0;
  for (const dsl::tensor_info &TI : Record.Spec.tensor_list())
    if (TI.arg >= 0 && missingOf(TI.arg))
      Reused += TI.elements.evaluate(std::span<const double>(Record.Sizes.values.data(), Record.Sizes.values.size())) *
                double(model::size_bytes(TI.dtype));
  const bool ReusedFitsL2 = FootprintKnown && Reused <= double(Levels.L2Bytes);
  const std::string ReusedText = "the tensors re-read across the grid (" + bytesText(std::int64_t(Reused)) + ")";
  for (const dsl::tensor_info &TI : Record.Spec.tensor_list()) {
    if (TI.arg < 0) continue;
    const std::string Name(TI.name.view());
    double L1 = 1, L2 = 1;
    bool Known = true, Coalesced = true;
    unsigned Missing = 0;  // grid indices along which a load of the tensor is re-read
    const std::string AllCoalesced = "every access coalesced";
    std::string Basis = AllCoalesced, L1Basis = Basis, UnknownBasis;
    unsigned Seen = 0;
    for (const TrafficAccess &A : T.Accesses) {
      if (A.Param != TI.arg) continue;
      ++Seen;
      if (A.Pattern == LanePattern::Unknown || A.Overflows) {
        Known = false;
        UnknownBasis = "line " + std::to_string(A.Line) + ": the address depends on loaded data";
        continue;
      }
      if (!A.Store) Missing |= T.StoreIndices & ~A.Indices;
      const std::string Why = std::string(A.Store ? "store" : "load") + " line " + std::to_string(A.Line) + ": " +
                              model::format_significant(A.Amplification) + "x per warp request";
      if (A.Amplification > L1) {
        L1 = A.Amplification;
        L1Basis = Why;
      }
      if (A.ReusedInL1 || A.Amplification <= 1) continue;
      if (A.WalksOwnSectors) {
        // L1 serves the rest of each fetched sector to the lane's next iterations: 1x at L2 and DRAM.
        if (Basis == AllCoalesced)  // only while no other access has named the basis
          Basis = Why + "; each lane's next iterations read the rest of its sectors (" +
                  std::to_string(std::abs(A.LoopStepBytes)) + " bytes an iteration), which L1 serves";
        continue;
      }
      Coalesced = false;
      if (A.Amplification > L2) {
        L2 = A.Amplification;
        Basis = Why;
      }
    }
    // Sized: the ratio holds at the spec's declared sizes only (a footprint against L2, a layer condition).
    const auto add = [&](const char *Level, double Ratio, const std::string &Why, bool Sized = false) {
      Record.Predicted.push_back({Name, TI.arg, Level, Ratio, Why, Sized});
    };
    const std::string InL2 = FootprintText + " fit in L2 (" + bytesText(Levels.L2Bytes) + "): each sector comes from DRAM once";
    if (Seen == 0) {
      // No load or store of it in the IR (a wmma or TMA intrinsic, an access through a pointer loaded
      // from memory): nothing to predict from, not "coalesced".
      const std::string None = "no global load or store of it found in the device IR (intrinsics such as wmma loads "
                               "are not followed)";
      for (const char *Level : {"dram", "l2", "l1"}) add(Level, 0, None);
      continue;
    }
    // A written tensor within L2: its dirty lines may stay there past the kernel's end (L2 writes back
    // when it evicts), so the DRAM writes during the kernel are not predicted.
    const bool Written = TI.access == dsl::role::write || TI.access == dsl::role::read_write;
    const std::string StaysInL2 = FootprintText + " fit in L2 (" + bytesText(Levels.L2Bytes) +
                                  "): its writes may stay in L2 past the kernel's end, not predicted";
    if (!Known) {
      add("dram", FitsL2 && !Written ? 1 : 0, FitsL2 ? (Written ? StaysInL2 : InL2) : UnknownBasis, true);
      add("l2", 0, UnknownBasis);
      add("l1", 0, UnknownBasis);
      continue;
    }
    if (Missing) {
      // Every thread (block) along the missing indices reads the same elements again: how many of those
      // re-reads L1 and L2 serve depends on the grid and on which blocks share an SM or run together.
      const std::string Reread = "re-read along " + gridIndexNames(Missing) + " (its address does not depend on " +
                                 (std::popcount(Missing) > 1 ? "them" : "it") + "; the stores do): ";
      add("dram", ReusedFitsL2 ? 1 : 0,
          ReusedFitsL2 ? Reread + ReusedText + " fit in L2 (" + bytesText(Levels.L2Bytes) + "): read from DRAM once"
                       : Reread + ReusedText + " are over L2 (" + bytesText(Levels.L2Bytes) +
                             "): how many re-reads reach DRAM depends on the order the blocks run, not predicted",
          true);
      add("l2", 0, Reread + "the re-reads L1 serves depend on which threads share an SM, not predicted");
      add("l1", 0, Reread + "the requests count the grid's size, which the build does not know, not predicted");
      continue;
    }
    double Dram = FitsL2 ? (Written ? 0 : 1) : Coalesced ? 1 : 0;  // 0: not predicted
    std::string DramBasis = FitsL2 ? (Written ? StaysInL2 : InL2) : Coalesced ? Basis
                                   : Basis + "; whether other warps use the rest of its sectors before L2 evicts them "
                                             "is not predicted";
    bool LayerSized = false;
    for (const ReRead &R : T.ReReads) {
      if (R.Param != TI.arg || TI.rank == 0 || !Record.Sized) continue;
      LayerSized = true;
      const int Dim = TI.shape[TI.rank - 1];
      bool Assumed = true;
      const LayerCondition C = layerCondition(R.Passes, std::int64_t(Record.Sizes[Dim]) * std::int64_t(model::size_bytes(TI.dtype)),
                                              threadsPerBlock(Kernel, Assumed), T.SharedBytes, Levels);
      L1 *= R.Passes;
      L2 *= C.L2Ratio;
      if (Dram > 0 && !FitsL2) Dram *= C.DramRatio;
      const std::string Passes = "; read in " + std::to_string(R.Passes) + " passes (" +
                                 (C.InL1 == Kept::All    ? "within L1"
                                  : C.InL1 == Kept::Part ? "part of them within L1, at L2 not predicted"
                                  : C.InL2 == Kept::All  ? "within L2"
                                  : C.InL2 == Kept::Part ? "part of them within L2, at DRAM not predicted"
                                                         : "over L2") +
                                 ")";
      Basis += Passes;
      L1Basis += Passes;
      if (!FitsL2) DramBasis += Passes;
    }
    add("dram", Dram, DramBasis, FitsL2 || LayerSized);
    add("l2", L2, Basis, LayerSized);
    add("l1", L1, L1Basis);
  }
}

std::string bytesText(std::int64_t B) {
  if (B >= 1024 * 1024) return model::format_significant(double(B) / (1024.0 * 1024.0)) + " MiB";
  if (B >= 1024) return model::format_significant(double(B) / 1024.0) + " KiB";
  return std::to_string(B) + (B == 1 ? " byte" : " bytes");
}

}  // namespace rooflint::analyzer
