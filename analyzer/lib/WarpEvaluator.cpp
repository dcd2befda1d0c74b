// Runs a kernel's address slice for concrete warps (WarpEvaluator.h).

#include "rooflint/analyzer/WarpEvaluator.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>
#include <mutex>
#include <set>

#include "rooflint/files/source_position.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace rooflint::analyzer {

bool isReadOnlyLoad(unsigned IntrinsicId) {
  switch (IntrinsicId) {
  case Intrinsic::nvvm_ldg_global_f:
  case Intrinsic::nvvm_ldg_global_i:
  case Intrinsic::nvvm_ldg_global_p:
  case Intrinsic::nvvm_ldu_global_f:
  case Intrinsic::nvvm_ldu_global_i:
  case Intrinsic::nvvm_ldu_global_p: return true;
  default: return false;
  }
}

namespace {

constexpr unsigned Lanes = 32;
using LaneMask = std::uint32_t;

/// An operand: a value slot (>= 0) or a constant (-1 - index into the constant pool).
using Ref = std::int32_t;

enum class Op : std::uint8_t {
  // binary integer arithmetic (A, B)
  Add, Sub, Mul, Shl, LShr, AShr, And, Or, Xor, UDiv, SDiv, URem, SRem, SMin, SMax, UMin, UMax,
  ICmp,    // A, B, Pred
  Select,  // A ? B : C
  Abs,     // |A|
  CountZeros, PopCount,  // Pred: 0 leading, 1 trailing (CountZeros)
  ZExt, SExt, Trunc, Copy,  // A, From width (ZExt/SExt), result at Width
  Gep,     // A + Imm + sum of Terms
  Special, // Pred: which register
  Loaded,  // the value at address A of an index tensor whose values the spec states (EvalLaunch::Indices)
  Unknown, // a value the evaluator does not model
  Access,  // a global access: A = address, Pred = site
  Barrier,
};

enum SpecialReg : std::uint8_t { TidX, TidY, TidZ, CtaX, CtaY, CtaZ, NTidX, NTidY, NTidZ, NCtaX, NCtaY, NCtaZ, LaneId };

/// One request of a wmma fragment moved between registers and global memory. The H200 executes a
/// 16 x 16 fragment as a few requests in which each lane moves one or two elements of a line (a row of
/// the fragment in memory, `ldm` elements after the one before) (scripts/probes/wmma-global.sh, SASS and
/// counters, 65,536 fragments a kind, the pitch a constant and a parameter alike):
/// - Pairs: `load.{a,b}.{row,col}` of f16, `load.{a,b}.row` of bf16, `load.c.row` and `store.d.row` of
///   f32 and f16: four
///   requests (LDG.E, LDG.E.64, STG.E.64), lane L moving elements 2 (L % 4) + 8 h and the next of line
///   L / 4 + 8 v: 8 sectors a request when lines are sector-aligned.
/// - Columns: `load.c.col` and `store.d.col` of f32: eight requests (LDG.E, STG.E), lane L moving
///   element L / 4 + 8 v of line 2 (L % 4) + j + 8 h: 4 sectors a request.
/// - Singles, Quads: tf32 (16 x 16 x 8) `load.a.row` (16 x 8 floats) and `load.b.row` (8 x 16): four
///   requests (LDG.E) of one float a lane: element L % 4 + 4 h of line L / 4 + 8 v (8 sectors a request,
///   the other half of each sector the next request's), and element L / 4 + 8 v of line L % 4 + 4 h
///   (4 sectors a request).
/// A Pairs fragment's pieces of the same lines come one after the other (h fastest): an f16 fragment's two
/// stores to the halves of its sectors may then join on their way to L2, as the H200 joined them in one
/// kernel (1.1x) and not in another (2x), by the order ptxas chose. ptxas may also split a fragment
/// otherwise (the example WMMA GEMM's f32 stores: eight requests of 4 sectors): the sectors are the same.
/// tf32's column-major fragments, bf16's column-major ones, the other shapes and the other types were
/// not measured: not followed.
struct FragmentPiece {
  enum Pattern : std::uint8_t { None, Pairs, Columns, Singles, Quads } P = None;
  std::uint8_t Index = 0;  ///< which piece: its bits (h, v) for Pairs, Singles and Quads, (j, v, h) for Columns, fastest first
  std::uint8_t ElemBytes = 0;
  /// Lane @p Lane's offset in elements from the fragment's start at row pitch @p Ld.
  std::int64_t elementOffset(unsigned Lane, std::int64_t Ld) const {
    const std::int64_t Quad = Lane % 4, Group = Lane / 4;
    switch (P) {
    case Pairs: return (Group + 8 * (Index >> 1)) * Ld + 2 * Quad + 8 * (Index & 1);
    case Columns: return (2 * Quad + (Index & 1) + 8 * (Index >> 2)) * Ld + Group + 8 * ((Index >> 1) & 1);
    case Singles: return (Group + 8 * (Index >> 1)) * Ld + Quad + 4 * (Index & 1);
    case Quads: return (Quad + 4 * (Index & 1)) * Ld + Group + 8 * (Index >> 1);
    case None: break;
    }
    return 0;
  }
};

struct Instr {
  Op Code;
  std::uint8_t Width = 64;  ///< result bits
  std::uint8_t From = 64;   ///< source bits (ZExt, SExt)
  std::uint8_t Pred = 0;    ///< ICmp predicate, special register, site index low bits
  std::int32_t Dst = -1;
  Ref A = 0, B = 0, C = 0;
  std::int64_t Imm = 0;     ///< Gep: constant offset; Access: site index
  std::vector<std::pair<Ref, std::int64_t>> Terms;  ///< Gep: (index, bytes per step), sign-extended at Pred bits
  FragmentPiece Piece{};                            ///< Access of a wmma fragment: B is its row pitch
};

struct PhiInstr {
  std::int32_t Dst;
  std::uint8_t Width;
  std::vector<std::pair<int, Ref>> Incoming;  ///< (predecessor block, value)
};

enum class Term : std::uint8_t { Jump, Branch, Switch, Exit };

struct BlockCode {
  std::vector<PhiInstr> Phis;
  std::vector<Instr> Body;
  Term T = Term::Exit;
  Ref Cond = 0;                         ///< Branch, Switch
  std::vector<int> Succ;                ///< Jump: 1; Branch: true, false; Switch: default, then cases
  std::vector<std::int64_t> Cases;      ///< Switch: the case values (Succ[1 + i])
  std::uint8_t CondWidth = 64;
  int Reconverge = -1;                  ///< the immediate post-dominator (-1: the exit)
  bool Skip = false;                    ///< the region up to Reconverge touches nothing the slice needs
  std::vector<std::int32_t> RegionSlots;  ///< slots of the slice values the region defines
  std::vector<unsigned> RegionSites;      ///< the accesses in the region
  unsigned Line = 0;                    ///< the terminator's source line
  std::string File;
  std::vector<unsigned> CondParams;     ///< the scalar parameters the condition depends on (their indices)
  std::vector<std::pair<unsigned, unsigned>> CondShifts;  ///< shiftsByParameters of the condition
};

std::optional<SpecialReg> specialOfIntrinsic(Intrinsic::ID Id) {
  switch (Id) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x: return TidX;
  case Intrinsic::nvvm_read_ptx_sreg_tid_y: return TidY;
  case Intrinsic::nvvm_read_ptx_sreg_tid_z: return TidZ;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return CtaX;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return CtaY;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return CtaZ;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x: return NTidX;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y: return NTidY;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z: return NTidZ;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: return NCtaX;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y: return NCtaY;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: return NCtaZ;
  case Intrinsic::nvvm_read_ptx_sreg_laneid: return LaneId;
  default: return std::nullopt;
  }
}

/// A CUDA special register read: the NVVM intrinsics, or a load of the plain globals some mock headers
/// declare (`extern const uint3 threadIdx;`).
std::optional<SpecialReg> specialOf(const Value *V) {
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) return specialOfIntrinsic(II->getIntrinsicID());
  const auto *LI = dyn_cast<LoadInst>(V);
  if (!LI) return std::nullopt;
  APInt Offset(64, 0);
  const Value *P = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(LI->getModule()->getDataLayout(), Offset, true);
  const auto *GV = dyn_cast<GlobalVariable>(P->stripPointerCasts());
  if (!GV) return std::nullopt;
  const unsigned Field = static_cast<unsigned>(std::min<std::uint64_t>(Offset.getZExtValue() / 4, 2));
  const StringRef N = GV->getName();
  if (N == "threadIdx") return SpecialReg(TidX + Field);
  if (N == "blockIdx") return SpecialReg(CtaX + Field);
  if (N == "blockDim") return SpecialReg(NTidX + Field);
  if (N == "gridDim") return SpecialReg(NCtaX + Field);
  return std::nullopt;
}

bool isBarrier(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II) return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier0:
  case Intrinsic::nvvm_barrier0_and:
  case Intrinsic::nvvm_barrier0_or:
  case Intrinsic::nvvm_barrier0_popc:
  case Intrinsic::nvvm_barrier_sync:
  case Intrinsic::nvvm_barrier_sync_cnt: return true;
  default: return false;
  }
}

/// The pieces a call of a wmma intrinsic @p I moves, and its kind; empty for any other instruction (and
/// for the wmma forms not measured).
struct FragmentAccess {
  FragmentPiece::Pattern P = FragmentPiece::None;
  unsigned ElemBytes = 0, Pieces = 0;
  AccessSite::Kind K = AccessSite::Load;
};
std::optional<FragmentAccess> fragmentAccess(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  if (!F) return std::nullopt;
  // llvm.nvvm.wmma.<m16n16k16|m16n16k8>.<load|store>.<a|b|c|d>.<row|col>.stride.<type>[.p<N>]
  SmallVector<StringRef, 10> Part;
  F->getName().split(Part, '.');
  if (Part.size() < 9 || Part[0] != "llvm" || Part[1] != "nvvm" || Part[2] != "wmma" || Part[7] != "stride" ||
      (Part[3] != "m16n16k16" && Part[3] != "m16n16k8"))
    return std::nullopt;
  const StringRef What = Part[4], Matrix = Part[5], Layout = Part[6], Type = Part[8];
  const bool K16 = Part[3] == "m16n16k16";
  // f16 in both layouts, bf16 row-major: the forms measured.
  const bool Half = K16 && (Type == "f16" || (Type == "bf16" && Layout == "row"));
  if (What == "load" && (Matrix == "a" || Matrix == "b") && Half) return FragmentAccess{FragmentPiece::Pairs, 2, 4, AccessSite::Load};
  if (What == "load" && (Matrix == "a" || Matrix == "b") && Type == "tf32" && Layout == "row")
    return FragmentAccess{Matrix == "a" ? FragmentPiece::Singles : FragmentPiece::Quads, 4, 4, AccessSite::Load};
  // The accumulator (k16's: k8's was not measured), loaded (c) or stored (d).
  const AccessSite::Kind K = What == "load" ? AccessSite::Load : AccessSite::Store;
  if (!K16 || !((What == "load" && Matrix == "c") || (What == "store" && Matrix == "d"))) return std::nullopt;
  if (Layout == "row" && (Type == "f32" || Type == "f16")) return FragmentAccess{FragmentPiece::Pairs, Type == "f32" ? 4u : 2u, 4, K};
  if (Layout == "col" && Type == "f32") return FragmentAccess{FragmentPiece::Columns, 4, 8, K};
  return std::nullopt;
}

/// A global access of @p I: its pointer, bytes per lane, kind, and whether it bypasses L1.
struct AccessOf {
  Value *Pointer = nullptr;
  unsigned Bytes = 0;
  AccessSite::Kind K = AccessSite::Load;
  bool Bypass = false;
  unsigned Align = 1;  ///< bytes the pointer is known to be aligned to
};

/// One request the hardware issues: @p Bytes at Base + Offset, emitted where @p At runs. Adjacent
/// scalar accesses of one block become one vector request where NVPTX's load/store vectorizer merges
/// them (consecutive, the first aligned to the whole, at most 16 bytes: a float4 split by SROA).
struct Planned {
  Instruction *At = nullptr;
  Value *Base = nullptr;
  std::int64_t Offset = 0;
  unsigned Bytes = 0;
  AccessSite::Kind K = AccessSite::Load;
  bool Bypass = false;
  FragmentPiece Piece{};  ///< a wmma fragment's part: the lanes' addresses follow its layout
  Value *Stride = nullptr;  ///< the fragment's row pitch in elements (ldm)
};

/// The shared (3), constant (4) and local (5) address spaces.
bool notGlobalSpace(unsigned AS) { return AS == 3 || AS == 4 || AS == 5; }

