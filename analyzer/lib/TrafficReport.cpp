// Reporting the device-side traffic analysis (Traffic.h) at the user's source lines.

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <set>
#include <tuple>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "rooflint/analyzer/AtOnce.h"
#include "rooflint/analyzer/Traffic.h"
#include "rooflint/analyzer/TrafficModel.h"
#include "rooflint/analyzer/Outputs.h"
#include "rooflint/files/manifest.h"
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

/// The prediction of @p Param's tensor at @p Level in @p Record, or null.
const KernelRecord::PredictedTraffic *predictionOf(const KernelRecord *Record, int Param, model::memory_level Level) {
  if (!Record) return nullptr;
  for (const KernelRecord::PredictedTraffic &P : Record->Predicted)
    if (P.Param == Param && P.Level == Level) return &P;
  return nullptr;
}

/// "8x", "1x to 3x (point estimate 2.6x)" or "1x to 32x (no point estimate: state the registers ...)":
/// a prediction that was made; a range without a point says why, as its basis does.
std::string figureText(const KernelRecord::PredictedTraffic &P) {
  const auto x = [](double V) { return model::format_significant(V) + "x"; };
  if (P.K == KernelRecord::PredictedTraffic::Kind::Value) return x(P.Ratio);
  if (P.Pointed) return x(P.Low) + " to " + x(P.High) + " (point estimate " + x(P.Ratio) + ")";
  const std::optional<std::string_view> Why = rooflint::manifest::no_point_reason(P.Basis);
  return x(P.Low) + " to " + x(P.High) + " (no point estimate" + (Why ? ": " + std::string(*Why) : "") + ")";
}

/// "; under 1x at DRAM: ...": why a written tensor's DRAM figure may fall below its compulsory bytes,
/// which a reader takes for the least a kernel can move.
std::string writesLeftInL2(const KernelRecord &Record, int Param) {
  const KernelRecord::PredictedTraffic *P = predictionOf(&Record, Param, model::memory_level::dram);
  if (!P || P->K == KernelRecord::PredictedTraffic::Kind::NotPredicted || P->Low >= 0.98) return "";
  for (const dsl::tensor_info &T : Record.Spec.tensor_list())
    if (T.arg == Param && (T.access == dsl::role::write || T.access == dsl::role::read_write))
      return "; under 1x at DRAM where its writes are still in L2 when the kernel ends (written back later)";
  return "";
}

/// The note that says what a tensor's accesses cost at each level at the spec's sizes (the manifest's
/// figures, so a warning never contradicts them): "'x' moves 8x its compulsory bytes at L1, 8x at L2
/// and 16x at DRAM", the levels without a figure named with the reason.
void noteLevels(Reporter &Report, SourceLocation At, const KernelRecord *Record, int Param, const std::string &Tensor) {
  if (!Record || !Record->TrafficAnalysed || Param < 0 || Tensor.empty()) return;
  using Kind = KernelRecord::PredictedTraffic::Kind;
  std::vector<std::string> Moves, Unknown;
  std::string Why;
  for (const auto &[Level, Name] : {std::pair{model::memory_level::l1, "L1"}, {model::memory_level::l2, "L2"},
                                    {model::memory_level::dram, "DRAM"}}) {
    const KernelRecord::PredictedTraffic *P = predictionOf(Record, Param, Level);
    if (!P) continue;
    if (P->K != Kind::NotPredicted) {
      Moves.push_back(figureText(*P) + (Moves.empty() ? " its compulsory bytes at " : " at ") + Name);
      continue;
    }
    Unknown.push_back(Name);
    if (Why.empty()) Why = P->Basis;
  }
  const std::string Reason = Why.empty() ? "" : " (" + Why + ")";
  if (Moves.empty() && Unknown.empty()) return;
  if (Moves.empty()) {
    Report.note(At, "at " + sizesText(*Record) + " the traffic of '" + Tensor + "' is not predicted" + Reason);
    return;
  }
  Report.note(At, "at " + sizesText(*Record) + " '" + Tensor + "' moves " + model::and_list(Moves) +
                      (Unknown.empty() ? "" : "; not predicted at " + model::and_list(Unknown) + Reason) +
                      writesLeftInL2(*Record, Param));
}

