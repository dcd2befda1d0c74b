// Traffic per tensor and level from evaluated warp requests (TrafficModel.h).

#include "rooflint/analyzer/TrafficModel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <tuple>

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "rooflint/analyzer/AtOnce.h"
#include "rooflint/analyzer/NestedLru.h"
#include "rooflint/model/describe.h"

namespace rooflint::analyzer {
namespace {

constexpr std::uint64_t SectorBytes = 32;
constexpr std::uint64_t GranuleBytes = 64;  ///< what DRAM moves
/// The most sectors a warp's stores back to back to the same sectors were measured to reach L2 joined
/// in, their requests' sectors summed (cuda-samples' alignedTypes: four stores of 16 sectors, two of 32).
constexpr std::size_t JoinedSectorsMost = 64;

/// "'strideA', a parameter the spec does not bind (.sizes)": scalar parameters a condition or an
/// address depends on that the evaluation could not know.
std::string unboundParameters(const std::vector<std::string> &Names) {
  std::vector<std::string> Quoted;
  for (const std::string &Name : Names) Quoted.push_back("'" + Name + "'");
  return model::and_list(Quoted) + (Quoted.size() == 1 ? ", a parameter" : ", parameters") +
         " the spec does not bind (.sizes: N(arg<I>), N(pow2(arg<I>)) for a size's base-2 logarithm, or a parameter"
         " no tensor's size holds, param<\"R\"> read as R(arg<I>))";
}

/// What a condition at @p Line the evaluation could not decide depends on: scalar parameters the spec
/// does not bind, a parameter bound past a shift's width (a loop bound of `1 << log2N` where log2N was
/// bound to the size, not with pow2()), else data the build cannot know.
std::string conditionOn(const WarpEvaluator &E, unsigned Line) {
  const auto It = E.undecidedConditions().find(Line);
  if (It == E.undecidedConditions().end()) return "data the build cannot know";
  if (!It->second.Unbound.empty()) return unboundParameters(It->second.Unbound);
  std::vector<std::string> Shifts;
  for (const ShiftPastWidth &S : It->second.ShiftedPast)
    Shifts.push_back("a " + std::to_string(S.Bits) + "-bit value shifted by '" + S.Name + "' = " + std::to_string(S.Value));
  if (!Shifts.empty())
    return model::and_list(Shifts) + (Shifts.size() == 1 ? ", past its width" : ", past their widths") +
           ": undefined (a parameter that holds a size's base-2 logarithm is bound with N(pow2(arg<I>)))";
  return "data the build cannot know";
}

/// A set of sector numbers, as bitmaps of 4096 consecutive numbers: inserting the numbers
/// a kernel streams through costs a bit each, whatever the repeats.
class SectorSet {
public:
  void insert(std::uint64_t X) { bitsOf(X >> 12)[(X >> 6) & 63] |= std::uint64_t(1) << (X & 63); }
  /// Inserts @p X: whether it was not there before.
  bool insertNew(std::uint64_t X) {
    const bool New = !contains(X);
    if (New) insert(X);
    return New;
  }
  bool empty() const { return Index.empty(); }
  bool contains(std::uint64_t X) const {
    const std::uint64_t Chunk = X >> 12;
    const std::array<std::uint64_t, 64> *B = nullptr;
    if (const Recent &R = Recents[Chunk % Recents.size()]; R.Chunk == Chunk) B = &Bits[R.Index];
    else if (const auto It = Index.find(Chunk); It != Index.end()) B = &Bits[It->second];
    return B && (((*B)[(X >> 6) & 63] >> (X & 63)) & 1);
  }
  /// The numbers, ascending.
  std::vector<std::uint64_t> sorted() const {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> Keys(Index.begin(), Index.end());
    std::sort(Keys.begin(), Keys.end());
    std::vector<std::uint64_t> Out;
    for (const auto &[K, I] : Keys)
      for (unsigned W = 0; W < 64; ++W)
        for (std::uint64_t B = Bits[I][W]; B; B &= B - 1)
          Out.push_back((K << 12) | (std::uint64_t(W) << 6) | std::uint64_t(std::countr_zero(B)));
    return Out;
  }

private:
  llvm::DenseMap<std::uint64_t, std::uint32_t> Index;  ///< chunk -> its bitmap in Bits
  std::vector<std::array<std::uint64_t, 64>> Bits;
  /// The chunks used last, by their low bits (a warp's lanes a row apart each stay in a few chunks);
  /// ~0 is no chunk (numbers are below 2^52).
  struct Recent {
    std::uint64_t Chunk = ~std::uint64_t(0);
    std::uint32_t Index = 0;
  };
  std::array<Recent, 64> Recents;

  std::array<std::uint64_t, 64> &bitsOf(std::uint64_t Chunk) {
    Recent &R = Recents[Chunk % Recents.size()];
    if (R.Chunk != Chunk) {
      const auto [It, New] = Index.try_emplace(Chunk, std::uint32_t(Bits.size()));
      if (New) Bits.emplace_back();
      R = {Chunk, It->second};
    }
    return Bits[R.Index];
  }
};

/// What one sampled block does to one tensor (a parameter's region).
struct TensorTally {
  double Requests = 0, L1Sectors = 0, UsefulLoadBytes = 0, UsefulStoreBytes = 0;
  double L2Sectors[2] = {0, 0};  ///< at L1's full capacity, at its kept fraction
  double L2Granules = 0;         ///< 64-byte granules of the L1 misses (each request's own)
  double PartialStoreSectors = 0, AtomicRequests = 0, AtomicSectors = 0, StoreSectors = 0;
  /// Of the sectors sent to L2 (stores, loads that bypass L1), those the SM sent a moment before with the
  /// same bytes: the way to L2 may merge them (counted in the run of co-resident blocks only).
  double MergeableSectors = 0;
  bool MergeCounted = false;
  double JoinableStoreSectors = 0;  ///< store sectors the warp's store of another instruction just before also wrote (reach L2 with it)
  double JoinedStoreSectorsMost = 0;  ///< the same past JoinedSectorsMost in a row: joined at the range's low end only
  std::vector<std::uint64_t> ReadGranules, ReadSectors, WriteSectors;  ///< footprints, ascending (when the run is done)
  SectorSet ReadSectorSet, WriteSectorSet;  ///< the sectors while the run goes on (its granules are theirs halved)
  std::uint64_t FirstRead = ~std::uint64_t(0), FirstWrite = ~std::uint64_t(0);  ///< lowest byte touched
  std::uint64_t EarliestRead = ~std::uint64_t(0);  ///< the lowest byte of the block's first read, in the order run
  /// The sectors whose 32 bytes the block has written, and the bytes written of its other sectors: L2
  /// holds a whole sector the block wrote, and serves a read of it without DRAM.
  SectorSet WrittenWhole, ReadBackSet;  ///< ... and the sectors of it the block read back
  llvm::DenseMap<std::uint64_t, std::uint32_t> WrittenParts;
  std::size_t ReadBackGranules = 0;  ///< the granules of ReadBackSet (when the run is done)
  /// Loads that L2's share for the SM no longer held (RunTally::l2Request), with the share of the whole
  /// L2 and of its kept part: of a granule the SM read before (reads back apart), and reads back of the
  /// block's own writes (each request of a granule); and the sectors the block read back.
  double EvictedRereads[2] = {0, 0}, EvictedReadBacks[2] = {0, 0}, ReadBackSectors = 0;
  bool Unknown = false;
  bool CachedLoads = false;  ///< some load of it goes through L1 (not ld.global.cg / .cv)
};

struct SiteTally {
  double Requests = 0, Sectors = 0, IdealSectors = 0, L2Sectors = 0;
  std::vector<int> Params;  ///< the tensors its lanes addressed, in the order met (a select of pointers: several)
  bool Unknown = false;
};

/// One sampled block's tallies.
struct BlockTally {
  std::int64_t Block = 0;
  double Weight = 1;  ///< in the grid's averages (Extrapolation)
  std::map<int, TensorTally> Tensors;
  std::vector<SiteTally> Sites;
  bool UnattributedUnknown = false;  ///< an unknown address the IR ties to no parameter
  bool Spread = false;  ///< one of the stratum's blocks, which alone make the estimate of its kind
};

void sortUnique(std::vector<std::uint64_t> &V) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

/// The 64-byte granules of ascending sectors @p Sectors, ascending.
std::vector<std::uint64_t> granulesOf(const std::vector<std::uint64_t> &Sectors) {
  std::vector<std::uint64_t> G;
  for (std::uint64_t X : Sectors)
    if (G.empty() || G.back() != X / 2) G.push_back(X / 2);
  return G;
}
/// The 64-byte granules of the sectors of @p S.
std::size_t granuleCount(const SectorSet &S) { return granulesOf(S.sorted()).size(); }

std::size_t intersectionSize(const std::vector<std::uint64_t> &A, const std::vector<std::uint64_t> &B) {
  std::size_t N = 0;
  for (auto I = A.begin(), J = B.begin(); I != A.end() && J != B.end();) {
    if (*I < *J) ++I;
    else if (*J < *I) ++J;
    else ++N, ++I, ++J;
  }
  return N;
}

/// Feeds the requests of one run (blocks resident on one SM together) into their tallies.
class RunTally {
public:
  /// @p CacheModelled false: the run's L2 figures are not used (blocks sampled alone take their SM's).
  /// @p L2Bytes, @p L2KeptBytes: the SM's share of L2, and of the part of it that keeps a working set.
  RunTally(const WarpEvaluator &E, std::vector<BlockTally> &Out, std::size_t First, std::int64_t L1Bytes,
           std::int64_t L1KeptBytes, std::int64_t L2Bytes, std::int64_t L2KeptBytes, bool CacheModelled)
      : E(E), Out(Out), First(First), L1(std::uint64_t(L1Bytes) / SectorBytes, std::uint64_t(L1KeptBytes) / SectorBytes),
        L2(std::uint64_t(L2Bytes) / GranuleBytes, std::uint64_t(L2KeptBytes) / GranuleBytes), CacheModelled(CacheModelled) {}

  /// Requests the SM's warps issue while one is in flight: a sector sent to L2 again within this many
  /// requests, with the same bytes, may be merged with the first on its way (the H200 sent one SM's two
  /// blocks' identical stores to L2 once: 132x where the L1 issued 264x).
  static constexpr std::uint64_t MergeWindow = 64;

  void operator()(const WarpRequest &R) {
    ++Now;
    BlockTally &B = blockOf(R.Block);
    WarpLast &Last = lastOf(B, R.Warp);
    const AccessSite &Site = E.sites()[R.Site];
    SiteTally &S = B.Sites[R.Site];
    S.Requests += 1;
    if (R.Unknown) {
      Last.Store = false;
      S.Unknown = true;
      if (Site.Param >= 0) B.Tensors[Site.Param].Unknown = true;
      else B.UnattributedUnknown = true;
      return;
    }
    // Its lanes may address several tensors (a select of pointers: a concatenation, a stack): each
    // tensor's lanes are that tensor's part of the request. Regions are intervals of addresses, so in
    // the ascending distinct addresses each region's are one run.
    distinctAddresses(R);
    const std::span<const std::uint64_t> All(Addresses);
    const bool Store = Site.K == AccessSite::Store;
    RequestSectors.clear();
    for (std::size_t Begin = 0, End = 0; Begin < All.size(); Begin = End) {
      const Region Reg = E.regionOf(All[Begin]);
      // All of one tensor, mostly: a parameter's region is one interval (not so the addresses of no region).
      const bool Whole = Reg.K == Region::Parameter && sameRegion(E.regionOf(All.back()), Reg);
      End = Whole ? All.size() : Begin + 1;
      while (End < All.size() && sameRegion(E.regionOf(All[End]), Reg)) ++End;
      tallyPart(B, S, Site, R.Site, Reg, All.subspan(Begin, End - Begin), Last);
      if (Store) RequestSectors.insert(RequestSectors.end(), Sectors.begin(), Sectors.end());  // parts ascend
    }
    // Joined where the chain of stores back to back, this whole request's sectors with it, stays within
    // the measured limit.
    const bool Within = Last.Joined + RequestSectors.size() <= JoinedSectorsMost;
    for (const auto &[T, Joined] : PendingJoins)
      if (Within) T->JoinableStoreSectors += Joined;
    PendingJoins.clear();
    const bool Follows = Store && Last.Store && Last.Site != R.Site && intersectionSize(RequestSectors, Last.Sectors) > 0;
    Last.Joined = (Follows ? Last.Joined : 0) + RequestSectors.size();
    Last.Store = Store;
    Last.Site = R.Site;
    Last.Sectors.swap(RequestSectors);
  }

private:
  static bool sameRegion(Region A, Region B) { return A.K == B.K && A.Index == B.Index; }

  /// A warp's latest request, when it was a store: its site and sectors, ascending.
  struct WarpLast {
    bool Store = false;
    std::size_t Site = 0;
    std::vector<std::uint64_t> Sectors;
    std::size_t Joined = 0;  ///< a store: the sectors of it and the stores to its sectors back to back before it
  };
  WarpLast &lastOf(const BlockTally &B, unsigned Warp) {
    const std::size_t Slot = std::size_t(&B - &Out[First]) * MaxWarps + std::min(Warp, MaxWarps - 1);
    if (Lasts.size() <= Slot) Lasts.resize(Slot + 1);
    return Lasts[Slot];
  }

  /// Tallies the part of a request of @p Site (number @p SiteIndex) whose addresses @p Part (ascending, distinct) lie in @p Reg;
  /// @p Previous is the warp's request before it.
  void tallyPart(BlockTally &B, SiteTally &S, const AccessSite &Site, std::size_t SiteIndex, Region Reg,
                 std::span<const std::uint64_t> Part, const WarpLast &Previous) {
    const double Useful = collect(Part, Site.Bytes);
    const int Param = Reg.K == Region::Parameter ? Reg.Index : -1;
    if (Param >= 0 && std::find(S.Params.begin(), S.Params.end(), Param) == S.Params.end()) S.Params.push_back(Param);
    if (Reg.K == Region::Shared || Reg.K == Region::Local) return;  // not global memory after all
    S.Sectors += double(Sectors.size());
    S.IdealSectors += std::ceil(Useful / double(SectorBytes));
    TensorTally &T = B.Tensors[Param];
    if (Site.K == AccessSite::Atomic) {  // counted at L2 as atomics, not as load or store sectors
      T.AtomicRequests += 1;
      T.AtomicSectors += double(Sectors.size());
      // L2 reads the line before it updates it: a read and a write of each sector at DRAM.
      for (std::uint64_t X : Sectors) {
        T.WriteSectorSet.insert(X);
        T.ReadSectorSet.insert(X);
      }
      sendToL2(true);
      T.FirstWrite = std::min(T.FirstWrite, Lowest);
      noteRead(T, Lowest);
      return;
    }
    T.Requests += 1;
    T.L1Sectors += double(Sectors.size());
    if (Site.K == AccessSite::Store) {
      T.UsefulStoreBytes += Useful;
      T.StoreSectors += double(Sectors.size());
      // A store right after the warp's store of another instruction to any of the same sectors (as a
      // pair's two floats are written, each half of the sectors) reaches L2 with it: the H200 took RoPE's
      // two stores of complementary halves as one (1.12x of its compulsory bytes at L2 for the kernel,
      // 1.62x counted apart), the H100 a struct's four byte stores (1.06x, 2.5x apart); but not a row's
      // stores by one instruction a loop iteration apart (a causal softmax's, 6.35x: apart). Up to 64
      // sectors of such stores in a row (alignedTypes' four float stores of 16 sectors, two 16-byte
      // stores of 32: 1.0x); past them apart: a lane's 8 consecutive floats stored one by one, 32
      // sectors a request, reached the H100's L2 as 6.74 of 8 (the second joined: 7;
      // scripts/probes/lane-chunks.sh).
      if (Previous.Store && Previous.Site != SiteIndex) {
        const double Joined = double(intersectionSize(Sectors, Previous.Sectors));
        T.JoinedStoreSectorsMost += Joined;
        PendingJoins.push_back({&T, Joined});  // within the limit or not: the whole request decides (operator())
      }
      T.L2Sectors[0] += double(Sectors.size());
      T.L2Sectors[1] += double(Sectors.size());
      S.L2Sectors += double(Sectors.size());
      countMergeable(T);
      // Partly written sectors merge in L2 with the rest of their bytes (the H200's naive transpose:
      // 8x the store sectors at L2, 1.05-1.19x at DRAM): DRAM writes are the sectors written, once.
      for (std::size_t I = 0; I < Sectors.size(); ++I) {
        T.WriteSectorSet.insert(Sectors[I]);
        if (Masks[I] != ~std::uint32_t(0)) T.PartialStoreSectors += 1;  // partly written
        noteWritten(T, Sectors[I], Masks[I]);
      }
      sendToL2(false);
      T.FirstWrite = std::min(T.FirstWrite, Lowest);
      return;
    }
    T.UsefulLoadBytes += Useful;
    noteRead(T, Lowest);
    T.CachedLoads |= !Site.BypassesL1;
    if (Site.BypassesL1) countMergeable(T);
    std::uint64_t LastGranule = ~std::uint64_t(0);
    for (std::uint64_t X : Sectors) {
      // A sector the block wrote whole before is read from the line L2 holds (llm.c's fused residual
      // kernels read back the residual they wrote: 0.5x of their bytes at DRAM on the H200), unless L2
      // evicted it in between: apart from the reads (dramReads).
      const bool ReadBack = !T.WrittenWhole.empty() && T.WrittenWhole.contains(X);
      if (!ReadBack) T.ReadSectorSet.insert(X);
      else T.ReadBackSet.insert(X);
      T.ReadBackSectors += ReadBack;
      const bool Cached = !Site.BypassesL1 && CacheModelled;
      const NestedLru::Hits Hit = Cached ? L1.load(X) : NestedLru::Hits{};
      const bool HitFull = Hit.Outer, HitKept = Hit.Inner;
      if (!HitFull) {
        T.L2Sectors[0] += 1;
        S.L2Sectors += 1;
        if (X / 2 != LastGranule) {
          T.L2Granules += 1;
          if (CacheModelled) {
            const NestedLru::Hits Held = l2Request(X);
            if (ReadBack) {  // the block wrote it: requested before
              T.EvictedReadBacks[0] += !Held.Outer;
              T.EvictedReadBacks[1] += !Held.Inner;
            } else if (!L2Read.insertNew(X / 2)) {
              T.EvictedRereads[0] += !Held.Outer;
              T.EvictedRereads[1] += !Held.Inner;
            }
          }
        }
        LastGranule = X / 2;
      }
      if (!HitKept) T.L2Sectors[1] += 1;
    }
  }

