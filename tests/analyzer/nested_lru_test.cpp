// NestedLru (the L1 model's two capacities in one list) against a second method: a sector hits a
// fully associative LRU cache of C sectors exactly when fewer than C distinct other sectors were
// loaded since its last load (its stack distance), counted here by brute force over the history.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "rooflint/analyzer/NestedLru.h"

using rooflint::analyzer::NestedLru;

namespace {

/// Whether the last load of @p History hits a cache of @p Capacity sectors, by its stack distance.
bool hitsByStackDistance(const std::vector<std::uint64_t> &History, std::uint64_t Capacity) {
  const std::uint64_t Sector = History.back();
  std::set<std::uint64_t> Between;
  for (std::size_t I = History.size() - 1; I-- > 0;) {
    if (History[I] == Sector) return Between.size() < Capacity;
    Between.insert(History[I]);
  }
  return false;  // never loaded before
}

/// Feeds @p Loads random sectors of a universe of @p Universe and checks both capacities' hits.
void expectStackDistanceHits(std::uint64_t Outer, std::uint64_t Inner, std::uint64_t Universe, unsigned Seed) {
  NestedLru Cache(Outer, Inner);
  std::mt19937_64 Random(Seed);
  std::vector<std::uint64_t> History;
  unsigned InnerHits = 0, OuterHits = 0;
  for (int I = 0; I < 3000; ++I) {
    // Mostly a small hot set, sometimes the whole universe: hits and misses at both capacities.
    const std::uint64_t Sector = Random() % 4 ? Random() % (Inner + 2) : Random() % Universe;
    History.push_back(Sector);
    const NestedLru::Hits H = Cache.load(Sector);
    ASSERT_EQ(H.Outer, hitsByStackDistance(History, Outer)) << "load " << I << " of sector " << Sector;
    ASSERT_EQ(H.Inner, hitsByStackDistance(History, std::min(Inner, Outer))) << "load " << I << " of sector " << Sector;
    InnerHits += H.Inner;
    OuterHits += H.Outer;
  }
  if (Inner > 0) EXPECT_GT(InnerHits, 0u);  // the stream exercised the inner cache
  if (Outer > Inner) EXPECT_GT(OuterHits, InnerHits);
}

TEST(NestedLru, EachCapacityHitsExactlyWhenItsStackDistanceIsBelowIt) {
  expectStackDistanceHits(64, 8, 200, 1);
  expectStackDistanceHits(64, 63, 200, 2);
  expectStackDistanceHits(16, 1, 40, 3);
}

TEST(NestedLru, EqualCapacitiesAndEmptyOnesAgreeWithTheStackDistance) {
  expectStackDistanceHits(32, 32, 100, 4);
  expectStackDistanceHits(32, 0, 100, 5);
  expectStackDistanceHits(0, 0, 100, 6);
}

TEST(NestedLru, AnInnerCapacityAboveTheOuterIsTheOuter) {
  expectStackDistanceHits(8, 50, 30, 7);
}

}  // namespace