/// "'idx' uniform over [0, V)": the index tensors of @p S and what the spec states of their values.
std::string statedIndicesText(const dsl::spec &S) {
  std::string Out;
  for (const dsl::tensor_info &T : S.tensor_list())
    if (T.indices != dsl::index_distribution::unstated && T.index_bound >= 0)
      Out += std::string(Out.empty() ? "" : ", ") + statedIndexText(S, T);
  return Out;
}

/// The evaluated access at @p Site (of indices the spec states only, where @p Drawn), if any.
const KernelRecord::PredictedAccess *evaluatedAt(const KernelRecord &Record, const TrafficSite &Site, bool Drawn) {
  for (const KernelRecord::PredictedAccess &P : Record.PredictedAccesses)
    if ((P.Drawn || !Drawn) && P.File == Site.File && P.Line == Site.Line && P.Column == Site.Column) return &P;
  return nullptr;
}

/// The warning for a load or store whose address comes from indices the spec states (a gather or a
/// scatter): the address analysis sees only a loaded value, so the figure is the evaluation's, at the
/// spec's sizes; "" when the evaluation gives none or its requests move no more than they use.
std::string drawnMessage(const TrafficAccess &A, const TrafficSite &Site, const KernelRecord *Record) {
  if (!Record || A.Pattern != LanePattern::Unknown) return "";
  const KernelRecord::PredictedAccess *P = evaluatedAt(*Record, Site, /*Drawn=*/true);
  if (!P || P->Requests <= 0 || P->IdealSectorsPerRequest <= 0) return "";
  const double X = P->SectorsPerRequest / P->IdealSectorsPerRequest;
  if (X < 1.05) return "";
  return accessText(A) + " is addressed by the indices the spec states (" + statedIndicesText(Record->Spec) + "): at " +
         sizesText(*Record) + " a warp request touches " + model::format_significant(P->SectorsPerRequest) +
         " sectors where its useful bytes need " + model::format_significant(P->IdealSectorsPerRequest) + " (" +
         model::format_significant(X) + "x the traffic)";
}

/// Whether the lanes of a warp's row address the same element: no term of the lane's step.
bool broadcastInLanes(const TrafficAccess &A) { return A.LaneStepBytes.empty(); }

/// The closed form of an affine index assumes a warp is 32 consecutive threadIdx.x; a stated launch
/// with narrower blocks makes a warp several rows of them (block (16, 16): two rows of 16), whose
/// request the evaluation counted at the spec's sizes: its figure replaces the closed form's @p Message,
/// or no warning where the request moves no more than it uses. Unchanged where nothing was evaluated.
/// A broadcast in threadIdx.x reads an element a row: silent where a warp is at most two rows (a 16 x 16
/// tile's A[row * n + k], whose two rows no order of the threads packs into one sector), else said as
/// what it is (block (1, 256): 32 rows, 32 sectors).
std::string atNarrowBlocks(const TrafficAccess &A, const TrafficSite &Site, const KernelRecord *Record,
                           const std::string &Message) {
  if (!Record || !Record->PredictionLaunchStated || Record->PredictionBlock[0] <= 0 || Record->PredictionBlock[0] >= 32 ||
      (A.Pattern != LanePattern::Affine && A.Pattern != LanePattern::Symbolic))
    return Message;
  const std::int64_t Width = Record->PredictionBlock[0];
  const bool Broadcast = broadcastInLanes(A);
  if (Broadcast && Width >= 16) return Message;
  const KernelRecord::PredictedAccess *P = evaluatedAt(*Record, Site, /*Drawn=*/false);
  if (!P || P->Requests <= 0 || P->IdealSectorsPerRequest <= 0) return Message;
  const double X = P->SectorsPerRequest / P->IdealSectorsPerRequest;
  if (X < 1.05) return "";
  const std::string Threads = std::to_string(Width) + (Width == 1 ? " thread" : " threads");
  const std::string Rows = 32 % Width == 0 ? std::to_string(32 / Width) + " rows of " + Threads : "parts of rows " + Threads + " wide";
  const std::string What = Broadcast ? accessText(A) + " is one element for the lanes of a row (a broadcast in 'threadIdx.x')"
                                     : accessText(A) + " is not unit-stride in 'threadIdx.x'; stride " + A.Stride;
  return What + ": with blocks " + Threads + " wide a warp is " + Rows + ", and at " + sizesText(*Record) +
         " its request touches " + model::format_significant(P->SectorsPerRequest) + " sectors where its useful bytes need " +
         model::format_significant(P->IdealSectorsPerRequest) + " (" + model::format_significant(X) + "x the traffic)";
}