/// A pointer into the thread's own stack (local memory), a struct parameter's copy, or a variable of
/// the shared, constant or local address space (through an address-space cast to generic), whichever
/// arm of a select or a phi it comes from (a store the optimizer merged from two shared arrays' arms).
bool isLocal(const Value *Ptr) {
  const auto local = [](const Value *U) {
    if (isa<AllocaInst>(U)) return true;
    if (const auto *Arg = dyn_cast<Argument>(U)) return Arg->hasByValAttr();
    if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(U)) return notGlobalSpace(ASC->getSrcAddressSpace());
    if (const auto *GV = dyn_cast<GlobalVariable>(U->stripPointerCasts())) return notGlobalSpace(GV->getAddressSpace());
    return false;
  };
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/16);
  return !Objects.empty() && all_of(Objects, local);
}

}  // namespace

bool neverGlobal(const Value *Ptr) { return notGlobalSpace(Ptr->getType()->getPointerAddressSpace()) || isLocal(Ptr); }

namespace {

unsigned storeBytes(const DataLayout &DL, Type *T) { return static_cast<unsigned>(DL.getTypeStoreSize(T).getFixedValue()); }

/// The pointer operand of an inline-asm global load or store ("ld.global.cs.f32 $0, [$1];"): the
/// argument whose operand number appears inside the brackets.
Value *asmPointer(const CallInst &CI, StringRef Asm) {
  const std::size_t Open = Asm.find('['), Close = Asm.find(']', Open);
  if (Open == StringRef::npos || Close == StringRef::npos) return nullptr;
  const StringRef Inside = Asm.slice(Open + 1, Close).trim();
  unsigned Operand = 0;
  if (!Inside.starts_with("$") || Inside.drop_front().consumeInteger(10, Operand)) return nullptr;
  // Operand numbers count the outputs first: one for a value result, one per field of a struct result.
  unsigned Outputs = 0;
  if (!CI.getType()->isVoidTy()) Outputs = CI.getType()->isStructTy() ? CI.getType()->getStructNumElements() : 1;
  if (Operand < Outputs || Operand - Outputs >= CI.arg_size()) return nullptr;
  Value *P = CI.getArgOperand(Operand - Outputs);
  return P->getType()->isPointerTy() || P->getType()->isIntegerTy(64) ? P : nullptr;
}

/// CUDA's cache-hint loads and stores (__ldcs, __ldcg, __stcs, ...): clang 19 sees them declared only
/// (CudaSetup's host compatibility header; CUDA defines them in sm_32_intrinsics.hpp as one ld.global or
/// st.global with the hint). A call of one is that access: its first argument the address, the bytes of
/// its result (a load) or of its second argument (a store, by value: a struct such as int4 reaches it
/// as a byval pointer); .cg and .cv loads are not cached in L1.
std::optional<AccessOf> cacheHintAccessOf(CallInst &CI, const DataLayout &DL) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || Callee->isIntrinsic() || !Callee->isDeclaration() || CI.arg_size() < 1) return std::nullopt;
  const StringRef Name = Callee->getName();  // Itanium: "_Z6__ldcsIfET_PKS0_", "_Z6__ldcsPKf"
  static const char *const Loads[] = {"_Z6__ldcs", "_Z6__ldcg", "_Z6__ldca", "_Z6__ldlu", "_Z6__ldcv"};
  static const char *const Stores[] = {"_Z6__stcs", "_Z6__stcg", "_Z6__stwb", "_Z6__stwt"};
  AccessOf A;
  A.Pointer = CI.getArgOperand(0);
  if (!A.Pointer->getType()->isPointerTy()) return std::nullopt;
  for (const char *L : Loads)
    if (Name.starts_with(L) && !CI.getType()->isVoidTy() && CI.getType()->isSized()) {
      A.Bytes = storeBytes(DL, CI.getType());
      A.Bypass = Name.starts_with("_Z6__ldcg") || Name.starts_with("_Z6__ldcv");
      return A;
    }
  for (const char *S : Stores) {
    if (!Name.starts_with(S) || CI.arg_size() < 2) continue;
    // The value stored: a scalar or vector argument, or a struct (an int4) passed by value through a pointer.
    Type *Stored = CI.isByValArgument(1) ? CI.getParamByValType(1) : CI.getArgOperand(1)->getType();
    if (!Stored || !Stored->isSized() || Stored->isPointerTy()) return std::nullopt;
    A.Bytes = storeBytes(DL, Stored);
    A.K = AccessSite::Store;
    return A;
  }
  return std::nullopt;
}

/// The integer functions of libdevice that index arithmetic uses (declarations: libdevice is not linked).
std::optional<Op> libdeviceOp(const Function *F) {
  if (!F) return std::nullopt;
  static const std::pair<const char *, Op> Table[] = {
      {"__nv_min", Op::SMin},     {"__nv_max", Op::SMax},      {"__nv_umin", Op::UMin},   {"__nv_umax", Op::UMax},
      {"__nv_llmin", Op::SMin},   {"__nv_llmax", Op::SMax},    {"__nv_ullmin", Op::UMin}, {"__nv_ullmax", Op::UMax},
      {"__nv_abs", Op::Abs},      {"__nv_llabs", Op::Abs},     {"__nv_mul24", Op::Mul},   {"__nv_umul24", Op::Mul},
      {"__nv_popc", Op::PopCount}, {"__nv_popcll", Op::PopCount}};
  for (const auto &[Name, Code] : Table)
    if (F->getName() == Name) return Code;
  return std::nullopt;
}

/// An atomic the evaluator models as an access (accessOf): its result is memory's, never known.
bool isAtomic(const Instruction &I) {
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) return true;
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() == Intrinsic::nvvm_atomic_load_inc_32 || II->getIntrinsicID() == Intrinsic::nvvm_atomic_load_dec_32);
}

std::optional<AccessOf> accessOf(Instruction &I, const DataLayout &DL) {
  AccessOf A;
  if (auto *L = dyn_cast<LoadInst>(&I)) {
    if (specialOf(L)) return std::nullopt;
    A = {L->getPointerOperand(), storeBytes(DL, L->getType()), AccessSite::Load, L->isVolatile(),
         static_cast<unsigned>(L->getAlign().value())};
  } else if (auto *S = dyn_cast<StoreInst>(&I)) {
    A = {S->getPointerOperand(), storeBytes(DL, S->getValueOperand()->getType()), AccessSite::Store, false,
         static_cast<unsigned>(S->getAlign().value())};
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    A = {RMW->getPointerOperand(), storeBytes(DL, RMW->getValOperand()->getType()), AccessSite::Atomic, true};
  } else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
    A = {X->getPointerOperand(), storeBytes(DL, X->getNewValOperand()->getType()), AccessSite::Atomic, true};
  } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (isAtomic(*II))  // atomicInc, atomicDec
      A = {II->getArgOperand(0), storeBytes(DL, II->getType()), AccessSite::Atomic, true};
    else if (isReadOnlyLoad(II->getIntrinsicID()))
      A = {II->getArgOperand(0), storeBytes(DL, II->getType()), AccessSite::Load, false};
    else
      return std::nullopt;
  } else if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isInlineAsm()) {
    const StringRef Asm = cast<InlineAsm>(CI->getCalledOperand())->getAsmString();
    const bool Load = Asm.contains("ld.global"), Store = Asm.contains("st.global");
    if (!Load && !Store) return std::nullopt;
    Value *P = asmPointer(*CI, Asm);
    if (!P) return std::nullopt;
    unsigned Bytes = 0;
    if (Load) Bytes = CI->getType()->isVoidTy() ? 0 : storeBytes(DL, CI->getType());
    else
      for (Value *Arg : CI->args())
        if (Arg != P) Bytes += storeBytes(DL, Arg->getType());
    const bool Bypass = Load && (Asm.contains(".cg") || Asm.contains(".cv") || Asm.contains(".volatile"));
    A = {P, Bytes, Load ? AccessSite::Load : AccessSite::Store, Bypass};
  } else if (auto *Call = dyn_cast<CallInst>(&I); Call && cacheHintAccessOf(*Call, DL)) {
    A = *cacheHintAccessOf(*Call, DL);
  } else {
    return std::nullopt;
  }
  if (!A.Pointer || A.Bytes == 0 || (A.Pointer->getType()->isPointerTy() && neverGlobal(A.Pointer))) return std::nullopt;
  return A;
}

/// Calls @p Visit on each value @p V is computed from, @p V included, through arithmetic alone: false
/// (and stops) where that reaches a load of memory, an atomic or a call with effects, or past 256 values.
template <class Fn> bool visitArithmeticSlice(const Value *V, Fn Visit) {
  std::set<const Value *> Seen;
  std::vector<const Value *> Work{V};
  while (!Work.empty()) {
    const Value *X = Work.back();
    Work.pop_back();
    if (!Seen.insert(X).second) continue;
    if (Seen.size() > 256) return false;
    Visit(X);
    const auto *I = dyn_cast<Instruction>(X);
    if (!I) continue;
    const auto *Call = dyn_cast<CallInst>(I);
    const bool Pure = Call && Call->getCalledFunction() && Call->getCalledFunction()->isIntrinsic() && Call->doesNotAccessMemory();
    if ((isa<LoadInst>(I) && !specialOf(I)) || isAtomic(*I) || (Call && !specialOf(Call) && !Pure))
      return false;
    for (const Value *Op : I->operands()) Work.push_back(Op);
  }
  return true;
}

/// The integer parameters value @p V is computed from, by their indices, when it is computed from no
/// memory (no load, atomic or call but the special registers'): a branch whose condition the evaluation
/// cannot decide then names those the launch left unknown (the spec does not bind them).
std::vector<unsigned> scalarParametersBehind(const Value *V) {
  std::vector<unsigned> Params;
  const bool Arithmetic = visitArithmeticSlice(V, [&](const Value *X) {
    if (const auto *Arg = dyn_cast<Argument>(X); Arg && Arg->getType()->isIntegerTy()) Params.push_back(Arg->getArgNo());
  });
  if (!Arithmetic) return {};
  std::sort(Params.begin(), Params.end());
  return Params;
}

/// The shifts @p V is computed from, by arithmetic alone, whose amount is a scalar parameter itself (`1 <<
/// log2N`, through casts): (parameter, the shifted value's bits). Such a parameter at the width or more
/// (a logarithm bound as the size) leaves the shift undefined.
std::vector<std::pair<unsigned, unsigned>> shiftsByParameters(const Value *V) {
  std::vector<std::pair<unsigned, unsigned>> Shifts;
  const bool Arithmetic = visitArithmeticSlice(V, [&](const Value *X) {
    const auto *Shift = dyn_cast<BinaryOperator>(X);
    if (!Shift || !Shift->isShift() || !Shift->getType()->isIntegerTy()) return;
    const Value *Amount = Shift->getOperand(1);
    while (const auto *Cast = dyn_cast<CastInst>(Amount)) Amount = Cast->getOperand(0);
    if (const auto *Arg = dyn_cast<Argument>(Amount); Arg && Arg->getType()->isIntegerTy())
      Shifts.push_back({Arg->getArgNo(), Shift->getType()->getIntegerBitWidth()});
  });
  return Arithmetic ? Shifts : std::vector<std::pair<unsigned, unsigned>>{};
}

/// The kernel parameter a pointer is based on, or -1.
int paramBehind(const Value *Ptr) {
  if (const auto *Arg = dyn_cast<Argument>(getUnderlyingObject(Ptr, 16))) return static_cast<int>(Arg->getArgNo());
  return -1;
}

/// Intrinsics that take a pointer but touch no global memory, or that the evaluator models.
bool harmlessIntrinsic(Intrinsic::ID Id) {
  if (isReadOnlyLoad(Id)) return true;
  switch (Id) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::prefetch:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline: return true;
  default: return false;
  }
}

/// The requests of wmma call @p Call, which moves fragment @p F (FragmentPiece); none into shared memory.
/// Its first argument is the fragment's address, its last the row pitch.
void planFragment(CallInst &Call, const FragmentAccess &F, std::vector<Planned> &Out) {
  Value *Ptr = Call.getArgOperand(0), *Stride = Call.getArgOperand(Call.arg_size() - 1);
  if (neverGlobal(Ptr)) return;
  const unsigned LaneBytes = F.P == FragmentPiece::Pairs ? 2 * F.ElemBytes : F.ElemBytes;
  for (unsigned I = 0; I < F.Pieces; ++I) {
    Planned P{&Call, Ptr, 0, LaneBytes, F.K, false};
    P.Piece = {F.P, std::uint8_t(I), std::uint8_t(F.ElemBytes)};
    P.Stride = Stride;
    Out.push_back(P);
  }
}

