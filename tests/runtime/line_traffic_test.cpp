// Per-line traffic (rooflint/runtime/line_traffic.h, report/report_lines.h, cupti/source_correlation.h):
// SASS records to instructions, the line table, the per-line sums, the join with the analyzer's predicted
// accesses and the report rows, on synthetic records shaped as CUPTI 13.0's cuptiSassMetricsFlushData gives
// them (one record per PC and metric, merged per PC; cupti_sass_metrics.h); and CUPTI's source correlation
// of a cubin this build compiles from data/line_table_kernels.cu (no GPU needed).
//
// Where the numbers come from: a kernel over n = 2^20 floats with 256-thread blocks runs n / 32 = 32768
// warps; a warp's 32 x 4 B = 128 B coalesced access is 4 sectors of 32 B; a stride-33 gather puts each
// lane 132 B from the next, so each lane has its own sector: 32 per request, 8x the 4 of the 128 B used.

#include <elf.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "cupti/inlined_calls.h"
#include "cupti/source_correlation.h"
#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/report.h"
#include "report/report_lines.h"

namespace rooflint::runtime {
namespace {

constexpr double warps = (1 << 20) / 32.0;  // 32768 requests of an instruction every warp executes once

/// A PC's merged record: requests of one kind, its sectors and the data bytes its threads asked for.
sass_record record(const std::string& function, std::uint32_t pc, const char* op, double requests, double sectors,
                   double data_bytes) {
  sass_record r;
  r.cubin_crc = 0x51c034f;
  r.function = function;
  r.pc = pc;
  r.values[std::string("smsp__sass_inst_executed_op_global_") + op] = requests;
  r.values["smsp__sass_sectors_mem_global"] = sectors;
  r.values[std::string("smsp__sass_data_bytes_mem_global_op_") + op] = data_bytes;
  r.values["smsp__sass_inst_executed"] = requests;
  return r;
}

predicted_access access(const std::string& file, unsigned line, unsigned column, const std::string& tensor, bool store,
                        double requests, double sectors_per_request, double ideal_per_request) {
  predicted_access a;
  a.file = file;
  a.line = line;
  a.column = column;
  a.tensor = tensor;
  a.store = store;
  a.requests = requests;
  a.sectors_per_request = sectors_per_request;
  a.ideal_sectors_per_request = ideal_per_request;
  return a;
}

observed_line line_of(const std::string& file, unsigned line, memory_op op, double requests, double sectors, double ideal) {
  observed_line o;
  o.where = {file, line};
  o.op = op;
  o.instructions = 1;
  o.requests = requests;
  o.sectors = sectors;
  o.ideal_sectors = ideal;
  return o;
}

// --- SASS records to instructions -------------------------------------------------------------------

TEST(LineTrafficMetrics, AskForRequestsSectorsAndDataBytesOfEveryKind) {
  const std::vector<std::string>& m = line_traffic_metrics();
  for (const char* name : {"smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
                           "smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red",
                           "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal",
                           "smsp__sass_data_bytes_mem_global_op_ld",
                           "smsp__sass_data_bytes_mem_global_op_st"})
    EXPECT_NE(std::find(m.begin(), m.end(), name), m.end()) << name;
}

TEST(InstructionsFromSass, ACoalescedLoadHasFourSectorsAndAnIdealOfFourPerRequest) {
  // copy_f32: 32768 requests x 4 sectors; its threads ask for 32768 x 32 x 4 B.
  const auto t = instructions_from_sass({record("_Z8copy_f32PKfPf", 0x40, "ld", warps, 4 * warps, warps * 128)});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].op, memory_op::load);
  EXPECT_EQ(t[0].requests, warps);
  EXPECT_EQ(t[0].sectors, 4 * warps);
  EXPECT_EQ(t[0].ideal_sectors(), 4 * warps);
}

TEST(InstructionsFromSass, APcWithNoGlobalRequestsIsNotAnInstruction) {
  sass_record ffma;
  ffma.function = "k";
  ffma.pc = 0x80;
  ffma.values["smsp__sass_inst_executed"] = warps;  // an FFMA: executed, no global memory
  EXPECT_TRUE(instructions_from_sass({ffma}).empty());
}

TEST(InstructionsFromSass, TheIdealIsAtLeastOneSectorPerRequest) {
  // Lanes 0..3 of each warp store 4 B each: 16 B per request, half a sector; a request costs one.
  const auto t = instructions_from_sass({record("g", 0xb0, "st", warps, warps, warps * 16)});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].op, memory_op::store);
  EXPECT_EQ(t[0].ideal_sectors(), warps);
}

TEST(InstructionsFromSass, WithoutDataBytesTheIdealIsUnknown) {
  sass_record r = record("k", 0x40, "ld", warps, 4 * warps, 0);
  r.values.erase("smsp__sass_data_bytes_mem_global_op_ld");
  const auto t = instructions_from_sass({r});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(std::isnan(t[0].ideal_sectors()));
}