  const WarpEvaluator &E;
  std::vector<BlockTally> &Out;
  std::size_t First;
  NestedLru L1;  ///< L1 at its capacity (outer), and at the part it keeps whole (inner)
  NestedLru L2;  ///< the SM's share of L2 (outer) and of its kept part (inner), in 64-byte granules
  SectorSet L2Read;  ///< the granules the SM read (loads, atomics) so far
  bool CacheModelled;
  struct Sent {
    std::uint64_t When;
    std::uint32_t Mask;
  };
  llvm::DenseMap<std::uint64_t, Sent> Recent;  ///< sector -> the last request that sent it to L2
  static constexpr unsigned MaxWarps = 32;         ///< a block's (1024 threads)
  std::vector<WarpLast> Lasts;                     ///< per block of the run and warp
  std::vector<std::pair<TensorTally *, double>> PendingJoins;  ///< the request's parts' sectors joined to the store before
  std::uint64_t Now = 0;
  std::vector<std::uint64_t> Addresses, Sectors;                ///< the request's, ascending and distinct
  std::vector<std::uint64_t> Merged;                            ///< distinctAddresses' scratch
  std::vector<std::uint64_t> RequestSectors;                    ///< a store's sectors over its parts
  std::vector<std::uint32_t> Masks;   ///< the bytes of each of Sectors the request moves, a bit each
  std::uint64_t Lowest = 0;           ///< the request's lowest byte

  BlockTally &blockOf(std::int64_t Block) {
    for (std::size_t I = First; I < Out.size(); ++I)
      if (Out[I].Block == Block) return Out[I];
    assert(false && "a request of a block outside the run");
    return Out[First];
  }
  /// Sends the granule of sector @p X to L2 (in the run of co-resident blocks, once per request):
  /// whether the SM's share of L2, whole and its kept part, still held it. Every SM runs blocks like
  /// these at once, each with granules of its own, so L2 holds what one requested within its share:
  /// the reuse distance of the SM's stream, in distinct granules, against that share (a layer condition
  /// of the whole GPU, Kerncraft's for L2). An LRU: a pattern that cycles through more than the share
  /// misses every time, as the H200's passes over rows past L2 did (2.1-6x at DRAM).
  NestedLru::Hits l2Request(std::uint64_t X) { return L2.load(X * SectorBytes / GranuleBytes); }
  /// Sends the granules of a store's or an atomic's sectors (Sectors, ascending) to L2's share, each
  /// once; an atomic's (@p Read) are read too.
  void sendToL2(bool Read) {
    if (!CacheModelled) return;
    for (std::size_t I = 0; I < Sectors.size(); ++I) {
      if (I > 0 && Sectors[I] / 2 == Sectors[I - 1] / 2) continue;
      l2Request(Sectors[I]);
      if (Read) L2Read.insert(Sectors[I] / 2);
    }
  }
  /// Counts the request's sectors that the SM sent to L2 with the same bytes within MergeWindow requests.
  void countMergeable(TensorTally &T) {
    if (!CacheModelled) return;
    T.MergeCounted = true;
    for (std::size_t I = 0; I < Sectors.size(); ++I) {
      auto [It, New] = Recent.try_emplace(Sectors[I], Sent{Now, Masks[I]});
      if (!New && Now - It->second.When <= MergeWindow && It->second.Mask == Masks[I]) T.MergeableSectors += 1;
      It->second = {Now, Masks[I]};
    }
  }
  /// Notes a read of tensor tally @p T whose lowest byte is @p Byte: the lowest read, and the first.
  static void noteRead(TensorTally &T, std::uint64_t Byte) {
    T.FirstRead = std::min(T.FirstRead, Byte);
    if (T.EarliestRead == ~std::uint64_t(0)) T.EarliestRead = Byte;
  }
  /// Notes the bytes @p Mask of sector @p X written; a sector whose bytes are all written is whole.
  static void noteWritten(TensorTally &T, std::uint64_t X, std::uint32_t Mask) {
    if (Mask != ~std::uint32_t(0)) {
      std::uint32_t &Written = T.WrittenParts[X];
      Written |= Mask;
      if (Written != ~std::uint32_t(0)) return;
      T.WrittenParts.erase(X);
    }
    T.WrittenWhole.insert(X);
  }
  /// Fills Sectors, Masks and Lowest for @p Part (ascending distinct addresses) of @p Size bytes per
  /// lane: its useful bytes.
  double collect(std::span<const std::uint64_t> Part, std::uint64_t Size) {
    Sectors.clear();
    Masks.clear();
    Lowest = Part.front();
    std::uint64_t Useful = 0;
    std::uint64_t End = 0;  // of the bytes counted so far
    for (const std::uint64_t A : Part) {
      const std::uint64_t B = A + Size;
      if (B > std::max(A, End)) Useful += B - std::max(A, End);
      End = std::max(End, B);
      for (std::uint64_t X = A / SectorBytes; X <= (B - 1) / SectorBytes; ++X) {
        const std::uint64_t Base = X * SectorBytes;
        const std::uint64_t Lo = std::max(A, Base) - Base, Hi = std::min(B, Base + SectorBytes) - Base;
        const std::uint32_t Mask = std::uint32_t(((std::uint64_t(1) << (Hi - Lo)) - 1) << Lo);
        if (Sectors.empty() || X > Sectors.back()) {
          Sectors.push_back(X);
          Masks.push_back(Mask);
          continue;
        }
        // A sector of the lane before (addresses ascend, all of one size): near the end.
        std::size_t I = Sectors.size() - 1;
        while (Sectors[I] != X) --I;
        Masks[I] |= Mask;
      }
    }
    return double(Useful);
  }
  /// Fills Addresses with the active lanes' addresses, ascending and distinct. Lanes mostly come in
  /// ascending runs (a row of the block each, a broadcast): a lane that repeats the one before is
  /// skipped, and two runs are merged rather than sorted.
  void distinctAddresses(const WarpRequest &R) {
    Addresses.clear();
    std::size_t Runs = 1, SecondRun = 0;
    for (std::uint32_t M = R.Active; M; M &= M - 1) {
      const std::uint64_t A = R.Address[std::countr_zero(M)];
      if (!Addresses.empty() && A <= Addresses.back()) {
        if (A == Addresses.back()) continue;
        if (Runs++ == 1) SecondRun = Addresses.size();
      }
      Addresses.push_back(A);
    }
    if (Runs == 1) return;
    if (Runs == 2) {
      Merged.resize(Addresses.size());
      std::merge(Addresses.begin(), Addresses.begin() + std::ptrdiff_t(SecondRun), Addresses.begin() + std::ptrdiff_t(SecondRun),
                 Addresses.end(), Merged.begin());
      Addresses.swap(Merged);
    } else {
      std::sort(Addresses.begin(), Addresses.end());
    }
    Addresses.erase(std::unique(Addresses.begin(), Addresses.end()), Addresses.end());
  }
};

std::int64_t ceilDiv(std::int64_t A, std::int64_t B) { return B > 0 ? (A + B - 1) / B : 0; }

/// One SM's share of @p Fraction of L2, bytes: the SMs that run blocks of @p Grid at once share it.
double l2ShareBytes(const Dim3 &Grid, const CacheLevels &Levels, double Fraction) {
  const double Sms = double(std::clamp<std::int64_t>(Grid.count(), 1, std::max(Levels.Sms, 1)));
  return Fraction * double(Levels.L2Bytes) / Sms;
}

/// |F u (F + s) u ... u (F + (n-1) s)| for a sorted set F of granules and a shift of s granules: each
/// granule f spreads over f, f + s, ...; per residue of f mod s those are intervals [f / s, f / s + n - 1],
/// met in ascending order as F ascends: each adds n, less what it shares with the one before it.
double unionOfTranslates(const std::vector<std::uint64_t> &F, std::uint64_t S, std::int64_t N) {
  assert(std::is_sorted(F.begin(), F.end()));
  if (N <= 1 || F.empty() || S == 0) return double(F.size());
  const auto Width = std::uint64_t(N);
  llvm::DenseMap<std::uint64_t, std::uint64_t> LastOf;  // residue -> its last quotient
  double Total = 0;
  for (const std::uint64_t G : F) {
    const auto [It, New] = LastOf.try_emplace(G % S, G / S);
    Total += double(New ? Width : std::min(G / S - It->second, Width));
    It->second = G / S;
  }
  return Total;
}

/// Runs of consecutive granules in a sorted set.
double runsOf(const std::vector<std::uint64_t> &F) {
  double Runs = 0;
  for (std::size_t I = 0; I < F.size(); ++I) Runs += I == 0 || F[I] != F[I - 1] + 1;
  return Runs;
}

std::string dimText(const Dim3 &D) {
  return "(" + std::to_string(D.X) + ", " + std::to_string(D.Y) + ", " + std::to_string(D.Z) + ")";
}

/// The value the source of launch size @p L holds at the spec's sizes (dsl::launch_size::source_value).
std::optional<std::int64_t> launchValue(const KernelRecord &R, const dsl::launch_size &L) {
  const int Dim = R.Spec.dim_index(L.dim);
  if (Dim < 0 || !(R.Sizes.values[std::size_t(Dim)] > 0)) return std::nullopt;
  const std::int64_t Value = L.source_value(static_cast<std::int64_t>(R.Sizes.values[std::size_t(Dim)]));
  if (Value < 0) return std::nullopt;
  return Value;
}

/// @p P at the record's sizes, its variables looked up by name among the spec's dimensions (a
/// tensor's polynomials are over its own dimensions, in its own order).
double valueAt(const KernelRecord &R, const dsl::poly &P) { return R.Spec.value_at(P, R.Sizes); }

}  // namespace

double compulsoryBytes(const KernelRecord &R, const dsl::tensor_info &T) { return R.Spec.tensor_bytes_at(T, R.Sizes); }

namespace {

/// A block's position along the grid's axes.
Dim3 coordsOf(std::int64_t B, const Dim3 &G) { return {B % G.X, (B / G.X) % G.Y, B / (G.X * G.Y)}; }
std::int64_t linearOf(const Dim3 &C, const Dim3 &G) { return C.X + G.X * (C.Y + G.Y * C.Z); }

/// Blocks spread over the grid that estimate its mean where the blocks' work varies (a causal mask's
/// rows, a triangular loop): the structured blocks before them (an SM's first blocks, the middle, the
/// last) are not a sample of the grid.
constexpr int StratumBits = 6, StratumBlocks = 1 << StratumBits;
/// Stratum blocks evaluated at the least for them alone to make the point estimate.
constexpr std::size_t StratumEnough = 16;
/// Warp instructions the stratum may take at least (about 0.1 s of evaluation).
constexpr std::uint64_t StratumInstructions = 4'000'000;

/// The blocks evaluated: those one SM runs together first (0, S, 2S, ...: the block scheduler deals
/// consecutive blocks to different SMs), then a middle block and its neighbours along each axis (the
/// footprints' overlap), then the last blocks along x and y (partial tiles), then the stratum.
std::vector<std::vector<std::int64_t>> runsOf(const Dim3 &G, int Sms, int PerSm, std::int64_t &Middle,
                                             std::array<std::int64_t, 3> &Neighbour, std::size_t &FirstStratum,
                                             std::vector<std::int64_t> &Stratum) {
  std::vector<std::vector<std::int64_t>> Runs(1);
  const std::int64_t Total = G.count();
  for (int K = 0; K < PerSm && std::int64_t(K) * Sms < Total; ++K) Runs[0].push_back(std::int64_t(K) * Sms);
  std::vector<std::int64_t> Seen = Runs[0];
  const auto add = [&](std::int64_t B) {
    if (std::find(Seen.begin(), Seen.end(), B) != Seen.end()) return;
    Seen.push_back(B);
    Runs.push_back({B});
  };
  const Dim3 M{G.X / 2, G.Y / 2, G.Z / 2};
  Middle = linearOf(M, G);
  add(Middle);
  Neighbour = {-1, -1, -1};
  if (M.X + 1 < G.X) add(Neighbour[0] = linearOf({M.X + 1, M.Y, M.Z}, G));
  if (M.Y + 1 < G.Y) add(Neighbour[1] = linearOf({M.X, M.Y + 1, M.Z}, G));
  if (M.Z + 1 < G.Z) add(Neighbour[2] = linearOf({M.X, M.Y, M.Z + 1}, G));
  add(linearOf({G.X - 1, 0, 0}, G));
  add(linearOf({0, G.Y - 1, 0}, G));
  add(linearOf({G.X - 1, G.Y - 1, 0}, G));
  // Blocks spread over the grid (last: evaluated only where the work varies, evaluateTraffic): one at a
  // pseudo-random place in each of StratumBlocks equal parts of it (jittered sampling), whose mean
  // estimates the grid's whatever the work's period along the block index (a causal mask's row is the
  // index modulo the rows: eighths of a power-of-two grid, or a low-discrepancy sequence, fall on a few
  // rows only). The parts are visited in bit-reversed order (0, 32, 16, 48, ...), so that the blocks
  // of a stratum cut short are still spread over the grid. A pick that is already a run is evaluated
  // there.
  FirstStratum = Runs.size();
  Stratum.clear();
  for (unsigned I = 0; I < unsigned(StratumBlocks); ++I) {
    const std::int64_t K = std::int64_t(llvm::reverseBits(std::uint32_t(I)) >> (32 - StratumBits));
    const std::int64_t Begin = Total * K / StratumBlocks, End = Total * (K + 1) / StratumBlocks;
    if (End <= Begin) continue;
    Stratum.push_back(Begin + std::int64_t(mix64(std::uint64_t(K)) % std::uint64_t(End - Begin)));
    add(Stratum.back());
  }
  return Runs;
}

/// Extrapolates a per-block figure over the grid: blocks are interior, last along x, last along y or
/// both; each kind counts its blocks times the mean of its samples (an unsampled kind: the interior's).
struct Estimate {
  double Point = 0, Low = 0, High = 0;
  /// Low and High are the sampling's error, not the smallest and largest block's figure: the kinds of
  /// block that are the stratum's mean within 3 standard errors, or blocks whose figures agree, hold all
  /// but at most 5% of the grid's blocks (edge blocks the stratum seldom falls on).
  bool Sampled = false;
};

/// Whether block @p B is interior: not the last along an axis of @p G that has more than one block
/// (edge blocks may skip part of the work: a filter's taps past the border).
bool interior(std::int64_t B, const Dim3 &G) {
  const Dim3 C = coordsOf(B, G);
  return !((G.X > 1 && C.X == G.X - 1) || (G.Y > 1 && C.Y == G.Y - 1));
}

/// Which of the four kinds of Extrapolation block @p B is: bit 0 last along x, bit 1 last along y.
int kindOf(std::int64_t B, const Dim3 &G) {
  const Dim3 C = coordsOf(B, G);
  return (C.X == G.X - 1 ? 1 : 0) | (C.Y == G.Y - 1 ? 2 : 0);
}

class Extrapolation {
public:
  Extrapolation(const std::vector<BlockTally> &Blocks, const Dim3 &G) : Blocks(Blocks) {
    const double Zs = double(G.Z), Xn = double(G.X - 1), Yn = double(G.Y - 1);
    Count = {Xn * Yn * Zs, 1 * Yn * Zs, Xn * 1 * Zs, 1 * 1 * Zs};
    for (const BlockTally &B : Blocks) Kind.push_back(kindOf(B.Block, G));
  }