/// The rooflint-reread diagnostic of @p R: the verdict at the spec's sizes in the warning (from the
/// evaluated prediction: whether the passes reach L2), the figures in notes.
void reportReRead(const ReRead &R, const KernelTraffic &T, const FunctionDecl &Kernel, Reporter &Report,
                  const KernelRecord *Record, SourceLocation Loc, const model::gpu &Gpu) {
  const std::string Times = std::to_string(R.Passes);
  const std::string Head = "'" + R.Tensor + "' is read " + Times + " times by kernel '" + Kernel.getNameAsString() + "' (" +
                           Times + " loops over the same addresses)";
  const auto *L2 = predictionOf(Record, R.Param, model::memory_level::l2);
  using Kind = KernelRecord::PredictedTraffic::Kind;
  if (!Record || !Record->Sized || !L2 || L2->K == Kind::NotPredicted) {
    // Why no figure: the sizes where no spec gives them, else the prediction's own reason (in the note).
    const std::string Why = Record && Record->Sized && L2 ? "which the prediction cannot tell (below)" : "which no evaluated spec gives";
    Report.report(DiagKind::ReRead, Loc, Head + "; whether the passes reach L2 and DRAM depends on the sizes and the launch, " +
                                              Why + ": up to " + Times + "x its compulsory reads");
    if (L2) Report.note(Loc, "no prediction: " + L2->Basis);
    return;
  }
  const std::string At = "at " + sizesText(*Record);
  if (L2->K == Kind::Value && L2->Ratio <= 1.05) {
    Report.remark(DiagKind::ReRead, Loc, Head + "; " + At + " L1 serves the passes");
  } else {
    // A range from 1x: L1 may or may not hold the rows between passes (its kept part against its whole).
    const char *Reach = L2->K == Kind::Range && L2->Low <= 1.05 ? " the passes may reach L2: " : " the passes reach L2: ";
    Report.report(DiagKind::ReRead, Loc, Head + "; " + At + Reach + figureText(*L2) + " its compulsory bytes there");
  }
  // The working set between passes, for the reader to check the layer condition.
  const dsl::tensor_info *Tensor = nullptr;
  for (const dsl::tensor_info &TI : Record->Spec.tensor_list())
    if (TI.arg == R.Param && TI.rank > 0) Tensor = &TI;
  const std::optional<CacheLevels> Levels = CacheLevels::of(Gpu.geometry);
  if (Tensor && Levels) {
    const std::int64_t RowBytes = static_cast<std::int64_t>(Record->Sizes[Tensor->shape[Tensor->rank - 1]]) *
                                  static_cast<std::int64_t>(model::size_bytes(Tensor->dtype));
    const std::int64_t Threads = Record->PredictionBlock[0] * Record->PredictionBlock[1] * Record->PredictionBlock[2];
    // Rows a block: from the stated grid where it divides the tensor's rows (a row a warp: 4 rows a
    // block of 128 threads), else one (the note says it assumes so).
    const double Rows = compulsoryBytes(*Record, *Tensor) / double(RowBytes);
    const double Grid = double(Record->PredictionGrid[0]) * double(Record->PredictionGrid[1]) * double(Record->PredictionGrid[2]);
    const bool Stated = Record->PredictionLaunchStated && Grid > 0 && Rows >= Grid && std::fmod(Rows, Grid) == 0 &&
                        Tensor->access == dsl::role::read;
    const std::int64_t PerBlock = Stated ? std::int64_t(Rows / Grid) : 1;
    const LayerCondition C = layerCondition(R.Passes, RowBytes * PerBlock, int(Threads > 0 ? Threads : AssumedThreadsPerBlock),
                                            T.SharedBytes + dynamicSharedBytes(*Record), *Levels, Record->Spec.shape.registers);
    const std::string Each = Stated ? "; each block reads " + std::to_string(PerBlock) + (PerBlock == 1 ? " row" : " rows") +
                                          " (its rows over the stated grid's blocks), "
                                    : "; at a row a block, ";
    Report.note(Loc, "a row is " + bytesText(RowBytes) + Each + std::to_string(C.BlocksPerSm) + " blocks per SM keep " +
                         bytesText(C.SmWorkingSet) + " between passes" + (Stated ? "" : " (more where each warp keeps a row)") +
                         ", beside " + bytesText(C.L1Available) + " of L1 per SM");
  }
  if (const auto *Dram = predictionOf(Record, R.Param, model::memory_level::dram); Dram && Dram->K != Kind::NotPredicted)
    Report.note(Loc, "the passes cost " + figureText(*Dram) + " its compulsory bytes at DRAM");
  else if (Dram)
    Report.note(Loc, "what the passes cost at DRAM is not predicted (" + Dram->Basis + ")");
}