TEST(InstructionsFromSass, TheChipsIdealSectorsAreTakenWhereItCountsThem) {
  // gather_stride33: a warp's 32 lanes 132 B apart touch 32 sectors for 128 B that 4 would hold; GH100
  // counts the 4 itself (smsp__sass_sectors_mem_global_ideal) and offers no data-bytes metric.
  sass_record r = record("_Z15gather_stride33PKfPf", 0x40, "ld", warps, 32 * warps, 0);
  r.values.erase("smsp__sass_data_bytes_mem_global_op_ld");
  r.values["smsp__sass_sectors_mem_global_ideal"] = 4 * warps;
  const auto t = instructions_from_sass({r});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].ideal_sectors(), 4 * warps);
  EXPECT_EQ(t[0].sectors / t[0].ideal_sectors(), 8.0);
}

TEST(InstructionsFromSass, AReductionIsItsOwnKind) {
  const auto t = instructions_from_sass({record("k", 0x140, "red", warps, 4 * warps, warps * 128)});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].op, memory_op::reduction);
}

// --- The line table ----------------------------------------------------------------------------------

TEST(LineTable, FindsTheLineOfAPcAndNothingForAPcWithNoLine) {
  line_table t;
  t.add("k", 0x40, {"/src/k.cu", 12});
  t.add("k", 0x50, {});
  EXPECT_EQ(t.find("k", 0x40), (source_location{"/src/k.cu", 12}));
  EXPECT_FALSE(t.find("k", 0x50));
  EXPECT_FALSE(t.find("k", 0x60));
  EXPECT_FALSE(t.find("other", 0x40));
  EXPECT_TRUE(t.has_line_info());
}

TEST(LineTable, ABinaryWithNoLineForAnyPcHasNoLineInfo) {
  line_table t;
  t.add("k", 0x40, {});
  t.add("k", 0x50, {});
  EXPECT_FALSE(t.has_line_info());
}

TEST(BuildLineTable, AsksForEachPcOnce) {
  int calls = 0;
  const std::vector<instruction_traffic> ins = {{"k", 0x40, memory_op::load, 1, 4, 128},
                                                {"k", 0x40, memory_op::load, 1, 4, 128},
                                                {"k", 0x50, memory_op::store, 1, 4, 128}};
  const auto t = build_line_table(ins, [&](const std::string&, std::uint32_t pc) -> result<source_location> {
    ++calls;
    return source_location{"k.cu", pc / 16};
  });
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(t->find("k", 0x50)->line, 5u);
}

TEST(BuildLineTable, OneFailedPcHasNoLineAndEveryPcFailingIsTheError) {
  const std::vector<instruction_traffic> ins = {{"k", 0x40, memory_op::load, 1, 4, 128}, {"k", 0x50, memory_op::store, 1, 4, 128}};
  const auto some = build_line_table(ins, [](const std::string&, std::uint32_t pc) -> result<source_location> {
    if (pc == 0x40) return error{error_code::internal, "no"};
    return source_location{"k.cu", 7};
  });
  ASSERT_TRUE(some.ok());
  EXPECT_FALSE(some->find("k", 0x40));
  EXPECT_TRUE(some->find("k", 0x50));
  const auto none = build_line_table(ins, [](const std::string&, std::uint32_t) -> result<source_location> {
    return error{error_code::invalid_argument, "the cubin has no such function"};
  });
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.err().message.find("no such function"), std::string::npos);
}

// --- Per-line sums -----------------------------------------------------------------------------------

TEST(ObservedLines, AnInlinedHelperCalledTwiceSumsBothLoadsOnItsLine) {
  // Two loads through one inlined helper: both PCs carry the helper's line (the innermost location).
  const auto ins = instructions_from_sass({record("k", 0xa0, "ld", warps, 4 * warps, warps * 128),
                                           record("k", 0xb0, "ld", warps, 4 * warps, warps * 128),
                                           record("k", 0xe0, "st", warps, 4 * warps, warps * 128)});
  line_table t;
  t.add("k", 0xa0, {"/src/helper.cuh", 6});
  t.add("k", 0xb0, {"/src/helper.cuh", 6});
  t.add("k", 0xe0, {"/src/k.cu", 20});
  const auto lines = observed_lines(ins, t);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].where, (source_location{"/src/helper.cuh", 6}));
  EXPECT_EQ(lines[0].instructions, 2);
  EXPECT_EQ(lines[0].requests, 2 * warps);
  EXPECT_EQ(lines[0].sectors_per_request(), 4);
  EXPECT_EQ(lines[0].amplification(), 1);
}