  /// Each block weighs as BlockTally::Weight says: the blocks one SM runs together at the start of the
  /// grid as one sample, the other structured blocks one each, unless the stratum makes the estimate of
  /// their kind (weighTheStratumAlone). The range is the smallest and largest block's figure, or, for a
  /// kind StratumEnough blocks of the stratum estimate, their mean within 3 standard errors (of
  /// independent draws: jittered sampling's error is smaller), inside those extremes.
  template <class Fn> Estimate of(Fn Figure) const {
    Estimate E;
    std::array<double, 4> Sum{}, Lo{}, Hi{}, Weight{}, SpreadSum{}, SpreadSquares{};
    std::array<int, 4> N{}, Spread{};
    for (std::size_t I = 0; I < Blocks.size(); ++I) {
      const double V = Figure(Blocks[I]), Wt = Blocks[I].Weight;
      const int K = Kind[I];
      Lo[K] = N[K] ? std::min(Lo[K], V) : V;
      Hi[K] = N[K] ? std::max(Hi[K], V) : V;
      Sum[K] += Wt * V;
      Weight[K] += Wt;
      ++N[K];
      if (Blocks[I].Spread) SpreadSum[K] += V, SpreadSquares[K] += V * V, ++Spread[K];
    }
    for (int K = 0; K < 4; ++K) {
      if (std::size_t(Spread[K]) < StratumEnough) continue;
      const double Mean = SpreadSum[K] / Spread[K];
      const double Variance = std::max(0.0, (SpreadSquares[K] - Spread[K] * Mean * Mean) / (Spread[K] - 1));
      const double Margin = 3 * std::sqrt(Variance / Spread[K]);
      Lo[K] = std::max(Lo[K], Mean - Margin);
      Hi[K] = std::min(Hi[K], Mean + Margin);
    }
    const int Fallback = N[0] ? 0 : N[1] ? 1 : N[2] ? 2 : 3;
    double Loose = 0, All = 0;  // blocks of kinds whose range is their extremes, of all
    for (int K = 0; K < 4; ++K) {
      if (Count[K] <= 0) continue;
      const int Use = N[K] ? K : Fallback;
      All += Count[K];
      if (std::size_t(Spread[Use]) < StratumEnough && Hi[Use] > Lo[Use]) Loose += Count[K];
      E.Point += Count[K] * Sum[Use] / std::max(1e-300, Weight[Use]);
      E.Low += Count[K] * Lo[Use];
      E.High += Count[K] * Hi[Use];
    }
    E.Sampled = Loose <= 0.05 * All;
    return E;
  }

private:
  const std::vector<BlockTally> &Blocks;
  std::array<double, 4> Count{};
  std::vector<int> Kind;
};

using Prediction = KernelRecord::PredictedTraffic;

Prediction notPredicted(const std::string &Name, int Param, model::memory_level Level, const std::string &Why) {
  Prediction P{Name, Param, Level, 0, Why, true};
  P.K = Prediction::Kind::NotPredicted;
  return P;
}

Prediction valueOf(const std::string &Name, int Param, model::memory_level Level, double Ratio, const std::string &Why) {
  Prediction P{Name, Param, Level, Ratio, Why, true};
  P.Low = P.High = Ratio;
  return P;
}

/// A value when the bounds agree within 2%, else a range around the point (without one where
/// @p Pointed is false: the point rests on what the spec does not state).
Prediction rangeOf(const std::string &Name, int Param, model::memory_level Level, double Lo, double Point, double Hi,
                   const std::string &Why, bool Pointed = true) {
  if (Hi <= Lo * 1.02 + 1e-12) return valueOf(Name, Param, Level, Pointed ? Point : Lo, Why);
  Prediction P{Name, Param, Level, std::clamp(Point, Lo, Hi), Why, true};
  P.K = Prediction::Kind::Range;
  P.Low = Lo;
  P.High = Hi;
  P.Pointed = Pointed;
  return P;
}

std::string ratioText(double R) { return model::format_significant(R) + "x"; }

}  // namespace

std::uint64_t evaluationBudget() {
  if (const char *E = std::getenv("ROOFLINT_EVAL_BUDGET")) {
    char *End = nullptr;
    const unsigned long long V = std::strtoull(E, &End, 10);
    if (End && *End == 0 && V > 0) return V;
  }
  return 60'000'000;
}

namespace {
/// A launch extent at @p R's sizes: ceil(numerator / divisor), 0 where it has no value.
std::int64_t extentAt(const KernelRecord &R, const dsl::launch_extent &E) {
  const double N = valueAt(R, E.numerator);
  return E.divisor > 0 && N >= 0 ? ceilDiv(static_cast<std::int64_t>(std::llround(N)), E.divisor) : 0;
}
}  // namespace

std::int64_t dynamicSharedBytes(const KernelRecord &R) {
  return R.Sized && R.Spec.shape.shared_stated ? extentAt(R, R.Spec.shape.shared) : 0;
}

LaunchChoice chooseLaunch(const KernelRecord &R, int ThreadsPerBlock, bool ThreadsStated) {
  LaunchChoice C;
  if (!R.Sized) {
    C.Missing = "the spec gives no size to '" + R.MissingDim + "' (.at())";
    return C;
  }
  const auto extent = [&](const dsl::launch_extent &E) { return extentAt(R, E); };
  const dsl::launch_shape &Shape = R.Spec.shape;
  C.Block = {ThreadsPerBlock, 1, 1};
  if (Shape.block_stated)
    C.Block = {extent(Shape.block[0]), extent(Shape.block[1]), extent(Shape.block[2])};
  if (Shape.grid_stated)
    C.Grid = {extent(Shape.grid[0]), extent(Shape.grid[1]), extent(Shape.grid[2])};
  std::vector<std::string> Assumed;
  if (!Shape.block_stated) Assumed.push_back(std::to_string(ThreadsPerBlock) + " threads a block" +
                                             (ThreadsStated ? " (__launch_bounds__)" : ""));
  if (!Shape.grid_stated) {
    // Sizes the spec reads from the launch's grid or block give those extents.
    bool GridBound = false;
    for (int I = 0; I < R.Spec.launch.size_count; ++I) {
      const dsl::launch_size &L = R.Spec.launch.sizes[std::size_t(I)];
      if (L.source == dsl::size_source::argument) continue;
      const auto V = launchValue(R, L);
      if (!V) continue;
      if (L.source == dsl::size_source::block_dim && Shape.block_stated) continue;
      Dim3 &D = L.source == dsl::size_source::grid_dim ? C.Grid : C.Block;
      (L.index == 0 ? D.X : L.index == 1 ? D.Y : D.Z) = *V;
      GridBound |= L.source == dsl::size_source::grid_dim;
    }
    if (GridBound) {
      Assumed.push_back("the grid the spec's sizes read from the launch");
    } else {
      double Largest = 0;
      for (const dsl::tensor_info &T : R.Spec.tensor_list())
        if (T.access == dsl::role::write || T.access == dsl::role::read_write)
          Largest = std::max(Largest, valueAt(R, T.elements));
      if (!(Largest > 0)) {
        C.Missing = "the spec states no grid (.grid()) and writes no tensor to size one by";
        return C;
      }
      C.Grid.X = ceilDiv(static_cast<std::int64_t>(Largest), C.Block.count());
      Assumed.push_back("one thread per element of the largest tensor written");
    }
  }
  C.Stated = Assumed.empty();
  C.DynamicShared = dynamicSharedBytes(R);
  C.Registers = Shape.registers;
  C.Text = "grid " + dimText(C.Grid) + ", block " + dimText(C.Block);
  if (C.DynamicShared > 0) C.Text += ", " + std::to_string(C.DynamicShared) + " bytes of dynamic shared memory a block";
  if (C.Registers > 0) C.Text += ", " + std::to_string(C.Registers) + " registers a thread";
  if (!C.Stated) {
    C.Text += ", assumed: ";
    for (std::size_t I = 0; I < Assumed.size(); ++I) C.Text += (I ? ", " : "") + Assumed[I];
    C.Text += "; state it with .block(...) and .grid(...)";
  }
  if (C.Grid.count() <= 0 || C.Block.count() <= 0 || C.Block.count() > 1024)
    C.Missing = "the launch " + dimText(C.Grid) + " x " + dimText(C.Block) + " is not one a GPU runs";
  return C;
}

namespace {

/// Per tensor: the ratio at each level from the extrapolated tallies.
class LevelModel {
public:
  /// The first blocks evaluated: the co-resident blocks of one SM, modelled through one L1.
  struct SmRun {
    std::size_t Blocks = 0;
    std::int64_t L1Bytes = 0;  ///< the L1 bytes per SM it was modelled with (less the blocks' shared memory)
  };

  LevelModel(const KernelRecord &R, const std::vector<BlockTally> &Blocks, const LaunchChoice &L, int PerSm,
             const CacheLevels &Levels, std::int64_t Middle, const std::array<std::int64_t, 3> &Neighbour, SmRun Run)
      : R(R), Blocks(Blocks), L(L), PerSm(PerSm), Levels(Levels), X(Blocks, L.Grid), Middle(Middle),
        Neighbour(Neighbour), Run{std::min(Run.Blocks, Blocks.size()), Run.L1Bytes}, RunLoadSectors(runLoadFootprint()) {}

  /// The tensors every access of which is addressed through stated indices (parameter -> whether the
  /// indices are distinct): their footprints are random draws (footprint()).
  std::map<int, bool> DrawnThrough;
  /// Per tensor: the integer parameters the spec does not bind behind its unknown addresses.
  std::map<int, std::vector<std::string>> UnboundAddressScalars;
  /// How many blocks an SM holds and what limits them (Occupancy::text), and whether the registers
  /// were counted in it (stated, on a GPU whose register file is known).
  std::string Resident;
  bool RegistersCounted = false;
  bool RegistersStated = false;  ///< the spec states them (counted only where the GPU's register file is known)

  /// Each tensor's figures, or why not: @p KernelWide for every level, @p BeyondL1 for L2 and DRAM.
  void predict(KernelEvaluation &Out, std::string KernelWide, const std::map<int, std::string> &Unmodelled,
               const std::map<int, std::string> &Conditional, const std::string &BeyondL1) {
    const auto ownReason = [&](const dsl::tensor_info &T) {
      std::string Why = unknownReason(T.arg);
      if (auto It = Unmodelled.find(T.arg); Why.empty() && It != Unmodelled.end()) Why = It->second;
      if (auto It = Conditional.find(T.arg); Why.empty() && It != Conditional.end()) Why = It->second;
      if (Why.empty() && !(compulsoryBytes(R, T) > 0)) Why = "its compulsory bytes are 0 at the spec's sizes";
      if (Why.empty() && !touched(T.arg))
        Why = "no load, store or atomic of it was evaluated (an access the evaluation does not see, or none in the sampled blocks)";
      return Why;
    };
    // A stated launch that leaves part of an output unwritten is not the program's: no figure of it holds.
    if (KernelWide.empty() && L.Stated)
      for (const dsl::tensor_info &T : R.Spec.tensor_list())
        if (T.arg >= 0 && T.access != dsl::role::read && T.access != dsl::role::not_counted && ownReason(T).empty())
          if (KernelWide = coverage(T); !KernelWide.empty()) break;
    const double Footprint = kernelFootprint();
    for (const dsl::tensor_info &T : R.Spec.tensor_list()) {
      if (T.arg < 0 || T.access == dsl::role::not_counted) continue;
      const std::string Name(T.name.view());
      const std::string Why = KernelWide.empty() ? ownReason(T) : KernelWide;
      if (!Why.empty()) {
        for (const model::memory_level Level : model::memory_levels) Out.Levels.push_back(notPredicted(Name, T.arg, Level, Why));
        continue;
      }
      const double Compulsory = bufferCompulsoryBytes(T.arg);
      const std::size_t First = Out.Levels.size();
      if (!BeyondL1.empty()) {
        Out.Levels.push_back(notPredicted(Name, T.arg, model::memory_level::dram, BeyondL1));
        Out.Levels.push_back(notPredicted(Name, T.arg, model::memory_level::l2, BeyondL1));
      } else {
        Out.Levels.push_back(dram(Name, T.arg, Compulsory, Footprint));
        Out.Levels.push_back(l2(Name, T.arg, Compulsory));
      }
      Out.Levels.push_back(l1(Name, T.arg, Compulsory));
      if (const std::string Shared = sharedBufferNote(T); !Shared.empty())
        for (std::size_t I = First; I < Out.Levels.size(); ++I)
          if (Out.Levels[I].K != Prediction::Kind::NotPredicted) Out.Levels[I].Basis += Shared;
    }
  }

  /// The compulsory bytes of the counted tensors the spec places in parameter @p Param. The parts of one
  /// buffer (.slice: the q and k of one QKV array) share its traffic, which the evaluation does not
  /// split between them: each one's ratio is the buffer's bytes over their compulsory bytes together,
  /// so that the kernel's sum counts the buffer once.
  double bufferCompulsoryBytes(int Param) const {
    double Bytes = 0;
    for (const dsl::tensor_info &T : R.Spec.tensor_list())
      if (T.arg == Param && T.access != dsl::role::not_counted) Bytes += compulsoryBytes(R, T);
    return Bytes;
  }
  /// The basis's note for a tensor that shares its parameter with others, or "".
  std::string sharedBufferNote(const dsl::tensor_info &Tensor) const {
    std::string Others;
    for (const dsl::tensor_info &T : R.Spec.tensor_list())
      if (T.arg == Tensor.arg && T.access != dsl::role::not_counted && T.name.view() != Tensor.name.view())
        Others += (Others.empty() ? "'" : ", '") + std::string(T.name.view()) + "'";
    if (Others.empty()) return "";
    return "; it is one of the parts of parameter " + std::to_string(Tensor.arg) + " with " + Others +
           " (.slice): the ratio is the buffer's traffic over their compulsory bytes together";
  }

  /// The store coverage check of an assumed launch: each tensor written once, each read at least once.
  std::string launchMismatch() const {
    // Writes through addresses the evaluation cannot follow (a scatter) leave nothing to check the
    // assumed launch by: the reads alone pass a launch that does the work several times.
    bool Written = false, Checked = false;
    for (const dsl::tensor_info &T : R.Spec.tensor_list()) {
      if (std::string Why = coverage(T); !Why.empty()) return Why;
      if (T.arg >= 0 && T.access != dsl::role::read && T.access != dsl::role::not_counted) {
        Written = true;
        Checked |= !addressUnknown(T.arg);
      }
    }
    if (Written && !Checked)
      return "the assumed launch " + L.Text.substr(0, L.Text.find(", assumed")) +
             " cannot be checked: every tensor it writes is addressed through values the evaluation does not follow";
    return "";
  }

  /// Whether the launch moves tensor @p T's compulsory bytes (useful bytes stored, or loaded, over them):
  /// "" or why not. An assumed launch must write each tensor once and read each at least once; a stated
  /// one is judged by its writes alone (a kernel may read part of an input, write an output more than
  /// once), and one that leaves part of an output unwritten is not the program's launch (a .grid(...)
  /// that covers half the output would predict half of every tensor's compulsory bytes).
  std::string coverage(const dsl::tensor_info &T) const {
    if (T.arg < 0 || T.access == dsl::role::not_counted) return "";
    // Accesses whose addresses the evaluation cannot follow (a gather through unstated indices) count
    // nothing: their tensor's own reason says why, not the launch.
    if (addressUnknown(T.arg)) return "";
    const bool Writes = T.access != dsl::role::read;
    // The bytes the buffer's tensors of this direction hold (a parameter may hold several: q and k).
    const double Bytes = compulsoryOneWay(T.arg, Writes);
    if (!(Bytes > 0)) return "";
    // Atomics' bytes are not counted as stores: a stated launch's reduction into a tensor is its own.
    if (L.Stated && sum(T.arg, [](const TensorTally &Y) { return Y.AtomicRequests; }).Point > 0) return "";
    if (L.Stated && !Writes) return "";
    const Estimate Moved = sum(T.arg, [&](const TensorTally &Y) { return Writes ? Y.UsefulStoreBytes : Y.UsefulLoadBytes; });
    const double Times = Moved.Point / Bytes;
    // A stated launch's writes, where blocks spread over the grid estimate them (their work varies: a
    // causal mask's rows): the estimate's own error is no mismatch, once must lie within it; but a point
    // under 0.9 is (a grid a tenth short of a triangle writes 0.81 of it, which a wide error could hold).
    const bool WithinError = L.Stated && Writes && Moved.Sampled && Times >= 0.9;
    const double Most = WithinError ? Moved.High / Bytes : Times;
    if (Most >= 0.98 && (L.Stated || !Writes || Times <= 1.02)) return "";
    return "the " + std::string(L.Stated ? "stated" : "assumed") + " launch " + L.Text.substr(0, L.Text.find(", assumed")) +
           " " + (Writes ? "writes" : "reads") + " '" + std::string(T.name.view()) + "' " + model::format_significant(Times) +
           " times, not once" +
           (L.Stated ? ": check the spec's .block(...), .grid(...) and sizes, or state the part it writes with .touches(...)" : "");
  }

private:
  const KernelRecord &R;
  const std::vector<BlockTally> &Blocks;
  const LaunchChoice &L;
  int PerSm;
  const CacheLevels &Levels;
  Extrapolation X;
  std::int64_t Middle;
  std::array<std::int64_t, 3> Neighbour;
  SmRun Run;
  double RunLoadSectors;  ///< the distinct sectors the run's blocks load, all tensors together
  mutable std::optional<double> WaveFootprint;  ///< waveFootprint(), once worked out
  /// unionOfTranslates() of a footprint, a shift and a count, once worked out (the figures of every
  /// level ask for the same ones; a footprint of a million granules takes milliseconds).
  mutable std::map<std::tuple<const std::vector<std::uint64_t> *, std::uint64_t, std::int64_t>, double> Unions;
  double unionOf(const std::vector<std::uint64_t> &F, std::uint64_t S, std::int64_t N) const {
    const auto [It, New] = Unions.try_emplace({&F, S, N}, 0.0);
    if (New) It->second = unionOfTranslates(F, S, N);
    return It->second;
  }