/// The bytes a level moves by the prediction's lower bounds (every tensor's, read and written apart),
/// or nullopt where a tensor has no figure there.
std::optional<std::pair<double, double>> leastBytes(const KernelRecord &R, model::memory_level Level) {
  double Read = 0, Written = 0;
  for (const dsl::tensor_info &T : R.Spec.tensor_list()) {
    if (T.arg < 0 || T.access == dsl::role::not_counted) continue;
    const KernelRecord::PredictedTraffic *P = predictionOf(&R, T.arg, Level);
    if (!P || P->K == KernelRecord::PredictedTraffic::Kind::NotPredicted) return std::nullopt;
    const double Bytes = P->Low * compulsoryBytes(R, T);
    const double ReadShare = T.access == dsl::role::read ? 1 : T.access == dsl::role::write ? 0 : 0.5;
    Read += Bytes * ReadShare;
    Written += Bytes * (1 - ReadShare);
  }
  return std::pair{Read, Written};
}

/// rooflint-traffic-bound: the level whose predicted traffic, at its lower bound and the level's roof,
/// takes longest, where that is over the kernel's floor t_min (compute, or compulsory DRAM traffic at
/// the roof of its read/write mix, as the verifier judges it) by more than the verifier's tolerance (the
/// spec's .max_traffic_ratio() where it states one): the floor the kernel's accesses set at its sizes.
void reportTrafficBound(const KernelRecord &R, const SourceManager &SM, Reporter &Report, const model::peaks &P) {
  if (!R.Result || !R.Sized || R.Predicted.empty()) return;
  const model::peaks AtMix = model::peaks_at_mix(P, R.ReadBytes, R.WrittenBytes);
  const model::bound_result Floor = model::classify({R.Flops, R.ReadBytes + R.WrittenBytes, R.Spec.mode}, AtMix);
  const double TMin = Floor.t_min_s;
  const double Stated = R.Spec.expected.max_traffic_ratio;
  const double Tolerance = Stated > 0 ? Stated : model::traffic_tolerance;
  std::optional<model::memory_level> Worst;
  double Bytes = 0, Seconds = 0;
  model::mix_roof Roof;
  for (const model::memory_level Level : model::memory_levels) {
    const auto Least = leastBytes(R, Level);
    if (!Least) continue;
    const model::mix_roof M = model::level_roof(P, Level, Least->first, Least->second);
    if (M.bytes_per_s <= 0) continue;
    const double T = (Least->first + Least->second) / M.bytes_per_s;
    if (T > Tolerance * TMin && T > Seconds) {
      Worst = Level;
      Bytes = Least->first + Least->second;
      Seconds = T;
      Roof = M;
    }
  }
  const SourceLocation Loc = locationOf(SM, R.SpecLocation.File, R.SpecLocation.Line, R.SpecLocation.Column);
  if (!Worst || Loc.isInvalid()) return;
  const std::string Level(model::label(*Worst));
  const bool Compute = Floor.verdict == model::bound::compute;
  Report.report(DiagKind::TrafficBound, Loc,
                R.subject() + ": its predicted " + Level + " traffic, at least " + model::format_si(Bytes, "B") + ", takes at least " +
                    model::format_duration(Seconds) + " at " + model::format_si(Roof.bytes_per_s, "B/s") + ", over its floor t_min " +
                    model::format_duration(TMin) + " at " + sizesText(R) + ": its " + Level + " traffic bounds it, not its " +
                    (Compute ? "FLOPs" : "compulsory bytes"));
  Report.note(Loc, "the sum over its tensors of the low end of each one's " + Level +
                       " figure times its compulsory bytes (the notes at its accesses, the manifest's predicted_traffic)");
}

