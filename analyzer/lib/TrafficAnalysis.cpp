#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "rooflint/analyzer/Traffic.h"
#include "rooflint/analyzer/WarpEvaluator.h"
#include "rooflint/model/describe.h"

using namespace llvm;

namespace rooflint::analyzer {
namespace {

using Poly = SymbolicCoefficient;

/// The value runtime scalars take where a count needs one (NonAffine accesses): a typical large size.
constexpr std::int64_t SampleSize = 4096;
/// blockDim.x where a count needs one (the common 256-thread block).
constexpr std::int64_t SampleBlockDim = 256;

// --- polynomials over named symbols --------------------------------------------------------------

/// The sum of @p Term over @p Ops: nullopt when a term is none or the sum overflows.
template <class Range, class TermFn> std::optional<Poly> sumPoly(const Range &Ops, TermFn Term) {
  Poly Sum;
  for (const auto *Op : Ops) {
    auto P = Term(Op);
    if (!P) return std::nullopt;
    auto N = addCoefficients(std::move(Sum), *P);
    if (!N) return std::nullopt;
    Sum = std::move(*N);
  }
  return Sum;
}


/// |V| without overflow (INT64_MIN has no int64 magnitude).
std::uint64_t magnitude(std::int64_t V) { return V < 0 ? 0 - static_cast<std::uint64_t>(V) : static_cast<std::uint64_t>(V); }

/// A / B and A % B are defined: B is not 0, and not -1 with A the most negative value (x86 traps).
bool signedDivisible(std::int64_t A, std::int64_t B) {
  return B != 0 && !(B == -1 && A == std::numeric_limits<std::int64_t>::min());
}

// --- the lane and the warp-uniform values ----------------------------------------------------------

enum class Special { None, TidX, TidY, TidZ, CtaId, NTidX, NTid, NCtaId };

/// A CUDA special register: the NVVM intrinsics, or a load of the mock headers' plain globals
/// (`extern const uint3 threadIdx;`, the analyzer's tests).
Special specialOf(const Value *V) {
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x: return Special::TidX;
    case Intrinsic::nvvm_read_ptx_sreg_tid_y: return Special::TidY;
    case Intrinsic::nvvm_read_ptx_sreg_tid_z: return Special::TidZ;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return Special::CtaId;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x: return Special::NTidX;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_z: return Special::NTid;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: return Special::NCtaId;
    default: return Special::None;
    }
  }
  if (const auto *LI = dyn_cast<LoadInst>(V)) {
    const Value *P = LI->getPointerOperand();
    APInt Offset(64, 0);
    const DataLayout &DL = LI->getModule()->getDataLayout();
    P = P->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
    if (const auto *GV = dyn_cast<GlobalVariable>(P->stripPointerCasts())) {
      const std::uint64_t Field = Offset.getZExtValue() / 4;
      const StringRef N = GV->getName();
      if (N == "threadIdx") return Field == 0 ? Special::TidX : Field == 1 ? Special::TidY : Special::TidZ;
      if (N == "blockIdx") return Special::CtaId;
      if (N == "blockDim") return Field == 0 ? Special::NTidX : Special::NTid;
      if (N == "gridDim") return Special::NCtaId;
    }
  }
  return Special::None;
}

std::string specialName(Special S) {
  switch (S) {
  case Special::CtaId: return "blockIdx";
  case Special::NTidX:
  case Special::NTid: return "blockDim";
  case Special::NCtaId: return "gridDim";
  case Special::TidY:
  case Special::TidZ: return "threadIdx.y";
  default: return "";
  }
}

/// The per-kernel analysis.
class KernelAnalysis {
public:
  KernelAnalysis(Function &F, ScalarEvolution &SE, LoopInfo &LI, DominatorTree &DT)
      : F(F), SE(SE), LI(LI), DT(DT), DL(F.getParent()->getDataLayout()) {}

  KernelTraffic run();

private:
  struct Member {
    Instruction *I;
    std::int64_t Offset;  ///< bytes from the group's first member
    std::int64_t Size;    ///< bytes
  };
  struct Group {
    BasicBlock *BB;
    bool Store;
    const SCEV *Address;  ///< the first member's
    Value *Pointer;
    std::vector<Member> Members;
  };