/// Bytes of sm_90's widest global load or store (ld.global.v4.u32): NVPTX splits and merges to it.
constexpr unsigned WidestAccess = 16;

/// The requests of a memcpy, memmove or memset with a constant length: on each side, chunks of the
/// largest power of two up to 16 bytes that side's alignment allows (a float4 copied from global to
/// shared memory is one 16-byte global load whatever the shared side's alignment).
void planMemIntrinsic(MemIntrinsic &MI, std::vector<Planned> &Out) {
  const auto *Len = dyn_cast<ConstantInt>(MI.getLength());
  if (!Len || Len->getZExtValue() == 0 || Len->getZExtValue() > 4096) return;
  const std::uint64_t Length = Len->getZExtValue();
  const auto chunks = [&](Value *Ptr, std::uint64_t Align, AccessSite::Kind K) {
    Align = std::min<std::uint64_t>(WidestAccess, Align);
    while (Length % Align) Align /= 2;
    for (std::uint64_t Off = 0; Off < Length; Off += Align)
      Out.push_back({&MI, Ptr, std::int64_t(Off), unsigned(Align), K, false});
  };
  if (auto *MT = dyn_cast<MemTransferInst>(&MI); MT && !neverGlobal(MT->getSource()))
    chunks(MT->getSource(), MT->getSourceAlign().valueOrOne().value(), AccessSite::Load);
  if (!neverGlobal(MI.getDest())) chunks(MI.getDest(), MI.getDestAlign().valueOrOne().value(), AccessSite::Store);
}

/// The requests one load or store of @p A's bytes becomes, with their offsets from the access's address:
/// one, or one per piece NVPTX splits it into, each a request of its own: pieces of its alignment where
/// that is less than its size (a struct of two floats copied as an i64 of align 4: two ld.u32), and of
/// 16 bytes, sm_90's widest access, where its size is a multiple of that (a vector of four doubles: two
/// ld.v2.f64).
std::vector<std::pair<AccessOf, std::int64_t>> alignedPieces(const Instruction &I, const AccessOf &A) {
  if (!(isa<LoadInst>(I) || isa<StoreInst>(I))) return {{A, 0}};
  unsigned PieceBytes = A.Bytes;
  if (A.Align < PieceBytes && isPowerOf2_32(A.Align) && PieceBytes % A.Align == 0) PieceBytes = A.Align;
  if (PieceBytes > WidestAccess && PieceBytes % WidestAccess == 0) PieceBytes = WidestAccess;
  if (PieceBytes == A.Bytes) return {{A, 0}};
  std::vector<std::pair<AccessOf, std::int64_t>> Pieces;
  AccessOf Piece = A;
  Piece.Bytes = PieceBytes;
  Piece.Align = std::min(A.Align, PieceBytes);
  for (unsigned Off = 0; Off < A.Bytes; Off += PieceBytes) Pieces.push_back({Piece, Off});
  return Pieces;
}

/// Groups the accesses of one basic block into the requests the hardware issues (Planned).
void planBlock(const std::vector<std::pair<Instruction *, AccessOf>> &Accesses, const DataLayout &DL,
               std::vector<Planned> &Out) {
  struct Candidate {
    std::size_t Order;
    Instruction *I;
    AccessOf A;
    Value *Base;
    std::int64_t Offset;
  };
  std::map<std::pair<Value *, int>, std::vector<Candidate>> ByBase;
  for (std::size_t N = 0; N < Accesses.size(); ++N) {
    const auto &[I, A] = Accesses[N];
    std::int64_t Offset = 0;
    Value *Base = A.Pointer->getType()->isPointerTy() ? GetPointerBaseWithConstantOffset(A.Pointer, Offset, DL) : A.Pointer;
    if (A.K == AccessSite::Atomic || !Base) {
      Base = A.Pointer;
      Offset = 0;
    }
    for (const auto &[Piece, PieceOffset] : alignedPieces(*I, A))
      ByBase[{Base, int(A.K)}].push_back({N, I, Piece, Base, Offset + PieceOffset});
  }
  std::vector<std::pair<std::size_t, Planned>> Ordered;
  for (auto &[Key, List] : ByBase) {
    std::sort(List.begin(), List.end(), [](const Candidate &X, const Candidate &Y) { return X.Offset < Y.Offset; });
    for (std::size_t N = 0; N < List.size();) {
      const Candidate &First = List[N];
      std::int64_t End = First.Offset + First.A.Bytes;
      std::size_t Order = First.Order;
      Instruction *At = First.I;
      std::size_t M = N + 1;
      for (; M < List.size() && List[M].Offset == End && List[M].A.Bypass == First.A.Bypass; ++M) {
        const std::int64_t Span = End + List[M].A.Bytes - First.Offset;
        if (Span > WidestAccess || std::int64_t(First.A.Align) < std::int64_t(PowerOf2Ceil(std::uint64_t(Span)))) break;
        End += List[M].A.Bytes;
        if (List[M].Order < Order) {
          Order = List[M].Order;
          At = List[M].I;
        }
      }
      Ordered.push_back({Order, {At, First.Base, First.Offset, unsigned(End - First.Offset), First.A.K, First.A.Bypass}});
      N = M;
    }
  }
  std::sort(Ordered.begin(), Ordered.end(), [](const auto &X, const auto &Y) { return X.first < Y.first; });
  for (auto &[Order, P] : Ordered) Out.push_back(P);
}

/// A call that may touch global memory through a pointer argument in a way the evaluator does not
/// count: an intrinsic (wmma, TMA, memcpy) or inline assembly other than a plain ld.global/st.global.
bool unmodelledUse(const CallInst &Call) {
  const bool PointerArg = any_of(Call.args(), [](const Value *A) {
    return A->getType()->isPointerTy() && !neverGlobal(A);
  });
  if (!PointerArg) return false;
  if (Call.isInlineAsm()) {
    const StringRef Asm = cast<InlineAsm>(Call.getCalledOperand())->getAsmString();
    return !((Asm.contains("ld.global") || Asm.contains("st.global")) && asmPointer(Call, Asm));
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee) return true;
  if (Callee->isIntrinsic()) return !harmlessIntrinsic(Callee->getIntrinsicID());
  // printf's argument buffer is a stack object; a failed assert's arguments are its message strings.
  return Callee->getName() != "vprintf" && Callee->getName() != "__assertfail";
}

/// Inline assembly as its source wrote it, for a message: LLVM writes operand 0 as $0 or ${0:mod}, a
/// literal $ as $$ and the unique id as ${:uid}, where CUDA writes %0, %mod0, $ and %=, and a literal %
/// as %%. On one line, the first 60 characters.
std::string asmSourceText(StringRef Asm) {
  std::string Out;
  for (std::size_t I = 0; I < Asm.size(); ++I) {
    const char C = Asm[I];
    if (C == '$' && I + 1 < Asm.size() && Asm[I + 1] == '$') {
      Out += '$';
      ++I;
    } else if (C == '$' && I + 1 < Asm.size() && Asm[I + 1] == '{') {
      const std::size_t Close = Asm.find('}', I);
      if (Close == StringRef::npos) {
        Out += C;
        continue;
      }
      const auto [Operand, Modifier] = Asm.slice(I + 2, Close).split(':');
      Out += Operand.empty() && Modifier == "uid" ? std::string("%=") : "%" + Modifier.str() + Operand.str();
      I = Close;
    } else if (C == '$') {
      Out += '%';
    } else if (C == '%') {
      Out += "%%";
    } else if (std::isspace(static_cast<unsigned char>(C))) {
      if (!Out.empty() && Out.back() != ' ') Out += ' ';
    } else {
      Out += C;
    }
  }
  while (!Out.empty() && Out.back() == ' ') Out.pop_back();
  constexpr std::size_t Shown = 60;
  return Out.size() > Shown ? Out.substr(0, Shown) + "..." : Out;
}

/// The parameter behind a call's first pointer argument into global memory, or -1.
int paramOf(const CallInst &Call) {
  for (const Value *A : Call.args())
    if (A->getType()->isPointerTy())
      if (const int P = paramBehind(A); P >= 0) return P;
  return -1;
}

}  // namespace

// --- the compiled program ------------------------------------------------------------------------

class WarpEvaluator::Program {
public:
  std::vector<AccessSite> Sites;
  std::vector<UnmodelledAccess> Unmodelled;
  std::vector<BlockCode> Blocks;
  std::vector<std::int64_t> Constants;
  std::int32_t Slots = 0;
  int Entry = 0;
  std::vector<std::pair<std::int32_t, unsigned>> ArgumentSlots;  ///< (slot, parameter index)
  std::vector<bool> ArgumentIsPointer;
  std::vector<std::string> ArgumentNames;
  /// Module variables that hold memory: their base addresses (regions after the parameters').
  std::map<const GlobalVariable *, std::uint64_t> Variables;
  std::vector<Region> VariableRegions;  ///< region index - (parameters + 1) -> what it is
  unsigned Params = 0;
  /// The pointer parameters whose values the spec states (index tensors): loads from them are evaluated.
  std::set<int> Indexed;
  unsigned IndexLoads = 0;  ///< Op::Loaded instructions compiled

  bool build(Function &F, std::string &Why);
  Region regionOf(std::uint64_t Address) const;

private:
  std::map<const Value *, Ref> Refs;
  std::map<const BasicBlock *, int> BlockIndex;
  std::set<const Value *> Slice;
  const DataLayout *DL = nullptr;
  /// @return Whether @p I loads an integer from an index tensor (its value is evaluated, Op::Loaded).
  bool loadsIndex(const Instruction &I) const {
    const auto *Load = dyn_cast<LoadInst>(&I);
    return Load && Load->getType()->isIntegerTy() && Load->getType()->getIntegerBitWidth() <= 64 &&
           Indexed.count(paramBehind(Load->getPointerOperand()));
  }
  /// @return Whether @p V is computed from a value loaded from an index tensor (a gathered address).
  bool dependsOnIndex(const Value *V) const {
    if (Indexed.empty()) return false;
    std::vector<const Value *> Work{V};
    std::set<const Value *> Seen;
    while (!Work.empty()) {
      const auto *I = dyn_cast<Instruction>(Work.back());
      Work.pop_back();
      if (!I || !Seen.insert(I).second) continue;
      if (loadsIndex(*I)) return true;
      if (isa<LoadInst>(I)) continue;  // other loaded data: not an index the spec describes
      for (const Value *Op : I->operands()) Work.push_back(Op);
    }
    return false;
  }
  std::string Failure;

  Ref constant(std::int64_t V) {
    Constants.push_back(V);
    return -1 - static_cast<Ref>(Constants.size() - 1);
  }
  Ref slotOf(const Value *V);
  Ref refOf(const Value *V);
  void computeSlice(Function &F, const std::vector<Planned> &Plan);
  void compileInstruction(Instruction &I, BlockCode &Code);
  void computeKnowable(Function &F);
  void markRegions(Function &F, PostDominatorTree &PDT, const std::set<const Instruction *> &AccessSet,
                   const std::multimap<const Instruction *, unsigned> &SiteOf);
  std::set<const Value *> Knowable;
};

Region WarpEvaluator::Program::regionOf(std::uint64_t Address) const {
  const std::uint64_t R = Address >> RegionShift;
  if (R >= 1 && R <= Params) return {Region::Parameter, static_cast<int>(R - 1)};
  if (R > Params && R - Params - 1 < VariableRegions.size()) return VariableRegions[R - Params - 1];
  return {};
}

Ref WarpEvaluator::Program::slotOf(const Value *V) {
  if (auto It = Refs.find(V); It != Refs.end()) return It->second;
  return Refs[V] = Slots++;
}

/// The operand for @p V: a constant, a variable's address, or its slot (an instruction or argument
/// outside the slice gets a slot that stays unknown).
Ref WarpEvaluator::Program::refOf(const Value *V) {
  if (auto It = Refs.find(V); It != Refs.end()) return It->second;
  if (const auto *CI = dyn_cast<ConstantInt>(V)) {
    if (CI->getBitWidth() > 64) return Refs[V] = slotOf(V);
    return Refs[V] = constant(CI->getSExtValue());
  }
  if (isa<ConstantPointerNull>(V)) return Refs[V] = constant(0);
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    auto It = Variables.find(GV);
    if (It != Variables.end()) return Refs[V] = constant(static_cast<std::int64_t>(It->second));
  }
  if (const auto *CE = dyn_cast<ConstantExpr>(V)) {
    // A constant address: a variable plus constant offsets, through casts.
    APInt Offset(64, 0);
    const Value *Base = CE->stripAndAccumulateConstantOffsets(*DL, Offset, true);
    if (const auto *GV = dyn_cast<GlobalVariable>(Base->stripPointerCasts()); GV && Variables.count(GV))
      return Refs[V] = constant(static_cast<std::int64_t>(Variables.at(GV) + Offset.getZExtValue()));
  }
  return slotOf(V);
}