/// rooflint-size-binding: a size read from a parameter that the evaluation found shifting past a width.
void reportSizeBinding(const KernelRecord &R, const SourceManager &SM, Reporter &Report) {
  const SourceLocation Loc = locationOf(SM, R.SpecLocation.File, R.SpecLocation.Line, R.SpecLocation.Column);
  if (Loc.isInvalid()) return;
  for (const std::string &Problem : R.SizeBindingProblems) Report.report(DiagKind::SizeBinding, Loc, R.subject() + ": " + Problem);
}

/// rooflint-not-predicted: the tensors and levels the manifest has no figure for, one reason each (the
/// remark the first, notes the others), so that the build log says where the prediction is silent.
void reportUnpredicted(const KernelRecord &R, const SourceManager &SM, Reporter &Report, const model::peaks &P) {
  const SourceLocation Loc = locationOf(SM, R.SpecLocation.File, R.SpecLocation.Line, R.SpecLocation.Column);
  if (!R.TrafficAnalysed || Loc.isInvalid()) return;
  const std::vector<std::string> Reasons = manifest::unpredicted_traffic(manifestKernel(R, P));
  if (Reasons.empty()) return;
  const std::string At = R.Sized ? " (" + sizesText(R) + ")" : "";
  if (!Report.report(DiagKind::NotPredicted, Loc, R.subject() + At + ": traffic not predicted for " + Reasons[0]))
    return;
  for (std::size_t I = 1; I < Reasons.size(); ++I) Report.note(Loc, "not predicted for " + Reasons[I]);
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
    std::string Message = atNarrowBlocks(A, Site, Record, uncoalescedMessage(A));
    if (Message.empty()) Message = drawnMessage(A, Site, Record);
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
    if (broadcastInLanes(A) && A.Pattern == LanePattern::Affine)
      Report.note(At, "a warp spans rows of the block (blockDim.x under 32): a block 32 threads wide makes it one row, one element");
    else if (A.Pattern == LanePattern::Affine || A.Pattern == LanePattern::Symbolic)
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
    noteLevels(Report, At, Record, A.Param, A.Tensor);
    if (!Instantiation.empty()) Report.note(Kernel.getLocation(), "in instantiation '" + Instantiation + "'");
  }
  for (const ReRead &R : T.ReReads) {
    const SourceLocation Loc = locationOf(SM, R.File, R.Line, R.Column);
    if (Loc.isValid() && !SM.isInSystemHeader(Loc)) reportReRead(R, T, Kernel, Report, Record, Loc, Gpu);
  }
  if (Record) reportSpecTraffic(*Record, SM, Report, Gpu.peaks);
}

void reportSpecTraffic(const KernelRecord &Record, const SourceManager &SM, Reporter &Report, const model::peaks &P) {
  reportTrafficBound(Record, SM, Report, P);
  reportSizeBinding(Record, SM, Report);
  reportUnpredicted(Record, SM, Report, P);
}