  /// Whether @p V depends on threadIdx.x through data flow (loads through their address).
  bool dependsOnLane(const Value *V, int Depth = 0) {
    if (auto It = Depends.find(V); It != Depends.end()) return It->second;
    if (Depth > 200) return true;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I) return false;
    const Special S = specialOf(I);
    if (S == Special::TidX) return Depends[V] = true;
    if (S != Special::None) return Depends[V] = false;
    Depends[V] = false;  // in progress: a phi's cycle adds nothing
    bool D = false;
    if (const auto *L = dyn_cast<LoadInst>(I)) D = dependsOnLane(L->getPointerOperand(), Depth + 1);
    else
      for (const Value *Op : I->operands())
        if (!isa<BasicBlock>(Op) && !isa<Function>(Op) && dependsOnLane(Op, Depth + 1)) {
          D = true;
          break;
        }
    return Depends[V] = D;
  }

  /// The grid-index bit of a special register (GridIndex), or 0.
  static unsigned gridBit(const Value *V) {
    if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::nvvm_read_ptx_sreg_tid_x: return GridTidX;
      case Intrinsic::nvvm_read_ptx_sreg_tid_y: return GridTidY;
      case Intrinsic::nvvm_read_ptx_sreg_tid_z: return GridTidZ;
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return GridCtaX;
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return GridCtaY;
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return GridCtaZ;
      default: return 0;
      }
    }
    if (const auto *LI = dyn_cast<LoadInst>(V)) {
      APInt Offset(64, 0);
      const DataLayout &DL = LI->getModule()->getDataLayout();
      const Value *P = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
      if (const auto *GV = dyn_cast<GlobalVariable>(P->stripPointerCasts())) {
        const unsigned Field = static_cast<unsigned>(std::min<std::uint64_t>(Offset.getZExtValue() / 4, 2));
        if (GV->getName() == "threadIdx") return GridTidX << Field;
        if (GV->getName() == "blockIdx") return GridCtaX << Field;
      }
    }
    return 0;
  }

  /// The grid indices @p V depends on through data flow (loads through their address).
  unsigned indicesOf(const Value *V, int Depth = 0) {
    if (auto It = IndexDeps.find(V); It != IndexDeps.end()) return It->second;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 200) return 0;
    if (const unsigned B = gridBit(I)) return IndexDeps[V] = B;
    if (specialOf(I) != Special::None) return IndexDeps[V] = 0;
    IndexDeps[V] = 0;  // in progress: a phi's cycle adds nothing
    unsigned M = 0;
    if (const auto *L = dyn_cast<LoadInst>(I)) M = indicesOf(L->getPointerOperand(), Depth + 1);
    else
      for (const Value *Op : I->operands())
        if (!isa<BasicBlock>(Op) && !isa<Function>(Op)) M |= indicesOf(Op, Depth + 1);
    return IndexDeps[V] = M;
  }

  std::string symbolName(const Value *V) {
    if (const Special S = specialOf(V); S != Special::None) return specialName(S);
    const Value *Stripped = V;
    while (const auto *C = dyn_cast<CastInst>(Stripped)) Stripped = C->getOperand(0);
    if (Stripped->hasName()) return Stripped->getName().str();
    // Unnamed (a field loaded from memory): a symbol of its own, so that two of them never cancel.
    return "?" + std::to_string(UnnamedSymbols.try_emplace(Stripped, UnnamedSymbols.size() + 1).first->second);
  }

  /// A warp-uniform SCEV as a polynomial over named symbols; nullopt when it is not one (a loop
  /// recurrence, a division of symbols).
  std::optional<Poly> uniformPoly(const SCEV *S, int Depth = 0) {
    if (Depth > 64) return std::nullopt;
    if (const auto *C = dyn_cast<SCEVConstant>(S)) {
      const APInt &V = C->getAPInt();
      if (V.getSignificantBits() > 64) return std::nullopt;
      return constantCoefficient(V.getSExtValue());
    }
    if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
      if (U->getType()->isPointerTy()) return Poly{};  // a base address: no part of a lane step
      return Poly{{{symbolName(U->getValue())}, 1}};
    }
    if (const auto *Cast = dyn_cast<SCEVCastExpr>(S)) return uniformPoly(Cast->getOperand(), Depth + 1);
    if (const auto *A = dyn_cast<SCEVAddExpr>(S))
      return sumPoly(A->operands(), [&](const SCEV *Op) { return uniformPoly(Op, Depth + 1); });
    if (const auto *M = dyn_cast<SCEVMulExpr>(S)) {
      Poly Product = constantCoefficient(1);
      for (const SCEV *Op : M->operands()) {
        auto P = uniformPoly(Op, Depth + 1);
        if (!P) return std::nullopt;
        auto N = multiplyCoefficients(Product, *P);
        if (!N) return std::nullopt;
        Product = std::move(*N);
      }
      return Product;
    }
    return std::nullopt;
  }

  /// The coefficient of threadIdx.x in @p S (bytes per lane for an address): nullopt when @p S is not
  /// affine in it. Casts are looked through (index arithmetic is assumed not to wrap).
  std::optional<Poly> laneCoefficient(const SCEV *S, int Depth = 0) {
    if (Depth > 64) return std::nullopt;
    if (isa<SCEVConstant>(S)) return Poly{};
    if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
      if (specialOf(U->getValue()) == Special::TidX) return constantCoefficient(1);
      if (dependsOnLane(U->getValue())) return std::nullopt;
      return Poly{};
    }
    if (const auto *Cast = dyn_cast<SCEVCastExpr>(S)) return laneCoefficient(Cast->getOperand(), Depth + 1);
    if (const auto *A = dyn_cast<SCEVAddExpr>(S))
      return sumPoly(A->operands(), [&](const SCEV *Op) { return laneCoefficient(Op, Depth + 1); });
    if (const auto *M = dyn_cast<SCEVMulExpr>(S)) {
      std::optional<Poly> Coef;
      Poly Rest = constantCoefficient(1);
      for (const SCEV *Op : M->operands()) {
        auto P = laneCoefficient(Op, Depth + 1);
        if (!P) return std::nullopt;
        if (!P->empty()) {
          if (Coef) return std::nullopt;  // threadIdx.x * threadIdx.x
          Coef = std::move(*P);
          continue;
        }
        auto U = uniformPoly(Op, Depth + 1);
        if (!U) return std::nullopt;
        auto N = multiplyCoefficients(Rest, *U);
        if (!N) return std::nullopt;
        Rest = std::move(*N);
      }
      if (!Coef) return Poly{};
      return multiplyCoefficients(*Coef, Rest);
    }
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      auto Start = laneCoefficient(AR->getStart(), Depth + 1);
      if (!Start) return std::nullopt;
      for (unsigned I = 1; I < AR->getNumOperands(); ++I) {
        auto Step = laneCoefficient(AR->getOperand(I), Depth + 1);
        if (!Step || !Step->empty()) return std::nullopt;  // a lane-dependent step
      }
      return Start;
    }
    // udiv, min/max: affine only when they do not involve the lane.
    bool Uses = false;
    for (const SCEV *Op : S->operands()) {
      auto P = laneCoefficient(Op, Depth + 1);
      if (!P || !P->empty()) Uses = true;
    }
    if (Uses) return std::nullopt;
    return Poly{};
  }

  /// The step per iteration of the innermost loop @p L in @p S, when it is a constant.
  std::optional<std::int64_t> loopStep(const SCEV *S, const Loop *L) {
    if (!L) return std::nullopt;
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      if (AR->getLoop() == L && AR->isAffine())
        if (const auto *C = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)))
          if (C->getAPInt().getSignificantBits() <= 64) return C->getAPInt().getSExtValue();
      return loopStep(AR->getStart(), L);
    }
    if (const auto *A = dyn_cast<SCEVAddExpr>(S))
      for (const SCEV *Op : A->operands())
        if (auto R = loopStep(Op, L)) return R;
    return std::nullopt;
  }

  // --- numeric evaluation at a lane (NonAffine accesses) ---------------------------------------------

  std::optional<std::int64_t> evalSCEV(const SCEV *S, std::int64_t Lane, int Depth) {
    if (Depth > 128) return std::nullopt;
    if (const auto *C = dyn_cast<SCEVConstant>(S)) {
      if (C->getAPInt().getSignificantBits() > 64) return std::nullopt;
      return C->getAPInt().getSExtValue();
    }
    if (const auto *U = dyn_cast<SCEVUnknown>(S)) return evalValue(U->getValue(), Lane, Depth + 1);
    if (const auto *Cast = dyn_cast<SCEVCastExpr>(S)) return evalSCEV(Cast->getOperand(), Lane, Depth + 1);
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) return evalSCEV(AR->getStart(), Lane, Depth + 1);  // iteration 0
    std::vector<std::int64_t> Ops;
    for (const SCEV *Op : S->operands()) {
      auto V = evalSCEV(Op, Lane, Depth + 1);
      if (!V) return std::nullopt;
      Ops.push_back(*V);
    }
    std::optional<std::int64_t> R = Ops.empty() ? std::nullopt : std::optional<std::int64_t>(Ops[0]);
    for (std::size_t I = 1; I < Ops.size() && R; ++I) {
      switch (S->getSCEVType()) {
      case scAddExpr: R = checkedAdd(*R, Ops[I]); break;
      case scMulExpr: R = checkedMul(*R, Ops[I]); break;
      case scUDivExpr:  // unsigned, as the SCEV says
        R = Ops[I] == 0 ? std::nullopt
                        : std::optional<std::int64_t>(static_cast<std::int64_t>(static_cast<std::uint64_t>(*R) /
                                                                                static_cast<std::uint64_t>(Ops[I])));
        break;
      case scSMaxExpr:
      case scUMaxExpr: R = std::max(*R, Ops[I]); break;
      case scSMinExpr:
      case scUMinExpr:
      case scSequentialUMinExpr: R = std::min(*R, Ops[I]); break;
      default: return std::nullopt;
      }
    }
    return R;
  }

  std::optional<std::int64_t> evalValue(const Value *V, std::int64_t Lane, int Depth) {
    if (Depth > 128) return std::nullopt;
    if (const auto *CI = dyn_cast<ConstantInt>(V)) {
      if (CI->getValue().getSignificantBits() > 64) return std::nullopt;
      return CI->getSExtValue();
    }
    if (V->getType()->isPointerTy() && (isa<Argument>(V) || isa<Constant>(V))) return 0;  // a base
    if (isa<Argument>(V)) return SampleSize;
    switch (specialOf(V)) {
    case Special::TidX: return Lane;
    case Special::TidY:
    case Special::TidZ:
    case Special::CtaId: return 0;
    case Special::NTidX: return SampleBlockDim;
    case Special::NTid: return 1;
    case Special::NCtaId: return SampleSize;
    case Special::None: break;
    }
    const auto *I = dyn_cast<Instruction>(V);
    if (!I) return std::nullopt;
    if (isa<LoadInst>(I)) {
      if (dependsOnLane(I)) return std::nullopt;  // data-dependent: a gather
      return I->getType()->isPointerTy() ? 0 : SampleSize;
    }
    if (isa<PHINode>(I)) {
      if (!SE.isSCEVable(I->getType())) return std::nullopt;
      const SCEV *S = SE.getSCEV(const_cast<Instruction *>(I));
      if (const auto *U = dyn_cast<SCEVUnknown>(S); U && U->getValue() == I) return std::nullopt;
      return evalSCEV(S, Lane, Depth + 1);
    }
    const auto op = [&](unsigned K) { return evalValue(I->getOperand(K), Lane, Depth + 1); };
    if (isa<FreezeInst>(I)) return op(0);
    if (const auto *C = dyn_cast<CastInst>(I)) {
      auto A = op(0);
      if (!A) return std::nullopt;
      const unsigned Bits = C->getDestTy()->getScalarSizeInBits();
      if (isa<TruncInst>(C) && Bits < 64) return SignExtend64(static_cast<std::uint64_t>(*A), Bits);
      if (isa<ZExtInst>(C)) {
        const unsigned From = C->getSrcTy()->getScalarSizeInBits();
        return From < 64 ? static_cast<std::int64_t>(static_cast<std::uint64_t>(*A) & maskTrailingOnes<std::uint64_t>(From)) : *A;
      }
      return A;
    }
    if (const auto *G = dyn_cast<GEPOperator>(I)) {
      auto Base = evalValue(G->getPointerOperand(), Lane, Depth + 1);
      if (!Base) return std::nullopt;
      std::int64_t Off = *Base;
      for (gep_type_iterator It = gep_type_begin(G), End = gep_type_end(G); It != End; ++It) {
        auto Idx = evalValue(It.getOperand(), Lane, Depth + 1);
        if (!Idx) return std::nullopt;
        std::optional<std::int64_t> Add;
        if (StructType *ST = It.getStructTypeOrNull())
          Add = static_cast<std::int64_t>(DL.getStructLayout(ST)->getElementOffset(static_cast<unsigned>(*Idx)));
        else
          Add = checkedMul(*Idx, static_cast<std::int64_t>(It.getSequentialElementStride(DL).getFixedValue()));
        if (!Add) return std::nullopt;
        auto N = checkedAdd(Off, *Add);
        if (!N) return std::nullopt;
        Off = *N;
      }
      return Off;
    }
    if (const auto *S = dyn_cast<SelectInst>(I)) {
      auto C = op(0);
      if (!C) return std::nullopt;
      return *C ? op(1) : op(2);
    }
    if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
      auto A = op(0), B = op(1);
      if (!A || !B) return std::nullopt;
      const std::uint64_t UA = static_cast<std::uint64_t>(*A), UB = static_cast<std::uint64_t>(*B);
      switch (Cmp->getPredicate()) {
      case CmpInst::ICMP_EQ: return *A == *B;
      case CmpInst::ICMP_NE: return *A != *B;
      case CmpInst::ICMP_SLT: return *A < *B;
      case CmpInst::ICMP_SLE: return *A <= *B;
      case CmpInst::ICMP_SGT: return *A > *B;
      case CmpInst::ICMP_SGE: return *A >= *B;
      case CmpInst::ICMP_ULT: return UA < UB;
      case CmpInst::ICMP_ULE: return UA <= UB;
      case CmpInst::ICMP_UGT: return UA > UB;
      case CmpInst::ICMP_UGE: return UA >= UB;
      default: return std::nullopt;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(I)) {
      auto A = op(0), C = op(1);
      if (!A || !C) return std::nullopt;
      const std::uint64_t UA = static_cast<std::uint64_t>(*A), UC = static_cast<std::uint64_t>(*C);
      switch (B->getOpcode()) {
      case Instruction::Add: return checkedAdd(*A, *C);
      case Instruction::Sub: return checkedSub(*A, *C);
      case Instruction::Mul: return checkedMul(*A, *C);
      case Instruction::Shl: return *C < 0 || *C >= 63 ? std::nullopt : checkedMul(*A, std::int64_t{1} << *C);
      case Instruction::LShr: return *C < 0 || *C >= 64 ? std::nullopt : std::optional<std::int64_t>(UA >> *C);
      case Instruction::AShr: return *C < 0 || *C >= 64 ? std::nullopt : std::optional<std::int64_t>(*A >> *C);
      case Instruction::And: return *A & *C;
      case Instruction::Or: return *A | *C;
      case Instruction::Xor: return *A ^ *C;
      case Instruction::UDiv: return UC == 0 ? std::nullopt : std::optional<std::int64_t>(UA / UC);
      case Instruction::SDiv: return signedDivisible(*A, *C) ? std::optional<std::int64_t>(*A / *C) : std::nullopt;
      case Instruction::URem: return UC == 0 ? std::nullopt : std::optional<std::int64_t>(UA % UC);
      case Instruction::SRem: return signedDivisible(*A, *C) ? std::optional<std::int64_t>(*A % *C) : std::nullopt;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // --- accesses ----------------------------------------------------------------------------------

  /// Whether @p Ptr may point into global memory (not shared, constant, local or a stack object, nor
  /// the built-in index variables that the parse without the toolkit declares as globals).
  bool isGlobal(const Value *Ptr) {
    const unsigned AS = Ptr->getType()->getPointerAddressSpace();
    if ((AS != 0 && AS != 1) || neverGlobal(Ptr)) return false;
    const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr, 12)->stripPointerCasts());
    const StringRef Name = GV ? GV->getName() : "";
    return Name != "threadIdx" && Name != "blockIdx" && Name != "blockDim" && Name != "gridDim";
  }

  /// The kernel parameter @p Ptr is based on, or null.
  const Argument *baseParam(const SCEV *S) {
    const SCEV *B = SE.getPointerBase(S);
    const auto *U = dyn_cast<SCEVUnknown>(B);
    if (!U) return nullptr;
    return dyn_cast<Argument>(getUnderlyingObject(U->getValue(), 12));
  }

  /// A condition that holds where a block runs, as a bound on E = A * threadIdx.x + (uniform terms).
  struct LaneBound {
    const SCEV *E;
    std::int64_t A;  ///< > 0
    enum { Lower, Upper, Equal } Kind;
    std::int64_t Limit;  ///< Lower: E >= Limit; Upper: E <= Limit; Equal: E == 0
  };
  void boundsOf(Value *Cond, bool Holds, std::vector<LaneBound> &Out, int Depth = 0);
  int activeLanes(BasicBlock *BB);

  void collect(std::vector<Group> &Groups);
  TrafficAccess describe(const Group &G);
  void findReReads(KernelTraffic &K, const std::vector<Group> &Groups);
  unsigned sequentialPasses(const std::set<const Loop *> &Loops) const;

  Function &F;
  ScalarEvolution &SE;
  LoopInfo &LI;
  DominatorTree &DT;
  const DataLayout &DL;
  std::map<const Value *, bool> Depends;
  std::map<const BasicBlock *, int> Lanes;
  std::vector<LaneBound> TidBounds;
  bool TidBoundsKnown = false;
  std::map<const Value *, unsigned> IndexDeps;
  std::map<const Value *, std::size_t> UnnamedSymbols;  ///< "?1", "?2": values without a name
  std::map<const Loop *, unsigned> LoopIds;
};

