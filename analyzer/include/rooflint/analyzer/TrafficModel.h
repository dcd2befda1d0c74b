#pragma once
/// @file TrafficModel.h
/// Traffic per tensor and memory level, from the addresses the kernel's warps touch (WarpEvaluator.h)
/// at the spec's sizes, through a model of the GPU's caches (docs/analyzer.md, "Traffic prediction").
///
/// - L1 (the sectors the warps request): counted exactly for sampled blocks, request by request, and
///   extrapolated over the grid by the kind of block (interior, last along x, last along y, corner).
/// - L2 (the sectors L1 requests from L2, and every store): the sampled blocks of one SM run together
///   through an LRU L1 of the SM's capacity beside the shared memory the driver is expected to
///   configure; once more at the fraction of it that the H200 was measured to keep whole (a working
///   set above it is partly evicted). When the two differ, the prediction is that range.
/// - DRAM: reads at the memory's 64-byte access granularity, writes by 32-byte sector. When the
///   kernel's footprint is within the fraction of L2 measured to keep a working set whole, every
///   granule comes from DRAM once; otherwise the prediction is a range from "every granule once" to
///   "every L2 miss from DRAM", with a point estimate from waves of co-resident blocks (none where it
///   rests on what the spec does not state, or on more waves in step than were measured).
///
/// Whatever the evaluation cannot know makes the figure "not predicted", with the reason.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/analyzer/Traffic.h"
#include "rooflint/analyzer/WarpEvaluator.h"

namespace llvm {
class Function;
class ThreadPoolInterface;
}  // namespace llvm

namespace rooflint::analyzer {

/// The launch shape an evaluation used, and where it came from.
struct LaunchChoice {
  Dim3 Grid, Block;
  bool Stated = false;        ///< the spec states it (.launch()); else assumed
  std::string Text;           ///< "grid (16384, 1, 1), block (256, 1, 1), assumed: ..."
  std::string Missing;        ///< why no launch could be chosen (then nothing is evaluated)
  std::int64_t DynamicShared = 0;  ///< dynamic shared memory per block the spec states (.dynamic_shared), bytes
  int Registers = 0;               ///< registers a thread the spec states (.registers); 0: not stated
  /// Why no L2 or DRAM figure holds: the kernel has dynamic shared memory the spec does not state.
  std::string SharedUnknown;
};

/// What one access (an IR load, store or atomic) does over the whole launch.
struct AccessTraffic {
  AccessSite Site;
  int Param = -1;             ///< the tensor's parameter (from its addresses), or -1
  std::vector<int> Params;    ///< every tensor its lanes address, ascending (a select of pointers: several)
  double Requests = 0;        ///< warp requests over the launch
  double Sectors = 0;         ///< sectors they touch at L1
  double IdealSectors = 0;    ///< sectors their useful bytes need (ceil(useful / 32) per request)
  double L2Sectors = 0;       ///< sectors they request from L2 (full L1 capacity)
  bool Unknown = false;       ///< some address depends on what the build cannot know
  unsigned ConditionLine = 0; ///< it runs only where a condition on data at this line holds (0: none)
  std::string ConditionOn;    ///< what that condition depends on: "data the build cannot know", or the parameters
  double amplification() const { return IdealSectors > 0 ? Sectors / IdealSectors : 1; }
};

/// The evaluated traffic of one kernel at its spec's sizes.
struct KernelEvaluation {
  LaunchChoice Launch;
  std::string Failure;        ///< why nothing could be predicted ("" when evaluated)
  std::vector<AccessTraffic> Accesses;
  std::vector<KernelRecord::PredictedTraffic> Levels;  ///< per tensor and level
  std::string Sampled;        ///< "7 of 65536 blocks evaluated (blocks 0, 132, ...)"
  std::vector<ShiftPastWidth> ShiftsPastWidth;  ///< parameters by which the kernel shifts past a value's width
  std::uint64_t Instructions = 0;  ///< warp instructions run
  int BlocksPerSm = 0;             ///< the blocks an SM holds, as the evaluation took them (0: not evaluated)
};

/// Compulsory bytes of tensor @p T at @p R's declared sizes: read, written, or both (an inout tensor).
double compulsoryBytes(const KernelRecord &R, const dsl::tensor_info &T);

/// The warp instructions one kernel's evaluation may run (ROOFLINT_EVAL_BUDGET overrides).
std::uint64_t evaluationBudget();

/// Chooses the launch to evaluate @p Record's kernel with: the spec's stated launch, else sizes the
/// spec reads from gridDim/blockDim, else one thread per element of the largest written tensor in
/// blocks of @p ThreadsPerBlock (the kernel's __launch_bounds__ or 256).
LaunchChoice chooseLaunch(const KernelRecord &Record, int ThreadsPerBlock, bool ThreadsStated);

/// The dynamic shared memory per block @p Record's spec states (.dynamic_shared) at its sizes, in bytes; 0
/// where it states none.
std::int64_t dynamicSharedBytes(const KernelRecord &Record);

/// Evaluates @p F (the kernel of @p Record) at the spec's sizes on the GPU @p Levels describes, its blocks
/// using @p SharedBytes of shared memory each (static and dynamic). Its runs of blocks go on @p Pool's
/// threads where given; the figures are the same with or without it.
KernelEvaluation evaluateTraffic(llvm::Function &F, const KernelRecord &Record, const LaunchChoice &Launch,
                                 std::int64_t SharedBytes, const CacheLevels &Levels,
                                 llvm::ThreadPoolInterface *Pool = nullptr);

}  // namespace rooflint::analyzer
