#pragma once
/// @file Traffic.h
/// Build-time traffic prediction from the device-side IR (docs/analyzer.md, "Traffic prediction").
///
/// The analyzer parses a CUDA file once, in clang's device mode (--cuda-device-only, sm_90); the AST
/// feeds the spec analysis and, through clang's CodeGenerator, the device-side LLVM IR of every kernel
/// the translation unit defines or instantiates. That IR is optimised (inlining, SROA, loop
/// canonicalisation; no unrolling or vectorisation, so that one source access stays one IR access) and
/// every global load and store is read with scalar evolution: its address as a function of
/// threadIdx.x, loop induction variables and warp-uniform values.
///
/// Terms: a warp request is the 32 lanes' accesses of one instruction; global memory moves in 32-byte
/// sectors (128-byte lines of 4 sectors; NVIDIA CUDA C++ Best Practices Guide, "Coalesced Access to
/// Global Memory"). The amplification of an access is the sectors its warp request touches over the
/// sectors its useful bytes would need (ceil(useful / 32)).
///
/// Assumptions (stated in docs/analyzer.md): blockDim.x is a multiple of 32 (a warp is 32 consecutive
/// threadIdx.x values, threadIdx.y/z uniform in it), base pointers are 128-byte aligned, index
/// arithmetic does not wrap, and control flow does not make an index depend on the lane.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rooflint/analyzer/Analyzer.h"
#include "rooflint/analyzer/Coefficient.h"
#include "rooflint/model/gpu.h"