/// The address slice: every value that reaches an access's address or a branch condition.
void WarpEvaluator::Program::computeSlice(Function &F, const std::vector<Planned> &Plan) {
  std::vector<const Value *> Work;
  for (const Planned &P : Plan) {
    Work.push_back(P.Base);
    if (P.Stride) Work.push_back(P.Stride);
  }
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional()) Work.push_back(Br->getCondition());
    if (const auto *Sw = dyn_cast<SwitchInst>(T)) Work.push_back(Sw->getCondition());
  }
  while (!Work.empty()) {
    const Value *V = Work.back();
    Work.pop_back();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || !Slice.insert(I).second) continue;
    if (loadsIndex(*I)) {  // its value follows from its address
      Work.push_back(cast<LoadInst>(I)->getPointerOperand());
      continue;
    }
    if (isa<LoadInst>(I) || isAtomic(*I)) continue;  // a special or unknown
    if (const auto *Call = dyn_cast<CallInst>(I)) {
      if (Call->isInlineAsm()) continue;
      for (const Value *Arg : Call->args()) Work.push_back(Arg);
      continue;
    }
    for (const Value *Op : I->operands())
      if (!isa<BasicBlock>(Op)) Work.push_back(Op);
  }
}

/// The slice's values that can ever be known: integers and pointers computed from constants,
/// parameters and special registers; never a loaded value, a floating-point one or a call's result.
void WarpEvaluator::Program::computeKnowable(Function &F) {
  const auto knowableLeaf = [&](const Value *V) {
    if (isa<Constant>(V)) return !isa<ConstantExpr>(V) || V->getType()->isIntOrPtrTy();
    if (isa<Argument>(V)) return V->getType()->isIntOrPtrTy();
    return false;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (!Slice.count(&I) || Knowable.count(&I) || !I.getType()->isIntOrPtrTy()) continue;
      bool K = false;
      if (specialOf(&I)) K = true;
      else if (loadsIndex(I)) K = Knowable.count(cast<LoadInst>(I).getPointerOperand()) || knowableLeaf(cast<LoadInst>(I).getPointerOperand());
      else if (isa<LoadInst>(I) || isAtomic(I)) K = false;
      else if (const auto *Call = dyn_cast<CallInst>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        K = Callee && (Callee->isIntrinsic() || libdeviceOp(Callee)) &&
            all_of(Call->args(), [&](const Value *A) { return knowableLeaf(A) || Knowable.count(A); });
      } else {
        K = all_of(I.operands(), [&](const Value *Op) { return isa<BasicBlock>(Op) || knowableLeaf(Op) || Knowable.count(Op); });
      }
      if (K) Changed = Knowable.insert(&I).second || Changed;
    }
  }
}

/// For each conditional branch, its region (the blocks between the branch and its immediate
/// post-dominator, the join): the accesses and knowable values in it. A region with no access,
/// barrier or knowable value used past it is skipped whole; a branch whose condition is unknown at
/// run time skips its region too, forgetting what it defines (the accesses in it are then reported
/// as depending on data).
void WarpEvaluator::Program::markRegions(Function &F, PostDominatorTree &PDT, const std::set<const Instruction *> &AccessSet,
                                         const std::multimap<const Instruction *, unsigned> &SiteOf) {
  for (BasicBlock &BB : F) {
    BlockCode &Code = Blocks[BlockIndex[&BB]];
    if (Code.T != Term::Branch && Code.T != Term::Switch) continue;
    const DomTreeNode *Node = PDT.getNode(&BB);
    const BasicBlock *Join = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    std::set<const BasicBlock *> Region;
    std::vector<const BasicBlock *> Work(succ_begin(&BB), succ_end(&BB));
    while (!Work.empty()) {
      const BasicBlock *B = Work.back();
      Work.pop_back();
      if (B == Join || !Region.insert(B).second) continue;
      Work.insert(Work.end(), succ_begin(B), succ_end(B));
    }
    bool Relevant = false;
    for (const BasicBlock *B : Region)
      for (const Instruction &I : *B) {
        if (AccessSet.count(&I) || isBarrier(I)) Relevant = true;
        for (auto [It, End] = SiteOf.equal_range(&I); It != End; ++It) Code.RegionSites.push_back(It->second);
        if (!Slice.count(&I)) continue;
        if (auto R = Refs.find(&I); R != Refs.end() && R->second >= 0) Code.RegionSlots.push_back(R->second);
        if (!Knowable.count(&I)) continue;
        for (const User *U : I.users())
          if (const auto *UI = dyn_cast<Instruction>(U); UI && Slice.count(UI) && !Region.count(UI->getParent()))
            Relevant = true;
      }
    // The join's phis choose by the path taken.
    if (Join)
      for (const PHINode &Phi : Join->phis())
        if (Knowable.count(&Phi)) Relevant = true;
    Code.Skip = !Relevant;
  }
}

void WarpEvaluator::Program::compileInstruction(Instruction &I, BlockCode &Code) {
  Instr X{Op::Unknown};
  X.Dst = slotOf(&I);
  if (I.getType()->isIntegerTy()) X.Width = static_cast<std::uint8_t>(std::min(64u, I.getType()->getIntegerBitWidth()));
  const auto opRef = [&](unsigned K) { return refOf(I.getOperand(K)); };
  if (auto S = specialOf(&I)) {
    X.Code = Op::Special;
    X.Pred = *S;
  } else if (auto *B = dyn_cast<BinaryOperator>(&I); B && B->getType()->isIntegerTy()) {
    switch (B->getOpcode()) {
    case Instruction::Add: X.Code = Op::Add; break;
    case Instruction::Sub: X.Code = Op::Sub; break;
    case Instruction::Mul: X.Code = Op::Mul; break;
    case Instruction::Shl: X.Code = Op::Shl; break;
    case Instruction::LShr: X.Code = Op::LShr; break;
    case Instruction::AShr: X.Code = Op::AShr; break;
    case Instruction::And: X.Code = Op::And; break;
    case Instruction::Or: X.Code = Op::Or; break;
    case Instruction::Xor: X.Code = Op::Xor; break;
    case Instruction::UDiv: X.Code = Op::UDiv; break;
    case Instruction::SDiv: X.Code = Op::SDiv; break;
    case Instruction::URem: X.Code = Op::URem; break;
    case Instruction::SRem: X.Code = Op::SRem; break;
    default: break;
    }
    if (X.Code != Op::Unknown) {
      X.A = opRef(0);
      X.B = opRef(1);
    }
  } else if (auto *Cmp = dyn_cast<ICmpInst>(&I)) {
    if (Cmp->getOperand(0)->getType()->isIntOrPtrTy()) {
      X.Code = Op::ICmp;
      X.Pred = static_cast<std::uint8_t>(Cmp->getPredicate());
      X.A = opRef(0);
      X.B = opRef(1);
      X.From = static_cast<std::uint8_t>(Cmp->getOperand(0)->getType()->isPointerTy()
                                             ? 64
                                             : std::min(64u, Cmp->getOperand(0)->getType()->getIntegerBitWidth()));
    }
  } else if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    if (Sel->getType()->isIntOrPtrTy() && !Sel->getCondition()->getType()->isVectorTy()) {
      X.Code = Op::Select;
      X.A = opRef(0);
      X.B = opRef(1);
      X.C = opRef(2);
    }
  } else if (auto *Cast = dyn_cast<CastInst>(&I)) {
    Type *Src = Cast->getSrcTy(), *Dst = Cast->getDestTy();
    const auto bits = [](Type *T) { return static_cast<std::uint8_t>(T->isPointerTy() ? 64 : std::min(64u, T->getIntegerBitWidth())); };
    if (Src->isIntOrPtrTy() && Dst->isIntOrPtrTy()) {
      X.A = opRef(0);
      X.From = bits(Src);
      X.Width = bits(Dst);
      X.Code = isa<ZExtInst>(Cast) ? Op::ZExt : isa<SExtInst>(Cast) ? Op::SExt : isa<TruncInst>(Cast) ? Op::Trunc : Op::Copy;
    }
  } else if (isa<FreezeInst>(I) && I.getType()->isIntOrPtrTy()) {
    X.Code = Op::Copy;
    X.A = opRef(0);
  } else if (auto *G = dyn_cast<GEPOperator>(&I)) {
    X.Code = Op::Gep;
    X.A = refOf(G->getPointerOperand());
    for (gep_type_iterator It = gep_type_begin(G), End = gep_type_end(G); It != End; ++It) {
      if (StructType *ST = It.getStructTypeOrNull()) {
        const auto *Field = cast<ConstantInt>(It.getOperand());
        X.Imm += static_cast<std::int64_t>(DL->getStructLayout(ST)->getElementOffset(static_cast<unsigned>(Field->getZExtValue())));
        continue;
      }
      const std::int64_t Stride = static_cast<std::int64_t>(It.getSequentialElementStride(*DL).getFixedValue());
      if (const auto *CI = dyn_cast<ConstantInt>(It.getOperand()); CI && CI->getBitWidth() <= 64) {
        X.Imm += CI->getSExtValue() * Stride;
        continue;
      }
      if (It.getOperand()->getType()->isVectorTy()) {
        X.Code = Op::Unknown;
        break;
      }
      X.Terms.push_back({refOf(It.getOperand()), Stride});
      X.Pred = static_cast<std::uint8_t>(std::min(64u, It.getOperand()->getType()->getIntegerBitWidth()));
    }
  } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin: X.Code = Op::SMin; break;
    case Intrinsic::smax: X.Code = Op::SMax; break;
    case Intrinsic::umin: X.Code = Op::UMin; break;
    case Intrinsic::umax: X.Code = Op::UMax; break;
    case Intrinsic::abs: X.Code = Op::Abs; break;
    case Intrinsic::ctlz: X.Code = Op::CountZeros; X.Pred = 0; break;
    case Intrinsic::cttz: X.Code = Op::CountZeros; X.Pred = 1; break;
    case Intrinsic::ctpop: X.Code = Op::PopCount; break;
    case Intrinsic::nvvm_read_ptx_sreg_warpsize: Code.Body.push_back({Op::Copy, 32, 64, 0, X.Dst, constant(32)}); return;
    default: break;
    }
    if (!II->getType()->isIntegerTy() || II->getType()->getIntegerBitWidth() > 64) X.Code = Op::Unknown;
    if (X.Code != Op::Unknown) {
      X.A = refOf(II->getArgOperand(0));
      if (II->arg_size() > 1) X.B = refOf(II->getArgOperand(1));
    }
  }
  if (auto *CI = dyn_cast<CallInst>(&I); CI && !isa<IntrinsicInst>(CI) && I.getType()->isIntegerTy()) {
    if (const auto Code = libdeviceOp(CI->getCalledFunction()); Code && CI->arg_size() >= 1) {
      X.Code = *Code;
      X.A = refOf(CI->getArgOperand(0));
      if (CI->arg_size() > 1) X.B = refOf(CI->getArgOperand(1));
    }
  }
  if (X.Code == Op::Unknown && I.getType()->isIntegerTy() && I.getType()->getIntegerBitWidth() > 64 && Failure.empty())
    Failure = "an integer wider than 64 bits in the address computation";
  Code.Body.push_back(std::move(X));
}