/// The bounds on lane-dependent values that @p Cond (holding, or not when !@p Holds) gives: comparisons
/// whose difference is affine in threadIdx.x with a constant coefficient, through '&&' (and '||' not
/// holding). Values are read as integers (index arithmetic does not wrap); an unsigned comparison only
/// where both sides are known non-negative.
void KernelAnalysis::boundsOf(Value *Cond, bool Holds, std::vector<LaneBound> &Out, int Depth) {
  if (Depth > 8) return;
  Value *X = nullptr, *Y = nullptr;
  using namespace PatternMatch;
  if ((Holds && match(Cond, m_LogicalAnd(m_Value(X), m_Value(Y)))) ||
      (!Holds && match(Cond, m_LogicalOr(m_Value(X), m_Value(Y))))) {
    boundsOf(X, Holds, Out, Depth + 1);
    boundsOf(Y, Holds, Out, Depth + 1);
    return;
  }
  if (match(Cond, m_Not(m_Value(X)))) return boundsOf(X, !Holds, Out, Depth + 1);
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !SE.isSCEVable(Cmp->getOperand(0)->getType())) return;
  CmpInst::Predicate P = Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
  const SCEV *L = SE.getSCEV(Cmp->getOperand(0)), *R = SE.getSCEV(Cmp->getOperand(1));
  // CUDA's special registers are non-negative (the mock headers' plain globals carry no range).
  const auto nonNegative = [&](const SCEV *S) {
    if (const auto *U = dyn_cast<SCEVUnknown>(S); U && specialOf(U->getValue()) != Special::None) return true;
    return SE.isKnownNonNegative(S);
  };
  if (ICmpInst::isUnsigned(P) && !(nonNegative(L) && nonNegative(R))) return;
  const SCEV *E = SE.getMinusSCEV(L, R);
  if (isa<SCEVCouldNotCompute>(E)) return;
  auto Coef = laneCoefficient(E);
  if (!Coef || Coef->empty() || !isConstant(*Coef)) return;
  std::int64_t A = constantTerm(*Coef);
  if (A < 0) {  // -E with the comparison mirrored, so that A > 0
    E = SE.getNegativeSCEV(E);
    P = ICmpInst::getSwappedPredicate(P);
    A = -A;
  }
  switch (ICmpInst::getSignedPredicate(P)) {  // EQ stays EQ
  case CmpInst::ICMP_SLT: Out.push_back({E, A, LaneBound::Upper, -1}); break;
  case CmpInst::ICMP_SLE: Out.push_back({E, A, LaneBound::Upper, 0}); break;
  case CmpInst::ICMP_SGT: Out.push_back({E, A, LaneBound::Lower, 1}); break;
  case CmpInst::ICMP_SGE: Out.push_back({E, A, LaneBound::Lower, 0}); break;
  case CmpInst::ICMP_EQ: Out.push_back({E, A, LaneBound::Equal, 0}); break;
  default: break;
  }
}