  template <class Fn> Estimate sum(int Param, Fn F) const {
    return X.of([&](const BlockTally &B) {
      auto It = B.Tensors.find(Param);
      return It == B.Tensors.end() ? 0.0 : F(It->second);
    });
  }
  const BlockTally *sample(std::int64_t Block) const {
    for (const BlockTally &B : Blocks)
      if (B.Block == Block) return &B;
    return nullptr;
  }
  bool cachedLoads(int Param) const {
    for (const BlockTally &B : Blocks)
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end() && It->second.CachedLoads) return true;
    return false;
  }
  bool touched(int Param) const {
    for (const BlockTally &B : Blocks)
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end() && (It->second.Requests > 0 || It->second.AtomicRequests > 0))
        return true;
    return false;
  }
  /// The sectors of tensor @p Param each block reads, each counted once a block, over the grid.
  double distinctReadSectors(int Param) const {
    return sum(Param, [](const TensorTally &T) { return double(T.ReadSectors.size()); }).Point;
  }
  bool addressUnknown(int Param) const {
    return std::any_of(Blocks.begin(), Blocks.end(), [&](const BlockTally &B) {
      const auto It = B.Tensors.find(Param);
      return B.UnattributedUnknown || (It != B.Tensors.end() && It->second.Unknown);
    });
  }
  std::string unknownReason(int Param) const {
    for (const BlockTally &B : Blocks) {
      if (B.UnattributedUnknown)
        return "an access whose address depends on data the build cannot know does not show which tensor it touches";
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end() && It->second.Unknown) {
        if (const auto U = UnboundAddressScalars.find(Param); U != UnboundAddressScalars.end())
          return "its address depends on " + unboundParameters(U->second) +
                 " (a stride or a pitch is bound as a dimension of the tensor's padded shape, the part read in "
                 ".touches(): docs/dsl.md, \"A stride or a pitch\")";
        return "its address depends on a value the evaluation does not follow: one loaded from memory (a gather), "
               "computed in floating point, or a parameter the spec does not bind" + unstatedIndicesHint();
      }
    }
    return "";
  }
  /// "; a gather through 'idx' is predicted where the spec states its values (...)": the integer
  /// tensors the kernel reads whose values the spec does not state, which a gather may be indexed by.
  std::string unstatedIndicesHint() const {
    std::vector<std::string> Names;
    for (const dsl::tensor_info &T : R.Spec.tensor_list())
      if (T.arg >= 0 && (T.access == dsl::role::read || T.access == dsl::role::read_write) && model::is_integer(T.dtype) &&
          T.indices == dsl::index_distribution::unstated)
        Names.push_back("'" + std::string(T.name.view()) + "'");
    if (Names.empty()) return "";
    return "; a gather through " + model::and_list(Names) +
           " is predicted where the spec states its values: .indices(uniform(V)) or .indices(distinct(N)) (docs/dsl.md)";
  }

  /// The unique footprint over a box of @p Box blocks around the middle one, bytes, of a per-block
  /// footprint @p Of (granules of @p Unit bytes): along each axis the union of the middle block's
  /// footprint translated by the shift its neighbour shows (blocks whose footprints differ in size
  /// are taken as disjoint, and nested ones as the largest), the axes combined as independent. With @p Missed, along each axis that
  /// share of what the blocks share is counted once per block again (L2 lost it in between).
  double spread(int Param, const std::vector<std::uint64_t> TensorTally::*Of, std::uint64_t TensorTally::*First,
                double Unit, const Dim3 &Box, const std::array<double, 3> &Missed = {}) const {
    const TensorTally *M = tally(Middle, Param);
    if (!M || (M->*Of).empty()) return 0;
    const std::vector<std::uint64_t> &F = M->*Of;
    const double Size = double(F.size());
    double Union = Size;
    const std::array<std::int64_t, 3> Along{Box.X, Box.Y, Box.Z};
    for (int A = 0; A < 3; ++A) {
      const std::int64_t N = Along[std::size_t(A)];
      if (N <= 1) continue;
      const TensorTally *Next = Neighbour[std::size_t(A)] >= 0 ? tally(Neighbour[std::size_t(A)], Param) : nullptr;
      double AlongAxis = Size * double(N);
      if (nests(Param, Of, First, A, Unit)) {
        // Nested footprints: the union of N blocks along the axis is the largest of them; read again, the
        // blocks' own footprints add up (their mean each).
        const double Step = std::fabs(double((Next->*Of).size()) - Size);
        AlongAxis = std::min(largest(Param, Of), Size + double(N - 1) / 2 * Step);
        AlongAxis += (std::max(AlongAxis, meanSize(Param, Of) * double(N)) - AlongAxis) * Missed[std::size_t(A)];
        Union *= AlongAxis / Size;
        continue;
      }
      if (Next && std::fabs(double((Next->*Of).size()) - Size) <= 0.05 * Size) {
        const std::int64_t Shift = std::int64_t(Next->*First - M->*First);
        double Step = double(Shift < 0 ? -Shift : Shift);
        // A neighbour at the same place (b[i / C]: blocks of one row; a GEMM's grouped block order) may
        // share it with a few blocks only: the grid's first and last blocks along the axis say how far
        // the footprint moves over it, a mean step per block.
        if (Shift == 0) Step = meanStep(Param, Of, First, A, Size);
        if (Step < Unit)  // a shift within a granule: each run grows by the shift per block
          AlongAxis = std::min(AlongAxis, Size + double(N - 1) * Step / Unit * runsOf(F));
        else
          AlongAxis = unionOf(F, std::uint64_t(std::llround(Step / Unit)), N);
      }
      AlongAxis += (Size * double(N) - AlongAxis) * Missed[std::size_t(A)];
      Union *= AlongAxis / Size;
    }
    return Union * Unit;
  }

  /// spread() scaled by the blocks' mean footprint over the middle block's: where the blocks'
  /// footprints differ in size (a causal mask's rows, a thread a row), the middle one is no sample of
  /// them (its rows may be the shortest), and spread() alone would make a tensor no two blocks share look
  /// shared.
  double sizedSpread(int Param, const std::vector<std::uint64_t> TensorTally::*Of, std::uint64_t TensorTally::*First,
                     double Unit, const Dim3 &Box, const std::array<double, 3> &Missed = {}) const {
    const TensorTally *M = tally(Middle, Param);
    if (!M || (M->*Of).empty()) return 0;
    const double Spread = spread(Param, Of, First, Unit, Box, Missed);
    const std::array<std::int64_t, 3> Along{Box.X, Box.Y, Box.Z};
    for (int A = 0; A < 3; ++A)  // spread() sized a nested axis by its largest footprint
      if (Along[std::size_t(A)] > 1 && nests(Param, Of, First, A, Unit)) return Spread;
    return Spread * meanSize(Param, Of) / double((M->*Of).size());
  }
  /// The blocks' mean footprint @p Of over the grid, granules.
  double meanSize(int Param, const std::vector<std::uint64_t> TensorTally::*Of) const {
    return sum(Param, [&](const TensorTally &T) { return double((T.*Of).size()); }).Point / double(L.Grid.count());
  }
  /// The largest footprint @p Of of a sampled block, granules.
  double largest(int Param, const std::vector<std::uint64_t> TensorTally::*Of) const {
    double Largest = 0;
    for (const BlockTally &B : Blocks)
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end()) Largest = std::max(Largest, double((It->second.*Of).size()));
    return Largest;
  }
  /// Whether the footprints @p Of (granules of @p Unit bytes) nest along axis @p A: the middle block's
  /// and its neighbour's start at least a granule apart, the larger holds the smaller but for a tenth of
  /// their difference, and that difference is two granules or more (each block of a causal triangle's
  /// columns reads from its own row to the last). A window sliding by less than a granule is no such
  /// case: its start stays within the granule.
  bool nests(int Param, const std::vector<std::uint64_t> TensorTally::*Of, std::uint64_t TensorTally::*First, int A,
             double Unit) const {
    const TensorTally *M = tally(Middle, Param);
    const TensorTally *N = Neighbour[std::size_t(A)] >= 0 ? tally(Neighbour[std::size_t(A)], Param) : nullptr;
    if (!M || !N || (M->*Of).empty() || (N->*Of).empty()) return false;
    if (std::fabs(double(M->*First) - double(N->*First)) < Unit) return false;
    const double Small = double(std::min((M->*Of).size(), (N->*Of).size()));
    const double Large = double(std::max((M->*Of).size(), (N->*Of).size()));
    return Large - Small >= 2 && Small - double(intersectionSize(M->*Of, N->*Of)) <= 0.1 * (Large - Small);
  }
  /// Whether the reads of tensor @p Param nest along axis @p A and the two blocks begin reading at
  /// places a granule apart: each walks its footprint from its own start (a causal triangle's rows from
  /// the block's own row down), so the one reaches the granules they share at another point of its run
  /// than the other, up to a run later. Blocks that begin at the shared end (rows walked upwards from
  /// the last) read them in step.
  bool readsSkewed(int Param, int A) const {
    if (!nests(Param, &TensorTally::ReadGranules, &TensorTally::FirstRead, A, 64)) return false;
    const TensorTally *M = tally(Middle, Param), *N = tally(Neighbour[std::size_t(A)], Param);
    return std::fabs(double(M->EarliestRead) - double(N->EarliestRead)) >= 64;
  }

  /// The mean shift per block of the footprint @p Of along axis @p A (x or y), bytes: from the grid's
  /// first block to the last along the axis (both sampled), when their footprints are of the middle
  /// block's size @p Size; else 0.
  double meanStep(int Param, const std::vector<std::uint64_t> TensorTally::*Of, std::uint64_t TensorTally::*First, int A,
                  double Size) const {
    const std::int64_t Extent = A == 0 ? L.Grid.X : A == 1 ? L.Grid.Y : 1;
    if (Extent <= 1) return 0;
    const TensorTally *Begin = tally(0, Param);
    const TensorTally *End = tally(A == 0 ? linearOf({L.Grid.X - 1, 0, 0}, L.Grid) : linearOf({0, L.Grid.Y - 1, 0}, L.Grid), Param);
    const auto similar = [&](const TensorTally *T) { return T && std::fabs(double((T->*Of).size()) - Size) <= 0.05 * Size; };
    if (!similar(Begin) || !similar(End)) return 0;
    return std::fabs(double(End->*First) - double(Begin->*First)) / double(Extent - 1);
  }

  const TensorTally *tally(std::int64_t Block, int Param) const {
    const BlockTally *B = sample(Block);
    if (!B) return nullptr;
    auto It = B->Tensors.find(Param);
    return It == B->Tensors.end() ? nullptr : &It->second;
  }

  /// A tensor's footprint over the whole grid (granules of @p Unit bytes, as bytes): the blocks'
  /// footprints added, and their union (sizedSpread, at most the tensor's @p Extent bytes when known, at
  /// most the sum); blocks share granules when the union is smaller.
  struct Footprint {
    double Sum = 0, Union = 0;
    double Low = 0, High = 0;  ///< the union's bounds: equal to it when footprints translate with the block
    bool Shared = false;
    bool Scattered = false;  ///< the union a point taken as random draws (scattered()): its bounds the structure's
  };
  /// Footprints that translate with the block (their sizes may differ: a causal mask's rows, a thread a
  /// row): their neighbours' spread. Others: between the largest block's and the blocks' sum (at most
  /// the tensor), the point at the low end (work that depends on the block modulo a few), or where the
  /// blocks' footprints lie scattered as random draws (scattered(): a hashed gather or scatter) at the
  /// draws' expected union.
  Footprint footprint(int Param, const std::vector<std::uint64_t> TensorTally::*Of, std::uint64_t TensorTally::*First,
                      double Unit, double Extent) const {
    Footprint F;
    F.Sum = sum(Param, [&](const TensorTally &T) { return double((T.*Of).size()); }).Point * Unit;
    const double Cap = Extent > 0 ? std::ceil(Extent / Unit) * Unit : F.Sum;
    if (translates(Param, First, Unit)) {
      F.Union = F.Low = F.High = std::min({F.Sum, sizedSpread(Param, Of, First, Unit, L.Grid), Cap});
    } else if (const auto D = DrawnThrough.find(Param); D != DrawnThrough.end() && Extent > 0) {
      // Addresses drawn through stated indices: the blocks' footprints are independent draws from the
      // tensor's granules, whose union is G (1 - exp(-draws / G)) in expectation, a value for uniform
      // indices; distinct ones repeat no row, so their union reaches the blocks' sum where rows do not
      // share granules: a range up to it, the point there.
      F.Low = F.Union = F.High = drawnUnion(F.Sum, Cap, Unit);
      if (D->second) F.Union = F.High = std::min(F.Sum, Cap);
    } else {
      F.High = std::min(F.Sum, Cap);
      F.Union = F.Low = std::min(largest(Param, Of) * Unit, F.High);
      // Scattered as a hash scatters them: the point where independent draws put it, the bounds kept.
      if (Extent > 0 && scattered(Param, Of, Unit, Cap)) {
        F.Union = std::max(F.Low, drawnUnion(F.Sum, Cap, Unit));
        F.Scattered = true;
      }
    }
    F.Shared = F.Sum > 1.02 * F.High;
    return F;
  }
  /// Whether the blocks' footprints @p Of (granules of @p Unit bytes) lie scattered over the tensor's
  /// @p Cap bytes as independent random draws would: each sampled block's spread over at least half of
  /// it, touching at most an eighth of what it spans, and no two sampled blocks sharing a tenth of
  /// their granules (a hashed gather, x[hash(i) % n]). Footprints that repeat from block to block
  /// (b[i % C]) share granules; those that are compact (a tile chosen by the block) span little.
  bool scattered(int Param, const std::vector<std::uint64_t> TensorTally::*Of, double Unit, double Cap) const {
    std::vector<const std::vector<std::uint64_t> *> Footprints;
    for (const BlockTally &B : Blocks)
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end() && (It->second.*Of).size() >= MinScatteredGranules)
        Footprints.push_back(&(It->second.*Of));
    if (Footprints.size() < 2) return false;
    for (const std::vector<std::uint64_t> *F : Footprints) {
      const double Span = double(F->back() - F->front() + 1) * Unit;
      if (Span < 0.5 * Cap || double(F->size()) * Unit > Span / 8) return false;
    }
    for (std::size_t I = 0; I < Footprints.size(); ++I)
      for (std::size_t J = I + 1; J < Footprints.size(); ++J)
        if (double(intersectionSize(*Footprints[I], *Footprints[J])) > 0.1 * double(std::min(Footprints[I]->size(), Footprints[J]->size())))
          return false;
    return true;
  }
  /// A block's footprint of fewer granules says too little of how they spread.
  static constexpr std::size_t MinScatteredGranules = 16;
  /// The expected union of @p Draws bytes of granules of @p Unit bytes drawn independently from @p Cap
  /// bytes of them: G (1 - exp(-draws / G)).
  static double drawnUnion(double Draws, double Cap, double Unit) {
    const double Granules = Cap / Unit;
    return std::min(Draws, -std::expm1(-Draws / Unit / Granules) * Granules * Unit);
  }
  /// The footprints of a tensor's reads and writes, never under its compulsory bytes: the kernel moves
  /// each element its spec reads or writes at least once (a union spread from one block can miss rows
  /// that blocks far apart add).
  Footprint reads(int Param) const {
    Footprint F = footprint(Param, &TensorTally::ReadGranules, &TensorTally::FirstRead, 64, bufferExtent(Param));
    if (F.Sum > 0) atLeastCompulsory(F, compulsoryOneWay(Param, false));
    return F;
  }
  Footprint writes(int Param) const {
    Footprint F = footprint(Param, &TensorTally::WriteSectors, &TensorTally::FirstWrite, 32, bufferExtent(Param));
    if (F.Sum > 0) atLeastCompulsory(F, compulsoryOneWay(Param, true));
    return F;
  }
  static void atLeastCompulsory(Footprint &F, double Compulsory) {
    if (!(Compulsory > 0)) return;
    const double C = std::min(F.Sum, Compulsory);
    F.Union = std::max(F.Union, C);
    F.Low = std::max(F.Low, C);
    F.High = std::max(F.High, F.Union);
  }
  /// The compulsory bytes the spec's tensors in parameter @p Param read (or, with @p Writes, write).
  double compulsoryOneWay(int Param, bool Writes) const {
    double Bytes = 0;
    for (const dsl::tensor_info &T : R.Spec.tensor_list())
      if (T.arg == Param && T.access != dsl::role::not_counted && T.access != (Writes ? dsl::role::read : dsl::role::write))
        Bytes += compulsoryBytes(R, T) / (T.access == dsl::role::read_write ? 2 : 1);
    return Bytes;
  }
  /// The bytes in memory of the spec's tensors in parameter @p Param together, or 0 when one has none.
  double bufferExtent(int Param) const {
    double Bytes = 0;
    for (const dsl::tensor_info &T : R.Spec.tensor_list()) {
      if (T.arg != Param) continue;
      const double E = extentOf(T);
      if (!(E > 0)) return 0;
      Bytes += E;
    }
    return Bytes;
  }

  /// The tensor's bytes in memory when the spec gives them (a tensor it declares touched in part: 0).
  /// The tensor's bytes in memory: its whole shape (a tensor the spec declares touched in part is still
  /// that large), or 0 when a dimension has no size.
  double extentOf(const dsl::tensor_info &T) const {
    if (T.rank == 0) return double(model::size_bytes(T.dtype));
    double Elements = 1;
    for (unsigned D = 0; D < T.rank; ++D) {
      const int Dim = T.shape[D];
      if (Dim < 0 || !(R.Sizes.values[std::size_t(Dim)] > 0)) return 0;
      Elements *= R.Sizes.values[std::size_t(Dim)];
    }
    return Elements * double(model::size_bytes(T.dtype));
  }

  /// The bytes the kernel writes, every tensor's written footprint added.
  double kernelWrites() const {
    double Sum = 0;
    for (const int Param : tensorParams()) Sum += writes(Param).Union;
    return Sum;
  }
  double kernelFootprint() const {
    double Sum = 0;
    for (const int Param : tensorParams()) Sum += reads(Param).Union + writes(Param).Union;
    return Sum;
  }
  /// The parameters of the spec's tensors, each once (the slices of one buffer share theirs).
  std::vector<int> tensorParams() const {
    std::vector<int> Params;
    for (const dsl::tensor_info &T : R.Spec.tensor_list())
      if (T.arg >= 0 && std::find(Params.begin(), Params.end(), T.arg) == Params.end()) Params.push_back(T.arg);
    return Params;
  }

  Prediction l1(const std::string &Name, int Param, double Compulsory) const {
    const Estimate S = sum(Param, [](const TensorTally &T) { return T.L1Sectors; });
    const Estimate A = sum(Param, [](const TensorTally &T) { return T.AtomicRequests; });
    std::string Why = "the sectors its warp requests touch, counted for the sampled blocks";
    if (S.High > S.Low * 1.02) Why += "; a range: the sampled blocks differ";
    if (A.Point > 0) Why += "; atomics are not load or store sectors";
    const double K = double(SectorBytes) / Compulsory;
    const double Floor = readFloor(Param, Compulsory);
    return rangeOf(Name, Param, model::memory_level::l1, std::max(S.Low * K, Floor), std::max(S.Point * K, Floor),
                   std::max(S.High * K, Floor), Why);
  }

  /// A floor at L1 and L2 for a tensor the kernel reads: each sector it reads is requested of L1 at
  /// least once, and of L2 at least once (its first use on an SM misses), whatever the blocks' figures
  /// extrapolate to. Its read footprint over @p Compulsory (a tensor the spec reads: at least its
  /// compulsory bytes, where the blocks' footprints add up to as much).
  double readFloor(int Param, double Compulsory) const {
    if (!(sum(Param, [](const TensorTally &T) { return T.UsefulLoadBytes; }).Point > 0)) return 0;
    // Atomics' sectors are in the footprint but not in the L1 and L2 figures.
    if (sum(Param, [](const TensorTally &T) { return T.AtomicRequests; }).Point > 0) return 0;
    return sectorsRead(Param).Low / Compulsory;
  }

  /// The sectors of the tensor the kernel reads, over the grid; for a tensor the spec reads, at least its
  /// compulsory bytes (where the blocks' footprints add up to as much).
  Footprint sectorsRead(int Param) const {
    Footprint Read = footprint(Param, &TensorTally::ReadSectors, &TensorTally::FirstRead, double(SectorBytes),
                               bufferExtent(Param));
    atLeastCompulsory(Read, compulsoryOneWay(Param, false));
    return Read;
  }

  Prediction l2(const std::string &Name, int Param, double Compulsory) const {
    const Estimate Full = sum(Param, [](const TensorTally &T) { return T.L2Sectors[0]; });
    const Estimate Kept = sum(Param, [](const TensorTally &T) { return T.L2Sectors[1]; });
    const double K = double(SectorBytes) / Compulsory;
    double Lo = std::min(Full.Low, Kept.Low) * K, Hi = std::max(Full.High, Kept.High) * K;
    std::string Why = "the sectors L1 does not serve, for the sampled blocks of one SM (" + std::to_string(PerSm) +
                      " resident) through an L1 of " + bytesText(Run.L1Bytes) + " per SM";
    if (Kept.Point > Full.Point * 1.02)
      Why += Levels.L1KeptFraction > 0 ? "; a range: L1 keeps a working set whole only up to about " +
                                             model::format_significant(Levels.L1KeptFraction) + " of itself"
                                       : "; a range: how much of L1 keeps a working set is not measured on this GPU";
    // Blocks that share the tensor's sectors may find them in L1 when they share an SM, which the
    // order the blocks run decides: down to each sector once.
    // Loads that bypass L1 (ld.global.cg) reach L2 whichever blocks share an SM.
    const Footprint F = reads(Param);
    if (F.Shared && sum(Param, [](const TensorTally &T) { return T.UsefulLoadBytes; }).Point > 0 && cachedLoads(Param)) {
      // Each sector read comes from L2 at least once; the stores all reach L2.
      const double StoreSectors = sum(Param, [](const TensorTally &T) { return T.StoreSectors; }).Point;
      const double SectorsRead = sectorsRead(Param).Union;
      Lo = std::min(Lo, (SectorsRead + StoreSectors * double(SectorBytes)) / Compulsory);
      Why += "; blocks share its sectors: down to each sector once when blocks that share them meet in one L1";
    }
    const Estimate Joinable = sum(Param, [](const TensorTally &T) { return T.JoinableStoreSectors; });
    const Estimate JoinedMost = sum(Param, [](const TensorTally &T) { return T.JoinedStoreSectorsMost; });
    if (JoinedMost.Point > 0) {
      Lo = std::max(0.0, Lo - JoinedMost.High * K);
      Why += "; a warp's store right after another store instruction's to the same sectors may reach L2 with it (the H200 joined "
             "a pair's two stores of the halves of each sector, the H100 a struct's four byte stores, up to 64 sectors in a row; "
             "the H100 joined few of a lane's 8 floats stored one by one): the point counts those within 64 sectors in a row "
             "sent once, the range's low end all of them";
    }
    if (const double M = mergeableShare(Param); M > 0.02) {
      Lo = std::min(Lo, std::min(Full.Low, Kept.Low) * K * (1 - M));
      Why += "; down to " + model::format_significant(1 - M) +
             " of that: the SM sends some sectors again a moment after the same bytes, which the way to L2 may merge";
    }
    if (const double A = sum(Param, [](const TensorTally &T) { return T.AtomicSectors; }).Point; A > 0)
      Why += "; not in this figure: its atomics, which L2 performs on " + model::format_significant(A * K) +
             "x its compulsory bytes in sectors (the L2 load and store counters do not count them)";
    double Point = Full.Point * K;
    const double Stores = sum(Param, [](const TensorTally &T) { return T.StoreSectors; }).Point;
    if (const PastCapacity P = pastL1Capacity(Param, Full.Point - Stores); P.Reloads > 0) {
      Point = (Full.Point - P.Reloads * P.Hit) * K;
      Lo = std::min(Lo, (Full.Point - P.Reloads * P.MostHit) * K);
      Why += "; " + P.Why;
    }
    bool OncePerSm = false;
    if (const Steady S = keptAcrossWaves(Param, Full.Point - Stores); !S.Why.empty()) {
      if (const double Kept = std::max(Stores + S.Loads, Lo / K); Kept < Full.Point * 0.98) {
        Point = Kept * K;
        Why += "; " + S.Why;
        OncePerSm = true;
      }
    }
    Point = std::max(Lo, Point - Joinable.Point * K);
    // Each block's misses of shared sectors (not the once-per-SM point, where in-step requests are not
    // measured, nor reads drawn at random, whose sharers request a sector at unrelated times).
    if (F.Shared && cachedLoads(Param) && !OncePerSm && !DrawnThrough.count(Param) && !F.Scattered) {
      const double Keep = sharedSectorsCounted();
      // The first request of each sector is counted whoever else asks for it: merging takes from the rest.
      const double Loads = Point - Stores * K, Once = std::min(Loads, sectorsRead(Param).Union / Compulsory);
      Point = std::max(Lo, Stores * K + Once + (Loads - Once) * Keep);
      Why += "; the point counts each sector's first request and " + model::format_significant(Keep) +
             " of its loads' other L1 misses: blocks of different SMs that request the same sectors in step are counted "
             "fewer times at L2";
    }
    const double Floor = readFloor(Param, Compulsory);
    return rangeOf(Name, Param, model::memory_level::l2, std::max(Lo, Floor), std::max(Point, Floor), std::max(Hi, Floor),
                   Why);
  }

  /// What an L1 that is no LRU keeps of a working set past its capacity: Reloads, the sectors the LRU
  /// fetched again (every one of them, where the blocks of an SM cycle through more than it holds), of
  /// which a share Hit is served.
  struct PastCapacity {
    double Reloads = 0, Hit = 0, MostHit = 0;
    std::string Why;
  };
  /// Where the run's loads (W) are past L1's capacity (C) by at most twice, an LRU misses every sector
  /// the blocks read again (a row kernel's passes); Hopper's L1 keeps some. Random replacement's hit
  /// share h of a cyclic working set solves h = exp(-(1 - h) W / C); the H100 served between none and
  /// that (2026-12-07: a warp-per-row softmax, 64 rows of 4 KiB an SM against 224 KiB, 0.57 of its
  /// re-reads, where h is 0.76; the corpus's row kernels with shared memory nearly none): the point
  /// takes h / 2. No policy keeps more than C / W of it: the range's low end. @p Loads: the tensor's
  /// load sectors past L1.
  PastCapacity pastL1Capacity(int Param, double Loads) const {
    const double Distinct = distinctReadSectors(Param);
    const double W = RunLoadSectors * double(SectorBytes), C = double(Run.L1Bytes);
    const double Reloads = Loads - Distinct;
    if (!(C > 0) || W <= C || W > 2 * C || Reloads <= 0.02 * Distinct || !cachedLoads(Param)) return {};
    double H = 0.5;  // the fixed point other than h = 1, by iteration (it converges for W / C in (1, 2])
    for (int I = 0; I < 200; ++I) H = std::exp(-(1 - H) * W / C);
    H = std::min(H, C / W) / 2;
    return {Reloads, H, C / W,
            "L1 is no LRU: a run's loads past it (" + bytesText(std::int64_t(W)) + " against " + bytesText(std::int64_t(C)) +
                ") keep part of what the blocks read again: the point serves " + model::format_significant(H) +
                " of those re-reads (half of random replacement's share, as measured), the range's low end up to " +
                model::format_significant(C / W) + " (no policy keeps more)"};
  }

  /// Of the L1 misses of sectors blocks share, the share L2's counters see: requests of different SMs
  /// for the same sector, close in time, are counted fewer times (docs/results.md, "Where a tiled
  /// GEMM's L2 reads go": every miss leaves L1, fewer reach the counter). The blocks of a kernel's
  /// first wave start in step and drift apart over the waves after it: the H100 and the H200 counted
  /// 0.63-0.76 of the misses for GEMMs of about one wave, 0.85 at 15 waves, 0.94 at 62; the point takes
  /// 1 - 0.35 / sqrt(waves), a fit to those counts (the range still reaches both ends).
  double sharedSectorsCounted() const {
    const double Waves = std::max(1.0, double(L.Grid.count()) / (double(Levels.Sms) * std::max(1, PerSm)));
    return 1 - InStepMergedAtOneWave / std::sqrt(Waves);
  }
  static constexpr double InStepMergedAtOneWave = 0.35;

  /// The distinct sectors the run's blocks load, all tensors together.
  double runLoadFootprint() const {
    std::vector<std::uint64_t> All;
    for (std::size_t I = 0; I < Run.Blocks; ++I)
      for (const auto &[P, T] : Blocks[I].Tensors) All.insert(All.end(), T.ReadSectors.begin(), T.ReadSectors.end());
    sortUnique(All);
    return double(All.size());
  }

  /// Load sectors that reach L2 over the grid once L1 keeps some from one wave to the next, and why.
  struct Steady {
    double Loads = 0;
    std::string Why;  ///< empty where L1 keeps nothing across waves
  };

  /// The first run (one SM's co-resident blocks) starts with an empty L1, and its miss rate stands for
  /// every block: as if L1 were emptied between an SM's waves of blocks. Where a wave's loads fit in
  /// L1 and the run never fetched a sector of the tensor twice, sectors the SM's next blocks read again
  /// stay in L1: each SM fetches them once in the kernel, not once per wave. Those are the whole tensor
  /// where it fits in L1 beside the loads of the waves between two reads of one of its sectors (a bias
  /// whose blocks read windows of it, a small table),
  /// else the sectors that most interior blocks sampled apart from the run read (a filter, weights every
  /// block reads whole).
  /// @param Loads the load sectors of @p Param that reach L2 over the grid, at the run's miss rate.
  Steady keptAcrossWaves(int Param, double Loads) const {
    const double Sms = double(Levels.Sms);
    if (Run.Blocks < 2 || Blocks.size() <= Run.Blocks || !cachedLoads(Param) ||
        !(double(L.Grid.count()) > Sms * double(Run.Blocks)))
      return {};
    if (sum(Param, [](const TensorTally &T) { return T.AtomicRequests; }).Point > 0) return {};
    // From one wave's read of a sector to the next wave's, the SM loads about a wave's footprint: the
    // sector stays only when that fits in L1 (co-resident blocks read a shared sector nearly at once, so
    // the run alone does not show it).
    const double Wave = RunLoadSectors * double(SectorBytes);
    if (Wave > double(Run.L1Bytes)) return {};
    std::vector<std::uint64_t> RunUnion;
    double RunFetches = 0;
    for (std::size_t I = 0; I < Run.Blocks; ++I)
      if (const auto It = Blocks[I].Tensors.find(Param); It != Blocks[I].Tensors.end()) {
        RunUnion.insert(RunUnion.end(), It->second.ReadSectors.begin(), It->second.ReadSectors.end());
        RunFetches += It->second.L2Sectors[0] - It->second.StoreSectors;
      }
    sortUnique(RunUnion);
    // Fetched again within the run: L1 did not keep it while the SM's blocks ran; nor will it between waves.
    if (!(RunFetches > 0) || RunFetches > 1.02 * double(RunUnion.size())) return {};
    // The whole tensor stays where the SM comes back to each of its sectors before L1 evicts it: a
    // wave reads the run's part of it, so about Whole / that part waves (their loads) pass in between.
    const double Whole = sectorsRead(Param).High, RunPart = double(RunUnion.size() * SectorBytes);
    if (Wave * std::ceil(Whole / RunPart) + Whole <= double(Run.L1Bytes))
      return {std::min(Loads, Sms * Whole / double(SectorBytes)),
              "its sectors read (" + bytesText(std::int64_t(Whole)) + ") stay in L1 beside a wave's loads (" +
                  bytesText(std::int64_t(Wave)) + "): each SM fetches each of them at most once"};
    const double Common = readByMostVoters(Param, RunUnion);
    // The run fetched each of its sectors once: its first fetches of the common ones are this share of
    // its load fetches, and of the extrapolated loads.
    const double ColdShare = std::min(1.0, Common / RunFetches);
    if (!(ColdShare > 0)) return {};
    return {std::min(Loads, Loads * (1 - ColdShare) + Sms * Common),
            "the sectors most blocks read stay in L1 from one wave of an SM's blocks to the next: each SM fetches them once"};
  }

  /// The sectors of @p RunUnion that most voters also read. The voters: interior blocks apart from the
  /// run, whose blocks (0, S, 2S, ... for S SMs) may share a pattern of period S (a head index modulo 12)
  /// that the grid's other blocks do not; the last blocks along x or y may skip part of it (a filter's
  /// taps past the border). None where a voter reads none of the tensor or fewer than two vote.
  double readByMostVoters(int Param, const std::vector<std::uint64_t> &RunUnion) const {
    std::vector<std::uint64_t> Voted;
    std::size_t Voters = 0;
    for (std::size_t I = Run.Blocks; I < Blocks.size(); ++I) {
      if (!interior(Blocks[I].Block, L.Grid)) continue;
      const auto It = Blocks[I].Tensors.find(Param);
      if (It == Blocks[I].Tensors.end() || It->second.ReadSectors.empty()) return 0;  // it reads none of it
      Voted.insert(Voted.end(), It->second.ReadSectors.begin(), It->second.ReadSectors.end());
      ++Voters;
    }
    if (Voters < 2) return 0;
    std::sort(Voted.begin(), Voted.end());
    double Common = 0;
    for (std::size_t I = 0, J = 0; I < Voted.size(); I = J) {
      while (J < Voted.size() && Voted[J] == Voted[I]) ++J;
      Common += 2 * (J - I) > Voters && std::binary_search(RunUnion.begin(), RunUnion.end(), Voted[I]);
    }
    return Common;
  }

  /// The share of the tensor's L2 sectors, in the run of co-resident blocks, that may be merged on the way.
  double mergeableShare(int Param) const {
    double M = 0, All = 0;
    for (const BlockTally &B : Blocks)
      if (auto It = B.Tensors.find(Param); It != B.Tensors.end() && It->second.MergeCounted) {
        M += It->second.MergeableSectors;
        All += It->second.L2Sectors[0];
      }
    return All > 0 ? std::min(1.0, M / All) : 0;
  }

  /// Bytes at DRAM, low .. high with a point, and why.
  struct Bytes {
    double Low = 0, Point = 0, High = 0;
    std::string Why;
    bool Pointed = true;  ///< false: the range only, Why says what the point rests on
  };

  Prediction dram(const std::string &Name, int Param, double Compulsory, double KernelFootprint) const {
    // The model moves 64-byte granules, the H200's HBM access (measured); a GPU that moves another unit,
    // or none known (GDDR), has no DRAM figure.
    if (Levels.DramAccessBytes != int(GranuleBytes))
      return notPredicted(Name, Param, model::memory_level::dram,
                          Levels.DramAccessBytes > 0 ? "the GPU's DRAM moves " + std::to_string(Levels.DramAccessBytes) +
                                                           "-byte accesses; the model counts " + std::to_string(GranuleBytes) + "-byte granules"
                                                     : "how many bytes the GPU's DRAM moves per access is not known; the "
                                                       "model's 64-byte granules are measured on HBM");
    const Bytes R = dramReads(Param, KernelFootprint), W = dramWrites(Param, KernelFootprint);
    std::string Why = R.Why;
    if (!W.Why.empty()) Why += (Why.empty() ? "" : "; ") + W.Why;
    return rangeOf(Name, Param, model::memory_level::dram, (R.Low + W.Low) / Compulsory, (R.Point + W.Point) / Compulsory,
                   (R.High + W.High) / Compulsory, Why, R.Pointed && W.Pointed);
  }

  /// Reads of the tensor, and reads back of what its blocks wrote whole: L2 holds those lines unless
  /// the SM's requests between the write and the read back evicted them from its share of L2: from the
  /// share of the whole L2 to that of its kept part, the point at the whole. Lines just written stay
  /// longer than the re-reads of a row kernel's passes (dramFirstReads, whose point is at the kept
  /// part): llm.c's fused_residual_forward_kernel4 counted 0.527x at DRAM on the H100, 0.5x at the
  /// whole share, 0.666x at the kept part. Its softmax_forward_kernel2 writes a row of 196 KiB and reads
  /// it back twice, eight blocks an SM in between: all from DRAM again at either share (3.11x; 3.28x
  /// counted, 2.03x with L2 holding it).
  Bytes dramReads(int Param, double KernelFootprint) const {
    Bytes R = dramFirstReads(Param, KernelFootprint);
    const double Back = sum(Param, [](const TensorTally &X) { return double(X.ReadBackGranules); }).Point * 64;
    if (Back <= 0 || KernelFootprint <= l2KeptBytes()) return R;
    // Each read back's request of a granule counts (a row read back in two passes: twice).
    const auto evicted = [&](int K) { return sum(Param, [K](const TensorTally &X) { return X.EvictedReadBacks[K]; }).Point * 64; };
    const double Whole = evicted(0), Part = evicted(1);
    R.Why += std::string(R.Why.empty() ? "" : "; ") + "what its blocks read back of their own writes (" +
             bytesText(std::int64_t(Back)) + ") comes from L2";
    if (Part <= 0.02 * Back) {
      R.Why += ", which holds it in between (" + shareText() + ")";
      return R;
    }
    R.Low += Whole;
    R.Point += Whole;
    R.High += Part;
    R.Why += ", or from DRAM where L2 evicted it in between (" +
             (Part > Whole * 1.02 ? bytesText(std::int64_t(Whole)) + " to " : std::string()) +
             bytesText(std::int64_t(Part)) + ": " + shareText() + ")";
    return R;
  }
  /// How the eviction of what an SM requested again is judged (RunTally::l2Request).
  std::string shareText() const {
    const std::string Whole = "each SM's requests against its share of L2, " + bytesText(std::int64_t(l2ShareBytes(L.Grid, Levels, 1)));
    if (!(Levels.L2KeptFraction > 0)) return Whole + " (the part of it that keeps a working set is not measured on this GPU)";
    return Whole + ", and of its kept part, " + bytesText(std::int64_t(l2ShareBytes(L.Grid, Levels, Levels.L2KeptFraction)));
  }
  /// Reads: each 64-byte granule once when L2 keeps what is read again; more where blocks share it, or
  /// read it again after their SM's share of L2 evicted it.
  Bytes dramFirstReads(int Param, double KernelFootprint) const {
    const Footprint Reads = reads(Param);
    if (Reads.Sum <= 0) return {};
    const double U = Reads.Union;
    const double Kept = l2KeptBytes();
    // Without a measured kept fraction nothing is known to stay in L2 (Kept is 0): the reads are a range.
    const std::string Fraction = Levels.L2KeptFraction > 0
                                     ? model::format_significant(Levels.L2KeptFraction) + " of the " + bytesText(Levels.L2Bytes) + " L2"
                                     : "the part of L2 that keeps it (not measured on this GPU)";
    const std::string FootText = "the kernel's footprint (" + bytesText(std::int64_t(KernelFootprint)) + ")";
    const auto once = [&](const std::string &Why) {
      return Bytes{Reads.Low, U, Reads.High, Why + ": each 64-byte granule read comes from DRAM once"};
    };
    if (KernelFootprint <= Kept) return once(FootText + " is within " + Fraction);
    const std::string Over = FootText + " is over " + Fraction + "; ";
    // Blocks that share its granules run close together, or re-read them often enough that L2 keeps them.
    if (const auto Near = nearReuse(Param, Reads)) return once(Over + *Near);
    if (const auto Often = frequentReuse(Param, Reads)) return once(Over + *Often);
    const double Misses = sum(Param, [](const TensorTally &X) { return X.L2Granules; }).Point * 64;
    const double Loads = sum(Param, [](const TensorTally &X) { return X.L2Sectors[0] - X.StoreSectors; }).Point;
    const double LoadsKept = sum(Param, [](const TensorTally &X) { return X.L2Sectors[1] - X.StoreSectors; }).Point;
    const double Distinct = distinctReadSectors(Param);
    const double WaveBlocks = double(Levels.Sms) * PerSm;
    const double Waves = std::ceil(double(L.Grid.count()) / WaveBlocks);
    const Dim3 Box = firstBlocks(std::int64_t(WaveBlocks));
    // A tensor no two blocks share, read again by its own blocks past L1 (the passes of a row kernel): a
    // granule comes from DRAM again where its SM's share of L2 evicted it in between, the other
    // tensors' requests counted (the H200's thread-per-row passes: 2.1-6x at DRAM once a wave's rows
    // exceed L2). From the share of the whole L2 to that of its kept part, the point at the whole: the
    // row kernels whose passes fit an SM's share of L2 but not of its kept part found them in L2 (two of
    // llm.c's layer norms, flash-attention-minimal's Q, a warp-per-row softmax: 0.77-1.11x counted, the
    // kept part's point 1.25-2.2x); the top with L1 keeping only its kept part (more of the passes reach L2).
    if (!Reads.Shared && Distinct > 0 && LoadsKept > Distinct * 1.02) {
      const double Whole = sum(Param, [](const TensorTally &X) { return X.EvictedRereads[0]; }).Point * 64;
      const double Part = sum(Param, [](const TensorTally &X) { return X.EvictedRereads[1]; }).Point * 64;
      const std::string Again = "its own blocks read it again past L1 (" + ratioText(Loads / Distinct) + ")";
      // L2 requests with L1 at its kept part, per one at its whole (where the kept part is measured: else
      // L1 would keep nothing, and every read of a sector reach L2).
      const double KeptL1 = Loads > 0 && Levels.L1KeptFraction > 0 ? LoadsKept / Loads : 1;
      if (Part * KeptL1 <= 0.02 * U) return once(Over + Again + ", found in L2 (" + shareText() + ")");
      const double Point = Whole;
      const std::string Evicted = Part > Whole * 1.02 ? bytesText(std::int64_t(Whole)) + " to " + bytesText(std::int64_t(Part))
                                                      : bytesText(std::int64_t(Part));
      const std::string Why = Over + Again + ", from DRAM again where L2 evicted it in between: " + Evicted + " (" + shareText() + ")";
      // An LRU misses every re-read of a pattern that cycles past its share; L2 is no LRU (llm.c's causal
      // softmax backward kernel 2, a wave 1.5 times L2: the LRU reads every re-read from DRAM, 61.9x,
      // the H100 counted 55.5x at L2 and 15.3x at DRAM). No cache misses fewer than the part of the
      // wave's footprint it cannot hold: the range's low end.
      const double Wave = waveFootprint(Box, Waves);
      const double Held = Wave > 0 && Levels.L2Bytes > 0 ? std::min(1.0, double(Levels.L2Bytes) / Wave) : 0;
      if (Held <= 0.02 || Whole <= 0) return {Reads.Low + Whole, U + Point, Reads.High + Part * KeptL1, Why};
      return {Reads.Low + Whole * (1 - Held), U + Point, Reads.High + Part * KeptL1,
              Why + "; down to " + bytesText(std::int64_t(Whole * (1 - Held))) + " where L2 keeps what it can of a wave's footprint (" +
                  bytesText(std::int64_t(Wave)) + ", " + bytesText(Levels.L2Bytes) + " of L2)"};
    }
    // Each block's first read of a granule may come from DRAM (the blocks' footprints added); a granule
    // its SM requests of L2 again only where L2 evicted it in between.
    const double Evicted = sum(Param, [](const TensorTally &X) { return X.EvictedRereads[1]; }).Point * 64;
    const double Hi = std::max(U, std::min(Misses, Reads.Sum + Evicted));
    if (Misses <= U * 1.02) return once(Over + "no granule is requested from L2 twice");
    if (Hi <= U * 1.02)
      return once(Over + "what its SM requests of L2 again is still there (" + shareText() + ")");
    const std::string Range = Over + "its reads range from each 64-byte granule once to every L2 miss from DRAM; ";
    if (DrawnThrough.count(Param)) return drawnReads(Reads, Waves, KernelFootprint, Hi, Range, "its indices drawn at random");
    if (Reads.Scattered)
      return drawnReads(Reads, Waves, KernelFootprint, Hi, Range, "its blocks' granules scattered over it as random draws");
    if (Reads.Shared && translates(Param, &TensorTally::FirstRead, 64)) {
      // In step, the blocks of a wave share what they read: that needs the blocks an SM holds, which
      // unstated registers leave at the most threads allow (too few waves, too low a point). Neither
      // that point nor the launch distance's holds then (SGEMM_CUDA's 128-tile kernels: 0.94x and 8.69x
      // at DRAM, the H100 counted 1.72x): the range without a point.
      const bool InStep = sharedInWaves(Param, WaveBlocks);
      const bool Measured = Waves <= MostWavesInStep && PerSm <= MostBlocksPerSmInStep;
      if (InStep && RegistersCounted && Measured) return waveReads(Param, U, Hi, Range, Box, Waves, WaveBlocks);
      if (InStep && RegistersCounted)
        return {U, U, Hi, Range + "no point estimate: sharers were measured reading it about once a wave where an SM held up to " +
                              std::to_string(MostBlocksPerSmInStep) + " blocks, over up to " + std::to_string(int(MostWavesInStep)) +
                              " waves; here " + std::to_string(PerSm) + " blocks an SM, " + model::format_significant(Waves) +
                              " waves: they may drift apart, reading it more by an amount not modelled",
                false};
      if (InStep)
        return {U, U, Hi, Range + "no point estimate: its sharers may read it once a wave, in step, or again at each sharer; which "
                        "depends on the blocks an SM holds: " +
                        (RegistersStated ? std::string("the registers stated, this GPU's register file is not known")
                                         : "state the registers a thread (.registers(n), as nvcc -Xptxas -v prints them)"),
                false};
      return axisReads(Param, U, Hi, Range, waveFootprint(Box, Waves));
    }
    // Not translates of the neighbours' footprints, and read again by blocks of other waves (tiles in an
    // order computed from the block index, a grouped GEMM's): which parts each wave reads, and so how
    // often they come from DRAM again, the waves' even shares of the union do not tell. (A 32 x 32-tile
    // SGEMM in grouped order at 4096: each wave of 1056 blocks reads all of B, about 15 times from DRAM
    // by hand, where those shares gave 1x.)
    if (Waves > 1 && sharedAcrossWaves(Param, WaveBlocks))
      return {U, U, Hi, Range + "no point estimate: blocks of different waves read the same parts of it, in an order computed "
                        "from the block index (not as translates of their neighbours): how much of it each wave reads is not modelled",
              false};
    return waveReads(Param, U, Hi, Range, Box, Waves, WaveBlocks);
  }
  /// Whether two sampled blocks of different waves of @p WaveBlocks blocks (in launch order) read
  /// granules of the tensor in common, half the smaller footprint or more: a tile read again wave
  /// after wave (a grouped GEMM's B), not a stencil's halo, whose blocks of other waves lie apart.
  bool sharedAcrossWaves(int Param, double WaveBlocks) const {
    for (std::size_t I = 0; I < Blocks.size(); ++I)
      for (std::size_t J = I + 1; J < Blocks.size(); ++J) {
        if (std::floor(double(Blocks[I].Block) / WaveBlocks) == std::floor(double(Blocks[J].Block) / WaveBlocks)) continue;
        const auto A = Blocks[I].Tensors.find(Param), B = Blocks[J].Tensors.find(Param);
        if (A == Blocks[I].Tensors.end() || B == Blocks[J].Tensors.end()) continue;
        const std::vector<std::uint64_t> &X = A->second.ReadGranules, &Y = B->second.ReadGranules;
        if (!X.empty() && !Y.empty() && 2 * intersectionSize(X, Y) >= std::min(X.size(), Y.size())) return true;
      }
    return false;
  }
  /// Whether the blocks that share a translating footprint run in step, each wave of them reading it
  /// once: where every axis they share it along puts at least SharersInStep of them in one wave
  /// (@p WaveBlocks blocks), none of them reaching it at another point of its run. The H100 counted
  /// (scripts/probes/gemm-waves.sh, 2026-12-07, 09:02 UTC) SGEMM_CUDA's register-tiled GEMMs, 4.1 to 12
  /// sharers of a B tile a wave, reading B about once per wave (4.3 times for 3.9 waves, 17.2 for 15.5,
  /// 67 for 62 with 4.1 a wave; 5.4 and 20.5 for 3.9 and 15.5 with 8.25; 4.9 and 19.4 for 2.6 and 10.3
  /// with 12.4) and its 32 x 32-tile GEMM, 2.06 sharers a wave, reading A from DRAM again at nearly
  /// every sharer (7.4 of 8 times at 3.9 waves, 31 of 32 at 15.5, 126 of 128 at 62): its blocks drift
  /// apart, and those launched between two sharers run between them (axisReads).
  bool sharedInWaves(int Param, double WaveBlocks) const {
    const std::array<std::int64_t, 3> Extent{L.Grid.X, L.Grid.Y, L.Grid.Z};
    const std::array<double, 3> Apart{1, double(L.Grid.X), double(L.Grid.X) * double(L.Grid.Y)};
    bool Shared = false;
    for (std::size_t A = 0; A < 3; ++A) {
      if (Extent[A] <= 1 || overlap(Param, int(A)) <= 0) continue;
      const double InAWave = std::min(double(Extent[A]), WaveBlocks / Apart[A]);  // sharers along A in one wave
      if (readsSkewed(Param, int(A)) || InAWave < SharersInStep) return false;
      Shared = true;
    }
    return Shared;
  }
  /// Between the 2.06 sharers a wave that drifted and the 4.1 that kept in step, at the side measured in
  /// step: where fewer are not measured, the launch-distance point stays.
  static constexpr double SharersInStep = 4;
  /// The longest grid measured in step: up to 15.5 waves the sharers read a tile within 32% of once a
  /// wave; at 41 and 62 waves warp tiling and the 2-D kernel read 6.8x and 1.8x that (the 1-D kernel
  /// still once a wave): past it the range has no point.
  static constexpr double MostWavesInStep = 16;
  /// The most blocks an SM held where sharers were measured in step: warp tiling's 3 (1.6-1.8 times its
  /// waves); the held-out 64-tile SGEMM, 6 an SM and 12 sharers a wave over 5.2 waves, read B about 30
  /// times where its waves give 6 (H100, 2026-12-07, 15:57 UTC): past 3, the range has no point.
  static constexpr int MostBlocksPerSmInStep = 3;
  /// The reads of a tensor's footprint that each wave of blocks reads once (@p Box: the blocks of one
  /// wave, @p Waves of them): what the wave before read is still in L2 but for missedIn(the waves'
  /// footprints: every tensor's, what passes through L2 between a wave's read of a granule and the next
  /// wave's). For a footprint that does not translate with the block (a tile computed from a 1D block
  /// index), one no two blocks share, or one whose sharers run in step (sharedInWaves).
  Bytes waveReads(int Param, double U, double Hi, const std::string &Range, const Dim3 &Box, double Waves, double WaveBlocks) const {
    // The waves' reads past the granules the kernel touches (its blocks' footprints joined over the grid:
    // more than U where a granule holds less of the tensor than its 64 bytes) are the re-reads.
    const double PerWave = wavePart(Param, Box, Waves), LastWave = lastWavePart(Param, PerWave, Waves, WaveBlocks);
    const double Read = (Waves - 1) * PerWave + LastWave;
    const double Touched = std::clamp(wavePart(Param, L.Grid, 1), U, std::max(U, Read));  // the grid as one wave
    const double Between = waveFootprint(Box, Waves);
    const double Missed = missedIn(Between);
    const double Point = std::clamp(Touched + (Read - Touched) * Missed, U, Hi);
    const auto AtOnce = std::int64_t(std::min(WaveBlocks, double(L.Grid.count())));  // a grid of one wave: all of it
    const std::string Last = LastWave < PerWave * 0.98 ? " (the last, of fewer blocks, " + bytesText(std::int64_t(LastWave)) + ")" : "";
    const std::string Each = Range + "the point: each wave of " + std::to_string(AtOnce) + " co-resident blocks (" + Resident +
                             ") reads " + bytesText(std::int64_t(PerWave)) + " of it" + Last;
    return {U, Point, Hi,
            Each + ", and what the wave before read is still in L2 but for " + model::format_significant(100 * Missed) +
                "% (a wave's footprint, all tensors, " + bytesText(std::int64_t(Between)) + ", " + againstL2() + ")"};
  }
  /// What the last of the @p Waves waves of @p WaveBlocks blocks reads of tensor @p Param: a whole wave's
  /// @p PerWave, or its own blocks' part where it holds fewer (cuda-samples' FDTD3d at 376^3: two waves
  /// of 11 rows of tiles and one of 2, not three of 11: its input 1.06x at DRAM, not 1.43x; the kernel
  /// 0.983x on the H100's geometry, which counted 1.03x). Its blocks are taken from x = 0 of a row, as a
  /// whole wave's are (Box).
  double lastWavePart(int Param, double PerWave, double Waves, double WaveBlocks) const {
    const std::int64_t Blocks = L.Grid.count(), Whole = std::int64_t(double(Blocks) / WaveBlocks);
    const std::int64_t Left = Blocks - Whole * std::int64_t(WaveBlocks);
    if (Whole == 0 || Left <= 0) return PerWave;
    return wavePart(Param, firstBlocks(Left), Waves);
  }
  /// The box the grid's first @p N blocks fill in launch order (x fastest, then y, then z): whole rows
  /// once it passes one, and past an x-y slice the nearest whole number of slices (a batched kernel's
  /// wave spans batches; rounding up would size a wave of 1.03 slices as two).
  Dim3 firstBlocks(std::int64_t N) const {
    const std::int64_t Slice = L.Grid.X * L.Grid.Y;
    const std::int64_t Slices = N > Slice ? std::max<std::int64_t>(1, std::llround(double(N) / double(Slice))) : 1;
    return {std::min(L.Grid.X, N), std::min(L.Grid.Y, ceilDiv(N, L.Grid.X)), std::min(L.Grid.Z, Slices)};
  }
  /// The bytes of tensor @p Param's reads the @p Box of one wave's blocks touch: its neighbours' spread
  /// where its footprint translates with the block, else an even share of its union over @p Waves.
  double wavePart(int Param, const Dim3 &Box, double Waves) const {
    const Footprint F = reads(Param);
    if (F.Sum <= 0) return 0;
    return F.Shared && translates(Param, &TensorTally::FirstRead, 64)
               ? sizedSpread(Param, &TensorTally::ReadGranules, &TensorTally::FirstRead, 64, Box)
               : F.Union / Waves;
  }
  /// What one wave reads and writes of every tensor: the distinct bytes that pass through L2 between two
  /// waves' reads of a granule (the same for every tensor of the kernel: worked out once).
  double waveFootprint(const Dim3 &Box, double Waves) const {
    if (!WaveFootprint) WaveFootprint = boxFootprint(Box, Waves);
    return *WaveFootprint;
  }
  /// What the blocks of @p Box, one of @p Boxes such over the grid, read and write of every tensor.
  double boxFootprint(const Dim3 &Box, double Boxes) const {
    double Sum = 0;
    for (const int Param : tensorParams()) Sum += wavePart(Param, Box, Boxes) + writes(Param).Union / Boxes;
    return Sum;
  }
  /// The share of what blocks read again that L2 no longer holds when @p Between bytes passed through it
  /// in between: none within its kept part, all of it once they fill L2, in proportion between (from
  /// nothing kept where the kept part is not measured).
  double missedIn(double Between) const {
    const double Kept = l2KeptBytes(), Whole = double(Levels.L2Bytes);
    return Whole > Kept ? std::clamp((Between - Kept) / (Whole - Kept), 0.0, 1.0) : 1.0;
  }
  /// "against L2's kept part, 24 MiB, and its whole, 60 MiB": what missedIn weighs the bytes against.
  std::string againstL2() const {
    if (!(Levels.L2KeptFraction > 0))
      return "against L2's whole, " + bytesText(Levels.L2Bytes) + " (the part of it that keeps a working set is not measured on this GPU)";
    return "against L2's kept part, " + bytesText(std::int64_t(l2KeptBytes())) + ", and its whole, " + bytesText(Levels.L2Bytes);
  }
  /// The point of a shared tensor whose footprint translates with the block. Blocks that share its
  /// granules along an axis launch that axis's stride apart (1, the grid's x, its x times y), and a
  /// block runs about that many blocks' work after the one before it, whatever the wave: the later
  /// block finds the granules in L2 but for missedIn(what the blocks launched in between read and
  /// write). A tiled GEMM's B at 4096: a row of blocks reads all 64 MiB of it between two blocks of a
  /// column, so each row of blocks reads B from DRAM again: 128x (the H100's count for the kernel leaves
  /// about 125x for B).
  /// Along an axis whose reads are skewed (readsSkewed()), a block reaches the granules it shares at
  /// another point of its run than its neighbour: what the whole wave reads and writes in a run, @p Wave
  /// bytes, passes in between (llm.c's causal softmax backward pass: a block per 64 columns, the wave the
  /// whole grid, 2.25x at DRAM on the H100; a block per 8 columns, 33 heads a wave, 0.97x).
  Bytes axisReads(int Param, double U, double Hi, const std::string &Range, double Wave) const {
    const std::array<std::int64_t, 3> Extent{L.Grid.X, L.Grid.Y, L.Grid.Z};
    const std::array<Dim3, 3> Between{Dim3{1, 1, 1}, Dim3{L.Grid.X, 1, 1}, Dim3{L.Grid.X, L.Grid.Y, 1}};
    std::array<double, 3> Missed{};
    std::vector<std::string> Axes;
    for (std::size_t A = 0; A < 3; ++A) {
      if (Extent[A] <= 1 || overlap(Param, int(A)) <= 0) continue;
      const bool Nested = readsSkewed(Param, int(A));
      const double Passed = Nested ? Wave : boxFootprint(Between[A], double(L.Grid.count()) / double(Between[A].count()));
      Missed[A] = missedIn(Passed);
      const std::string Fate = Missed[A] <= 0.02   ? "still there"
                               : Missed[A] >= 0.98 ? "gone"
                                                   : "gone for " + model::format_significant(100 * Missed[A]) + "%";
      const std::string Who = "blocks " + std::to_string(Between[A].count()) + " apart in launch order (along " + "xyz"[A] + ")";
      const std::string PassedText = bytesText(std::int64_t(Passed));
      const std::string Shared = Nested ? " share its granules, one's footprint inside the other's, reached at another point of its "
                                          "run: a wave's footprint, " + PassedText + ","
                                        : " share its granules, " + PassedText;
      Axes.push_back(Who + Shared + " through L2 between them: " + Fate);
    }
    const double Point = std::clamp(sizedSpread(Param, &TensorTally::ReadGranules, &TensorTally::FirstRead, 64, L.Grid, Missed), U, Hi);
    const std::string Against = " (" + againstL2() + ")";
    if (Axes.empty()) return {U, Point, Hi, Range + "the point: each granule once (no neighbouring blocks share it)"};
    std::string Text = Range + "the point:";
    for (std::size_t I = 0; I < Axes.size(); ++I) Text += (I ? "; " : " ") + Axes[I];
    return {U, Point, Hi, Text + Against};
  }
  /// Reads addressed through indices drawn as the spec states (a gather, an embedding lookup), or whose
  /// blocks' footprints lie scattered as such draws (Footprint::Scattered, @p Drawn says which): each
  /// wave's reads are independent draws from the tensor's granules, whatever order the blocks run in.
  /// The point: each wave's union of them from DRAM, but for what L2's kept part still holds of the
  /// tensor, its share of what the waves bring into L2 (uniform draws: a granule is there with the
  /// probability of that part over the tensor's footprint).
  Bytes drawnReads(const Footprint &Reads, double Waves, double KernelFootprint, double Hi, const std::string &Range,
                   const std::string &Drawn) const {
    const double U = Reads.Union;
    const double PerWave = drawnUnion(Reads.Sum / Waves, U, double(GranuleBytes));
    const double WaveFootprint = PerWave + std::max(0.0, KernelFootprint - U) / Waves;
    const double Held = std::min(1.0, l2KeptBytes() * PerWave / WaveFootprint / U);
    const double Point = std::clamp(U + (Waves * PerWave - U) * (1 - Held), U, Hi);
    const std::string HeldText = Levels.L2KeptFraction > 0
                                     ? model::format_significant(100 * Held) + "% of them still in L2's kept part"
                                     : "the part of L2 that keeps them not measured on this GPU";
    return {Reads.Low, Point, Hi,
            Range + "the point: each of " + model::format_significant(Waves) + " waves reads " + bytesText(std::int64_t(PerWave)) +
                " of its granules (" + Drawn + "), " + HeldText};
  }

  /// Writes: each sector written once, less what may still be in L2 when the kernel ends (written
  /// lines leave L2 when it evicts them), or once per pass when its own blocks write it again after a
  /// wave's footprints have gone through L2.
  Bytes dramWrites(int Param, double KernelFootprint) const {
    const Footprint Writes = writes(Param);
    if (Writes.Sum <= 0) return {};
    double W = Writes.Union, WLow = Writes.Low, WHigh = Writes.High;
    std::string Why;
    // Written again: more bytes stored than its sectors hold (partial sectors that other stores complete
    // are not written twice).
    const double Stored = sum(Param, [](const TensorTally &X) { return X.UsefulStoreBytes; }).Point;
    const double Held = sum(Param, [](const TensorTally &X) { return double(X.WriteSectors.size()); }).Point * double(SectorBytes);
    if (!Writes.Shared && Held > 0 && Stored > Held * 1.02 && waveShare(W) >= double(Levels.L2Bytes)) {
      W *= Stored / Held;
      WLow *= Stored / Held;
      WHigh *= Stored / Held;
      Why = "its blocks write it " + ratioText(Stored / Held) + " over, past L2 between two writes";
    }
    // Stores that write parts of sectors other stores complete: L2 merges the parts while it holds the
    // line, but a line evicted in between is written back in parts and read before the next part is
    // merged (the H200's naive transpose at 16384: 1.18x written and 0.2x read for 1x of sectors).
    // Up to every part written back and read once: the range's top; the point assumes L2 merges them.
    // A kernel whose whole footprint L2 keeps (its measured fraction) has no line evicted in between.
    const double Partial = sum(Param, [](const TensorTally &X) { return X.PartialStoreSectors; }).Point;
    const bool KeptWhole = KernelFootprint <= l2KeptBytes();
    if (!KeptWhole && Partial > 0.02 * sum(Param, [](const TensorTally &X) { return X.StoreSectors; }).Point) {
      WHigh += 2 * Partial * double(SectorBytes);
      Why = (Why.empty() ? "" : Why + "; ") +
            "its stores write parts of sectors that other stores complete: up to each part written back and read again when L2 evicts the line in between";
    }
    // At most L2's capacity of written lines is left in it at the end, the writes' share of it at the
    // point, the kernel's writes together at most the part of L2 that keeps a working set (the H100's
    // streaming kernels left 16-24 MiB of their writes in its 50 MiB, kept part 20 MiB: a copy 17.6
    // MiB, a fill 24.3), each tensor its share of it by its written bytes; all of it
    // where each sector is written again in about every wave (an accumulator its blocks update to the
    // end, a histogram's bins): its lines are among the last L2 saw.
    const double Left = std::min(W, double(Levels.L2Bytes));
    // Times each byte is written: its stores' useful bytes and its atomics' sectors over the sectors
    // written, over the grid.
    const double Atomics = sum(Param, [](const TensorTally &X) { return X.AtomicSectors; }).Point * double(SectorBytes);
    const double Waves = double(L.Grid.count()) / (double(Levels.Sms) * std::max(1, PerSm));
    const bool ToTheEnd = W > 0 && Waves > 1 && (Stored + Atomics) / W >= Waves;
    double LeftPoint = ToTheEnd ? Left : std::min(W, double(Levels.L2Bytes) * W / std::max(KernelFootprint, W));
    if (const double Written = kernelWrites(); !ToTheEnd && l2KeptBytes() > 0 && Written > 0)
      LeftPoint = std::min(LeftPoint, l2KeptBytes() * W / std::max(Written, W));
    if (ToTheEnd) Why += (Why.empty() ? "" : "; ") + std::string("its blocks write each of its sectors again in about every wave: "
                                                                 "the point leaves its lines in L2 at the end");
    if (Left > 0.02 * W)
      Why += (Why.empty() ? "" : "; ") + std::string("up to ") + bytesText(std::int64_t(Left)) +
             " of its writes may still be in L2 when the kernel ends";
    return {WLow - std::min(WLow, double(Levels.L2Bytes)), W - LeftPoint, WHigh, Why};
  }

  /// The bytes L2 keeps between a kernel's reads (its measured kept fraction; 0 where not measured).
  double l2KeptBytes() const { return Levels.L2KeptFraction * double(Levels.L2Bytes); }

  /// The bytes of a tensor's footprint @p U that the blocks of one wave (those resident at once) touch.
  double waveShare(double U) const {
    const double Blocks = double(L.Grid.count());
    return std::min(Blocks, double(Levels.Sms) * PerSm) * (U / Blocks);
  }

  /// Why a shared tensor's re-reads hit in L2 for certain when they are spread over the kernel: each
  /// granule is read by Sum / Union blocks on average, so the L2 traffic between two reads of it is the
  /// kernel's divided by that, within the kept fraction (a position table every batch reads).
  std::optional<std::string> frequentReuse(int Param, const Footprint &Reads) const {
    if (!Reads.Shared || Reads.Union <= 0) return std::nullopt;
    const double Readers = Reads.Sum / Reads.Union;
    const double Between = l2BytesPerBlock() * double(L.Grid.count()) / Readers;
    if (Between > l2KeptBytes()) return std::nullopt;
    return "each granule is read by " + model::format_significant(Readers) + " blocks, with about " +
           bytesText(std::int64_t(Between)) + " of L2 traffic between two of them";
  }

  /// Whether every sampled block's footprint starts where the middle block's, shifted by its
  /// neighbours' shifts per axis, puts it (within a granule of @p Unit bytes): the footprint translates
  /// with the block, and its neighbours tell its union.
  bool translates(int Param, std::uint64_t TensorTally::*First, double Unit) const {
    const TensorTally *M = tally(Middle, Param);
    if (!M || M->*First == ~std::uint64_t(0)) return false;
    const Dim3 Mc = coordsOf(Middle, L.Grid);
    std::array<double, 3> Shift{};
    const std::array<std::int64_t, 3> Extent{L.Grid.X, L.Grid.Y, L.Grid.Z};
    for (int A = 0; A < 3; ++A) {
      if (Extent[std::size_t(A)] <= 1) continue;
      const TensorTally *N = Neighbour[std::size_t(A)] >= 0 ? tally(Neighbour[std::size_t(A)], Param) : nullptr;
      if (!N || N->*First == ~std::uint64_t(0)) return false;
      Shift[std::size_t(A)] = double(std::int64_t(N->*First - M->*First));
    }
    for (const BlockTally &B : Blocks) {
      auto It = B.Tensors.find(Param);
      if (It == B.Tensors.end() || It->second.*First == ~std::uint64_t(0)) continue;
      const Dim3 C = coordsOf(B.Block, L.Grid);
      const double Expected = double(M->*First) + double(C.X - Mc.X) * Shift[0] + double(C.Y - Mc.Y) * Shift[1] +
                              double(C.Z - Mc.Z) * Shift[2];
      if (std::fabs(double(It->second.*First) - Expected) > Unit) return false;
    }
    return true;
  }

  /// The share of the middle block's footprint its neighbour along axis @p A also touches.
  double overlap(int Param, int A) const {
    const TensorTally *M = tally(Middle, Param);
    const TensorTally *N = Neighbour[std::size_t(A)] >= 0 ? tally(Neighbour[std::size_t(A)], Param) : nullptr;
    if (!M || !N || M->ReadGranules.empty()) return 0;
    return double(intersectionSize(M->ReadGranules, N->ReadGranules)) / double(M->ReadGranules.size());
  }

  /// L2 bytes per block, all tensors together (the mean of the sampled blocks).
  double l2BytesPerBlock() const {
    double Sum = 0;
    for (const BlockTally &B : Blocks)
      for (const auto &[P, T] : B.Tensors) Sum += T.L2Sectors[0] * double(SectorBytes);
    return Blocks.empty() ? 0 : Sum / double(Blocks.size());
  }

  /// Why a shared tensor's re-reads hit in L2, when they do for certain: every block that shares its
  /// granules is a neighbour along an axis (the union is the neighbours' spread, not the tensor's
  /// size), and the L2 traffic between two of them is within L2's kept fraction.
  std::optional<std::string> nearReuse(int Param, const Footprint &Reads) const {
    if (!Reads.Shared || !translates(Param, &TensorTally::FirstRead, 64)) return std::nullopt;
    const double Spread = sizedSpread(Param, &TensorTally::ReadGranules, &TensorTally::FirstRead, 64, L.Grid);
    if (Spread > Reads.Union * 1.02) return std::nullopt;  // capped by the tensor: sharing beyond neighbours
    const std::array<std::int64_t, 3> Apart{1, L.Grid.X, L.Grid.X * L.Grid.Y};
    const double PerBlock = l2BytesPerBlock(), Kept = l2KeptBytes();
    std::int64_t Farthest = 0;
    for (int A = 0; A < 3; ++A) {
      if (overlap(Param, A) <= 0) continue;
      // Skewed reads are shared a run apart, not a launch apart (axisReads()).
      if (readsSkewed(Param, A)) return std::nullopt;
      if (double(Apart[std::size_t(A)]) * PerBlock > Kept) return std::nullopt;
      Farthest = std::max(Farthest, Apart[std::size_t(A)]);
    }
    if (Farthest == 0) return std::nullopt;
    return "the blocks that share its granules run at most " + std::to_string(Farthest) + " apart, with " +
           bytesText(std::int64_t(double(Farthest) * PerBlock)) + " of L2 traffic between them";
  }
};

