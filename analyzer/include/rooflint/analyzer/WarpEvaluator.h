#pragma once
/// @file WarpEvaluator.h
/// Runs a kernel's device-side IR for concrete threads: the addresses each warp request touches.
///
/// The evaluator interprets the part of a kernel that decides which global memory it touches (its
/// address slice: the values that reach a global access's address or a branch, and nothing of the
/// floating-point work) for the 32 lanes of a warp at once, as the hardware runs them: a request is
/// one execution of a load, store or atomic by the warp's active lanes. Divergent branches run one
/// side after the other and reconverge at the branch's immediate post-dominator (the SIMT stack of
/// NVIDIA's GPUs since Fermi); `__syncthreads()` holds a warp until every warp of its block arrives.
/// A region between a branch and its post-dominator that touches no global memory and defines no
/// value the slice needs (a shared-memory tile's inner product) is skipped whole.
///
/// Values are 64-bit integers with a "known" bit per lane. Pointer parameters get distinct base
/// addresses (TensorBase), integer parameters the values the spec binds, and anything the kernel
/// loads from memory, floating-point results and unbound parameters are unknown: an address that
/// depends on one is reported as unknown, and at a branch on one the lanes skip to where its two
/// sides meet again, the accesses between reported as conditional on data (dataConditioned()).

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace rooflint::analyzer {

/// A grid or block shape.
struct Dim3 {
  std::int64_t X = 1, Y = 1, Z = 1;
  std::int64_t count() const { return X * Y * Z; }
  bool operator==(const Dim3 &) const = default;
};

/// The values of an index tensor: in [0, Bound), drawn independently (uniform) or all different.
struct IndexValues {
  std::int64_t Bound = 0;
  bool Distinct = false;
};

/// The launch an evaluation runs.
struct EvalLaunch {
  Dim3 Grid, Block;
  /// Per kernel parameter: the integer value the spec binds (a size), or none (unknown). Pointer
  /// parameters are given TensorBase(index) whatever this holds.
  std::vector<std::optional<std::int64_t>> Scalars;
  /// Per pointer parameter: the values of an index tensor as the spec states them
  /// (dsl::tensor_ref::indices), or none: what is loaded from it is unknown.
  std::vector<std::optional<IndexValues>> Indices;
};

/// Address bits that name a memory region: each pointer parameter, each `__device__` variable and
/// shared memory get one, 2^40 bytes (1 TiB) apart, so that an address tells which tensor it is in.
inline constexpr unsigned RegionShift = 40;
/// The first byte of parameter @p Param's tensor.
inline constexpr std::uint64_t tensorBase(unsigned Param) { return (std::uint64_t(Param) + 1) << RegionShift; }

/// splitmix64's finaliser (Steele et al. 2014): a fixed pseudo-random function of @p X, the same on every
/// run (the values of stated index tensors, the blocks spread over a grid).
std::uint64_t mix64(std::uint64_t X);

/// Whether the intrinsic @p IntrinsicId (an llvm::Intrinsic::ID) is a load through the read-only
/// (non-coherent) path, as clang lowers `__ldg` and `__ldu`: the evaluator counts it as a load.
bool isReadOnlyLoad(unsigned IntrinsicId);

/// Whether @p Ptr never points into global memory: the shared, constant or local address space, a
/// stack object or a by-value parameter's copy, whichever arm of a select or phi it is taken from.
bool neverGlobal(const llvm::Value *Ptr);

/// @return @p Filename made absolute with @p Directory (a debug location's or subprogram's compilation
/// directory) when it is relative and the directory is known, without `.` or `..`.
std::string sourcePath(std::string_view Filename, std::string_view Directory);

/// The position an access of @p I is reported at: the innermost location of its debug location outside
/// the toolchain's headers (rooflint/files/source_position.h: an `__ldg` or `atomicAdd` is at the line
/// that calls it), the file made absolute with its compilation directory; nothing when @p I has none.
void positionOf(const llvm::Instruction &I, std::string &File, unsigned &Line, unsigned &Column);

/// What a memory region is.
struct Region {
  enum Kind : std::uint8_t { None, Parameter, DeviceVariable, Shared, Local } K = None;
  int Index = -1;  ///< the parameter's index (Parameter)
};

/// A global memory access of the kernel's IR: one load, store or atomic instruction.
struct AccessSite {
  enum Kind : std::uint8_t { Load, Store, Atomic } K = Load;
  unsigned Bytes = 0;      ///< bytes one lane moves
  bool BypassesL1 = false; ///< ld.global.cg / .cv, volatile: served by L2 (the L1 is not looked up)
  int Param = -1;          ///< the pointer parameter its address is based on, when the IR shows it
  bool Drawn = false;      ///< its address depends on a value loaded from an index tensor the spec states
  /// The integer parameters its address is computed from (index, name), when no load or call is behind
  /// it: those the spec does not bind are why such an address is unknown (a stride, a pitch).
  std::vector<std::pair<unsigned, std::string>> AddressScalars;
  std::string File;        ///< where it is reported (positionOf)
  unsigned Line = 0, Column = 0;
};

/// A use of global memory the evaluator cannot count: an intrinsic or inline assembly that takes a
/// pointer (a wmma or TMA load, cp.async, a memcpy), whose traffic is then unknown.
struct UnmodelledAccess {
  int Param = -1;          ///< the pointer parameter, when the IR shows it
  std::string What;        ///< "'llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0'"
  std::string File;
  unsigned Line = 0;
};

/// One warp request: an access executed by the warp's active lanes.
struct WarpRequest {
  unsigned Site = 0;            ///< index into WarpEvaluator::sites()
  std::uint32_t Active = 0;     ///< lanes that run it
  std::uint32_t Unknown = 0;    ///< active lanes whose address is unknown
  std::array<std::uint64_t, 32> Address{};
  std::int64_t Block = 0;       ///< linear block index in the grid
  unsigned Warp = 0;            ///< warp within its block
};

/// Why an evaluation stopped early.
struct EvalFailure {
  std::string Reason;           ///< "control flow depends on a value loaded from memory"
  std::string File;
  unsigned Line = 0;
  bool OutOfBudget = false;     ///< the budget of warp instructions ran out (the code itself was followed)
};

/// A value of @p Bits bits shifted by scalar parameter @p Param, which holds @p Value at the spec's sizes:
/// by its width or more, which is undefined (a size's logarithm bound as the size).
struct ShiftPastWidth {
  unsigned Param = 0;
  std::string Name;
  unsigned Bits = 0;
  std::int64_t Value = 0;
  bool operator==(const ShiftPastWidth &) const = default;
};

/// Why a branch's condition, computed from scalar parameters alone, was not known at the spec's sizes.
struct UndecidedCondition {
  std::vector<std::string> Unbound;        ///< the parameters the launch does not give (the spec does not bind them)
  std::vector<ShiftPastWidth> ShiftedPast;  ///< the parameters that shift a value past its width
};

/// A kernel compiled for evaluation (its address slice), run for chosen blocks of a launch.
class WarpEvaluator {
public:
  /// Compiles @p F; fails (with the reason) on what the evaluator cannot run: a call that was not
  /// inlined, an integer wider than 64 bits in the slice.
  /// Integers loaded from the parameters in @p IndexTensors are evaluated (EvalLaunch::Indices).
  static std::unique_ptr<WarpEvaluator> compile(llvm::Function &F, const std::set<int> &IndexTensors, std::string &Why);
  ~WarpEvaluator();

  const std::vector<AccessSite> &sites() const;
  /// The loads of index tensors whose values the evaluation draws (Op::Loaded): 0 when the kernel reads
  /// its indices in a way it does not follow (__ldg, inline PTX, a cache-hint load).
  unsigned indexLoads() const;
  const std::vector<UnmodelledAccess> &unmodelled() const;
  /// The region an address lies in (tensorBase(), the kernel's variables).
  Region regionOf(std::uint64_t Address) const;

  /// What a run noted of the branches that stopped it short: read by the model with the figures.
  struct Notes {
    /// The accesses skipped because a branch before them depends on data: site -> the branch's line.
    std::map<unsigned, unsigned> DataConditioned;
    /// Of those branches, the ones whose condition is computed from scalar parameters alone: the branch's
    /// line -> the parameters the launch does not give, or that shift a value past its width.
    std::map<unsigned, UndecidedCondition> UndecidedConditions;
  };

  /// Runs every warp of @p Blocks (linear indices) of @p Launch together, one request at a time per
  /// warp in turn (warps interleave as the warp schedulers of one SM interleave them), calling @p Sink
  /// for each request, and adds to @p Noted what it met. Stops after @p Budget warp instructions (then
  /// fails with the reason). Runs may go on at once: each with notes of its own, kept (keep()) in order.
  std::optional<EvalFailure> run(const EvalLaunch &Launch, const std::vector<std::int64_t> &Blocks,
                                 const std::function<void(const WarpRequest &)> &Sink, std::uint64_t &Budget,
                                 Notes &Noted) const;
  /// Keeps a run's notes after those of the runs before it (the first site's branch, the first reasons).
  void keep(const Notes &Noted);

  const std::map<unsigned, unsigned> &dataConditioned() const { return Kept.DataConditioned; }
  const std::map<unsigned, UndecidedCondition> &undecidedConditions() const { return Kept.UndecidedConditions; }

  class Program;

private:
  Notes Kept;  ///< the runs' notes so far
  explicit WarpEvaluator(std::unique_ptr<Program> P);
  std::unique_ptr<const Program> P;  ///< built once; runs on several threads read it
};

}  // namespace rooflint::analyzer