bool WarpEvaluator::Program::build(Function &F, std::string &Why) {
  DL = &F.getParent()->getDataLayout();
  Params = static_cast<unsigned>(F.arg_size());
  // Regions after the parameters': the module's variables (device memory, shared memory).
  std::uint64_t Next = Params + 1;
  for (const GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getName() == "threadIdx" || GV.getName() == "blockIdx" || GV.getName() == "blockDim" ||
        GV.getName() == "gridDim")
      continue;
    const unsigned AS = GV.getAddressSpace();
    Region R{AS == 3 ? Region::Shared : AS == 5 ? Region::Local : Region::DeviceVariable, -1};
    Variables[&GV] = Next++ << RegionShift;
    VariableRegions.push_back(R);
    if (Next > (std::uint64_t(1) << (64 - RegionShift)) - 2) break;
  }
  int Index = 0;
  for (BasicBlock &BB : F) BlockIndex[&BB] = Index++;
  Blocks.resize(Blocks.size() + BlockIndex.size());
  Entry = BlockIndex[&F.getEntryBlock()];
  for (Argument &Arg : F.args()) {
    ArgumentSlots.push_back({slotOf(&Arg), Arg.getArgNo()});
    ArgumentIsPointer.push_back(Arg.getType()->isPointerTy());
    ArgumentNames.push_back(Arg.getName().str());
  }
  std::set<const Instruction *> AccessSet;
  std::vector<Planned> Plan;
  for (BasicBlock &BB : F) {
    std::vector<std::pair<Instruction *, AccessOf>> Accesses;
    // A call planned apart (a wmma fragment, a memcpy), after the block's accesses before it, which keep
    // their order; @return whether @p plan planned any request of it.
    const auto planApart = [&](Instruction &At, const auto &plan) {
      planBlock(Accesses, *DL, Plan);
      Accesses.clear();
      const std::size_t Before = Plan.size();
      plan();
      if (Plan.size() == Before) return false;
      AccessSet.insert(&At);
      return true;
    };
    for (Instruction &I : BB) {
      if (auto A = accessOf(I, *DL)) {
        Accesses.push_back({&I, *A});
        AccessSet.insert(&I);
      } else if (const auto Fragment = fragmentAccess(I)) {
        planApart(I, [&] { planFragment(cast<CallInst>(I), *Fragment, Plan); });
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (!planApart(I, [&] { planMemIntrinsic(*MI, Plan); }) && !isLocal(MI->getDest()))
          Unmodelled.push_back({paramOf(*MI), "'" + MI->getCalledFunction()->getName().str() + "' of a length the build does not know", "", 0});
      } else if (auto *Call = dyn_cast<CallInst>(&I); Call && unmodelledUse(*Call)) {
        UnmodelledAccess U;
        U.Param = paramOf(*Call);
        U.What = Call->isInlineAsm() ? "inline assembly '" + asmSourceText(cast<InlineAsm>(Call->getCalledOperand())->getAsmString()) + "'"
                                     : "'" + (Call->getCalledFunction() ? Call->getCalledFunction()->getName().str() : std::string("?")) + "'";
        unsigned Column = 0;
        positionOf(I, U.File, U.Line, Column);
        Unmodelled.push_back(std::move(U));
      }
      if (auto *Call = dyn_cast<CallInst>(&I); Call && !Call->isInlineAsm()) {
        const Function *Callee = Call->getCalledFunction();
        if (!Callee || (!Callee->isIntrinsic() && !Callee->isDeclaration())) {
          Why = "a call to '" + (Callee ? Callee->getName().str() : std::string("a function pointer")) +
                "' that could not be inlined (recursion or an indirect call)";
          return false;
        }
      }
    }
    planBlock(Accesses, *DL, Plan);
  }
  computeSlice(F, Plan);
  std::multimap<const Instruction *, unsigned> SiteOf;
  for (const Planned &P : Plan) {
    AccessSite S;
    S.K = P.K;
    S.Bytes = P.Bytes;
    S.BypassesL1 = P.Bypass;
    S.Param = paramBehind(P.Base);
    S.Drawn = dependsOnIndex(P.Base);
    for (unsigned Arg : scalarParametersBehind(P.Base)) S.AddressScalars.emplace_back(Arg, F.getArg(Arg)->getName().str());
    positionOf(*P.At, S.File, S.Line, S.Column);
    SiteOf.insert({P.At, static_cast<unsigned>(Sites.size())});
    Sites.push_back(std::move(S));
  }
  for (BasicBlock &BB : F) {
    BlockCode &Code = Blocks[BlockIndex[&BB]];
    for (PHINode &Phi : BB.phis()) {
      if (!Slice.count(&Phi)) continue;
      PhiInstr P{slotOf(&Phi), static_cast<std::uint8_t>(Phi.getType()->isIntegerTy() ? std::min(64u, Phi.getType()->getIntegerBitWidth()) : 64), {}};
      for (unsigned K = 0; K < Phi.getNumIncomingValues(); ++K)
        P.Incoming.push_back({BlockIndex[Phi.getIncomingBlock(K)], refOf(Phi.getIncomingValue(K))});
      Code.Phis.push_back(std::move(P));
    }
    for (Instruction &I : BB) {
      if (isa<PHINode>(I) || I.isTerminator()) continue;
      if (AccessSet.count(&I)) {
        for (auto [It, End] = SiteOf.equal_range(&I); It != End; ++It) {
          const Planned &P = Plan[It->second];
          Instr X{Op::Access};
          X.A = refOf(P.Base);
          X.Imm = It->second;
          X.Terms.push_back({0, P.Offset});  // the request's offset from its base
          if (P.Stride) {  // a wmma fragment's piece: each lane's offset follows the layout
            X.Piece = P.Piece;
            X.B = refOf(P.Stride);
          }
          Code.Body.push_back(std::move(X));
        }
        if (Slice.count(&I) && loadsIndex(I)) {  // an index, drawn as the spec states
          Instr X{Op::Loaded, static_cast<std::uint8_t>(I.getType()->getIntegerBitWidth()), 64, 0, slotOf(&I)};
          X.A = refOf(cast<LoadInst>(I).getPointerOperand());
          Code.Body.push_back(std::move(X));
          ++IndexLoads;
        } else if (Slice.count(&I)) {
          Code.Body.push_back({Op::Unknown, 64, 64, 0, slotOf(&I)});  // loaded data
        }
        continue;
      }
      if (isBarrier(I)) {
        Code.Body.push_back({Op::Barrier});
        continue;
      }
      if (Slice.count(&I)) compileInstruction(I, Code);
    }
    Instruction *T = BB.getTerminator();
    unsigned Column = 0;
    positionOf(*T, Code.File, Code.Line, Column);
    if (auto *Br = dyn_cast<BranchInst>(T)) {
      if (Br->isUnconditional()) {
        Code.T = Term::Jump;
        Code.Succ = {BlockIndex[Br->getSuccessor(0)]};
      } else {
        Code.T = Term::Branch;
        Code.Cond = refOf(Br->getCondition());
        Code.CondParams = scalarParametersBehind(Br->getCondition());
        Code.CondShifts = shiftsByParameters(Br->getCondition());
        Code.Succ = {BlockIndex[Br->getSuccessor(0)], BlockIndex[Br->getSuccessor(1)]};
      }
    } else if (auto *Sw = dyn_cast<SwitchInst>(T)) {
      Code.T = Term::Switch;
      Code.Cond = refOf(Sw->getCondition());
      Code.CondParams = scalarParametersBehind(Sw->getCondition());
      Code.CondShifts = shiftsByParameters(Sw->getCondition());
      Code.CondWidth = static_cast<std::uint8_t>(std::min(64u, Sw->getCondition()->getType()->getIntegerBitWidth()));
      Code.Succ = {BlockIndex[Sw->getDefaultDest()]};
      for (auto &Case : Sw->cases()) {
        Code.Cases.push_back(Case.getCaseValue()->getSExtValue());
        Code.Succ.push_back(BlockIndex[Case.getCaseSuccessor()]);
      }
    } else {
      Code.T = Term::Exit;  // ret, unreachable
    }
  }
  PostDominatorTree PDT(F);
  for (BasicBlock &BB : F) {
    const DomTreeNode *Node = PDT.getNode(&BB);
    if (Node && Node->getIDom() && Node->getIDom()->getBlock()) Blocks[BlockIndex[&BB]].Reconverge = BlockIndex[Node->getIDom()->getBlock()];
  }
  computeKnowable(F);
  markRegions(F, PDT, AccessSet, SiteOf);
  if (!Failure.empty()) {
    Why = Failure;
    return false;
  }
  return true;
}

// --- running warps -------------------------------------------------------------------------------

std::uint64_t mix64(std::uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

namespace {

/// Why a run stops when its budget of warp instructions is spent, at block @p B.
EvalFailure budgetSpent(const BlockCode &B) {
  return EvalFailure{"the evaluation's budget of warp instructions ran out", B.File, B.Line, true};
}

/// The index at @p Address of a tensor whose values are uniform over [0, @p Bound): a fixed function of
/// the address (mix64), so that every read of one element gives one value, and elements' values are as
/// good as independent.
std::uint64_t uniformIndex(std::uint64_t Address, std::uint64_t Bound) { return mix64(Address) % Bound; }

/// The index at element @p Element of a tensor whose values are all different in [0, @p Bound): a fixed
/// pseudo-random permutation of [0, Bound) at Element mod Bound. A four-round Feistel network permutes
/// the smallest even-bit power of two over Bound; values past Bound walk the cycle on until one falls
/// inside (Black and Rogaway's cycle walking), which keeps it a bijection of [0, Bound).
std::uint64_t distinctIndex(std::uint64_t Element, std::uint64_t Bound) {
  unsigned Half = 1;
  while ((std::uint64_t(1) << (2 * Half)) < Bound) ++Half;
  const std::uint64_t Mask = (std::uint64_t(1) << Half) - 1;
  const auto round = [&](std::uint64_t V, unsigned Key) { return uniformIndex(V * 4 + Key, Mask + 1); };
  std::uint64_t V = Element % Bound;
  do {
    std::uint64_t Left = V >> Half, Right = V & Mask;
    for (unsigned Key = 0; Key < 4; ++Key) {
      const std::uint64_t Next = Left ^ round(Right, Key);
      Left = Right;
      Right = Next;
    }
    V = Left << Half | Right;
  } while (V >= Bound);
  return V;
}

std::int64_t signExtend(std::uint64_t V, unsigned Bits) { return Bits >= 64 ? static_cast<std::int64_t>(V) : SignExtend64(V, Bits); }
/// The integer operations of one operand (A); the others take two (A, B).
bool isUnary(Op Code) { return Code == Op::Abs || Code == Op::CountZeros || Code == Op::PopCount; }
/// The lanes a loop over @p K runs, [first, end): none, one lane alone (a uniform value is computed once
/// and copied), else all 32, as a vectorised loop does them fastest.
std::pair<unsigned, unsigned> laneRange(LaneMask K) {
  if (K == 0) return {0, 0};
  if ((K & (K - 1)) == 0) {  // one bit (std::has_single_bit: a library call without -mpopcnt)
    const unsigned Lane = static_cast<unsigned>(std::countr_zero(K));
    return {Lane, Lane + 1};
  }
  return {0, Lanes};
}
/// The lane loops' branch-free forms: an integer of @p Bits bits sign-extends by a shift up and back.
unsigned extensionShift(unsigned Bits) { return Bits >= 64 || Bits == 0 ? 0 : 64 - Bits; }
std::int64_t extend(std::uint64_t V, unsigned Shift) { return static_cast<std::int64_t>(V << Shift) >> Shift; }
std::uint64_t lowBits(unsigned Bits) { return Bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << Bits) - 1; }

struct StackEntry {
  int Pc;
  int Rpc;  ///< -1: the exit
  LaneMask Mask;
};

struct Warp {
  std::int64_t Block = 0;
  unsigned Index = 0;       ///< within its block
  unsigned Group = 0;       ///< its block's index in the run
  LaneMask Exists = 0;
  std::vector<StackEntry> Stack;
  std::size_t Ip = 0;       ///< next instruction of the top entry's block
  bool PhisDone = false;
  std::array<int, Lanes> Prev{};  ///< per lane, the block it came from (written by Stepper::arrive)
  static constexpr int Mixed = -3;
  int OnePrev = -1;               ///< the block every lane that exists came from, or Mixed: not known to be one
  std::vector<std::int64_t> Values;  ///< slots x 32
  std::vector<LaneMask> Known;       ///< per slot
  /// Per slot: every lane that exists holds the same value, known or not (a loop counter, a block's
  /// base): an instruction over such operands runs for one lane and is copied to the others.
  std::vector<std::uint8_t> Uniform;
  enum { Running, AtBarrier, Done } State = Running;
};

}  // namespace

WarpEvaluator::WarpEvaluator(std::unique_ptr<Program> P) : P(std::move(P)) {}
WarpEvaluator::~WarpEvaluator() = default;

std::unique_ptr<WarpEvaluator> WarpEvaluator::compile(Function &F, const std::set<int> &IndexTensors, std::string &Why) {
  // One kernel at a time, though kernels are evaluated side by side: planning asks the module's
  // DataLayout, which caches a struct's layout the first time it is asked for (run() does not).
  static std::mutex Compiling;
  const std::lock_guard<std::mutex> Lock(Compiling);
  auto P = std::make_unique<Program>();
  P->Indexed = IndexTensors;
  if (!P->build(F, Why)) return nullptr;
  return std::unique_ptr<WarpEvaluator>(new WarpEvaluator(std::move(P)));
}