/// Where the evaluated blocks of the stratum (@p Stratum's picks, StratumEnough of them at least) hold
/// blocks of a kind, they alone weigh in its averages, one each: the structured blocks of that kind sit
/// at chosen places (row 0 of a causal mask, over and over), the stratum spreads evenly over the grid.
void weighTheStratumAlone(std::vector<BlockTally> &Blocks, const std::vector<std::int64_t> &Stratum, const Dim3 &G) {
  const auto picked = [&](const BlockTally &B) { return std::find(Stratum.begin(), Stratum.end(), B.Block) != Stratum.end(); };
  std::array<bool, 4> Sampled{};
  std::size_t Evaluated = 0;
  for (const BlockTally &B : Blocks)
    if (picked(B)) Sampled[std::size_t(kindOf(B.Block, G))] = true, ++Evaluated;
  if (Evaluated < StratumEnough) return;
  for (BlockTally &B : Blocks)
    if (picked(B)) B.Weight = 1, B.Spread = true;
    else if (Sampled[std::size_t(kindOf(B.Block, G))]) B.Weight = 0;
}

/// What one run's evaluation left: its failure, the warp instructions it took, what it noted.
struct RunOutcome {
  std::optional<EvalFailure> Failure;
  std::uint64_t From = 0, Used = 0;  ///< the budget it began with, the warp instructions it took
  WarpEvaluator::Notes Noted;
};