namespace clang {
class FunctionDecl;
class SourceManager;
}  // namespace clang
namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace rooflint::analyzer {

/// How an access's address depends on the lane.
enum class LanePattern {
  Affine,     ///< constant bytes per lane step
  Symbolic,   ///< bytes per lane step are a product of runtime values ('stride', 'n')
  NonAffine,  ///< not affine in threadIdx.x ('/', '%', products): counted at sampled values
  Unknown,    ///< the address depends on loaded data (a gather) or cannot be evaluated
};

/// A source position of an access (the innermost inlined location; a store's is its '=').
struct TrafficSite {
  std::string File;
  unsigned Line = 0, Column = 0;
  bool Store = false;
};

/// One warp request of a kernel: a global load or store (or a group of them in one basic block whose
/// addresses differ by a constant, such as the four floats of a split float4).
struct TrafficAccess {
  std::string File;        ///< the access's source position (the innermost inlined location)
  unsigned Line = 0, Column = 0;
  /// Every source position of the group's members, the first (File, Line, Column) included: a group
  /// merges the sector count of accesses written on several lines, each reported (and silenced) at
  /// its own line.
  std::vector<TrafficSite> Sites;
  /// At most how many lanes of a warp run the access (32 unless the conditions that guard it leave a
  /// lane-dependent value a window narrower than a warp: a scalar tail that one thread runs, `if
  /// (threadIdx.x < 4)`); the sectors are counted over that many lanes.
  int ActiveLanes = 32;
  bool Store = false;
  std::string Tensor;      ///< the pointer parameter's name ("" when the base is not a parameter)
  int Param = -1;          ///< its index among the kernel's parameters, or -1
  std::int64_t BytesPerLane = 0;  ///< useful bytes one lane moves in the request
  LanePattern Pattern = LanePattern::Unknown;
  SymbolicCoefficient LaneStepBytes;  ///< Affine and Symbolic: bytes per threadIdx.x step
  std::string LaneCoefficient;  ///< in elements of the lane's span ("n", "33"), or "... bytes"
  std::string Stride;      ///< as written in the message ("33 elements of 4 bytes", "'n' elements of 4 bytes")
  std::int64_t Sectors = 0, IdealSectors = 0;  ///< per warp request (the worst case when Symbolic)
  double Amplification = 1;                    ///< Sectors / IdealSectors
  /// Symbolic: the smallest value of the runtime factor from which Amplification holds, and the
  /// amplification when the factor is 1.
  std::int64_t WorstFrom = 0;
  double AtOne = 1;
  std::string Sampled;     ///< NonAffine: the values the count assumes ("'C' = 4096, blockIdx = 0")
  bool Overflows = false;  ///< Affine: lane 31's byte offset does not fit in 64 bits (traffic unknown)
  bool ReusedInL1 = false; ///< a load whose lane walks its own chunk of at most a line in a loop
  /// A load in a loop whose lanes step by less than a sector an iteration: each lane's next iterations
  /// read the rest of the sectors the request fetched, which L1 serves (a lane walking its own row).
  /// Measured on the H200 (2026-12-01, scripts/probes/l1-capacity.sh, 4 KiB lines a warp): L2 reads
  /// 1.00x of compulsory at 8-16 warps per SM, 1.01x at 32, 1.14x at 64.
  bool WalksOwnSectors = false;
  std::string Note;        ///< Unknown: why
  /// The innermost loop's step of this address per iteration in bytes, when constant (0 outside loops).
  std::int64_t LoopStepBytes = 0;
  unsigned LoopId = 0;     ///< the innermost loop's number in its kernel (0: none)
  std::string StartKey;    ///< the address at the loop's first iteration, printed (for re-read detection)
  /// The grid indices the address depends on (GridIndex bits, through data flow).
  unsigned Indices = 0;
};

/// Bits of the grid indices an address depends on.
enum GridIndex : unsigned {
  GridTidX = 1, GridTidY = 2, GridTidZ = 4, GridCtaX = 8, GridCtaY = 16, GridCtaZ = 32,
};
/// "threadIdx.x, blockIdx.x" for the bits of @p Mask.
std::string gridIndexNames(unsigned Mask);

/// A size as the traffic messages write it: "4 bytes", "1 byte", "16 KiB", "1.53 MiB" (binary prefixes:
/// cache capacities are powers of two).
std::string bytesText(std::int64_t Bytes);

/// A tensor read in several separate loops over the same addresses within a thread (a multi-pass kernel).
struct ReRead {
  std::string Tensor;
  int Param = -1;
  unsigned Passes = 0;
  std::string File;
  unsigned Line = 0, Column = 0;  ///< the first pass's load
};

/// What the device-side analysis found in one kernel.
struct KernelTraffic {
  std::string MangledName;  ///< the device symbol
  llvm::Function *Function = nullptr;  ///< its optimised IR (valid while the translation unit is analysed)
  std::string File;         ///< the kernel's definition
  unsigned Line = 0;
  std::vector<TrafficAccess> Accesses;
  std::vector<ReRead> ReReads;
  std::int64_t SharedBytes = 0;  ///< static shared memory the kernel uses (addrspace(3) globals)
  std::string DynamicShared;     ///< an `extern __shared__` array the kernel uses (sized by the launch), or ""
  /// The grid indices the kernel's global stores depend on: the directions along which its grid of
  /// threads extends (a load whose address misses one of them is read again by every thread along it).
  unsigned StoreIndices = 0;
};

/// The memory hierarchy the layer condition uses: the geometry of the GPU the prediction is about
/// (model::gpu_geometry: the datasheet table's row, or what the ceilings file's device reported), and
/// how its caches were seen to keep working sets between passes (measured on the H200).
struct CacheLevels {
  std::int64_t L1BytesPerSm = 0;  ///< combined L1 data cache and shared memory per SM
  std::int64_t L2Bytes = 0;       ///< L2 as CUDA reports it (l2CacheSize)
  int Sms = 0;
  int MaxThreadsPerSm = 0;
  int MaxBlocksPerSm = 0;
  int RegistersPerSm = 0;  ///< 0: unknown (stated registers then do not limit the blocks)
  int RegisterUnit = 0;    ///< registers are allocated to a warp in units of this many
  std::int64_t ReservedSharedPerBlock = 0;  ///< shared memory the system reserves per block, bytes
  /// The shared-memory capacities an SM can be configured with, KiB, ascending; L1 is the rest.
  std::vector<int> SharedConfigsKiB;
  int SectorBytes = 0;  ///< the unit L1 and L2 move
  /// The GPU's measured keeping figures (model::gpu_geometry, where they are measured and what they
  /// mean); 0: unknown.
  std::int64_t DriverSharedPerBlock = 0;
  double L1KeptFraction = 0, L2KeptFraction = 0;
  int DramAccessBytes = 0;  ///< bytes per DRAM transfer (the model's granules are 64)

  /// The largest shared-memory configuration, bytes (0 where none is known): what the blocks of one SM
  /// share, and one block at most with ReservedSharedPerBlock of it the system's.
  std::int64_t largestSharedConfig() const { return SharedConfigsKiB.empty() ? 0 : std::int64_t(SharedConfigsKiB.back()) * 1024; }

  /// @return The levels of a GPU of geometry @p G, or nullopt when a figure they need is unknown (no
  /// other GPU's figure stands in for it).
  static std::optional<CacheLevels> of(const model::gpu_geometry &G);
};

/// How many blocks an SM holds at once, and what limits them.
struct Occupancy {
  enum class Limit { Threads, Blocks, Shared, Registers };
  int Blocks = 0;  ///< 0: a block needs more registers than an SM has (the launch fails)
  Limit By = Limit::Threads;
  bool RegistersKnown = false;  ///< the registers a thread uses were stated and counted
  /// "2 blocks per SM (their registers, 96 a thread)"; where registers were not stated, says the count
  /// is the most threads and shared memory allow.
  std::string text(int Registers) const;
};

/// The blocks an SM holds of a kernel whose blocks have @p Threads threads, @p SharedBytes of shared
/// memory and @p Registers registers a thread (0: not stated, not counted), as the CUDA occupancy
/// calculator counts them.
Occupancy occupancy(int Threads, std::int64_t SharedBytes, int Registers, const CacheLevels &Levels);

/// How much of a working set a cache level keeps between passes.
enum class Kept { All, Part, None };

/// Where the passes of a re-read tensor are served from, for one size.
struct LayerCondition {
  std::int64_t RowBytes = 0;           ///< one block's working set between passes
  Occupancy Resident;                  ///< the blocks an SM holds and what limits them (0: no block fits)
  int BlocksPerSm = 0;                 ///< Resident's blocks, at least 1
  std::int64_t SmWorkingSet = 0;       ///< RowBytes * BlocksPerSm
  std::int64_t SharedConfig = 0;       ///< the shared-memory configuration the driver is expected to choose
  std::int64_t L1Available = 0;        ///< L1 less that configuration
  Kept InL1 = Kept::None, InL2 = Kept::None;
  /// Traffic at that level over one pass: 1 when the level above keeps the rows, the passes when it
  /// keeps none, 0 (not predicted) when it keeps part.
  double L2Ratio = 1, DramRatio = 1;
};

/// The layer condition of a tensor read in @p Passes passes over rows of @p RowBytes by blocks of
/// @p ThreadsPerBlock threads using @p SharedBytes of shared memory each and @p Registers registers a
/// thread (0: not stated; occupancy()).
LayerCondition layerCondition(unsigned Passes, std::int64_t RowBytes, int ThreadsPerBlock, std::int64_t SharedBytes,
                              const CacheLevels &Levels, int Registers = 0);

/// The threads per block the layer condition assumes without __launch_bounds__.
inline constexpr int AssumedThreadsPerBlock = 256;

struct DeviceTraffic {
  std::vector<KernelTraffic> Kernels;
  double Seconds = 0;  ///< optimisation and analysis, wall time (codegen is part of the parse)
  double OptimiseSeconds = 0;  ///< of which the optimisation pipeline
  const KernelTraffic *find(const std::string &MangledName) const;
};

/// Optimises @p M in place (docs/analyzer.md: the pipeline) and analyses every kernel in it.
DeviceTraffic analyzeDeviceModule(llvm::Module &M);

/// Sectors of 32 bytes touched when lane l (0..31) accesses the byte ranges
/// [Offsets[l][k], Offsets[l][k] + Sizes[k]); and the useful (distinct) bytes.
struct SectorCount {
  std::int64_t Sectors = 0, UsefulBytes = 0;
  double amplification() const;
};
SectorCount countSectors(const std::vector<std::vector<std::int64_t>> &Offsets, const std::vector<std::int64_t> &Sizes);

/// Reports @p T's amplified accesses (rooflint-uncoalesced) and re-reads at their source lines, through
/// @p Report (NOLINT comments apply); @p Kernel is the kernel (or instantiation) @p T describes.
/// @p Record, when given, is the kernel's spec (its sizes give the re-reads' layer condition); @p Gpu is
/// the GPU the analysis is about (its cache geometry gives the layer condition).
void reportTraffic(const KernelTraffic &T, const clang::FunctionDecl &Kernel, Reporter &Report,
                   const KernelRecord *Record, const model::gpu &Gpu);

/// Reports what one spec's predicted traffic says of its kernel, at the spec (rooflint-traffic-bound,
/// rooflint-size-binding, rooflint-not-predicted): reportTraffic does for its record; a kernel with
/// several specs (one per shape) gets it for each of the others too.
void reportSpecTraffic(const KernelRecord &Record, const clang::SourceManager &SM, Reporter &Report, const model::peaks &P);

/// A kernel (or instantiation) whose traffic to predict: its device code, its declaration and its spec's record.
struct TrafficPrediction {
  const KernelTraffic *Traffic = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  KernelRecord *Record = nullptr;
};

/// Fills each record's predicted traffic on @p Gpu's caches: per tensor of its spec and level, a value,
/// a range with its point estimate (or without one), or "not predicted" with the reason (TrafficModel.h evaluates). Up to
/// @p Threads kernels are evaluated at a time, their runs of blocks on @p Threads more; the records are
/// the same for any number. With @p Gpu's
/// cache geometry unknown, nothing is predicted.
void predictTraffic(std::span<const TrafficPrediction> Work, const model::gpu &Gpu, unsigned Threads);

/// The message of the rooflint-uncoalesced warning for @p A (empty when it is not amplified).
std::string uncoalescedMessage(const TrafficAccess &A);

/// @return "load through 'x'" (or "store through a global pointer"): how messages name access @p A.
std::string accessText(const TrafficAccess &A);

}  // namespace rooflint::analyzer