namespace {

/// What a kernel's evaluation starts from, read from the AST (its launch bounds) and the spec, before any
/// evaluation runs: the AST is not read while evaluations run side by side.
struct EvaluationInput {
  LaunchChoice Launch;
  std::optional<CacheLevels> Levels;  ///< the caches of the GPU the prediction is about
  std::string Failure;                ///< why nothing can be evaluated
};

EvaluationInput evaluationInput(const KernelTraffic &T, const FunctionDecl &Kernel, const KernelRecord &Record,
                                const model::gpu &Gpu) {
  EvaluationInput In;
  bool Assumed = true;
  const int Threads = threadsPerBlock(Kernel, Assumed);
  In.Launch = chooseLaunch(Record, Threads, !Assumed);
  if (!T.DynamicShared.empty() && !Record.Spec.shape.shared_stated)
    In.Launch.SharedUnknown = "the kernel's dynamic shared memory ('" + T.DynamicShared +
                              "', extern __shared__) is not stated, and the blocks an SM holds and the L1 left to cache "
                              "global memory depend on it (.dynamic_shared(bytes))";
  // No other GPU's figures stand in for unknown ones.
  In.Levels = CacheLevels::of(Gpu.geometry);
  if (!In.Levels)
    In.Failure = "the cache sizes of '" + std::string(Gpu.peaks.device) +
                 "' are not known (neither the datasheet table nor the ceilings file gives them)";
  else if (!T.Function) In.Failure = "the kernel's device code was not generated";
  else if (const std::int64_t Most = In.Levels->largestSharedConfig() - In.Levels->ReservedSharedPerBlock;
           Most > 0 && T.SharedBytes + In.Launch.DynamicShared > Most)
    In.Failure = "its blocks' shared memory, " + std::to_string(T.SharedBytes) + " bytes static and " +
                 std::to_string(In.Launch.DynamicShared) + " dynamic, is more than an SM of the " + std::string(Gpu.peaks.device) +
                 " gives a block (" + std::to_string(Most) + " bytes): no launch of it runs";
  return In;
}

/// Evaluates the kernel: reads only its device code (and its callees'), the record and @p In, so kernels'
/// evaluations may run at once.
KernelEvaluation evaluate(const KernelTraffic &T, const KernelRecord &Record, const EvaluationInput &In,
                          llvm::ThreadPoolInterface *Pool) {
  if (!In.Failure.empty()) {
    KernelEvaluation E;
    E.Failure = In.Failure;
    return E;
  }
  return evaluateTraffic(*T.Function, Record, In.Launch, T.SharedBytes + In.Launch.DynamicShared, *In.Levels, Pool);
}

/// What rooflint-size-binding says of shift @p S: the dimension read from its parameter, and pow2().
std::string sizeBindingProblem(const KernelRecord &Record, const ShiftPastWidth &S) {
  std::string Dim;
  for (int I = 0; I < Record.Spec.launch.size_count; ++I) {
    const dsl::launch_size &L = Record.Spec.launch.sizes[std::size_t(I)];
    if (L.source == dsl::size_source::argument && L.index == int(S.Param) && L.site == 0) Dim = std::string(L.dim.view());
  }
  const std::string Arg = "arg<" + std::to_string(S.Param) + ">";
  const std::string Read = Dim.empty() ? "the spec binds parameter '" + S.Name + "' (" + Arg + ")"
                                       : "'" + Dim + "' is read from parameter '" + S.Name + "' (" + Arg + ")";
  return Read + ", by which the kernel shifts a " + std::to_string(S.Bits) + "-bit value: " + std::to_string(S.Value) +
         " at the spec's sizes, past its width, which is undefined; if '" + S.Name + "' holds the base-2 logarithm of " +
         (Dim.empty() ? "a size" : "'" + Dim + "'") + ", bind it with " + (Dim.empty() ? "N" : Dim) + "(pow2(" + Arg + "))";
}

/// Fills @p Record's predicted traffic from its evaluation @p E.
void recordPrediction(KernelRecord &Record, const EvaluationInput &In, const KernelEvaluation &E, const model::gpu &Gpu) {
  const LaunchChoice &Launch = In.Launch;
  Record.TrafficAnalysed = true;
  Record.Predicted.clear();
  Record.PredictedAccesses.clear();
  Record.PredictionGpu = std::string(Gpu.peaks.device);
  if (Launch.Missing.empty()) {
    Record.PredictionGrid = {Launch.Grid.X, Launch.Grid.Y, Launch.Grid.Z};
    Record.PredictionBlock = {Launch.Block.X, Launch.Block.Y, Launch.Block.Z};
    Record.PredictionLaunchStated = Launch.Stated;
    Record.PredictionLaunchText = Launch.Text;
    if (Record.Spec.shape.shared_stated) Record.PredictionDynamicShared = Launch.DynamicShared;
    if (Launch.Registers > 0) Record.PredictionRegisters = Launch.Registers;
    if (E.BlocksPerSm > 0) Record.PredictionBlocksPerSm = E.BlocksPerSm;
  }
  const auto tensorName = [&](int Param) {
    for (const dsl::tensor_info &TI : Record.Spec.tensor_list())
      if (TI.arg == Param) return std::string(TI.name.view());
    return std::string();
  };
  if (!E.Failure.empty()) {
    Record.PredictionNote = E.Failure;
    for (const dsl::tensor_info &TI : Record.Spec.tensor_list()) {
      if (TI.arg < 0 || TI.access == dsl::role::not_counted) continue;
      for (const model::memory_level Level : model::memory_levels) {
        KernelRecord::PredictedTraffic P{std::string(TI.name.view()), TI.arg, Level, 0, E.Failure, true};
        P.K = KernelRecord::PredictedTraffic::Kind::NotPredicted;
        Record.Predicted.push_back(std::move(P));
      }
    }
  } else {
    Record.PredictionNote = E.Sampled;
    Record.Predicted = E.Levels;
  }
  Record.SizeBindingProblems.clear();
  for (const ShiftPastWidth &S : E.ShiftsPastWidth) Record.SizeBindingProblems.push_back(sizeBindingProblem(Record, S));
  for (const AccessTraffic &A : E.Accesses) {
    KernelRecord::PredictedAccess P;
    P.File = A.Site.File;
    P.Line = A.Site.Line;
    P.Column = A.Site.Column;
    P.Param = A.Param;
    P.Tensor = tensorName(A.Param);
    P.Store = A.Site.K == AccessSite::Store;
    P.Atomic = A.Site.K == AccessSite::Atomic;
    P.Drawn = A.Site.Drawn;
    if (A.Unknown) P.Note = "the address depends on what the build cannot know";
    else if (A.ConditionLine)
      P.Note = "it runs only where the condition at line " + std::to_string(A.ConditionLine) + " holds, which depends on " +
               A.ConditionOn;
    else if (A.Requests > 0) {
      P.Requests = A.Requests;
      P.SectorsPerRequest = A.Sectors / A.Requests;
      P.IdealSectorsPerRequest = A.IdealSectors / A.Requests;
      if (A.Params.size() > 1) {  // one load through a choice of pointers (a concatenation, a stack)
        std::vector<std::string> Names;
        for (int Param : A.Params)
          if (const std::string Name = tensorName(Param); !Name.empty()) Names.push_back("'" + Name + "'");
        if (Names.size() > 1)
          P.Note = "its lanes address " + model::and_list(Names) +
                   ": the sectors are the instruction's, each tensor's part is in its own traffic";
      }
    }
    Record.PredictedAccesses.push_back(std::move(P));
  }
}

}  // namespace