TEST(ObservedLines, ALoadAndAStoreOnOneLineAreTwoRowsAndUnmappedOnesAreReturned) {
  const auto ins = instructions_from_sass({record("k", 0x40, "ld", warps, 32 * warps, warps * 128),
                                           record("k", 0x50, "st", warps, 4 * warps, warps * 128),
                                           record("k", 0x90, "ld", warps, 4 * warps, warps * 128)});
  line_table t;
  t.add("k", 0x40, {"/src/k.cu", 9});
  t.add("k", 0x50, {"/src/k.cu", 9});
  std::vector<instruction_traffic> unmapped;
  const auto lines = observed_lines(ins, t, &unmapped);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].op, memory_op::load);
  EXPECT_EQ(lines[0].amplification(), 8);
  EXPECT_EQ(lines[1].op, memory_op::store);
  ASSERT_EQ(unmapped.size(), 1u);
  EXPECT_EQ(unmapped[0].pc, 0x90u);
}

// --- Matching files and kinds ------------------------------------------------------------------------

TEST(FileMatch, RanksSamePathThenTrailingComponentsThenFileName) {
  EXPECT_EQ(file_match("/w/src/k.cu", "/w/src/./k.cu"), 3);
  EXPECT_EQ(file_match("src/k.cu", "/build/w/src/k.cu"), 2);
  EXPECT_EQ(file_match("/a/k.cu", "/b/k.cu"), 1);
  EXPECT_EQ(file_match("/a/k.cu", "/a/j.cu"), 0);
  EXPECT_EQ(file_match("", "/a/k.cu"), 0);
}

TEST(SameKind, AnAtomicAccessIsAnAtomOrARed) {
  predicted_access a;
  a.atomic = true;
  EXPECT_TRUE(same_kind(a, memory_op::reduction));
  EXPECT_TRUE(same_kind(a, memory_op::atomic));
  EXPECT_FALSE(same_kind(a, memory_op::load));
  predicted_access s;
  s.store = true;
  EXPECT_TRUE(same_kind(s, memory_op::store));
  EXPECT_FALSE(same_kind(s, memory_op::load));
}

// --- The join ----------------------------------------------------------------------------------------

