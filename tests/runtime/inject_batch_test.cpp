// Batched counting under rooflint-verify (runtime/src/measure/external_launch_batch.h, cupti.h): which
// ranges of a batch belong to which window, how a window's kernels are summed, and when a batch closes.
// Host only: the values are made up here, the expected sums worked out by hand in the comments.

#include <gtest/gtest.h>

#include "cupti/cupti.h"
#include "rooflint/runtime/inject.h"
#include "measure/external_launch_batch.h"

using namespace rooflint::runtime;

namespace {

const std::vector<std::string> metrics{"dram__bytes_read.sum", "sm__cycles_elapsed.avg.per_second"};

std::optional<std::vector<double>> range(double bytes, double hz) { return std::vector<double>{bytes, hz}; }

}  // namespace

TEST(InjectBatch, SumsAWindowsKernelsAndAveragesItsRates) {
  // An auto-range batch of 6 kernels: flush (0), a kernel window (1), a fill of the program's (2),
  // flush (3), then a region instance of two kernels (4, 5).
  const std::vector<std::optional<std::vector<double>>> ranges{range(180e6, 1.9e9), range(8e6, 1.8e9), range(0, 1.9e9),
                                                               range(180e6, 1.9e9), range(100, 1.5e9), range(300, 1.7e9)};
  const auto windows = sum_window_ranges(ranges, {{1, 1}, {4, 2}}, metrics, 6);
  ASSERT_TRUE(windows.ok()) << windows.err().message;
  ASSERT_EQ(windows->size(), 2u);
  ASSERT_TRUE((*windows)[0] && (*windows)[1]);
  EXPECT_EQ((*(*windows)[0])[0], 8e6);      // the window's own kernel, not the flush before it
  EXPECT_EQ((*(*windows)[1])[0], 400.0);    // 100 + 300: the region's two kernels summed
  EXPECT_EQ((*(*windows)[1])[1], 1.6e9);    // (1.5 + 1.7) / 2 GHz: a rate is averaged, not summed
}

// A rate over several kernels is the rate over their summed time (cycles = clock x time), so each
// range's clock weighs by its duration; it was the plain mean (1.6 GHz here). A region's two kernels:
// 1.5 GHz for 1,000 ns and 1.7 GHz for 3,000 ns: (1.5e9 x 1000 + 1.7e9 x 3000) / 4000 = 1.65 GHz; the
// counts add: 400 bytes, 4,000 ns. The same rule serves range_profiler::finish (cupti::combine_ranges).
TEST(InjectBatch, WeightsAWindowsRatesByItsKernelsDurations) {
  const std::vector<std::string> timed{"dram__bytes_read.sum", "gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second"};
  const std::vector<std::optional<std::vector<double>>> ranges{std::vector<double>{180e6, 50000, 1.9e9},
                                                               std::vector<double>{100, 1000, 1.5e9},
                                                               std::vector<double>{300, 3000, 1.7e9}};
  const auto windows = sum_window_ranges(ranges, {{1, 2}}, timed, 3);
  ASSERT_TRUE(windows.ok()) << windows.err().message;
  ASSERT_TRUE((*windows)[0]);
  EXPECT_EQ((*(*windows)[0])[0], 400.0);
  EXPECT_EQ((*(*windows)[0])[1], 4000.0);
  EXPECT_NEAR((*(*windows)[0])[2], 1.65e9, 1.0);
  // No duration recorded (0 ns): nothing to weigh by, the plain mean (1.5 + 1.7) / 2 = 1.6 GHz.
  const auto untimed = cupti::combine_ranges({{100, 0, 1.5e9}, {300, 0, 1.7e9}}, timed);
  EXPECT_NEAR(untimed[2], 1.6e9, 1.0);
  EXPECT_EQ(cupti::combine_ranges({}, timed), std::vector<double>(3, 0.0));
}