const std::vector<AccessSite> &WarpEvaluator::sites() const { return P->Sites; }
unsigned WarpEvaluator::indexLoads() const { return P->IndexLoads; }
const std::vector<UnmodelledAccess> &WarpEvaluator::unmodelled() const { return P->Unmodelled; }
Region WarpEvaluator::regionOf(std::uint64_t Address) const { return P->regionOf(Address); }

namespace {

/// One warp's execution until its next request, barrier or end.
class Stepper {
public:
  Stepper(const WarpEvaluator::Program &P, const EvalLaunch &L, std::map<unsigned, unsigned> *Skipped,
          std::map<unsigned, UndecidedCondition> *Undecided)
      : P(P), L(L), Skipped(Skipped), Undecided(Undecided) {}

  /// Runs @p W until it issues a request (filled into @p R: true), waits at a barrier or ends (false).
  bool step(Warp &W, WarpRequest &R, std::uint64_t &Budget, std::optional<EvalFailure> &Failure);
  void start(Warp &W, std::int64_t Block, unsigned Index, unsigned Group) const;

private:
  const WarpEvaluator::Program &P;
  const EvalLaunch &L;
  std::map<unsigned, unsigned> *Skipped;  ///< accesses skipped under a condition on data -> the branch's line
  std::map<unsigned, UndecidedCondition> *Undecided;  ///< such a branch's line -> why
  /// Says why the condition of @p B, which lanes @p Mask could not decide, is not known.
  void noteUndecided(const Warp &W, const BlockCode &B, LaneMask Mask) const;

  /// A value of each lane.
  using Row = std::array<std::int64_t, Lanes>;
  /// Operand @p R's lanes: its slot's row, or its constant in each lane of @p Scratch.
  const std::int64_t *lanesOf(const Warp &W, Ref R, Row &Scratch) const {
    if (R >= 0) return &W.Values[std::size_t(R) * Lanes];
    Scratch.fill(P.Constants[std::size_t(-1 - R)]);
    return Scratch.data();
  }
  /// Writes @p V to slot @p Dst's lanes @p K; the others keep theirs (a lane not active here holds the
  /// value its own path gave, which a phi after the paths meet may read).
  static void store(Warp &W, std::int32_t Dst, const Row &V, LaneMask K) {
    std::int64_t *Out = &W.Values[std::size_t(Dst) * Lanes];
    const auto [First, End] = laneRange(K);
    for (unsigned Lane = First; Lane < End; ++Lane) Out[Lane] = K >> Lane & 1 ? V[Lane] : Out[Lane];
  }
  /// An operation of every lane at once: the switch on the operation stays outside the loop over the
  /// lanes, which then vectorises. @p F gives a lane's result from its operands sign- (A, B) and
  /// zero-extended (UA, UB) at @p OpBits, clearing its last argument where the result is poison (a
  /// division by zero, a shift by the width or more); lanes in @p K whose result is poison leave it.
  template <class Fn>
  void lanewise(Warp &W, const Instr &X, LaneMask &K, unsigned OpBits, bool Extended, Fn F) const {
    Row ScratchA, ScratchB, V;
    const std::int64_t *RA = lanesOf(W, X.A, ScratchA);
    const std::int64_t *RB = isUnary(X.Code) ? RA : lanesOf(W, X.B, ScratchB);
    const unsigned In = extensionShift(OpBits), Out = extensionShift(X.Width);
    const std::uint64_t Low = lowBits(OpBits);
    LaneMask Poison = 0;
    const auto [First, End] = laneRange(K);
    for (unsigned Lane = First; Lane < End; ++Lane) {
      const std::int64_t A = extend(static_cast<std::uint64_t>(RA[Lane]), In), B = extend(static_cast<std::uint64_t>(RB[Lane]), In);
      bool Defined = true;
      const std::uint64_t R = F(A, B, static_cast<std::uint64_t>(A) & Low, static_cast<std::uint64_t>(B) & Low, Defined);
      V[Lane] = Extended ? extend(R, Out) : static_cast<std::int64_t>(R);
      Poison |= LaneMask(!Defined) << Lane;
    }
    K &= ~Poison;
    store(W, X.Dst, V, K);
  }
  void compare(Warp &W, const Instr &X, LaneMask &K) const;
  void arithmetic(Warp &W, const Instr &X, LaneMask &K) const;

  std::int64_t value(const Warp &W, Ref R, unsigned Lane) const {
    return R >= 0 ? W.Values[std::size_t(R) * Lanes + Lane] : P.Constants[std::size_t(-1 - R)];
  }
  LaneMask known(const Warp &W, Ref R) const { return R >= 0 ? W.Known[std::size_t(R)] : ~LaneMask(0); }
  bool uniform(const Warp &W, Ref R) const { return R < 0 || W.Uniform[std::size_t(R)]; }
  void set(Warp &W, std::int32_t Dst, unsigned Lane, std::int64_t V) const { W.Values[std::size_t(Dst) * Lanes + Lane] = V; }
  void execute(Warp &W, const Instr &X, LaneMask Active) const;
  void executeLanes(Warp &W, const Instr &X, LaneMask Active) const;
  bool uniformOperands(const Warp &W, const Instr &X) const;
  bool uniformSpecial(SpecialReg S) const;
  void enterBlock(Warp &W, LaneMask Active) const;
  /// Moves the top entry's lanes along its block's terminator; false when the evaluation must stop.
  bool branch(Warp &W, std::optional<EvalFailure> &Failure) const;
  void jump(Warp &W, int From, int To) const;
  /// Lanes @p Mask come from block @p From.
  static void arrive(Warp &W, LaneMask Mask, int From);
  void exitLanes(Warp &W, LaneMask Lanes) const;
  std::int64_t special(const Warp &W, SpecialReg S, unsigned Lane) const;
};

std::int64_t Stepper::special(const Warp &W, SpecialReg S, unsigned Lane) const {
  const std::int64_t T = std::int64_t(W.Index) * Lanes + Lane;
  const Dim3 &B = L.Block, &G = L.Grid;
  switch (S) {
  case TidX: return T % B.X;
  case TidY: return (T / B.X) % B.Y;
  case TidZ: return T / (B.X * B.Y);
  case CtaX: return W.Block % G.X;
  case CtaY: return (W.Block / G.X) % G.Y;
  case CtaZ: return W.Block / (G.X * G.Y);
  case NTidX: return B.X;
  case NTidY: return B.Y;
  case NTidZ: return B.Z;
  case NCtaX: return G.X;
  case NCtaY: return G.Y;
  case NCtaZ: return G.Z;
  case LaneId: return Lane;
  }
  return 0;
}

void Stepper::start(Warp &W, std::int64_t Block, unsigned Index, unsigned Group) const {
  W.Block = Block;
  W.Index = Index;
  W.Group = Group;
  const std::int64_t Threads = L.Block.count(), First = std::int64_t(Index) * Lanes;
  const std::int64_t Count = std::min<std::int64_t>(Lanes, Threads - First);
  W.Exists = Count >= 32 ? ~LaneMask(0) : LaneMask((std::uint64_t(1) << Count) - 1);
  W.Values.assign(std::size_t(P.Slots) * Lanes, 0);
  W.Known.assign(std::size_t(P.Slots), 0);
  W.Uniform.assign(std::size_t(P.Slots), 1);
  for (const auto &[Slot, Param] : P.ArgumentSlots) {
    std::optional<std::int64_t> V;
    if (P.ArgumentIsPointer[Param]) V = static_cast<std::int64_t>(tensorBase(Param));
    else if (Param < L.Scalars.size()) V = L.Scalars[Param];
    if (!V) continue;
    for (unsigned Lane = 0; Lane < Lanes; ++Lane) set(W, Slot, Lane, *V);
    W.Known[std::size_t(Slot)] = ~LaneMask(0);
  }
  W.Stack = {{P.Entry, -1, W.Exists}};
  W.Ip = 0;
  W.PhisDone = false;
  W.Prev.fill(-1);
  W.OnePrev = -1;
  W.State = W.Exists ? Warp::Running : Warp::Done;
}

/// Whether special register @p S holds one value across a warp of the launch's blocks.
bool Stepper::uniformSpecial(SpecialReg S) const {
  switch (S) {
  case TidX: case LaneId: return false;
  case TidY: return L.Block.X % Lanes == 0;                // a warp lies within one row of the block
  case TidZ: return (L.Block.X * L.Block.Y) % Lanes == 0;  // ... within one plane
  default: return true;                                    // the block's and the grid's coordinates and sizes
  }
}

bool Stepper::uniformOperands(const Warp &W, const Instr &X) const {
  switch (X.Code) {
  case Op::Special: return uniformSpecial(SpecialReg(X.Pred));
  case Op::Unknown: case Op::Access: case Op::Barrier: return false;
  case Op::Select: return uniform(W, X.A) && uniform(W, X.B) && uniform(W, X.C);
  case Op::ZExt: case Op::SExt: case Op::Trunc: case Op::Copy: case Op::Abs: case Op::CountZeros: case Op::PopCount:
  case Op::Loaded:
    return uniform(W, X.A);
  case Op::Gep:
    return uniform(W, X.A) && std::all_of(X.Terms.begin(), X.Terms.end(), [&](const auto &T) { return uniform(W, T.first); });
  default: return uniform(W, X.A) && uniform(W, X.B);
  }
}

void Stepper::execute(Warp &W, const Instr &X, LaneMask Active) const {
  if (X.Dst < 0 || Active != W.Exists || !uniformOperands(W, X)) {
    executeLanes(W, X, Active);
    if (X.Dst >= 0) W.Uniform[std::size_t(X.Dst)] = 0;
    return;
  }
  // Every lane would compute the same: one does, the others take its result.
  const unsigned First = static_cast<unsigned>(std::countr_zero(Active));
  executeLanes(W, X, LaneMask(1) << First);
  std::int64_t *Row = &W.Values[std::size_t(X.Dst) * Lanes];
  std::fill_n(Row, Lanes, Row[First]);
  LaneMask &K = W.Known[std::size_t(X.Dst)];
  K = K >> First & 1 ? K | Active : K & ~Active;
  W.Uniform[std::size_t(X.Dst)] = 1;
}

void Stepper::compare(Warp &W, const Instr &X, LaneMask &K) const {
  // A comparison's result is 0 or 1, as the branch and select that read it take it.
  const auto compared = [&](auto Holds) {
    lanewise(W, X, K, X.From, false, [&](std::int64_t A, std::int64_t B, std::uint64_t UA, std::uint64_t UB, bool &) {
      return std::uint64_t(Holds(A, B, UA, UB));
    });
  };
  switch (CmpInst::Predicate(X.Pred)) {
  case CmpInst::ICMP_EQ: compared([](auto A, auto B, auto, auto) { return A == B; }); break;
  case CmpInst::ICMP_NE: compared([](auto A, auto B, auto, auto) { return A != B; }); break;
  case CmpInst::ICMP_SLT: compared([](auto A, auto B, auto, auto) { return A < B; }); break;
  case CmpInst::ICMP_SLE: compared([](auto A, auto B, auto, auto) { return A <= B; }); break;
  case CmpInst::ICMP_SGT: compared([](auto A, auto B, auto, auto) { return A > B; }); break;
  case CmpInst::ICMP_SGE: compared([](auto A, auto B, auto, auto) { return A >= B; }); break;
  case CmpInst::ICMP_ULT: compared([](auto, auto, auto UA, auto UB) { return UA < UB; }); break;
  case CmpInst::ICMP_ULE: compared([](auto, auto, auto UA, auto UB) { return UA <= UB; }); break;
  case CmpInst::ICMP_UGT: compared([](auto, auto, auto UA, auto UB) { return UA > UB; }); break;
  case CmpInst::ICMP_UGE: compared([](auto, auto, auto UA, auto UB) { return UA >= UB; }); break;
  default: compared([](auto, auto, auto, auto) { return false; }); break;
  }
}

void Stepper::arithmetic(Warp &W, const Instr &X, LaneMask &K) const {
  using S = std::int64_t;
  using U = std::uint64_t;
  const unsigned Bits = X.Width;
  const auto run = [&](auto F) { lanewise(W, X, K, Bits, true, F); };
  switch (X.Code) {
  case Op::Add: run([](S, S, U A, U B, bool &) { return A + B; }); break;
  case Op::Sub: run([](S, S, U A, U B, bool &) { return A - B; }); break;
  case Op::Mul: run([](S, S, U A, U B, bool &) { return A * B; }); break;
  case Op::Shl: run([&](S, S, U A, U B, bool &D) { return (D = B < Bits) ? A << B : 0; }); break;
  case Op::LShr: run([&](S, S, U A, U B, bool &D) { return (D = B < Bits) ? A >> B : 0; }); break;
  case Op::AShr: run([&](S A, S, U, U B, bool &D) { return (D = B < Bits) ? U(A >> B) : 0; }); break;
  case Op::And: run([](S, S, U A, U B, bool &) { return A & B; }); break;
  case Op::Or: run([](S, S, U A, U B, bool &) { return A | B; }); break;
  case Op::Xor: run([](S, S, U A, U B, bool &) { return A ^ B; }); break;
  case Op::UDiv: run([](S, S, U A, U B, bool &D) { return (D = B != 0) ? A / B : 0; }); break;
  case Op::URem: run([](S, S, U A, U B, bool &D) { return (D = B != 0) ? A % B : 0; }); break;
  case Op::SDiv:
    run([](S A, S B, U, U, bool &D) { return (D = B != 0 && !(B == -1 && A == std::numeric_limits<S>::min())) ? U(A / B) : 0; });
    break;
  case Op::SRem:
    run([](S A, S B, U, U, bool &D) { return (D = B != 0 && !(B == -1 && A == std::numeric_limits<S>::min())) ? U(A % B) : 0; });
    break;
  case Op::SMin: run([](S A, S B, U, U, bool &) { return U(std::min(A, B)); }); break;
  case Op::SMax: run([](S A, S B, U, U, bool &) { return U(std::max(A, B)); }); break;
  case Op::UMin: run([](S, S, U A, U B, bool &) { return std::min(A, B); }); break;
  case Op::UMax: run([](S, S, U A, U B, bool &) { return std::max(A, B); }); break;
  case Op::Abs: run([](S A, S, U, U, bool &) { return A < 0 ? U(0) - U(A) : U(A); }); break;  // no overflow at INT64_MIN
  case Op::PopCount: run([](S, S, U A, U, bool &) { return U(std::popcount(A)); }); break;
  case Op::CountZeros:
    if (X.Pred == 0) run([&](S, S, U A, U, bool &) { return U(std::countl_zero(A) - (64 - Bits)); });
    else run([&](S, S, U A, U, bool &) { return U(std::min<unsigned>(unsigned(std::countr_zero(A)), Bits)); });
    break;
  default: K = 0; break;  // not an integer operation the evaluator knows: unknown
  }
}

void Stepper::executeLanes(Warp &W, const Instr &X, LaneMask Active) const {
  LaneMask K = Active;
  const unsigned Bits = X.Width;
  const auto result = [&](unsigned Lane, std::uint64_t V) { set(W, X.Dst, Lane, signExtend(V, Bits)); };
  switch (X.Code) {
  case Op::Special:
    for (unsigned Lane = 0; Lane < Lanes; ++Lane)
      if (Active >> Lane & 1) result(Lane, static_cast<std::uint64_t>(special(W, SpecialReg(X.Pred), Lane)));
    break;
  case Op::Unknown:
  case Op::Access: K = 0; break;
  case Op::Loaded:
    K &= known(W, X.A);
    for (LaneMask M = K; M; M &= M - 1) {
      const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
      const std::uint64_t Address = static_cast<std::uint64_t>(value(W, X.A, Lane));
      const Region R = P.regionOf(Address);
      const std::optional<IndexValues> V =
          R.K == Region::Parameter && std::size_t(R.Index) < L.Indices.size() ? L.Indices[std::size_t(R.Index)] : std::nullopt;
      if (!V || V->Bound <= 0) K &= ~(LaneMask(1) << Lane);
      else if (!V->Distinct) result(Lane, uniformIndex(Address, std::uint64_t(V->Bound)));
      else result(Lane, distinctIndex((Address - tensorBase(unsigned(R.Index))) / std::max(1u, Bits / 8), std::uint64_t(V->Bound)));
    }
    break;
  case Op::Barrier: return;
  case Op::Select:
    K &= known(W, X.A);
    for (LaneMask M = K; M; M &= M - 1) {
      const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
      const Ref Pick = value(W, X.A, Lane) & 1 ? X.B : X.C;
      if (!(known(W, Pick) >> Lane & 1)) K &= ~(LaneMask(1) << Lane);
      else set(W, X.Dst, Lane, value(W, Pick, Lane));
    }
    break;
  case Op::ZExt:
  case Op::SExt:
  case Op::Trunc:
  case Op::Copy: {
    K &= known(W, X.A);
    Row Scratch, V;
    const std::int64_t *A = lanesOf(W, X.A, Scratch);
    const std::uint64_t Low = X.Code == Op::ZExt ? lowBits(X.From) : ~std::uint64_t(0);
    const unsigned Out = extensionShift(Bits);
    const auto [First, End] = laneRange(K);
    for (unsigned Lane = First; Lane < End; ++Lane) V[Lane] = extend(static_cast<std::uint64_t>(A[Lane]) & Low, Out);
    store(W, X.Dst, V, K);
    break;
  }
  case Op::Gep: {
    K &= known(W, X.A);
    for (const auto &T : X.Terms) K &= known(W, T.first);
    Row Scratch, V;  // address arithmetic wraps: unsigned
    const std::int64_t *A = lanesOf(W, X.A, Scratch);
    const auto [First, End] = laneRange(K);
    const auto add = [](std::int64_t X, std::uint64_t Y) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(X) + Y); };
    for (unsigned Lane = First; Lane < End; ++Lane) V[Lane] = add(A[Lane], static_cast<std::uint64_t>(X.Imm));
    const unsigned Shift = extensionShift(X.Pred);  // the index's width
    for (const auto &[Index, Step] : X.Terms) {
      const std::int64_t *I = lanesOf(W, Index, Scratch);
      for (unsigned Lane = First; Lane < End; ++Lane)
        V[Lane] = add(V[Lane], static_cast<std::uint64_t>(extend(static_cast<std::uint64_t>(I[Lane]), Shift)) * static_cast<std::uint64_t>(Step));
    }
    store(W, X.Dst, V, K);
    break;
  }
  case Op::ICmp:
    K &= known(W, X.A) & known(W, X.B);
    compare(W, X, K);
    break;
  default:
    K &= known(W, X.A);
    if (!isUnary(X.Code)) K &= known(W, X.B);
    arithmetic(W, X, K);
    break;
  }
  if (X.Dst >= 0) W.Known[std::size_t(X.Dst)] = (W.Known[std::size_t(X.Dst)] & ~Active) | K;
}