TEST(JoinLines, AGatherPredictedAtEightTimesAndObservedAtEightAgrees) {
  const auto r = join_lines({access("/w/sgemm.cu", 43, 15, "A", false, warps, 32, 4)},
                            {line_of("/w/sgemm.cu", 43, memory_op::load, warps, 32 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  EXPECT_EQ(r.rows[0].predicted_amplification(), 8);
  EXPECT_EQ(detail::line_row_text(r.rows[0]).substr(0, 34), "load A: predicted 8x, observed 8.0");
  EXPECT_NE(detail::lines_text(r).find("sgemm.cu:43 load A: predicted 8x, observed 8.0x"), std::string::npos)
      << detail::lines_text(r);
}

TEST(JoinLines, AnAmplificationOutsideTheBandDiffers) {
  // Predicted coalesced (1x); observed 4x: 10% of 1 + 0.05 allows up to 1.15x.
  const auto r = join_lines({access("/w/k.cu", 10, 3, "x", false, warps, 4, 4)},
                            {line_of("/w/k.cu", 10, memory_op::load, warps, 16 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::differs);
  EXPECT_EQ(detail::line_row_text(r.rows[0]).rfind("load x: observed 4.0x where 1x was predicted (", 0), 0u)
      << detail::line_row_text(r.rows[0]);
  const auto near = join_lines({access("/w/k.cu", 10, 3, "x", false, warps, 4, 4)},
                               {line_of("/w/k.cu", 10, memory_op::load, warps, 4.5 * warps, 4 * warps)});
  EXPECT_EQ(near.rows[0].status, line_status::agrees);  // 1.125x is inside 1.15x
}

TEST(JoinLines, TwoAccessesOnOneLineAreComparedTogether) {
  // c[i] = a[i] + b[33 * i]: a coalesced (4 of 4), b gathered (32 of 4), each 1000 requests. Together:
  // (4 + 32) / 2 = 18 sectors per request against an ideal 4: 4.5x; the line's two loads observed alike.
  const auto r = join_lines({access("/w/k.cu", 7, 10, "a", false, 1000, 4, 4), access("/w/k.cu", 7, 19, "b", false, 1000, 32, 4)},
                            {line_of("/w/k.cu", 7, memory_op::load, 2000, 36000, 8000)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].predicted.size(), 2u);
  EXPECT_DOUBLE_EQ(r.rows[0].predicted_sectors_per_request, 18);
  EXPECT_DOUBLE_EQ(r.rows[0].predicted_amplification(), 4.5);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  const std::string text = detail::line_row_text(r.rows[0]);
  EXPECT_NE(text.find("load a, b: predicted 4.5x"), std::string::npos) << text;
  EXPECT_NE(text.find("2 accesses on this line (columns 10 and 19)"), std::string::npos) << text;
}

TEST(JoinLines, AnAtomicAddIsMatchedToTheReductionItCompiledTo) {
  predicted_access a = access("/w/k.cu", 30, 5, "counts", true, warps, 4, 4);
  a.atomic = true;
  const auto r = join_lines({a}, {line_of("/w/k.cu", 30, memory_op::reduction, warps, 4 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].op, memory_op::reduction);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
}

TEST(JoinLines, AnInlinedHelpersLineMatchesWhereBothSidesNameTheHelper) {
  // The analyzer's two accesses through one inlined helper carry the helper's line, as CUPTI's PCs do.
  const auto r = join_lines({access("/w/helper.cuh", 6, 10, "x", false, warps, 4, 4), access("/w/helper.cuh", 6, 10, "x", false, warps, 4, 4)},
                            {line_of("/w/helper.cuh", 6, memory_op::load, 2 * warps, 8 * warps, 8 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  EXPECT_EQ(r.rows[0].observed->requests, 2 * warps);
}

TEST(JoinLines, APredictedLineWithNoInstructionIsNotObserved) {
  const auto r = join_lines({access("/w/k.cu", 12, 3, "y", true, warps, 4, 4)},
                            {line_of("/w/k.cu", 12, memory_op::load, warps, 4 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::not_observed);
  EXPECT_EQ(detail::line_row_text(r.rows[0]), "store y: predicted 1x, not observed (no store instruction on this line executed)");
}

// An access the analyzer's IR gives no line (line 0): no row could be joined for it, so it is not one;
// the report counts it.
TEST(JoinLines, AnAccessWithNoLineIsCountedNotARow) {
  const auto r = join_lines({access("/w/k.cu", 12, 3, "x", false, warps, 4, 4), access("", 0, 0, "x", false, warps, 4, 4)},
                            {line_of("/w/k.cu", 12, memory_op::load, warps, 4 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  ASSERT_EQ(r.unplaced.size(), 1u);
  EXPECT_NE(detail::lines_text(r).find("  1 predicted access has no line in the analyzer's debug information"), std::string::npos)
      << detail::lines_text(r);
  EXPECT_EQ(detail::lines_json(r)["unplaced_accesses"], 1);
}

/// An access of @p tensor at /w/k.cu:@p line the analyzer could not evaluate: no figures, its note.
predicted_access unevaluated(unsigned line, const std::string& tensor) {
  predicted_access a;
  a.file = "/w/k.cu";
  a.line = line;
  a.tensor = tensor;
  a.note = "the address depends on what the build cannot know";
  return a;
}

TEST(JoinLines, AnAccessTheAnalyzerCouldNotEvaluateSaysWhy) {
  const auto r = join_lines({unevaluated(14, "idx")}, {line_of("/w/k.cu", 14, memory_op::load, warps, 20 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::not_evaluated);
  EXPECT_NE(detail::line_row_text(r.rows[0]).find("not predicted (the address depends on what the build cannot know), observed 5.0x"),
            std::string::npos);
}

// y[r * K + k] = x[r * C + cols[k]] on one line: cols is evaluated (1x), x's address comes from cols
// (not evaluated). The line's observed loads are both (20 sectors per request for 4 + 4 ideal ones): a
// figure of cols alone (1x) would be set against all of them, so the row states none and says why.
TEST(JoinLines, ALineWithAnAccessNotEvaluatedHasNoPredictedFigure) {
  const auto r = join_lines({access("/w/k.cu", 14, 20, "cols", false, warps, 4, 4), unevaluated(14, "x")},
                            {line_of("/w/k.cu", 14, memory_op::load, 2 * warps, 20 * warps, 8 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::not_evaluated);
  EXPECT_EQ(r.rows[0].predicted_sectors_per_request, 0);
  EXPECT_NE(detail::line_row_text(r.rows[0]).find("not predicted (the address depends on what the build cannot know)"), std::string::npos)
      << detail::line_row_text(r.rows[0]);
}

TEST(JoinLines, LinesNotPredictedAreListedMostExcessFirstAndWithoutThoseWithNone) {
  const auto r = join_lines({access("/w/k.cu", 5, 3, "x", false, warps, 4, 4)},
                            {line_of("/w/k.cu", 5, memory_op::load, warps, 4 * warps, 4 * warps),
                             line_of("/w/k.cu", 8, memory_op::load, 1000, 8000, 4000),     // 4000 excess
                             line_of("/w/k.cu", 9, memory_op::store, 1000, 4000, 4000),     // none
                             line_of("/w/k.cu", 11, memory_op::load, 1000, 32000, 4000),    // 28000 excess
                             line_of("/usr/local/cuda/include/device_atomic_functions.hpp", 112, memory_op::reduction, 1000,
                                     5000, 4000)},                                            // 1000 excess
                            2);
  ASSERT_EQ(r.unpredicted.size(), 2u);
  EXPECT_EQ(r.unpredicted[0].where.line, 11u);
  EXPECT_EQ(r.unpredicted[1].where.line, 8u);
  EXPECT_EQ(r.unpredicted[0].status, line_status::not_predicted);
  const auto all = join_lines({}, {line_of("/usr/local/cuda/include/device_atomic_functions.hpp", 112, memory_op::reduction, 1000, 5000, 4000)});
  ASSERT_EQ(all.unpredicted.size(), 1u);  // an inlined toolkit function's line is listed like any other
}

TEST(JoinLines, ARelativePathMatchesTheAbsoluteOneAndAFileNameOnlyWhenUnique) {
  const auto rel = join_lines({access("/build/w/src/k.cu", 5, 3, "x", false, 10, 4, 4)},
                              {line_of("src/k.cu", 5, memory_op::load, 10, 40, 40)});
  EXPECT_EQ(rel.rows[0].status, line_status::agrees);
  const auto unique = join_lines({access("/a/k.cu", 5, 3, "x", false, 10, 4, 4)}, {line_of("/b/k.cu", 5, memory_op::load, 10, 40, 40)});
  EXPECT_EQ(unique.rows[0].status, line_status::agrees);
  const auto ambiguous = join_lines({access("/a/k.cu", 5, 3, "x", false, 10, 4, 4)},
                                    {line_of("/b/k.cu", 5, memory_op::load, 10, 40, 40), line_of("/c/k.cu", 5, memory_op::load, 10, 40, 40)});
  EXPECT_EQ(ambiguous.rows[0].status, line_status::not_observed);
}

TEST(JoinLines, WithoutAnObservedIdealTheSectorsAreComparedOverThePredictedOne) {
  const auto r = join_lines({access("/w/k.cu", 5, 3, "x", false, warps, 32, 4)},
                            {line_of("/w/k.cu", 5, memory_op::load, warps, 32 * warps, NAN)});
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  // 32 observed sectors per request over the predicted ideal of 4: 8x, as predicted.
  EXPECT_NE(detail::line_row_text(r.rows[0]).find("predicted 8x, observed 8.0x (32.0 sectors per request"), std::string::npos)
      << detail::line_row_text(r.rows[0]);
}

// --- Report rows -------------------------------------------------------------------------------------

TEST(LinesReport, SaysWhyWhenNotAvailableAndAsksForLineinfo) {
  line_report none;
  none.not_available = "CUPTI's SASS metrics are not supported on this device";
  EXPECT_EQ(detail::lines_text(none), "  per-line traffic: not available: CUPTI's SASS metrics are not supported on this device\n");
  line_report no_lines;
  no_lines.collected = true;
  no_lines.line_info = false;
  EXPECT_EQ(detail::lines_text(no_lines),
            "  per-line traffic: not available: the binary has no line information; build it with -lineinfo\n");
  EXPECT_TRUE(detail::lines_text(line_report{}).empty());
}

TEST(LinesReport, JsonRowsCarryThePredictionAndTheObservedFigures) {
  auto r = join_lines({access("/w/k.cu", 43, 15, "A", false, warps, 32, 4), access("/w/k.cu", 50, 3, "C", true, warps, 4, 4)},
                      {line_of("/w/k.cu", 43, memory_op::load, warps, 32 * warps, 4 * warps)});
  r.cost_s = 0.212;
  const nlohmann::json j = detail::lines_json(r);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["file"], "/w/k.cu");
  EXPECT_EQ(j["rows"][0]["line"], 43);
  EXPECT_EQ(j["rows"][0]["op"], "load");
  EXPECT_EQ(j["rows"][0]["status"], "agrees");
  EXPECT_EQ(j["rows"][0]["predicted"]["amplification"], 8.0);
  EXPECT_EQ(j["rows"][0]["predicted"]["observed_amplification"], 8.0);  // 32 observed sectors over the predicted ideal 4
  EXPECT_EQ(j["rows"][0]["observed"]["sectors_per_request"], 32.0);
  EXPECT_EQ(j["rows"][0]["accesses"][0]["tensor"], "A");
  EXPECT_TRUE(j["rows"][1]["observed"].is_null());
  EXPECT_EQ(j["rows"][1]["status"], "not_observed");
  EXPECT_EQ(j["cost_s"], 0.212);
}

TEST(LinesReport, SarifResultsAreAtTheLineAndColumnAndWarnWhereTheyDiffer) {
  const auto r = join_lines({access("/w/k.cu", 10, 7, "x", false, warps, 4, 4)},
                            {line_of("/w/k.cu", 10, memory_op::load, warps, 16 * warps, 4 * warps),
                             line_of("/w/k.cu", 22, memory_op::load, warps, 32 * warps, 4 * warps)});
  const auto results = detail::lines_sarif_results(r, "naive");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["ruleId"], "rooflint-line-traffic");
  EXPECT_EQ(results[0]["level"], "warning");
  const auto& loc = results[0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "/w/k.cu");
  EXPECT_EQ(loc["region"]["startLine"], 10);
  EXPECT_EQ(loc["region"]["startColumn"], 7);
  EXPECT_EQ(results[1]["level"], "note");  // a line not predicted
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"], 22);
  EXPECT_FALSE(results[1]["locations"][0]["physicalLocation"]["region"].contains("startColumn"));
  EXPECT_EQ(results[0]["message"]["text"].get<std::string>().rfind("kernel 'naive': load x: observed 4.0x", 0), 0u);
}

TEST(PredictedAccesses, AreTakenFromTheManifestsRecord) {
  // Two accesses as the manifest's reader gives them (rooflint/files/manifest.h; their types and ranges
  // are checked there: tests/files/manifest_test.cpp): one evaluated, one not.
  std::vector<rooflint::manifest::access> read(2);
  read[0] = {"/w/k.cu", 43, 15, "A", 0, false, false, 32768.0, 32, 4, 8.0, ""};
  read[1] = {"/w/k.cu", 44, 3, "", 2, true, true, std::nullopt, 0, 0, std::nullopt,
             "the address depends on what the build cannot know"};
  const auto a = detail::predicted_accesses_of(read);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].line, 43u);
  EXPECT_EQ(a[0].column, 15u);
  EXPECT_EQ(a[0].tensor, "A");
  EXPECT_TRUE(a[0].evaluated());
  EXPECT_EQ(*a[0].sectors_per_request, 32);
  EXPECT_EQ(*a[0].ideal_sectors_per_request, 4);
  EXPECT_TRUE(a[1].atomic);
  EXPECT_TRUE(a[1].store);
  EXPECT_FALSE(a[1].evaluated());  // no figures: not a prediction of 0 sectors
  EXPECT_FALSE(a[1].sectors_per_request.has_value());
  EXPECT_EQ(a[1].note, "the address depends on what the build cannot know");
  EXPECT_TRUE(detail::predicted_accesses_of({}).empty());  // a kernel whose IR was not analysed
}

TEST(LinesReport, TheTableShowsTheRowsForAFailedCaseOrWhenAsked) {
  run_report run;
  case_report c;
  c.name = "gather [N=1048576]";
  c.lines = join_lines({access("/w/k.cu", 43, 15, "A", false, warps, 32, 4)},
                       {line_of("/w/k.cu", 43, memory_op::load, warps, 32 * warps, 4 * warps)});
  c.status = case_status::passed;
  run.cases = {c};
  EXPECT_EQ(to_table(run).find("per-line traffic"), std::string::npos);
  run.cases[0].lines.show_always = true;
  EXPECT_NE(to_table(run).find("k.cu:43 load A: predicted 8x, observed 8.0x"), std::string::npos);
  run.cases[0].lines.show_always = false;
  run.cases[0].status = case_status::failed;
  EXPECT_NE(to_table(run).find("per-line traffic (SASS metrics"), std::string::npos);
  const auto json = nlohmann::json::parse(to_json(run));
  EXPECT_EQ(json["cases"][0]["lines"]["rows"][0]["line"], 43);
  run.cases[0].lines = line_report{};
  EXPECT_FALSE(nlohmann::json::parse(to_json(run))["cases"][0].contains("lines"));  // not collected: no key
}

// --- CUPTI's source correlation of a real cubin (no GPU) ---------------------------------------------

std::shared_ptr<const std::vector<char>> read_cubin(const std::string& name) {
  std::ifstream f(std::string(ROOFLINT_LINE_CUBIN_DIR) + "/" + name, std::ios::binary);
  return std::make_shared<const std::vector<char>>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// The size in bytes of function @p name (its ELF symbol's st_size): CUPTI's correlation does not stop at a
/// function's end, so the test asks only for the function's own PCs.
std::uint64_t function_size(const std::vector<char>& b, const std::string& name) {
  Elf64_Ehdr eh;
  if (b.size() < sizeof eh) return 0;
  std::memcpy(&eh, b.data(), sizeof eh);
  const auto section = [&](std::size_t i) {
    Elf64_Shdr sh{};
    std::memcpy(&sh, b.data() + eh.e_shoff + i * eh.e_shentsize, sizeof sh);
    return sh;
  };
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sym = section(i);
    if (sym.sh_type != SHT_SYMTAB) continue;
    const Elf64_Shdr str = section(sym.sh_link);
    for (std::size_t at = sym.sh_offset; at + sizeof(Elf64_Sym) <= sym.sh_offset + sym.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym e;
      std::memcpy(&e, b.data() + at, sizeof e);
      if (ELF64_ST_TYPE(e.st_info) == STT_FUNC && name == b.data() + str.sh_offset + e.st_name) return e.st_size;
    }
  }
  return 0;
}

/// The line of each marker ("// [copy.load]") in data/line_table_kernels.cu.
std::map<std::string, unsigned> markers() {
  std::ifstream f(std::string(ROOFLINT_TEST_DATA_DIR) + "/line_table_kernels.cu");
  std::map<std::string, unsigned> out;
  std::string text;
  for (unsigned n = 1; std::getline(f, text); ++n)
    if (const auto open = text.find("// ["); open != std::string::npos)
      out[text.substr(open + 4, text.find(']', open) - open - 4)] = n;
  return out;
}

/// Every PC of @p function (16-byte instructions) and the lines CUPTI gives them.
std::set<unsigned> lines_of(const std::shared_ptr<const std::vector<char>>& cubin, const std::string& function, line_table* table) {
  const correlate_fn correlate = cupti::correlation_of(cubin);
  std::vector<instruction_traffic> pcs;
  for (std::uint32_t pc = 0; pc < function_size(*cubin, function); pc += 16) pcs.push_back({function, pc});
  auto t = build_line_table(pcs, correlate);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.err().message);
  std::set<unsigned> lines;
  for (const auto& p : pcs)
    if (auto where = t->find(function, p.pc)) {
      EXPECT_NE(where->file.find("line_table_kernels.cu"), std::string::npos) << where->file;
      lines.insert(where->line);
    }
  if (table) *table = std::move(*t);
  return lines;
}

TEST(CuptiCorrelation, PlacesAKernelsPcsOnItsOwnLinesAndItsAccessesOnTheMarkedOnes) {
  const auto cubin = read_cubin("line_table_kernels.lineinfo.cubin");
  ASSERT_FALSE(cubin->empty());
  const auto m = markers();
  line_table table;
  const std::set<unsigned> lines = lines_of(cubin, "_Z11copy_kernelPKfPf", &table);
  EXPECT_TRUE(table.has_line_info());
  EXPECT_TRUE(lines.count(m.at("copy.load")));
  EXPECT_TRUE(lines.count(m.at("copy.store")));
  for (const unsigned l : lines) EXPECT_TRUE(l >= m.at("copy.load") - 2 && l <= m.at("copy.store") + 1) << "line " << l;
}

TEST(CuptiCorrelation, GivesAnInlinedHelpersLoadTheHelpersLine) {
  const auto m = markers();
  const std::set<unsigned> lines = lines_of(read_cubin("line_table_kernels.lineinfo.cubin"), "_Z14inlined_kernelPKfPfi", nullptr);
  EXPECT_TRUE(lines.count(m.at("helper.load")));  // the innermost location, not the call's line
  EXPECT_TRUE(lines.count(m.at("inlined.store")));
}

// __ldg and atomicAdd are toolkit code inlined into the kernel: CUPTI places their instructions on the
// toolkit headers' lines; the correlation walks out to the lines that called them (every PC of the kernel
// in line_table_kernels.cu, which lines_of asserts), and a helper of the user's keeps its own line.
TEST(CuptiCorrelation, PutsInlinedToolkitCodeOnTheLineThatCalledIt) {
  const auto m = markers();
  const std::set<unsigned> lines = lines_of(read_cubin("line_table_kernels.lineinfo.cubin"), "_Z14toolkit_kernelPKfPfi", nullptr);
  EXPECT_TRUE(lines.count(m.at("helper.ldg")));
  EXPECT_TRUE(lines.count(m.at("toolkit.ldg")));
  EXPECT_TRUE(lines.count(m.at("toolkit.atomic")));
}

// The cubin's own line table: the __ldg in the user's helper is three deep (the toolkit's line, inlined
// at the helper's, inlined at the kernel's), as nvcc's inlined-call contexts say.
TEST(InlinedCalls, ChainsTheToolkitsLineThroughTheHelperToTheKernel) {
  const auto cubin = read_cubin("line_table_kernels.lineinfo.cubin");
  const auto calls = cupti::inlined_calls::parse(*cubin);
  ASSERT_TRUE(calls.ok()) << calls.err().message;
  const auto m = markers();
  bool three_deep = false;
  const std::string kernel = "_Z14toolkit_kernelPKfPfi";
  for (std::uint32_t pc = 0; pc < function_size(*cubin, kernel); pc += 16) {
    const std::vector<source_location> chain = calls->chain(kernel, pc);
    ASSERT_FALSE(chain.empty()) << "pc " << pc;
    EXPECT_NE(chain.back().file.find("line_table_kernels.cu"), std::string::npos) << chain.back().file;  // the kernel's own line
    if (chain.size() == 3 && chain[1].line == m.at("helper.ldg") && chain[2].line == m.at("toolkit.ldg"))
      three_deep = chain[0].file.find("sm_32_intrinsics") != std::string::npos;
  }
  EXPECT_TRUE(three_deep);
  EXPECT_TRUE(calls->chain("_Z7missingv", 0).empty());
}

// Images that are not cubins, or cut short anywhere, are refused or read as far as they go: never a read
// out of bounds (the sanitizer build runs this too).
TEST(InlinedCalls, RefusesWhatIsNotAnElfAndSurvivesACubinCutAnywhere) {
  EXPECT_FALSE(cupti::inlined_calls::parse({}).ok());
  EXPECT_FALSE(cupti::inlined_calls::parse(std::vector<char>(100, 'x')).ok());
  const auto cubin = read_cubin("line_table_kernels.lineinfo.cubin");
  for (std::size_t cut = 0; cut < cubin->size(); cut += 7) {
    const auto calls = cupti::inlined_calls::parse(std::vector<char>(cubin->begin(), cubin->begin() + cut));
    if (calls.ok()) (void)calls->chain("_Z14toolkit_kernelPKfPfi", 0x100);
  }
  std::vector<char> scrambled = *cubin;
  for (std::size_t i = 64; i < scrambled.size(); i += 13) scrambled[i] = static_cast<char>(scrambled[i] ^ 0x5a);
  if (const auto calls = cupti::inlined_calls::parse(scrambled); calls.ok()) (void)calls->chain("_Z14toolkit_kernelPKfPfi", 0x100);
}

// user_line: only an innermost line in a toolchain header that the chain starts at is replaced, by the
// first call outside the toolchain; a toolkit tree is made here (a folder with cuda_runtime_api.h).
TEST(InlinedCalls, TheUsersLineIsTheFirstCallOutsideTheToolchain) {
  const auto root = std::filesystem::temp_directory_path() / ("rooflint-user-line-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "include");
  std::ofstream(root / "include/cuda_runtime_api.h") << "\n";
  std::ofstream(root / "include/sm_32_intrinsics.hpp") << "\n";
  const source_location header{(root / "include/sm_32_intrinsics.hpp").string(), 270}, helper{"/w/k.cu", 6}, call{"/w/k.cu", 11};
  EXPECT_EQ(cupti::user_line(header, {header, helper, call}), helper);
  EXPECT_EQ(cupti::user_line(header, {header, call}), call);
  EXPECT_EQ(cupti::user_line(header, {}), header);                       // no table: CUPTI's line
  EXPECT_EQ(cupti::user_line(header, {{header.file, 134}, call}), header);  // the table disagrees: CUPTI's line
  EXPECT_EQ(cupti::user_line(helper, {helper, call}), helper);           // the user's helper keeps its line
  std::filesystem::remove_all(root);
}

TEST(CuptiCorrelation, ACubinBuiltWithoutLineinfoHasNoLineInfo) {
  line_table table;
  EXPECT_TRUE(lines_of(read_cubin("line_table_kernels.plain.cubin"), "_Z11copy_kernelPKfPf", &table).empty());
  EXPECT_GT(table.size(), 0u);
  EXPECT_FALSE(table.has_line_info());
}

TEST(CuptiCorrelation, AFunctionTheCubinLacksIsAnInvalidArgument) {
  const auto r = cupti::correlation_of(read_cubin("line_table_kernels.lineinfo.cubin"))("_Z7missingv", 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, error_code::invalid_argument);
  EXPECT_NE(r.err().message.find("the cubin has no such function"), std::string::npos);
}

TEST(CuptiCorrelation, TheCrcOfACubinIsStableAndItsLow32BitsMatchARecord) {
  const auto cubin = read_cubin("line_table_kernels.lineinfo.cubin");
  const auto a = cupti::cubin_crc(*cubin), b = cupti::cubin_crc(*cubin);
  ASSERT_TRUE(a.ok()) << a.err().message;
  EXPECT_EQ(*a, *b);
  EXPECT_TRUE(cupti::crc_matches(*a, static_cast<std::uint32_t>(*a)));
  EXPECT_FALSE(cupti::cubin_crc({}).ok());
}

}  // namespace
// A prediction with no ideal (0 sectors per request of useful bytes: nothing to scale by): the sectors
// per request themselves are compared, 8 observed against 8 predicted.
TEST(JoinLines, WithoutAPredictedIdealTheSectorsPerRequestAreCompared) {
  const auto r = join_lines({access("/w/k.cu", 9, 3, "x", false, warps, 8, 0)},
                            {line_of("/w/k.cu", 9, memory_op::load, warps, 8 * warps, 4 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
}

// A naive SGEMM's 16 x 16 block: a warp's two rows of A are 2 sectors for 8 useful bytes. The analyzer's
// ideal is 1.5 sectors per request over A and B (the useful bytes packed), the chip's 2.0 (as the H200
// counted them, docs/measurements/h200-2026-12-02/lines): the same 2.0 sectors per request on both sides
// agree, on the analyzer's scale (2.0 / 1.5 = 1.33x), and the row names both ideals.
TEST(JoinLines, TheSectorsAreComparedOverTheAnalyzersIdealWhereTheChipCountsAnother) {
  const auto r = join_lines({access("/w/sgemm.cu", 34, 38, "A", false, warps, 2, 1.5)},
                            {line_of("/w/sgemm.cu", 34, memory_op::load, warps, 2 * warps, 2 * warps)});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  EXPECT_NEAR(r.rows[0].observed_amplification(), 4.0 / 3, 1e-12);
  EXPECT_NE(detail::line_row_text(r.rows[0]).find("observed 1.3x (2.0 sectors per request against an ideal 1.5 (the chip's 2.0)"),
            std::string::npos)
      << detail::line_row_text(r.rows[0]);
}

}  // namespace rooflint::runtime