/// Whether every interior block evaluated so far (not the last along x or y) requested the same sectors
/// of each tensor.
bool blocksAlike(const std::vector<BlockTally> &Blocks, const Dim3 &G) {
  std::map<int, double> First;
  for (const BlockTally &B : Blocks) {
    if (!interior(B.Block, G)) continue;
    for (const auto &[P, T] : B.Tensors) {
      auto [It, New] = First.try_emplace(P, T.L1Sectors);
      if (!New && std::fabs(It->second - T.L1Sectors) > 1e-9 * std::max(1.0, It->second)) return false;
    }
  }
  return true;
}

/// The granules a block's reads back of its own writes request, each read back counted (a row read
/// back twice: twice its granules): the top where no rate tells how many L2 still held.
double readBackRequests(const TensorTally &T) {
  const std::vector<std::uint64_t> Sectors = T.ReadBackSet.sorted();
  if (Sectors.empty()) return 0;
  return double(granulesOf(Sectors).size()) * T.ReadBackSectors / double(Sectors.size());
}

/// The blocks sampled alone (the middle one, its neighbours, the last ones) ran without the blocks an
/// SM runs beside them: their L1 would keep what the SM's other blocks evict, and L2 what the others'
/// requests evict. Their loads reach L2, and find L2's share evicted, at the rates the first
/// @p SmBlocks blocks (one SM's) show per tensor; a tensor those blocks do not load, every load of
/// it past L1 a granule the block read before is taken as evicted.
void shareTheSmMissRates(std::vector<BlockTally> &Blocks, std::size_t SmBlocks) {
  // Per tensor: loads at L1, at L2 (full, kept), L2 granules, evicted re-reads (whole L2, kept part);
  // sectors read back, the evicted among them (whole L2, kept part).
  std::map<int, std::array<double, 9>> Rate;
  for (std::size_t I = 0; I < SmBlocks && I < Blocks.size(); ++I)
    for (const auto &[P, T] : Blocks[I].Tensors) {
      auto &R = Rate[P];
      R[0] += T.L1Sectors - T.StoreSectors;
      R[1] += T.L2Sectors[0] - T.StoreSectors;
      R[2] += T.L2Sectors[1] - T.StoreSectors;
      R[3] += T.L2Granules;
      R[4] += T.EvictedRereads[0];
      R[5] += T.EvictedRereads[1];
      R[6] += T.ReadBackSectors;
      R[7] += T.EvictedReadBacks[0];
      R[8] += T.EvictedReadBacks[1];
    }
  for (std::size_t I = SmBlocks; I < Blocks.size(); ++I)
    for (auto &[P, T] : Blocks[I].Tensors) {
      const auto It = Rate.find(P);
      const double Loads = T.L1Sectors - T.StoreSectors;
      if (It == Rate.end() || It->second[0] <= 0) {
        // No rate: every granule it requests again counts as evicted (the old range's top).
        const double Again = std::max(0.0, T.L2Granules - double(granuleCount(T.ReadSectorSet)));
        T.EvictedRereads[0] = T.EvictedRereads[1] = Again;
        T.EvictedReadBacks[0] = T.EvictedReadBacks[1] = readBackRequests(T);
        continue;
      }
      const auto &R = It->second;
      const double Share = Loads / R[0];
      T.L2Sectors[0] = T.StoreSectors + R[1] * Share;
      T.L2Sectors[1] = T.StoreSectors + R[2] * Share;
      T.L2Granules = R[3] * Share;
      T.EvictedRereads[0] = R[4] * Share;
      T.EvictedRereads[1] = R[5] * Share;
      for (int K = 0; K < 2; ++K) T.EvictedReadBacks[K] = R[6] > 0 ? R[7 + K] * T.ReadBackSectors / R[6] : readBackRequests(T);
    }
}