void predictTraffic(std::span<const TrafficPrediction> Work, const model::gpu &Gpu, unsigned Threads) {
  std::vector<EvaluationInput> In;
  for (const TrafficPrediction &W : Work) In.push_back(evaluationInput(*W.Traffic, *W.Kernel, *W.Record, Gpu));
  std::vector<KernelEvaluation> Out(Work.size());
  // Up to Threads kernels at a time, whose runs of blocks share one pool of Threads: a file of one large
  // kernel uses them all (AtOnce.h: why kernels are not on the pool).
  std::optional<llvm::StdThreadPool> Pool;
  if (Threads > 1) Pool.emplace(llvm::hardware_concurrency(Threads));
  runAtOnce(Work.size(), Threads,
            [&](std::size_t I) { Out[I] = evaluate(*Work[I].Traffic, *Work[I].Record, In[I], Pool ? &*Pool : nullptr); });
  for (std::size_t I = 0; I < Work.size(); ++I) recordPrediction(*Work[I].Record, In[I], Out[I], Gpu);
}

std::string bytesText(std::int64_t B) {
  if (B >= 1024 * 1024) return model::format_significant(double(B) / (1024.0 * 1024.0)) + " MiB";
  if (B >= 1024) return model::format_significant(double(B) / 1024.0) + " KiB";
  return std::to_string(B) + (B == 1 ? " byte" : " bytes");
}

}  // namespace rooflint::analyzer