/// How many lanes of a warp can run @p BB, from the conditions of the branches that dominate it (the
/// edge taken dominates the block) and threadIdx.x >= 0: an equality leaves one lane; an upper bound
/// A_u * t + R_u <= H and a lower bound A_l * t + R_l >= O whose uniform parts differ by a constant
/// (A_l * R_u - A_u * R_l = D) leave t a window of (A_l * H - A_u * O - D) / (A_u * A_l), so at most
/// floor of that plus one lanes (`i + 3 >= n` and `i < n` with i = 4 * t + ...: 1 lane).
int KernelAnalysis::activeLanes(BasicBlock *BB) {
  if (auto It = Lanes.find(BB); It != Lanes.end()) return It->second;
  // threadIdx.x >= 0, once per kernel (every read of the register: the mock headers' loads may be several).
  if (!TidBoundsKnown) {
    for (Instruction &I : instructions(F))
      if (specialOf(&I) == Special::TidX && SE.isSCEVable(I.getType())) TidBounds.push_back({SE.getSCEV(&I), 1, LaneBound::Lower, 0});
    TidBoundsKnown = true;
  }
  std::vector<LaneBound> Bounds = TidBounds;
  const std::size_t Implicit = Bounds.size();
  DomTreeNode *Node = DT.getNode(BB);
  for (DomTreeNode *N = Node ? Node->getIDom() : nullptr; N; N = N->getIDom()) {
    auto *Br = dyn_cast<BranchInst>(N->getBlock()->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1)) continue;
    for (unsigned K = 0; K < 2; ++K)
      if (DT.dominates(BasicBlockEdge(N->getBlock(), Br->getSuccessor(K)), BB)) boundsOf(Br->getCondition(), K == 0, Bounds);
  }
  std::int64_t Best = 32;
  for (std::size_t U = Implicit; U < Bounds.size(); ++U) {
    if (Bounds[U].Kind == LaneBound::Equal) Best = 1;
    if (Bounds[U].Kind != LaneBound::Upper) continue;
    for (const LaneBound &Lo : Bounds) {
      if (Lo.Kind != LaneBound::Lower) continue;
      const SCEV *Au = SE.getConstant(Bounds[U].E->getType(), Lo.A), *Al = SE.getConstant(Lo.E->getType(), Bounds[U].A);
      const SCEV *Lhs = SE.getMulExpr(Au, Bounds[U].E), *Rhs = SE.getMulExpr(Al, SE.getTruncateOrSignExtend(Lo.E, Bounds[U].E->getType()));
      const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Lhs, Rhs));
      if (!D || D->getAPInt().getSignificantBits() > 62) continue;
      // Width = Lo.A * U.Limit - U.A * Lo.Limit - D: the lanes' span; a product past 64 bits bounds nothing.
      const auto Hi = checkedMul(Lo.A, Bounds[U].Limit), LoEnd = checkedMul(Bounds[U].A, Lo.Limit);
      const auto Width = Hi && LoEnd ? checkedSub(*Hi, *LoEnd) : std::nullopt;
      const auto Span = Width ? checkedSub(*Width, D->getAPInt().getSExtValue()) : std::nullopt;
      const auto Step = checkedMul(Bounds[U].A, Lo.A);
      if (!Span || !Step) continue;
      const std::int64_t Count = *Span < 0 ? 1 : *Span / *Step + 1;
      Best = std::min(Best, std::max<std::int64_t>(1, Count));
    }
  }
  return Lanes[BB] = static_cast<int>(Best);
}