/// The parameters every access of which is addressed through stated indices (LevelModel::DrawnThrough),
/// each with whether the indices are distinct (when every stated index tensor is).
std::map<int, bool> drawnThrough(const std::vector<AccessSite> &Sites, const std::vector<std::optional<IndexValues>> &Indices) {
  const bool Distinct = std::all_of(Indices.begin(), Indices.end(), [](const auto &V) { return !V || V->Distinct; });
  std::map<int, bool> AllDrawn;
  for (const AccessSite &S : Sites)
    if (S.Param >= 0) AllDrawn.try_emplace(S.Param, true).first->second &= S.Drawn;
  std::map<int, bool> Out;
  for (const auto &[Param, Drawn] : AllDrawn)
    if (Drawn) Out.emplace(Param, Distinct);
  return Out;
}

/// Per tensor, the integer parameters behind the addresses of its sites that the evaluation could not
/// know, which the spec does not bind (.sizes): a batch stride, a pitch.
std::map<int, std::vector<std::string>> unboundAddressScalars(const std::vector<AccessSite> &Sites,
                                                              const std::vector<BlockTally> &Blocks, const EvalLaunch &EL) {
  // Named only where every unknown site of the tensor has such a parameter behind its address (a
  // gather's site has none: its unknown is the loaded index, and the generic reason stays).
  std::map<int, std::vector<std::string>> Out;
  std::set<int> Unexplained;
  for (std::size_t I = 0; I < Sites.size(); ++I) {
    const AccessSite &S = Sites[I];
    const bool Unknown = std::any_of(Blocks.begin(), Blocks.end(), [&](const BlockTally &B) { return B.Sites[I].Unknown; });
    if (S.Param < 0 || !Unknown) continue;
    std::vector<std::string> Unbound;
    for (const auto &[Arg, Name] : S.AddressScalars)
      if ((Arg >= EL.Scalars.size() || !EL.Scalars[Arg]) && !Name.empty()) Unbound.push_back(Name);
    if (Unbound.empty()) Unexplained.insert(S.Param);
    std::vector<std::string> &Names = Out[S.Param];
    for (const std::string &Name : Unbound)
      if (std::find(Names.begin(), Names.end(), Name) == Names.end()) Names.push_back(Name);
  }
  for (int Param : Unexplained) Out.erase(Param);
  for (auto It = Out.begin(); It != Out.end();) It = It->second.empty() ? Out.erase(It) : std::next(It);
  return Out;
}

}  // namespace