TEST(InjectBatch, RefusesABatchWhoseRangesDoNotMatchTheKernelsSeen) {
  // A kernel this library did not see (7 ranges for 6 launches) shifts every later range: no window
  // may take another kernel's values.
  const std::vector<std::optional<std::vector<double>>> ranges(7, range(1, 1));
  const auto windows = sum_window_ranges(ranges, {{1, 1}}, metrics, 6);
  ASSERT_FALSE(windows.ok());
  EXPECT_NE(windows.err().message.find("7 ranges for the 6 kernel launches"), std::string::npos) << windows.err().message;
}

TEST(InjectBatch, AWindowWithAMissingRangeIsNotMeasuredNotZero) {
  const std::vector<std::optional<std::vector<double>>> ranges{range(1, 1), std::nullopt, range(5, 1)};
  const auto windows = sum_window_ranges(ranges, {{0, 2}, {2, 1}, {2, 4}}, metrics, 3);
  ASSERT_TRUE(windows.ok());
  EXPECT_FALSE((*windows)[0]);  // its second kernel's range is missing
  ASSERT_TRUE((*windows)[1]);
  EXPECT_EQ((*(*windows)[1])[0], 5.0);
  EXPECT_FALSE((*windows)[2]);  // runs past the batch's ranges
}

TEST(InjectBatch, PlacesRangesByTheirNamesAndFallsBackToTheirOrder) {
  EXPECT_EQ(cupti::batch_entry_of_range("3", 0, 5, 2), std::optional<std::size_t>(3));  // by name, whatever the index
  EXPECT_EQ(cupti::batch_entry_of_range("12", 0, 5, 5), std::optional<std::size_t>(0));  // no window 12: all 5 recorded, by order
  EXPECT_EQ(cupti::batch_entry_of_range("kernel", 4, 5, 5), std::optional<std::size_t>(4));
  EXPECT_EQ(cupti::batch_entry_of_range("kernel", 1, 5, 3), std::nullopt);  // neither: cannot be placed
  EXPECT_EQ(cupti::batch_entry_of_range("", 0, 1, 0), std::nullopt);
}

TEST(InjectBatch, AnAutoRangeBatchClosesWhenFullOrIdle) {
  EXPECT_FALSE(auto_batch_full(3, 32, 10, 8));
  EXPECT_TRUE(auto_batch_full(32, 32, 70, 70));                                   // every window used
  EXPECT_TRUE(auto_batch_full(3, 32, auto_batch_ranges - auto_batch_margin, 400));  // no room for a region and its flush
  EXPECT_FALSE(auto_batch_full(3, 32, 8 + auto_batch_idle_kernels, 8));             // 32 kernels of the program's own: still open
  EXPECT_TRUE(auto_batch_full(3, 32, 9 + auto_batch_idle_kernels, 8));              // 33: closed
}

namespace {

rooflint::runtime::inject::launch_event launch(const std::string& token, bool measured) {
  rooflint::runtime::inject::launch_event e;
  e.mangled_name = "_Z5saxpyifPKfPf";
  e.bound = true;
  e.sizes = "N=1024";
  e.size_values = {1024};
  e.measured = measured;
  e.pending = token;
  if (!measured) e.not_measured = "its counters were still in an open batch when the program ended";
  return e;
}

}  // namespace

TEST(InjectBatch, AProvisionalLineGivesWayToItsMeasuredLineAndStaysWithoutOne) {
  using namespace rooflint::runtime::inject;
  // Launch "7:1" was decoded (provisional and measured lines), "7:2" was not (the program was killed),
  // and a line of a launch that never waited for a batch has no token.
  auto line = launch_event_from_json(to_json_line(launch("7:1", false)));
  ASSERT_TRUE(line.ok()) << line.err().message;
  EXPECT_EQ(line->pending, "7:1");  // the token survives the line
  const std::vector<launch_event> settled =
      settle_pending({*line, launch("7:2", false), launch("", false), launch("7:1", true)});
  ASSERT_EQ(settled.size(), 3u);
  EXPECT_EQ(settled[0].pending, "7:2");
  EXPECT_FALSE(settled[0].measured);
  EXPECT_EQ(settled[1].pending, "");
  EXPECT_EQ(settled[2].pending, "7:1");
  EXPECT_TRUE(settled[2].measured);
}