void KernelAnalysis::collect(std::vector<Group> &Groups) {
  for (BasicBlock &BB : F) {
    const std::size_t FirstOfBlock = Groups.size();
    for (Instruction &I : BB) {
      Value *Ptr = nullptr;
      Type *Ty = nullptr;
      bool Store = false;
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        Ptr = L->getPointerOperand();
        Ty = L->getType();
      } else if (auto *S = dyn_cast<StoreInst>(&I)) {
        Ptr = S->getPointerOperand();
        Ty = S->getValueOperand()->getType();
        Store = true;
      } else if (auto *II = dyn_cast<IntrinsicInst>(&I); II && isReadOnlyLoad(II->getIntrinsicID())) {  // __ldg
        Ptr = II->getArgOperand(0);
        Ty = II->getType();
      }
      std::int64_t Size = Ty ? static_cast<std::int64_t>(DL.getTypeStoreSize(Ty).getFixedValue()) : 0;
      const auto add = [&](Value *P, std::int64_t Bytes, bool IsStore) {
        if (!P || Bytes <= 0 || !isGlobal(P) || !SE.isSCEVable(P->getType()) || specialOf(&I) != Special::None) return;
        const SCEV *S = SE.getSCEV(P);
        for (std::size_t K = FirstOfBlock; K < Groups.size(); ++K) {
          Group &G = Groups[K];
          if (G.Store != IsStore) continue;
          const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(S, G.Address));
          if (!D || D->getAPInt().getSignificantBits() > 32) continue;
          const std::int64_t Off = D->getAPInt().getSExtValue();
          if (Off <= -128 || Off >= 128) continue;
          G.Members.push_back({&I, Off, Bytes});
          return;
        }
        Groups.push_back({&BB, IsStore, S, P, {{&I, 0, Bytes}}});
      };
      if (Ptr) {
        add(Ptr, Size, Store);
      } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {  // a struct copied whole: a load and a store
        if (const auto *Len = dyn_cast<ConstantInt>(MT->getLength()); Len && Len->getZExtValue() <= 256) {
          add(MT->getSource(), static_cast<std::int64_t>(Len->getZExtValue()), false);
          add(MT->getDest(), static_cast<std::int64_t>(Len->getZExtValue()), true);
        }
      }
    }
  }
}

/// The sector count of group @p G when lane l's address is LaneOffsets[l] bytes past lane 0's (the
/// lanes that run it: LaneOffsets.size()).
SectorCount countFor(const std::vector<std::int64_t> &LaneOffsets, const std::vector<std::int64_t> &Offsets,
                     const std::vector<std::int64_t> &Sizes) {
  std::vector<std::vector<std::int64_t>> All(LaneOffsets.size());
  for (std::size_t L = 0; L < LaneOffsets.size(); ++L)
    for (std::int64_t O : Offsets) All[L].push_back(LaneOffsets[L] + O);
  return countSectors(All, Sizes);
}

TrafficAccess KernelAnalysis::describe(const Group &G) {
  TrafficAccess A;
  A.Store = G.Store;
  Instruction *First = G.Members.front().I;
  positionOf(*First, A.File, A.Line, A.Column);
  for (const Member &M : G.Members) {
    TrafficSite S{A.File, 0, 0, G.Store};
    positionOf(*M.I, S.File, S.Line, S.Column);
    const bool Known = std::any_of(A.Sites.begin(), A.Sites.end(), [&](const TrafficSite &T) {
      return T.File == S.File && T.Line == S.Line && T.Column == S.Column;
    });
    if (!Known && (S.Line != 0 || A.Sites.empty())) A.Sites.push_back(S);
  }
  A.ActiveLanes = activeLanes(G.BB);
  A.Indices = indicesOf(G.Pointer);
  const int NLanes = A.ActiveLanes;
  if (const Argument *P = baseParam(G.Address)) {
    A.Param = static_cast<int>(P->getArgNo());
    A.Tensor = P->getName().str();
  }
  std::vector<std::int64_t> Offsets, Sizes;
  std::int64_t Lo = 0, Hi = 0;
  for (const Member &M : G.Members) {
    Offsets.push_back(M.Offset);
    Sizes.push_back(M.Size);
    Lo = std::min(Lo, M.Offset);
    Hi = std::max(Hi, M.Offset + M.Size);
  }
  // Bytes one lane uses: the union of its members' ranges.
  {
    std::vector<std::vector<std::int64_t>> One(1, Offsets);
    std::set<std::int64_t> Bytes;
    for (std::size_t K = 0; K < Offsets.size(); ++K)
      for (std::int64_t B = 0; B < Sizes[K]; ++B) Bytes.insert(Offsets[K] + B);
    A.BytesPerLane = static_cast<std::int64_t>(Bytes.size());
  }
  const std::int64_t Width = Hi - Lo;  // the lane's span: an element of the request
  const Loop *L = LI.getLoopFor(G.BB);
  if (L) {
    if (!LoopIds.count(L)) LoopIds[L] = static_cast<unsigned>(LoopIds.size() + 1);
    A.LoopId = LoopIds[L];
    if (auto Step = loopStep(G.Address, L)) A.LoopStepBytes = *Step;
  }
  std::optional<Poly> Coef = laneCoefficient(G.Address);
  if (Coef) {
    A.LaneStepBytes = *Coef;
    const bool Constant = isConstant(*Coef);
    A.Pattern = Constant ? LanePattern::Affine : LanePattern::Symbolic;
    // The sectors when consecutive lanes are @p Step bytes apart.
    const auto countAtStep = [&](std::optional<std::int64_t> Step) -> std::optional<SectorCount> {
      if (!Step) return std::nullopt;
      std::vector<std::int64_t> Lanes(NLanes);
      for (int Lane = 0; Lane < NLanes; ++Lane) {
        auto O = checkedMul(*Step, std::int64_t{Lane});
        if (!O) return std::nullopt;
        Lanes[Lane] = *O;
      }
      return countFor(Lanes, Offsets, Sizes);
    };
    // The stride as written: in elements of the lane's span when it divides the step, else in elements
    // of the members' common size (a group of scalar loads written on several lines: x[33 * i + k]).
    std::int64_t Unit = Width;
    const auto dividesBy = [&](std::int64_t U) {
      return U > 0 && std::all_of(Coef->begin(), Coef->end(), [&](const auto &T) { return T.second % U == 0; });
    };
    if (!dividesBy(Unit) && std::all_of(Sizes.begin(), Sizes.end(), [&](std::int64_t Z) { return Z == Sizes[0]; }))
      Unit = Sizes[0];
    const bool Divides = dividesBy(Unit);
    Poly Elements;
    for (const auto &[S, C] : *Coef) Elements[S] = Divides ? C / Unit : C;
    A.LaneCoefficient = Divides ? toString(Elements) : toString(*Coef) + " bytes";
    if (Divides) A.Stride = (Constant ? toString(Elements) : "'" + toString(Elements) + "'") + " elements of " + bytesText(Unit);
    else A.Stride = (Constant ? toString(*Coef) : "'" + toString(*Coef) + "'") + " bytes per lane (" + bytesText(A.BytesPerLane) + " used)";
    // A symbolic stride is counted as the runtime value of the whole coefficient as written (the
    // message's 'X'), so "when 'X' >= k" and "when 'X' == 1" hold for any polynomial ('2*s', 'a - b').
    const std::int64_t BytesPerUnit = Divides ? Unit : 1;
    const auto countAt = [&](std::int64_t X) { return countAtStep(checkedMul(X, BytesPerUnit)); };
    if (Constant) {
      if (auto C = countAtStep(constantTerm(*Coef)); C && C->Sectors > 0) {
        A.Sectors = C->Sectors;
        A.IdealSectors = (C->UsefulBytes + 31) / 32;
        A.Amplification = C->amplification();
      } else {
        A.Overflows = true;  // lane 31's offset does not fit in 64 bits
      }
    } else {
      // The runtime factor: the worst amplification (at a large value) and the smallest value that reaches it.
      auto Worst = countAt(SampleSize);
      auto One = countAt(1);
      if (Worst && One) {
        A.Sectors = Worst->Sectors;
        A.IdealSectors = (Worst->UsefulBytes + 31) / 32;
        A.Amplification = Worst->amplification();
        A.AtOne = One->amplification();
        A.WorstFrom = SampleSize;
        for (std::int64_t V = 1; V <= 256; ++V)
          if (auto C = countAt(V); C && C->amplification() >= A.Amplification) {
            A.WorstFrom = V;
            break;
          }
      }
    }
    // A load whose lane walks its own chunk (at most a 128-byte line) in steps smaller than the chunk:
    // the warp's next iterations use the rest of the sectors it fetched, kept in L1.
    const std::uint64_t Step = magnitude(A.LoopStepBytes);
    if (!G.Store && Constant && Step != 0) {
      const std::uint64_t Chunk = magnitude(constantTerm(*Coef));
      if (Step < Chunk && Chunk <= 128) A.ReusedInL1 = true;
    }
    // Steps under a sector reuse it in the next iterations, if there are any: a loop known to run
    // fewer than 32 / step times leaves the rest of each sector unread.
    if (!G.Store && Step != 0 && Step < 32) {
      const unsigned Trips = L ? SE.getSmallConstantTripCount(L) : 0;
      A.WalksOwnSectors = Trips == 0 || std::uint64_t(Trips) * Step >= 32;
    }
  } else {
    std::vector<std::int64_t> Lanes(NLanes);
    bool Ok = true;
    std::optional<std::int64_t> Base = evalSCEV(G.Address, 0, 0);
    for (int Lane = 0; Lane < NLanes && Ok; ++Lane) {
      auto V = evalSCEV(G.Address, Lane, 0);
      if (!V || !Base) Ok = false;
      else Lanes[Lane] = *V - *Base;
    }
    if (Ok) {
      A.Pattern = LanePattern::NonAffine;
      const SectorCount C = countFor(Lanes, Offsets, Sizes);
      A.Sectors = C.Sectors;
      A.IdealSectors = (C.UsefulBytes + 31) / 32;
      A.Amplification = C.amplification();
      A.Sampled = "each runtime size " + std::to_string(SampleSize) + ", blockDim.x " + std::to_string(SampleBlockDim) +
                  " and block 0";  // not the spec's sizes: the message says so
      A.Stride = bytesText(Width) + " per lane";
    } else {
      A.Pattern = LanePattern::Unknown;
      A.Note = "the address depends on loaded data or on values the analysis cannot evaluate";
    }
  }
  // The address at the loop's first iteration, for re-read detection: evaluated at two lanes with the
  // sampled values (the same start in two loops reads the same addresses; the loops' own loads of
  // threadIdx or blockDim are different values of one register).
  if (L) {
    auto At0 = evalSCEV(G.Address, 0, 0), At7 = evalSCEV(G.Address, 7, 0);
    if (At0 && At7) A.StartKey = std::to_string(*At0) + "," + std::to_string(*At7);
  }
  return A;
}