void Stepper::enterBlock(Warp &W, LaneMask Active) const {
  const BlockCode &B = P.Blocks[std::size_t(W.Stack.back().Pc)];
  // Every phi reads the values before any is written (they are simultaneous).
  struct Pending {
    Pending() {}  // V is filled where it is read (the active lanes, or the first of a uniform value)
    std::int32_t Dst = 0;
    std::array<std::int64_t, Lanes> V;
    LaneMask K = 0;
    bool Uniform = false;
  };
  // All of the warp's lanes arriving from one block take one incoming value each: uniform when it is.
  const unsigned First = static_cast<unsigned>(std::countr_zero(Active));
  const bool OnePredecessor = Active == W.Exists && W.OnePrev != Warp::Mixed;
  SmallVector<Pending, 8> Out;
  for (const PhiInstr &Phi : B.Phis) {
    Pending &X = Out.emplace_back();
    X.Dst = Phi.Dst;
    X.Uniform = OnePredecessor;
    if (OnePredecessor) {  // every lane takes the same incoming value: its row, without a search per lane
      const auto In = std::find_if(Phi.Incoming.begin(), Phi.Incoming.end(), [&](const auto &I) { return I.first == W.Prev[First]; });
      if (In != Phi.Incoming.end()) {
        X.Uniform = uniform(W, In->second);
        if (X.Uniform) X.V[First] = value(W, In->second, First);  // the write below fills the row from it
        else
          for (LaneMask M = Active; M; M &= M - 1) {
            const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
            X.V[Lane] = value(W, In->second, Lane);
          }
        X.K = known(W, In->second) & Active;
        continue;
      }
    }
    X.V.fill(0);  // a lane without an incoming value for its predecessor
    for (LaneMask M = Active; M; M &= M - 1) {
      const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
      for (const auto &[Pred, R] : Phi.Incoming)
        if (Pred == W.Prev[Lane]) {
          X.V[Lane] = value(W, R, Lane);
          if (known(W, R) >> Lane & 1) X.K |= LaneMask(1) << Lane;
          if (Lane == First) X.Uniform = X.Uniform && uniform(W, R);
          break;
        }
    }
  }
  for (const Pending &X : Out) {
    if (X.Uniform) std::fill_n(&W.Values[std::size_t(X.Dst) * Lanes], Lanes, X.V[First]);
    else
      for (LaneMask M = Active; M; M &= M - 1) {
        const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
        set(W, X.Dst, Lane, X.V[Lane]);
      }
    W.Known[std::size_t(X.Dst)] = (W.Known[std::size_t(X.Dst)] & ~Active) | X.K;
    W.Uniform[std::size_t(X.Dst)] = X.Uniform;
  }
}

void Stepper::arrive(Warp &W, LaneMask Mask, int From) {
  for (unsigned Lane = 0; Lane < Lanes; ++Lane) W.Prev[Lane] = Mask >> Lane & 1 ? From : W.Prev[Lane];
  if ((Mask & W.Exists) == W.Exists) W.OnePrev = From;
  else if (W.OnePrev != From) W.OnePrev = Warp::Mixed;
}

void Stepper::jump(Warp &W, int From, int To) const {
  StackEntry &Top = W.Stack.back();
  arrive(W, Top.Mask, From);
  Top.Pc = To;
  W.Ip = 0;
  W.PhisDone = false;
}

void Stepper::exitLanes(Warp &W, LaneMask Gone) const {
  for (StackEntry &E : W.Stack) E.Mask &= ~Gone;
  W.Stack.pop_back();
  W.Ip = 0;
  W.PhisDone = false;
}

void Stepper::noteUndecided(const Warp &W, const BlockCode &B, LaneMask Mask) const {
  if (Mask == 0) return;
  const auto add = [](auto &List, auto Item) {
    if (std::find(List.begin(), List.end(), Item) == List.end()) List.push_back(std::move(Item));
  };
  for (unsigned Param : B.CondParams)
    if ((W.Known[std::size_t(P.ArgumentSlots[Param].first)] & Mask) != Mask) add((*Undecided)[B.Line].Unbound, P.ArgumentNames[Param]);
  for (const auto &[Param, Bits] : B.CondShifts) {
    const std::int32_t Slot = P.ArgumentSlots[Param].first;
    const unsigned Lane = static_cast<unsigned>(std::countr_zero(Mask));
    if ((W.Known[std::size_t(Slot)] & Mask) != Mask || W.Values[std::size_t(Slot) * Lanes + Lane] < std::int64_t(Bits)) continue;
    add((*Undecided)[B.Line].ShiftedPast,
        ShiftPastWidth{Param, P.ArgumentNames[Param], Bits, W.Values[std::size_t(Slot) * Lanes + Lane]});
  }
}

