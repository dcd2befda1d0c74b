#pragma once
// The L1 model's cache of sectors (TrafficModel.cpp): two LRU capacities fed one stream of loads.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "llvm/ADT/DenseMap.h"

namespace rooflint::analyzer {

/// The L1 data cache as the model sees it: a fully associative LRU cache of 32-byte sectors (Hopper's
/// L1 allocates sectors; a lane walking its own row keeps 2048 sectors of 2048 lines, which the H200
/// served from L1). A load that misses fetches its sector from L2; stores write through without
/// allocating. A load hits a cache of C sectors when fewer than C other sectors were loaded since its
/// last use (its stack distance, Mattson et al., 1970). The model asks about two capacities (L1's
/// whole, and the part it keeps a working set in): by LRU's inclusion property the smaller holds the
/// most recently used sectors of the larger, so one list in order of last use serves both, a map from
/// sector to its slot, with a mark on the slots of the inner cache.
class NestedLru {
public:
  /// Capacities in sectors; the inner one is at most the outer.
  NestedLru(std::uint64_t Outer, std::uint64_t Inner) : Outer(Outer), Inner(std::min(Inner, Outer)) {}

  struct Hits {
    bool Outer = false, Inner = false;  ///< whether each cache still held the sector
  };
  /// Loads @p Sector into both caches.
  Hits load(std::uint64_t Sector) {
    if (Outer == 0) return {};
    if (const auto It = SlotOf.find(Sector); It != SlotOf.end()) {
      const std::uint32_t S = It->second;
      const bool WasInner = Nodes[S].Inner;
      if (WasInner && S == Boundary && S != Head) Boundary = Nodes[S].Prev;  // the one before is now the last
      unlink(S);
      pushFront(S);
      if (!WasInner) enterInner(S);
      return {true, WasInner};
    }
    std::uint32_t S = 0;
    if (Nodes.size() < Outer) {
      S = std::uint32_t(Nodes.size());
      Nodes.push_back({});
    } else {  // full: the least recently used sector leaves
      S = Tail;
      if (Nodes[S].Inner) leaveInner(S);
      unlink(S);
      SlotOf.erase(Nodes[S].Sector);
    }
    Nodes[S].Sector = Sector;
    SlotOf[Sector] = S;
    pushFront(S);
    enterInner(S);
    return {};
  }

private:
  static constexpr std::uint32_t Nil = ~std::uint32_t(0);
  struct Node {
    std::uint64_t Sector = 0;
    std::uint32_t Prev = Nil, Next = Nil;  ///< towards the most, the least recently used
    bool Inner = false;                    ///< among the Inner most recently used
  };
  std::uint64_t Outer, Inner;
  std::vector<Node> Nodes;
  llvm::DenseMap<std::uint64_t, std::uint32_t> SlotOf;
  std::uint32_t Head = Nil, Tail = Nil;
  std::uint32_t Boundary = Nil;  ///< the least recently used of the inner cache's sectors
  std::uint64_t InnerCount = 0;

  /// Sector slot @p S, just moved to the front, joins the inner cache, whose last sector may leave it.
  void enterInner(std::uint32_t S) {
    Nodes[S].Inner = true;
    if (InnerCount++ == 0) Boundary = S;
    if (InnerCount > Inner) leaveInner(Boundary);
  }
  /// The inner cache's last sector @p S leaves it.
  void leaveInner(std::uint32_t S) {
    Nodes[S].Inner = false;
    Boundary = Nodes[S].Prev;
    --InnerCount;
  }
  void unlink(std::uint32_t S) {
    Node &N = Nodes[S];
    (N.Prev == Nil ? Head : Nodes[N.Prev].Next) = N.Next;
    (N.Next == Nil ? Tail : Nodes[N.Next].Prev) = N.Prev;
    N.Prev = N.Next = Nil;
  }
  void pushFront(std::uint32_t S) {
    Nodes[S].Next = Head;
    if (Head != Nil) Nodes[Head].Prev = S;
    Head = S;
    if (Tail == Nil) Tail = S;
  }
};

}  // namespace rooflint::analyzer