/// How many of @p Loops one thread runs one after another: the longest chain of loops each reachable
/// from the one before (outermost loops: no cycle among them). The two sides of an if are no chain: a
/// thread takes one of them.
unsigned KernelAnalysis::sequentialPasses(const std::set<const Loop *> &Loops) const {
  const std::vector<const Loop *> List(Loops.begin(), Loops.end());
  // The longest chain ending at each loop; 0: not yet known. Loops that reach each other (irreducible
  // control flow, which LoopInfo leaves without an enclosing loop) are cut where the cycle closes.
  constexpr unsigned InProgress = ~0u;
  std::vector<unsigned> Chain(List.size(), 0);
  const std::function<unsigned(std::size_t)> chainTo = [&](std::size_t I) -> unsigned {
    if (Chain[I] == InProgress) return 0;
    if (Chain[I]) return Chain[I];
    Chain[I] = InProgress;
    unsigned Best = 1;
    for (std::size_t J = 0; J < List.size(); ++J)
      if (J != I && isPotentiallyReachable(List[J]->getHeader(), List[I]->getHeader(), nullptr, &DT, &LI))
        Best = std::max(Best, chainTo(J) + 1);
    return Chain[I] = Best;
  };
  unsigned Longest = 0;
  for (std::size_t I = 0; I < List.size(); ++I) Longest = std::max(Longest, chainTo(I));
  return Longest;
}

void KernelAnalysis::findReReads(KernelTraffic &K, const std::vector<Group> &Groups) {
  // A parameter loaded in two or more loops, none inside another, each starting at the same address
  // and stepping the same way: each loop is a pass over the same range.
  std::map<int, std::vector<std::pair<const Group *, const TrafficAccess *>>> Loads;
  for (std::size_t I = 0; I < Groups.size(); ++I)
    if (!Groups[I].Store && K.Accesses[I].Param >= 0 && K.Accesses[I].LoopId != 0)
      Loads[K.Accesses[I].Param].push_back({&Groups[I], &K.Accesses[I]});
  for (const auto &[Param, List] : Loads) {
    std::map<std::pair<std::string, std::int64_t>, std::set<const Loop *>> Passes;
    std::map<std::pair<std::string, std::int64_t>, const TrafficAccess *> FirstOf;
    for (const auto &[G, A] : List) {
      if (A->StartKey.empty()) continue;
      const Loop *L = LI.getLoopFor(G->BB);
      while (L->getParentLoop()) L = L->getParentLoop();  // the outermost loop: one pass
      const auto Key = std::make_pair(A->StartKey, A->LoopStepBytes);
      Passes[Key].insert(L);
      if (!FirstOf.count(Key)) FirstOf[Key] = A;
    }
    for (const auto &[Key, Loops] : Passes) {
      const unsigned Count = sequentialPasses(Loops);
      if (Count < 2) continue;
      const TrafficAccess *A = FirstOf[Key];
      K.ReReads.push_back({A->Tensor, Param, Count, A->File, A->Line, A->Column});
      break;
    }
  }
}

KernelTraffic KernelAnalysis::run() {
  KernelTraffic K;
  K.MangledName = F.getName().str();
  K.Function = &F;
  if (const DISubprogram *SP = F.getSubprogram()) {
    K.Line = SP->getLine();
    K.File = sourcePath(SP->getFilename(), SP->getDirectory());
  }
  for (const GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || !GV.getValueType()->isSized()) continue;
    std::vector<const User *> Work(GV.user_begin(), GV.user_end());
    bool Used = false;
    for (std::size_t I = 0; I < Work.size() && !Used && I < 4096; ++I) {
      if (const auto *Inst = dyn_cast<Instruction>(Work[I])) Used = Inst->getFunction() == &F;
      else Work.insert(Work.end(), Work[I]->user_begin(), Work[I]->user_end());
    }
    if (!Used) continue;
    K.SharedBytes += static_cast<std::int64_t>(DL.getTypeAllocSize(GV.getValueType()).getFixedValue());
    // `extern __shared__ T s[]`: no elements here, its bytes the launch's.
    if (const auto *Array = dyn_cast<ArrayType>(GV.getValueType()); Array && Array->getNumElements() == 0 && K.DynamicShared.empty())
      K.DynamicShared = llvm::demangle(GV.getName().str());
  }
  std::vector<Group> Groups;
  collect(Groups);
  for (const Group &G : Groups) {
    K.Accesses.push_back(describe(G));
    if (G.Store) K.StoreIndices |= K.Accesses.back().Indices;
  }
  if (std::getenv("ROOFLINT_TRAFFIC_DEBUG"))
    for (std::size_t I = 0; I < Groups.size(); ++I) {
      errs() << K.MangledName << " line " << K.Accesses[I].Line << " pattern " << int(K.Accesses[I].Pattern) << " amp "
             << K.Accesses[I].Amplification << " lanes " << K.Accesses[I].ActiveLanes << " loop " << K.Accesses[I].LoopId << " step " << K.Accesses[I].LoopStepBytes
             << " start " << K.Accesses[I].StartKey << " scev ";
      Groups[I].Address->print(errs());
      errs() << "\n";
    }
  findReReads(K, Groups);
  return K;
}