bool Stepper::branch(Warp &W, std::optional<EvalFailure> &Failure) const {
  StackEntry &Top = W.Stack.back();
  const int Here = Top.Pc;
  const BlockCode &B = P.Blocks[std::size_t(Here)];
  if (B.T == Term::Exit) {
    exitLanes(W, Top.Mask);
    return true;
  }
  if (B.T == Term::Jump) {
    jump(W, Here, B.Succ[0]);
    return true;
  }
  // Nothing between here and the join matters, or the condition depends on data: the lanes go
  // straight to the join, what the region defines is forgotten (the join's phis too: no predecessor
  // of theirs), and the region's accesses are reported as conditional on data.
  const bool Unknown = (known(W, B.Cond) & Top.Mask) != Top.Mask;
  if (B.Skip || Unknown) {
    if (Unknown && Skipped)
      for (unsigned Site : B.RegionSites) Skipped->emplace(Site, B.Line);
    if (Unknown && Undecided) noteUndecided(W, B, Top.Mask);
    if (Unknown)
      for (std::int32_t Slot : B.RegionSlots) {
        W.Known[std::size_t(Slot)] &= ~Top.Mask;
        if (Top.Mask != W.Exists) W.Uniform[std::size_t(Slot)] = 0;
      }
    if (B.Reconverge < 0) {
      exitLanes(W, Top.Mask);
    } else {
      jump(W, Here, B.Reconverge);
      arrive(W, W.Stack.back().Mask, -2);
    }
    return true;
  }
  // The lanes each successor takes (a uniform condition: the first lane's, for all).
  SmallVector<std::pair<int, LaneMask>, 4> Targets;
  const LaneMask Deciding = uniform(W, B.Cond) ? Top.Mask & (~Top.Mask + 1) : Top.Mask;
  for (LaneMask M = Deciding; M; M &= M - 1) {
    const unsigned Lane = static_cast<unsigned>(std::countr_zero(M));
    const std::int64_t C = value(W, B.Cond, Lane);
    int To = B.Succ[0];
    if (B.T == Term::Branch) To = C & 1 ? B.Succ[0] : B.Succ[1];
    else
      for (std::size_t K = 0; K < B.Cases.size(); ++K)
        if (signExtend(static_cast<std::uint64_t>(B.Cases[K]), B.CondWidth) == signExtend(static_cast<std::uint64_t>(C), B.CondWidth))
          To = B.Succ[1 + K];
    auto It = std::find_if(Targets.begin(), Targets.end(), [&](const auto &T) { return T.first == To; });
    if (It == Targets.end()) Targets.push_back({To, LaneMask(1) << Lane});
    else It->second |= LaneMask(1) << Lane;
  }
  if (Deciding != Top.Mask && !Targets.empty()) Targets[0].second = Top.Mask;
  if (Targets.size() <= 1) {
    if (Targets.empty()) W.Stack.pop_back();
    else jump(W, Here, Targets[0].first);
    return true;
  }
  // Divergence: the lanes run each side in turn and meet again at the post-dominator.
  arrive(W, Top.Mask, Here);
  const int Join = B.Reconverge;
  if (Top.Rpc == Join) W.Stack.pop_back();  // the entry below already waits there with these lanes
  else Top.Pc = Join;
  for (auto It = Targets.rbegin(); It != Targets.rend(); ++It)
    if (It->first != Join) W.Stack.push_back({It->first, Join, It->second});
  W.Ip = 0;
  W.PhisDone = false;
  return true;
}

bool Stepper::step(Warp &W, WarpRequest &R, std::uint64_t &Budget, std::optional<EvalFailure> &Failure) {
  while (!W.Stack.empty()) {
    StackEntry &Top = W.Stack.back();
    if (Top.Pc == Top.Rpc || Top.Mask == 0 || Top.Pc < 0) {
      W.Stack.pop_back();
      W.Ip = 0;
      W.PhisDone = false;
      continue;
    }
    const BlockCode &B = P.Blocks[std::size_t(Top.Pc)];
    const LaneMask Active = Top.Mask;
    if (!W.PhisDone) {
      enterBlock(W, Active);
      W.PhisDone = true;
    }
    while (W.Ip < B.Body.size()) {
      const Instr &X = B.Body[W.Ip++];
      if (Budget == 0) {
        Failure = budgetSpent(B);
        return false;
      }
      --Budget;
      execute(W, X, Active);
      if (X.Code == Op::Barrier) {
        W.State = Warp::AtBarrier;
        return false;
      }
      if (X.Code == Op::Access) {
        R.Site = static_cast<unsigned>(X.Imm);
        R.Active = Active;
        R.Unknown = Active & ~known(W, X.A);
        const std::uint64_t Offset = static_cast<std::uint64_t>(X.Terms[0].second);
        if (X.A < 0) R.Address.fill(static_cast<std::uint64_t>(value(W, X.A, 0)) + Offset);
        else
          for (unsigned Lane = 0; Lane < Lanes; ++Lane)
            R.Address[Lane] = static_cast<std::uint64_t>(W.Values[std::size_t(X.A) * Lanes + Lane]) + Offset;
        if (X.Piece.P != FragmentPiece::None) {
          R.Unknown |= Active & ~known(W, X.B);
          for (unsigned Lane = 0; Lane < Lanes; ++Lane)
            R.Address[Lane] += static_cast<std::uint64_t>(X.Piece.elementOffset(Lane, value(W, X.B, Lane)) * X.Piece.ElemBytes);
        }
        R.Block = W.Block;
        R.Warp = W.Index;
        return true;
      }
    }
    if (Budget == 0) {
      Failure = budgetSpent(B);
      return false;
    }
    --Budget;
    if (!branch(W, Failure)) return false;
  }
  W.State = Warp::Done;
  return false;
}

}  // namespace

std::optional<EvalFailure> WarpEvaluator::run(const EvalLaunch &Launch, const std::vector<std::int64_t> &Blocks,
                                              const std::function<void(const WarpRequest &)> &Sink, std::uint64_t &Budget,
                                              Notes &Noted) const {
  Stepper S(*P, Launch, &Noted.DataConditioned, &Noted.UndecidedConditions);
  const unsigned WarpsPerBlock = static_cast<unsigned>((Launch.Block.count() + Lanes - 1) / Lanes);
  std::vector<Warp> Warps(Blocks.size() * WarpsPerBlock);
  for (std::size_t G = 0; G < Blocks.size(); ++G)
    for (unsigned K = 0; K < WarpsPerBlock; ++K) S.start(Warps[G * WarpsPerBlock + K], Blocks[G], K, static_cast<unsigned>(G));
  std::optional<EvalFailure> Failure;
  WarpRequest R;
  // Round robin: each running warp issues its next request in turn.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (Warp &W : Warps) {
      if (W.State != Warp::Running) continue;
      Progress = true;
      if (S.step(W, R, Budget, Failure)) Sink(R);
      if (Failure) return Failure;
    }
    // A block whose warps all wait at the barrier (or have ended) goes on.
    for (std::size_t G = 0; G < Blocks.size(); ++G) {
      const auto First = Warps.begin() + std::ptrdiff_t(G * WarpsPerBlock), Last = First + WarpsPerBlock;
      const bool Waiting = std::any_of(First, Last, [](const Warp &W) { return W.State == Warp::AtBarrier; });
      if (Waiting && std::none_of(First, Last, [](const Warp &W) { return W.State == Warp::Running; })) {
        for (auto It = First; It != Last; ++It)
          if (It->State == Warp::AtBarrier) It->State = Warp::Running;
        Progress = true;
      }
    }
  }
  return std::nullopt;
}

void WarpEvaluator::keep(const Notes &Noted) {
  for (const auto &[Site, Line] : Noted.DataConditioned) Kept.DataConditioned.emplace(Site, Line);
  const auto add = [](auto &List, const auto &Items) {
    for (const auto &Item : Items)
      if (std::find(List.begin(), List.end(), Item) == List.end()) List.push_back(Item);
  };
  for (const auto &[Line, Why] : Noted.UndecidedConditions) {
    UndecidedCondition &To = Kept.UndecidedConditions[Line];
    add(To.Unbound, Why.Unbound);
    add(To.ShiftedPast, Why.ShiftedPast);
  }
}

std::string sourcePath(std::string_view Filename, std::string_view Directory) {
  SmallString<256> Path(Filename);
  if (!sys::path::is_absolute(Path) && !Directory.empty()) {
    Path = Directory;
    sys::path::append(Path, Filename);
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);  // -I./kernels parsed or read from a PCH: one name
  return Path.str().str();
}

namespace {

const DILocation *withLine(const Instruction &I) {
  const DILocation *L = I.getDebugLoc().get();
  return L && L->getLine() ? L : nullptr;
}

/// The instructions @p From is computed from, @p From first, breadth first, at most 32 of them.
SmallVector<const Instruction *, 32> definitionsOf(const Value *From) {
  constexpr std::size_t Most = 32;
  SmallVector<const Instruction *, 32> Work;
  SmallPtrSet<const Instruction *, 32> Seen;
  if (const auto *I = dyn_cast_or_null<Instruction>(From)) Work.push_back(I), Seen.insert(I);
  for (std::size_t K = 0; K < Work.size(); ++K) {
    // A GEP's indices before its base: the line that computes the index, not the row pointer's.
    SmallVector<const Value *, 4> Ops(Work[K]->operands());
    if (isa<GetElementPtrInst>(Work[K])) std::reverse(Ops.begin(), Ops.end());
    for (const Value *Op : Ops)
      if (const auto *D = dyn_cast<Instruction>(Op); D && Work.size() < Most && Seen.insert(D).second) Work.push_back(D);
  }
  return Work;
}

/// The first located instruction among @p From and what computes its operands, breadth first.
const DILocation *firstLocatedDefinition(const Value *From) {
  for (const Instruction *D : definitionsOf(From))
    if (const DILocation *L = withLine(*D)) return L;
  return nullptr;
}

/// Where the first arm (in the source) that the access @p I was sunk from is written, where its address
/// @p From itself has no line: a phi of the access's own block among the address's definitions, merging
/// the arms of a branch (not a loop header's, whose block dominates the latch it comes back from). An
/// arm is at its incoming value's line where the arm computes it, else at its last located instruction
/// (its branch), else at its value's definition. An access merged from the arms belongs to their lines,
/// not to the common part of its address (the row index both arms' values were computed from before
/// the branch).
const DILocation *firstJoinedArm(const Instruction &I, const Value *From) {
  const SmallVector<const Instruction *, 32> Definitions = definitionsOf(From);
  if (Definitions.empty() || withLine(*Definitions.front())) return nullptr;
  std::optional<DominatorTree> DT;  // only for an access with no line of its own, which is rare
  const auto armLine = [](const PHINode &Phi, unsigned K) -> const DILocation * {
    const BasicBlock *Arm = Phi.getIncomingBlock(K);
    if (const auto *V = dyn_cast<Instruction>(Phi.getIncomingValue(K)); V && V->getParent() == Arm)
      if (const DILocation *L = withLine(*V)) return L;
    for (const Instruction &A : reverse(*Arm))
      if (const DILocation *L = withLine(A)) return L;
    return firstLocatedDefinition(Phi.getIncomingValue(K));
  };
  for (const Instruction *D : Definitions) {
    const auto *Phi = dyn_cast<PHINode>(D);
    if (!Phi || Phi->getParent() != I.getParent()) continue;
    if (!DT) DT.emplace(const_cast<Function &>(*Phi->getFunction()));
    const auto backEdge = [&](const BasicBlock *B) { return DT->isReachableFromEntry(B) && DT->dominates(Phi->getParent(), B); };
    if (any_of(Phi->blocks(), backEdge)) continue;
    const DILocation *First = nullptr;
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      if (const DILocation *L = armLine(*Phi, K); L && (!First || L->getLine() < First->getLine())) First = L;
    if (First) return First;
  }
  return nullptr;
}

/// Where @p I came from. The optimizer gives an access it merged from two (a store sunk out of both arms
/// of a branch) line 0: then the line that computes its address (its pointer operands: a load's, a
/// store's, an atomic's, an intrinsic's or inline PTX's), the line of the first arm where the address
/// itself joins two arms' (a stencil's halo rows), else its other operands (the value stored), else the
/// nearest instruction before it in its block, else after it, so that no access loses its line.
const DILocation *sourceLocation(const Instruction &I) {
  if (const DILocation *L = withLine(I)) return L;
  SmallVector<const Value *, 4> Ops(I.operands());
  // The address first: a load's or store's pointer operand (a store may store a pointer), else the
  // operands of pointer type (an atomic's, an intrinsic's, inline PTX's).
  const Value *Address = getLoadStorePointerOperand(&I);
  const auto Values = std::stable_partition(Ops.begin(), Ops.end(), [&](const Value *V) {
    return Address ? V == Address : V->getType()->isPointerTy();
  });
  for (const Value *Op : make_range(Ops.begin(), Values))
    if (const DILocation *L = firstJoinedArm(I, Op)) return L;
  for (const Value *Op : Ops)
    if (const DILocation *L = firstLocatedDefinition(Op)) return L;
  for (const Instruction *P = I.getPrevNode(); P; P = P->getPrevNode())
    if (const DILocation *L = withLine(*P)) return L;
  for (const Instruction *N = I.getNextNode(); N; N = N->getNextNode())
    if (const DILocation *L = withLine(*N)) return L;
  return I.getDebugLoc().get();
}

}  // namespace

void positionOf(const Instruction &I, std::string &File, unsigned &Line, unsigned &Column) {
  const DILocation *Loc = sourceLocation(I);
  const auto pathOf = [](const DILocation &L) { return sourcePath(L.getFilename(), L.getDirectory()); };
  if (!Loc) return;
  std::string Path = pathOf(*Loc);
  // Out of the toolchain's headers to the line that called them (an __ldg's, an atomicAdd's).
  while (Loc->getInlinedAt() && files::is_toolchain_header(Path)) {
    Loc = Loc->getInlinedAt();
    Path = pathOf(*Loc);
  }
  File = std::move(Path);
  Line = Loc->getLine();
  Column = Loc->getColumn();
}

}  // namespace rooflint::analyzer