namespace {

/// Whether two spellings of a path name one file (the debug info's and clang's differ: relative, "./").
bool sameFile(llvm::StringRef A, llvm::StringRef B) {
  const auto normal = [](llvm::StringRef P) {
    llvm::SmallString<256> Path(P);
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    return Path;
  };
  if (normal(A) == normal(B)) return true;
  bool Same = false;
  return !llvm::sys::fs::equivalent(A, B, Same) && Same;
}

/// "line 28", or "line 28 of wmma.h" where the access is not in the kernel's file (a header's helper).
std::string lineText(const UnmodelledAccess &U, const KernelRecord &Record) {
  std::string Out = "line " + std::to_string(U.Line);
  if (U.File.empty() || sameFile(U.File, Record.KernelLocation.File)) return Out;
  // Another file: its name, or its path where the kernel's file has the same name.
  const llvm::StringRef Name = llvm::sys::path::filename(U.File);
  return Out + " of " + (Name == llvm::sys::path::filename(Record.KernelLocation.File) ? U.File : Name.str());
}

/// ROOFLINT_EVAL_DEBUG=FILE: each sampled block's tallies appended to FILE (the analysis of a file runs in
/// a worker process whose stderr is not shown), one kernel at a time.
void appendEvaluationDebug(const KernelRecord &Record, const LaunchChoice &Launch, std::uint64_t Instructions,
                           double Seconds, const std::vector<BlockTally> &Blocks) {
  const char *Path = std::getenv("ROOFLINT_EVAL_DEBUG");
  if (!Path) return;
  static std::mutex Writing;
  const std::lock_guard<std::mutex> Lock(Writing);
  std::FILE *Debug = std::fopen(Path, "a");
  if (!Debug) return;
  std::fprintf(Debug, "kernel %s: %s; %llu warp instructions, %.3f s\n", Record.KernelName.c_str(), Launch.Text.c_str(),
               (unsigned long long)Instructions, Seconds);
  for (const BlockTally &B : Blocks) {
    std::fprintf(Debug, "block %lld:", (long long)B.Block);
    for (const auto &[P, T] : B.Tensors)
      std::fprintf(Debug, " [param %d: requests %g L1 %g L2 %g/%g reads %zu writes %zu partial %g%s]", P, T.Requests,
                   T.L1Sectors, T.L2Sectors[0], T.L2Sectors[1], T.ReadGranules.size(), T.WriteSectors.size(),
                   T.PartialStoreSectors, T.Unknown ? " unknown" : "");
    std::fprintf(Debug, "\n");
  }
  std::fclose(Debug);
}

}  // namespace

KernelEvaluation evaluateTraffic(llvm::Function &F, const KernelRecord &Record, const LaunchChoice &Launch,
                                 std::int64_t SharedBytes, const CacheLevels &Levels, llvm::ThreadPoolInterface *Pool) {
  KernelEvaluation Out;
  Out.Launch = Launch;
  if (!Launch.Missing.empty()) {
    Out.Failure = Launch.Missing;
    return Out;
  }
  // The walk counts 32-byte sectors; a GPU whose caches move another unit is not predicted.
  if (Levels.SectorBytes != std::int64_t(SectorBytes)) {
    Out.Failure = "the GPU's caches move " + std::to_string(Levels.SectorBytes) + "-byte sectors; the model counts " +
                  std::to_string(SectorBytes) + "-byte ones";
    return Out;
  }
  // Index tensors whose values the spec states: what the kernel loads from them is drawn so.
  std::set<int> Indexed;
  std::vector<std::optional<IndexValues>> Indices(F.arg_size());
  std::string Drawn, Undrawn;
  for (const dsl::tensor_info &T : Record.Spec.tensor_list()) {
    if (T.indices == dsl::index_distribution::unstated || T.arg < 0 || std::size_t(T.arg) >= F.arg_size() || T.index_bound < 0)
      continue;
    if (!(Record.Sizes.values[std::size_t(T.index_bound)] >= 1)) {
      Undrawn += "; '" + std::string(T.name.view()) + "' states its indices below '" +
                 std::string(Record.Spec.dims[std::size_t(T.index_bound)].name.view()) + "', which has no size";
      continue;
    }
    const std::int64_t Bound = std::llround(Record.Sizes.values[std::size_t(T.index_bound)]);
    Indexed.insert(T.arg);
    const bool Distinct = T.indices == dsl::index_distribution::distinct;
    Indices[std::size_t(T.arg)] = IndexValues{Bound, Distinct};
    Drawn += std::string(Drawn.empty() ? "" : ", ") + statedIndexText(Record.Spec, T, Bound);
  }
  std::string Why;
  std::unique_ptr<WarpEvaluator> E = WarpEvaluator::compile(F, Indexed, Why);
  if (!E) {
    Out.Failure = Why;
    return Out;
  }
  EvalLaunch EL{Launch.Grid, Launch.Block, {}, Indices};
  EL.Scalars.resize(F.arg_size());
  for (int I = 0; I < Record.Spec.launch.size_count; ++I) {
    const dsl::launch_size &L = Record.Spec.launch.sizes[std::size_t(I)];
    if (L.source == dsl::size_source::argument && L.index >= 0 && std::size_t(L.index) < EL.Scalars.size())
      EL.Scalars[std::size_t(L.index)] = launchValue(Record, L);
  }
  const LayerCondition C = layerCondition(1, 0, int(Launch.Block.count()), SharedBytes, Levels, Launch.Registers);
  const Occupancy &Resident = C.Resident;
  if (Resident.Blocks < 1) {
    Out.Failure = "a block of " + std::to_string(Launch.Block.count()) + " threads at " + std::to_string(Launch.Registers) +
                  " registers a thread needs more registers than an SM has (" + std::to_string(Levels.RegistersPerSm) + "): no such launch runs";
    return Out;
  }
  const int PerSm = C.BlocksPerSm;
  Out.BlocksPerSm = PerSm;
  std::int64_t Middle = 0;
  std::array<std::int64_t, 3> Neighbour{};
  std::size_t FirstStratum = 0;
  std::vector<std::int64_t> Stratum;
  const auto Runs = runsOf(Launch.Grid, Levels.Sms, PerSm, Middle, Neighbour, FirstStratum, Stratum);
  // L2 as one SM's requests see it; the part that keeps a working set is 0 where not measured.
  const auto L2Share = std::int64_t(l2ShareBytes(Launch.Grid, Levels, 1));
  const auto L2KeptShare = std::int64_t(l2ShareBytes(Launch.Grid, Levels, Levels.L2KeptFraction));
  std::vector<BlockTally> Blocks;
  const auto Began = std::chrono::steady_clock::now();
  std::uint64_t Budget = evaluationBudget();
  const std::uint64_t Start = Budget;
  std::uint64_t CostliestBlock = 0;
  std::vector<std::size_t> FirstBlock(Runs.size());  // each run's first block in Blocks
  const auto addBlocks = [&](std::size_t R) {
    FirstBlock[R] = Blocks.size();
    for (std::int64_t B : Runs[R])
      Blocks.push_back({B, R == 0 ? 1.0 / double(Runs[R].size()) : 1.0, {}, std::vector<SiteTally>(E->sites().size()), false});
  };
  // Runs [Begin, End) at once, each from the budget left: their blocks' tallies are filled in place.
  const auto evaluateRuns = [&](std::size_t Begin, std::size_t End) {
    std::vector<RunOutcome> Outcomes(End - Begin);
    forEachAtOnce(Pool, End - Begin, [&](std::size_t I) {
      const std::size_t R = Begin + I;
      RunTally Tally(*E, Blocks, FirstBlock[R], C.L1Available, std::int64_t(Levels.L1KeptFraction * double(C.L1Available)),
                     L2Share, L2KeptShare, R == 0);
      std::uint64_t Left = Budget;
      Outcomes[I].Failure = E->run(EL, Runs[R], std::ref(Tally), Left, Outcomes[I].Noted);
      Outcomes[I].From = Budget;
      Outcomes[I].Used = Budget - Left;
    });
    return Outcomes;
  };
  // Takes run R's outcome as the runs one after another would have had it: true if it ran whole within
  // the budget left. A failure is theirs where the run began with that budget, or failed within it for
  // another reason; else the run goes again, alone, from that budget, for the failure and notes they
  // would have (its tallies are not used).
  const auto accept = [&](std::size_t R, RunOutcome &O) {
    if (!O.Failure && O.Used <= Budget) {
      Budget -= O.Used;
      E->keep(O.Noted);
      CostliestBlock = std::max(CostliestBlock, O.Used / Runs[R].size());
      return true;
    }
    const bool Theirs = O.From == Budget || (O.Failure && !O.Failure->OutOfBudget && O.Used <= Budget);
    if (!Theirs) O = evaluateRuns(R, R + 1).front();
    Budget -= std::min(Budget, O.Used);
    E->keep(O.Noted);
    return false;
  };
  const auto failure = [&](const EvalFailure &Failed) {
    Out.Failure = Failed.Reason + (Failed.Line ? " (line " + std::to_string(Failed.Line) + ")" : "");
    Out.Instructions = Start - Budget;
    return Out;
  };
  // An SM's first blocks, the middle and its neighbours, the last blocks: all of them, at once.
  for (std::size_t R = 0; R < FirstStratum; ++R) addBlocks(R);
  std::vector<RunOutcome> Structured = evaluateRuns(0, FirstStratum);
  for (std::size_t R = 0; R < FirstStratum; ++R)
    if (!accept(R, Structured[R])) return failure(*Structured[R].Failure);
  // Blocks spread over the grid average work that varies along it (a causal mask's rows); where every
  // interior block evaluated so far moved the same sectors, the grid's blocks are alike: not needed.
  // The stratum may cost what the blocks before it did, or StratumInstructions, and stops short of the
  // budget: fewer blocks spread over the grid, never a failure for the budget. Its blocks go as many at
  // once as there are threads, and stop where one after another would have.
  if (FirstStratum < Runs.size() && !blocksAlike(Blocks, Launch.Grid)) {
    const std::uint64_t StratumStart = Budget, StratumAllowance = std::max(StratumInstructions, Start - Budget);
    const auto enough = [&] { return StratumStart - Budget >= StratumAllowance || Budget < 2 * CostliestBlock; };
    const std::size_t AtOnce = Pool ? std::max(1u, Pool->getMaxConcurrency()) : 1;
    for (std::size_t R = FirstStratum, End = R; R < Runs.size() && !enough(); R = End) {
      End = std::min(Runs.size(), R + AtOnce);
      for (std::size_t S = R; S < End; ++S) addBlocks(S);
      std::vector<RunOutcome> Batch = evaluateRuns(R, End);
      std::size_t S = R;
      for (; S < End && (S == R || !enough()); ++S) {  // the budget's rule, before each run
        if (accept(S, Batch[S - R])) continue;
        if (!Batch[S - R].Failure->OutOfBudget) return failure(*Batch[S - R].Failure);
        break;  // out of budget: the blocks before it stand
      }
      if (S < End) {
        Blocks.resize(FirstBlock[S]);
        break;
      }
    }
  }
  weighTheStratumAlone(Blocks, Stratum, Launch.Grid);
  Out.Instructions = Start - Budget;
  shareTheSmMissRates(Blocks, Runs.front().size());
  for (BlockTally &B : Blocks)
    for (auto &[P, T] : B.Tensors) {
      T.ReadSectors = T.ReadSectorSet.sorted();
      T.ReadGranules = granulesOf(T.ReadSectors);
      T.WriteSectors = T.WriteSectorSet.sorted();
      T.ReadBackGranules = granuleCount(T.ReadBackSet);
      T.ReadSectorSet = T.WriteSectorSet = T.WrittenWhole = T.ReadBackSet = SectorSet();
      T.WrittenParts.shrink_and_clear();
    }
  appendEvaluationDebug(Record, Launch, Out.Instructions,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - Began).count(), Blocks);
  Out.Sampled = std::to_string(Blocks.size()) + " of " + std::to_string(Launch.Grid.count()) + " blocks evaluated";
  if (!Drawn.empty() && E->indexLoads() > 0) Out.Sampled += "; indices drawn as the spec states: " + Drawn;
  else if (!Drawn.empty())  // stated, but read by loads the evaluation does not follow
    Out.Sampled += "; indices stated (" + Drawn + ") but not read by a plain load the evaluation follows (an __ldg, "
                   "inline PTX or a cache-hint load is not)";
  Out.Sampled += Undrawn;
  LevelModel M(Record, Blocks, Launch, PerSm, Levels, Middle, Neighbour, {Runs.front().size(), C.L1Available});
  M.Resident = Resident.text(Launch.Registers);
  M.RegistersCounted = Resident.RegistersKnown;
  M.RegistersStated = Launch.Registers > 0;
  M.DrawnThrough = drawnThrough(E->sites(), Indices);
  M.UnboundAddressScalars = unboundAddressScalars(E->sites(), Blocks, EL);
  std::string KernelWide;
  for (const UnmodelledAccess &U : E->unmodelled())
    if (U.Param < 0) KernelWide = lineText(U, Record) + ": " + U.What + " may touch global memory in a way the evaluation does not count";
  if (KernelWide.empty() && !Launch.Stated) KernelWide = M.launchMismatch();
  if (!KernelWide.empty() && !Launch.Stated && KernelWide.rfind("the assumed launch", 0) == 0)
    KernelWide += "; state the launch with .block(...) and .grid(...)";
  // Accesses behind a branch on data: their tensors' traffic depends on the data.
  std::map<int, std::string> Conditional;
  for (const auto &[Site, Line] : E->dataConditioned()) {
    const AccessSite &A = E->sites()[Site];
    const std::string Why = "its access at line " + std::to_string(A.Line) + " runs only where the condition at line " +
                            std::to_string(Line) + " holds, which depends on " + conditionOn(*E, Line);
    if (A.Param < 0 && KernelWide.empty()) KernelWide = "an access " + Why.substr(std::string("its access ").size());
    Conditional.emplace(A.Param, Why);
  }
  // A tensor an unmodelled intrinsic touches (a wmma load) has no figure at any level.
  std::map<int, std::string> Unmodelled;
  for (const UnmodelledAccess &U : E->unmodelled())
    Unmodelled.emplace(U.Param, lineText(U, Record) + ": " + U.What +
                                    " touches it in a way the evaluation does not count");
  M.predict(Out, KernelWide, Unmodelled, Conditional, Launch.SharedUnknown);
  for (const auto &[Line, Why] : E->undecidedConditions())
    for (const ShiftPastWidth &S : Why.ShiftedPast)
      if (std::none_of(Out.ShiftsPastWidth.begin(), Out.ShiftsPastWidth.end(), [&](const ShiftPastWidth &O) { return O.Param == S.Param; }))
        Out.ShiftsPastWidth.push_back(S);
  // Per access, over the launch.
  Extrapolation X(Blocks, Launch.Grid);
  for (std::size_t S = 0; S < E->sites().size(); ++S) {
    AccessTraffic A;
    A.Site = E->sites()[S];
    const auto figure = [&](auto Member) { return X.of([&](const BlockTally &B) { return B.Sites[S].*Member; }).Point; };
    A.Requests = figure(&SiteTally::Requests);
    A.Sectors = figure(&SiteTally::Sectors);
    A.IdealSectors = figure(&SiteTally::IdealSectors);
    A.L2Sectors = figure(&SiteTally::L2Sectors);
    for (const BlockTally &B : Blocks) {
      A.Unknown |= B.Sites[S].Unknown;
      for (int Param : B.Sites[S].Params)
        if (std::find(A.Params.begin(), A.Params.end(), Param) == A.Params.end()) A.Params.push_back(Param);
    }
    std::sort(A.Params.begin(), A.Params.end());
    A.Param = A.Params.empty() ? A.Site.Param : A.Params.front();
    if (const auto C = E->dataConditioned().find(unsigned(S)); C != E->dataConditioned().end()) {
      A.ConditionLine = C->second;
      A.ConditionOn = conditionOn(*E, C->second);
    }
    // The copies of one source access that unrolling made are one access.
    const auto Same = std::find_if(Out.Accesses.begin(), Out.Accesses.end(), [&](const AccessTraffic &O) {
      return O.Site.K == A.Site.K && O.Site.Line == A.Site.Line && O.Site.Column == A.Site.Column &&
             O.Site.File == A.Site.File && O.Param == A.Param;
    });
    if (Same == Out.Accesses.end()) {
      Out.Accesses.push_back(std::move(A));
      continue;
    }
    Same->Requests += A.Requests;
    Same->Sectors += A.Sectors;
    Same->IdealSectors += A.IdealSectors;
    Same->L2Sectors += A.L2Sectors;
    Same->Unknown |= A.Unknown;
    for (int Param : A.Params)
      if (std::find(Same->Params.begin(), Same->Params.end(), Param) == Same->Params.end()) Same->Params.push_back(Param);
    std::sort(Same->Params.begin(), Same->Params.end());
    if (A.ConditionLine > Same->ConditionLine) {
      Same->ConditionLine = A.ConditionLine;
      Same->ConditionOn = A.ConditionOn;
    }
  }
  return Out;
}

}  // namespace rooflint::analyzer