bool isKernel(const Function &F, const std::set<const Function *> &Annotated) {
  return F.getCallingConv() == CallingConv::PTX_Kernel || Annotated.count(&F);
}

}  // namespace

namespace {
/// How much of @p WorkingSet a level of @p Capacity bytes keeps (CacheLevels: the measured fractions).
Kept keptIn(std::int64_t WorkingSet, std::int64_t Capacity, double KeptFraction) {
  if (double(WorkingSet) <= KeptFraction * double(Capacity)) return Kept::All;
  return WorkingSet >= Capacity ? Kept::None : Kept::Part;
}
}  // namespace

namespace {
std::int64_t roundUp(std::int64_t A, std::int64_t Unit) { return (A + Unit - 1) / Unit * Unit; }
}  // namespace

Occupancy occupancy(int Threads, std::int64_t SharedBytes, int Registers, const CacheLevels &Levels) {
  // As the CUDA occupancy calculator (cuda_occupancy.h) counts: blocks take whole warps, shared memory
  // in units of 128 bytes, and each of an SM's 4 sub-partitions holds the warps its quarter of the
  // register file has room for.
  constexpr std::int64_t SharedUnit = 128, SubPartitions = 4;
  const std::int64_t Warps = std::max<std::int64_t>(1, (std::int64_t(Threads) + 31) / 32);
  const std::int64_t SharedPerBlock = roundUp(std::max<std::int64_t>(0, SharedBytes), SharedUnit) + Levels.ReservedSharedPerBlock;
  Occupancy O;
  const auto limit = [&](std::int64_t Blocks, Occupancy::Limit By) {
    if (Blocks < O.Blocks) O = {int(Blocks), By, O.RegistersKnown};
  };
  O.Blocks = int(std::max<std::int64_t>(1, Levels.MaxThreadsPerSm / 32 / Warps));
  limit(Levels.MaxBlocksPerSm, Occupancy::Limit::Blocks);
  limit(std::max<std::int64_t>(1, Levels.largestSharedConfig() / SharedPerBlock), Occupancy::Limit::Shared);
  if (Registers > 0 && Levels.RegistersPerSm > 0 && Levels.RegisterUnit > 0) {
    const std::int64_t PerWarp = roundUp(std::int64_t(Registers) * 32, Levels.RegisterUnit);
    O.RegistersKnown = true;
    if (PerWarp * roundUp(Warps, SubPartitions) > Levels.RegistersPerSm) {
      limit(0, Occupancy::Limit::Registers);  // no block fits: the launch fails
    } else {
      limit(Levels.RegistersPerSm / SubPartitions / PerWarp * SubPartitions / Warps, Occupancy::Limit::Registers);
    }
  }
  return O;
}

std::string Occupancy::text(int Registers) const {
  const std::string Count = std::to_string(Blocks) + (Blocks == 1 ? " block" : " blocks") + " per SM";
  if (By == Limit::Registers) return Count + " (their registers, " + std::to_string(Registers) + " a thread)";
  const std::string Limiter = By == Limit::Shared ? "their shared memory" : By == Limit::Blocks ? "the SM's most" : "their threads";
  if (RegistersKnown) return Count + " (" + Limiter + ")";
  if (Registers > 0) return Count + " (" + Limiter + "; the GPU's register file is not known)";
  return Count + " (" + Limiter + "; registers not stated, which may allow fewer: .registers(n))";
}

LayerCondition layerCondition(unsigned Passes, std::int64_t RowBytes, int ThreadsPerBlock, std::int64_t SharedBytes,
                              const CacheLevels &Levels, int Registers) {
  LayerCondition C;
  C.RowBytes = RowBytes;
  const std::int64_t SharedPerBlock = std::max<std::int64_t>(0, SharedBytes) + Levels.ReservedSharedPerBlock;
  const std::int64_t MaxShared = Levels.largestSharedConfig();
  C.Resident = occupancy(ThreadsPerBlock, SharedBytes, Registers, Levels);
  C.BlocksPerSm = std::max(1, C.Resident.Blocks);  // what the carve-out is chosen for
  // The configuration: the smallest that holds the blocks' shared memory and the driver's own margin.
  const std::int64_t Need = std::int64_t(C.BlocksPerSm) * std::max(SharedPerBlock, Levels.DriverSharedPerBlock);
  C.SharedConfig = MaxShared;
  for (const int KiB : Levels.SharedConfigsKiB)
    if (std::int64_t(KiB) * 1024 >= Need) {
      C.SharedConfig = std::int64_t(KiB) * 1024;
      break;
    }
  C.L1Available = Levels.L1BytesPerSm - C.SharedConfig;
  C.SmWorkingSet = RowBytes * C.BlocksPerSm;
  C.InL1 = keptIn(C.SmWorkingSet, C.L1Available, Levels.L1KeptFraction);
  C.InL2 = keptIn(C.SmWorkingSet * Levels.Sms, Levels.L2Bytes, Levels.L2KeptFraction);
  const auto ratio = [&](Kept K) { return K == Kept::All ? 1.0 : K == Kept::None ? double(Passes) : 0.0; };
  C.L2Ratio = ratio(C.InL1);
  C.DramRatio = ratio(C.InL2);
  return C;
}

double SectorCount::amplification() const {
  const std::int64_t Ideal = (UsefulBytes + 31) / 32;
  return Ideal > 0 ? double(Sectors) / double(Ideal) : 1;
}

SectorCount countSectors(const std::vector<std::vector<std::int64_t>> &Offsets, const std::vector<std::int64_t> &Sizes) {
  std::int64_t Min = 0;
  bool Any = false;
  for (const auto &Lane : Offsets)
    for (std::int64_t O : Lane) {
      Min = Any ? std::min(Min, O) : O;
      Any = true;
    }
  std::set<std::int64_t> Sectors;
  std::set<std::int64_t> Bytes;
  for (const auto &Lane : Offsets)
    for (std::size_t K = 0; K < Lane.size() && K < Sizes.size(); ++K) {
      // The lowest address of the request taken as 128-byte aligned.
      const std::optional<std::int64_t> Rel = checkedSub(Lane[K], Min);
      const std::optional<std::int64_t> End = Rel ? checkedAdd(*Rel, Sizes[K]) : std::nullopt;
      if (!End) return {};
      const std::int64_t Start = *Rel;
      for (std::int64_t S = Start / 32; S <= (Start + Sizes[K] - 1) / 32; ++S) Sectors.insert(S);
      if (Bytes.size() < (1u << 16))
        for (std::int64_t B = 0; B < Sizes[K]; ++B) Bytes.insert(Start + B);
    }
  return {static_cast<std::int64_t>(Sectors.size()), static_cast<std::int64_t>(Bytes.size())};
}

std::string gridIndexNames(unsigned Mask) {
  static const char *const Names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z"};
  std::string Out;
  for (unsigned B = 0; B < 6; ++B)
    if (Mask & (1u << B)) Out += (Out.empty() ? "" : ", ") + std::string(Names[B]);
  return Out;
}

const KernelTraffic *DeviceTraffic::find(const std::string &MangledName) const {
  for (const KernelTraffic &K : Kernels)
    if (K.MangledName == MangledName) return &K;
  return nullptr;
}

std::string accessText(const TrafficAccess &A) {
  return std::string(A.Store ? "store" : "load") + " through " +
         (A.Tensor.empty() ? std::string("a global pointer") : "'" + A.Tensor + "'");
}

std::string uncoalescedMessage(const TrafficAccess &A) {
  const std::string What = accessText(A);
  const std::string X = model::format_significant(A.Amplification) + "x";
  // A guarded access that fewer lanes run: the request is theirs.
  const std::string Warp = A.ActiveLanes < 32 ? "the " + std::to_string(A.ActiveLanes) + " lanes of a warp that run it (at most)"
                                              : "a warp";
  const std::string Moves = Warp + (A.ActiveLanes < 32 ? " move" : " moves");
  const std::int64_t Useful = A.BytesPerLane * A.ActiveLanes;
  switch (A.Pattern) {
  case LanePattern::Affine:
    if (A.Overflows)
      return What + " is not unit-stride in 'threadIdx.x'; stride " + A.Stride +
             ": the warp's byte offsets overflow 64 bits, so its traffic is unknown";
    if (A.Amplification <= 1 || A.ReusedInL1) return "";
    return What + " is not unit-stride in 'threadIdx.x'; stride " + A.Stride + ": " + Moves + " " +
           std::to_string(A.Sectors * 32) + " bytes in " + std::to_string(A.Sectors) + " sectors for " +
           std::to_string(Useful) + " bytes used (" + X + " the traffic)";
  case LanePattern::Symbolic: {
    if (A.Amplification <= 1) return "";
    const std::string Factor = A.Stride.substr(0, A.Stride.find('\'', 1) + 1);  // the quoted coefficient
    return What + " is not unit-stride in 'threadIdx.x'; stride " + A.Stride + ": " + Moves + " up to " + X +
           " the traffic it uses (" + std::to_string(A.Sectors) + " sectors instead of " +
           std::to_string(A.IdealSectors) + " when " + Factor + " >= " + std::to_string(A.WorstFrom) + "; " +
           model::format_significant(A.AtOne) + "x when " + Factor + " == 1)";
  }
  case LanePattern::NonAffine:
    if (A.Amplification <= 1) return "";
    return What + " is not affine in 'threadIdx.x' (a '/', '%' or product in its index); sampled with " + A.Sampled +
           ", " + Moves + " " + std::to_string(A.Sectors * 32) + " bytes in " + std::to_string(A.Sectors) +
           " sectors for " + std::to_string(Useful) + " bytes used (" + X + " the traffic)";
  case LanePattern::Unknown: return "";
  }
  return "";
}

/// Removes the module's global constructors and destructors: the device runs none (nvcc rejects a
/// device variable's dynamic initialisation), and the parse, which lets it pass (prepareDeviceParse),
/// makes some for the host's constants; unused, they and what only they call go with the pipeline's
/// dead code.
void dropGlobalConstructors(Module &M) {
  for (const char *Name : {"llvm.global_ctors", "llvm.global_dtors"}) {
    GlobalVariable *List = M.getGlobalVariable(Name);
    if (!List) continue;
    std::vector<Function *> Functions;
    if (const auto *Entries = dyn_cast_or_null<ConstantArray>(List->getInitializer()))
      for (const Use &Entry : Entries->operands())
        if (const auto *S = dyn_cast<ConstantStruct>(Entry.get()); S && S->getNumOperands() > 1)
          if (auto *F = dyn_cast<Function>(S->getOperand(1)->stripPointerCasts())) Functions.push_back(F);
    List->eraseFromParent();
    for (Function *F : Functions)
      if (F->use_empty()) F->eraseFromParent();
  }
}

DeviceTraffic analyzeDeviceModule(Module &M) {
  const auto Start = std::chrono::steady_clock::now();
  DeviceTraffic Out;
  std::set<const Function *> Annotated;
  if (NamedMDNode *NMD = M.getNamedMetadata("nvvm.annotations"))
    for (const MDNode *N : NMD->operands()) {
      if (N->getNumOperands() < 2) continue;
      const auto *Name = dyn_cast<MDString>(N->getOperand(1));
      if (!Name || Name->getString() != "kernel") continue;
      if (const auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get()))
        if (const auto *Fn = dyn_cast<Function>(V->getValue())) Annotated.insert(Fn);
    }

  dropGlobalConstructors(M);
  // Every device function inlined into its kernels (a __noinline__ helper too): the evaluation follows
  // the kernel's code as one function.
  for (Function &F : M)
    if (!F.isDeclaration() && !isKernel(F, Annotated)) {
      F.removeFnAttr(Attribute::NoInline);
      F.removeFnAttr(Attribute::OptimizeNone);
      F.addFnAttr(Attribute::AlwaysInline);
    }
  // Inlining and scalar cleanup so that device functions and template instantiations are seen as the
  // kernel uses them; no unrolling or vectorisation, so that one source access stays one IR access
  // and loops stay recurrences scalar evolution describes.
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = false;
  PTO.LoopVectorization = false;
  PTO.SLPVectorization = false;
  PTO.LoopInterleaving = false;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(nullptr, PTO);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
  MPM.run(M, MAM);
  Out.OptimiseSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();

  for (Function &F : M) {
    if (F.isDeclaration() || !isKernel(F, Annotated)) continue;
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    Out.Kernels.push_back(KernelAnalysis(F, SE, LI, DT).run());
  }
  // Then, for the evaluation (TrafficModel.h), the kernels as nvcc compiles them: loops of a small
  // constant trip count unrolled in full and the loads the unrolled code repeats folded (x[(i + k * j)
  // % n] over j, k < 4 reads 7 distinct addresses, not 16). The closed forms above keep one IR access
  // per source access.
  FunctionPassManager Unroll;
  Unroll.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(2, /*OnlyWhenForced=*/false, /*ForgetSCEV=*/false)));
  Unroll.addPass(InstCombinePass());
  Unroll.addPass(GVNPass());
  Unroll.addPass(SimplifyCFGPass());
  for (Function &F : M)
    if (!F.isDeclaration() && isKernel(F, Annotated)) Unroll.run(F, FAM);
  Out.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  // ROOFLINT_TRAFFIC_TIME: where the device-side work's time goes (scripts/bench-analyzer.sh's profile).
  if (std::getenv("ROOFLINT_TRAFFIC_TIME")) {
    unsigned Functions = 0, Instructions = 0;
    for (const Function &F : M)
      if (!F.isDeclaration()) {
        ++Functions;
        Instructions += F.getInstructionCount();
      }
    errs() << "rooflint: traffic: optimisation " << format("%.3f", Out.OptimiseSeconds) << " s, analysis "
           << format("%.3f", Out.Seconds - Out.OptimiseSeconds) << " s; " << Out.Kernels.size() << " kernels, "
           << Functions << " functions, " << Instructions << " instructions after optimisation\n";
  }
  return Out;
}

}  // namespace rooflint::analyzer
