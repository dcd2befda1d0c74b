// Per-line traffic's collection and its way through the verifier, without a GPU: the metrics chosen among
// those a chip offers, CUPTI's flushed records merged per instruction (cupti/sass_lines.h), the line the
// per-line process sends its parent and the parent's join (measure/lines.h), the manifests' predicted
// accesses, and the per-line process on a machine without a device (its reason, never a crash).
// rooflint-verify -- program's reruns: program_lines_test.cpp.
//
// Where the numbers come from: the H200 probe of 2026-12-02 (docs/measurements/h200-2026-12-02/sass-lines/
// probe.log): GH100 offers smsp__sass_inst_executed_op_global_{ld,st,atom,red}, smsp__sass_sectors_mem_global
// and smsp__sass_sectors_mem_global_ideal, and no smsp__sass_data_bytes_mem_global_op_* metric; its copy_f32
// kernel over n = 2^20 floats ran n / 32 = 32768 load requests of 32 x 4 B = 128 B, 4 sectors each: 131072
// sectors, ideal 131072. The metric ids below are that log's.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "cupti/sass_lines.h"
#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/verify.h"
#include "measure/lines.h"
#include "report/report_lines.h"
#include "verify_recorded.h"

namespace rooflint::runtime {
namespace {

constexpr double warps = (1 << 20) / 32.0;  // 32768: one request per warp of a 2^20-thread launch

// GH100's ids (probe.log, "SASS metrics: device support and the chip's metrics").
constexpr std::uint64_t id_ld = 14128611626230268865ull, id_st = 12741742882152328035ull,
                        id_sectors = 6099573112343167309ull, id_ideal = 3681523318226511221ull;
const std::map<std::uint64_t, std::string> gh100_names{{id_ld, "smsp__sass_inst_executed_op_global_ld"},
                                                       {id_st, "smsp__sass_inst_executed_op_global_st"},
                                                       {id_sectors, "smsp__sass_sectors_mem_global"},
                                                       {id_ideal, "smsp__sass_sectors_mem_global_ideal"}};

TEST(SassLines, TheMetricsAreThoseOfTheListTheChipOffersInTheListsOrder) {
  // GH100's offer (probe.log), shuffled and with metrics per-line traffic does not use.
  const std::vector<std::string> gh100{"smsp__sass_sectors_mem_global_ideal", "smsp__sass_inst_executed",
                                       "smsp__sass_inst_executed_op_global_red", "smsp__sass_sectors_mem_global",
                                       "smsp__sass_inst_executed_op_global_st", "smsp__sass_inst_executed_op_global_atom",
                                       "smsp__sass_inst_executed_op_global_ld", "smsp__sass_sectors_mem_local"};
  auto m = cupti::line_metrics_offered(gh100, "GH100");
  ASSERT_TRUE(m) << m.err().message;
  // line_traffic_metrics()'s order: requests ld, st, atom, red; sectors; ideal; (no data bytes on GH100).
  EXPECT_EQ(*m, (std::vector<std::string>{"smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
                                          "smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red",
                                          "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal"}));
}

TEST(SassLines, AChipWithoutTheSectorsMetricIsNotAvailableNamingIt) {
  auto m = cupti::line_metrics_offered({"smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st"}, "GX999");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.err().code, error_code::unavailable);
  EXPECT_NE(m.err().message.find("GX999"), std::string::npos) << m.err().message;
  EXPECT_NE(m.err().message.find("smsp__sass_sectors_mem_global"), std::string::npos) << m.err().message;
}

TEST(SassLines, FlushedRecordsAreMergedPerInstructionAndNamed) {
  // As cuptiSassMetricsFlushData gives them: one record per PC and metric, one instance each (GPU granularity).
  const std::uint32_t crc = 0xb667c142;  // the probe cubin's CRC (probe.log)
  const std::string f = "_Z8copy_f32PKfPf";
  const std::vector<cupti::sass_raw_record> raw{
      {crc, f, 64, {{id_ld, 32768}}},           {crc, f, 64, {{id_sectors, 131072}}}, {crc, f, 64, {{id_ideal, 131072}}},
      {crc, f, 80, {{id_st, 32768}}},           {crc, f, 80, {{id_sectors, 131072}}}, {crc, f, 80, {{id_ideal, 131072}}},
      {crc, f, 96, {{42, 7}, {42, 5}}},  // an id the configuration does not name, two instances
  };
  const std::vector<sass_record> merged = cupti::merge_sass_records(raw, gh100_names);
  ASSERT_EQ(merged.size(), 3u);  // three PCs, in first-appearance order
  EXPECT_EQ(merged[0].pc, 64u);
  EXPECT_EQ(merged[0].cubin_crc, crc);
  EXPECT_EQ(merged[0].values.at("smsp__sass_inst_executed_op_global_ld"), 32768);
  EXPECT_EQ(merged[0].values.at("smsp__sass_sectors_mem_global"), 131072);
  EXPECT_EQ(merged[1].values.at("smsp__sass_inst_executed_op_global_st"), 32768);
  EXPECT_EQ(merged[2].values.at("id 42"), 12);  // the instances summed: 7 + 5

  // Into instructions: a load and a store of 32768 requests at 4 sectors against the chip's ideal of 4.
  const std::vector<instruction_traffic> t = instructions_from_sass(merged);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].op, memory_op::load);
  EXPECT_EQ(t[0].requests, warps);
  EXPECT_EQ(t[0].sectors, 4 * warps);
  EXPECT_EQ(t[0].ideal_sectors(), 4 * warps);  // the chip's ideal, no data bytes needed
  EXPECT_EQ(t[1].op, memory_op::store);
}

line_observation copy_observation() {
  line_observation o;
  o.metrics = {"smsp__sass_inst_executed_op_global_ld", "smsp__sass_sectors_mem_global"};
  o.window_s = 0.0024;  // the probe's first window: 2.4 ms
  observed_line load;
  load.where = {"/w/copy.cu", 64};
  load.op = memory_op::load;
  load.instructions = 1;
  load.requests = warps;
  load.sectors = 32 * warps;  // a stride-33 gather: 32 sectors per request
  load.ideal_sectors = 4 * warps;
  observed_line store = load;
  store.where.line = 65;
  store.op = memory_op::store;
  store.sectors = 4 * warps;
  store.ideal_sectors = NAN;  // no ideal known: null in the line, NaN again when read
  o.observed = {load, store};
  instruction_traffic u;
  u.function = "_Z4copyPKfPf";
  u.pc = 0x90;
  u.op = memory_op::reduction;
  u.requests = warps;
  u.sectors = 4 * warps;
  o.unmapped = {u};
  return o;
}

TEST(LineObservation, TheChildsLineReadsBackTheSame) {
  const line_observation o = copy_observation();
  const std::string text = line_observation_to_json(o);
  EXPECT_EQ(text.find('\n'), std::string::npos);  // one line of the pipe protocol
  auto back = line_observation_from_json(text);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->not_available, "");
  EXPECT_EQ(back->metrics, o.metrics);
  EXPECT_EQ(back->window_s, 0.0024);
  ASSERT_EQ(back->observed.size(), 2u);
  EXPECT_EQ(back->observed[0].where, (source_location{"/w/copy.cu", 64}));
  EXPECT_EQ(back->observed[0].op, memory_op::load);
  EXPECT_EQ(back->observed[0].sectors, 32 * warps);
  EXPECT_EQ(back->observed[0].ideal_sectors, 4 * warps);
  EXPECT_EQ(back->observed[1].op, memory_op::store);
  EXPECT_TRUE(std::isnan(back->observed[1].ideal_sectors));
  ASSERT_EQ(back->unmapped.size(), 1u);
  EXPECT_EQ(back->unmapped[0].op, memory_op::reduction);
  EXPECT_EQ(back->unmapped[0].pc, 0x90u);
  EXPECT_TRUE(std::isnan(back->unmapped[0].chip_ideal));
}

TEST(LineObservation, AMalformedLineIsAnErrorNotAThrow) {
  EXPECT_FALSE(line_observation_from_json("{"));
  EXPECT_FALSE(line_observation_from_json(R"({"not_available": ""})"));  // fields missing
  auto bad_op = line_observation_from_json(
      R"({"not_available": "", "line_info": true, "metrics": [], "window_s": 0, "unmapped": [],
          "observed": [{"file": "k.cu", "line": 1, "op": "prefetch", "instructions": 1, "requests": 1, "sectors": 1, "ideal_sectors": 1}]})");
  ASSERT_FALSE(bad_op);
  EXPECT_NE(bad_op.err().message.find("prefetch"), std::string::npos);
}

TEST(LineObservation, TheParentJoinsWithThePredictedAccesses) {
  // The analyzer predicted the gather at 8x (32 of 4 sectors per request): observed 32 / 4 = 8x, agrees.
  predicted_access a;
  a.file = "/w/copy.cu";
  a.line = 64;
  a.tensor = "in";
  a.requests = warps;
  a.sectors_per_request = 32;
  a.ideal_sectors_per_request = 4;
  const line_report r = line_report_of(copy_observation(), {a}, 0.35, true);
  EXPECT_TRUE(r.collected);
  EXPECT_EQ(r.cost_s, 0.35);
  EXPECT_TRUE(r.show_always);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].status, line_status::agrees);
  EXPECT_EQ(r.observed.size(), 2u);  // every observed line kept for the JSON's "observed"
  EXPECT_EQ(r.unmapped.size(), 1u);
  const auto j = detail::lines_json(r);
  ASSERT_EQ(j.at("observed").size(), 2u);
  EXPECT_EQ(j.at("observed")[0].at("line"), 64);
  EXPECT_EQ(j.at("observed")[0].at("sectors"), 32 * warps);
  EXPECT_EQ(j.at("observed")[1].at("ideal_sectors"), nullptr);
}

TEST(LineObservation, AReasonIsKeptAndNothingIsJoined) {
  line_observation o;
  o.not_available = "CUPTI's SASS metrics do not support this device";
  const line_report r = line_report_of(o, {}, 0.1, false);
  EXPECT_FALSE(r.collected);
  EXPECT_EQ(r.not_available, o.not_available);
  EXPECT_EQ(detail::lines_text(r), "  per-line traffic: not available: CUPTI's SASS metrics do not support this device\n");
}

TEST(LineObservation, NothingPredictedAndNoExcessSaysSoUnderTheHeader) {
  // A WMMA kernel's one observed line (the H200's hgemm_wmma_n4096, 2026-12-02: its store in the toolkit's
  // mma.hpp at 1.0x) with no manifest entry: no row, no line in excess; the header is not left alone.
  line_observation o;
  observed_line store;
  store.where = {"/usr/local/cuda/include/crt/mma.hpp", 474};
  store.op = memory_op::store;
  store.instructions = 1;
  store.requests = 524288;
  store.sectors = store.ideal_sectors = 2097152;
  o.observed = {store};
  const line_report r = line_report_of(o, {}, 0.485, true);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_TRUE(r.unpredicted.empty());  // no excess sectors: nothing to point at
  const std::string text = detail::lines_text(r);
  EXPECT_NE(text.find("no predicted access"), std::string::npos) << text;
  EXPECT_NE(text.find("1 lines observed"), std::string::npos) << text;
}

TEST(LinesMode, NamesReadBack) {
  for (const lines_mode m : {lines_mode::off, lines_mode::failing, lines_mode::all}) EXPECT_EQ(parse_lines_mode(name(m)), m);
  EXPECT_FALSE(parse_lines_mode("always"));
  EXPECT_FALSE(parse_lines_mode(""));
  EXPECT_EQ(verify_options{}.lines, lines_mode::failing);  // the default: collected for the cases that fail
}

TEST(PredictedAccesses, ADirectoryIsSearchedForManifests) {
  // data/saxpy.rooflint.json: the analyzer's manifest of examples/saxpy (version 4): x read on line 19 and
  // y on line 20, 2097152 float4 requests at 16 of 16 sectors; y written on line 25; the tail loop's three
  // accesses on line 27 not evaluated. data/ holds no other *.rooflint.json.
  auto p = read_predicted_accesses({ROOFLINT_TEST_DATA_DIR});
  ASSERT_TRUE(p) << p.err().message;
  ASSERT_EQ(p->size(), 1u);
  const std::vector<predicted_access>& a = p->at("saxpy");
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a[0].line, 19u);
  EXPECT_EQ(a[0].tensor, "x");
  EXPECT_EQ(*a[0].requests, 2097152);
  EXPECT_EQ(*a[0].sectors_per_request, 16);
  EXPECT_TRUE(a[2].store);
  EXPECT_FALSE(a[3].evaluated());
  // The same file named directly.
  auto f = read_predicted_accesses({std::string(ROOFLINT_TEST_DATA_DIR) + "/saxpy.rooflint.json"});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->at("saxpy").size(), 6u);
}

TEST(PredictedAccesses, APathThatIsNothingIsAUsageError) {
  auto p = read_predicted_accesses({"/nonexistent/manifests"});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.err().code, error_code::invalid_argument);
  EXPECT_NE(p.err().message.find("/nonexistent/manifests"), std::string::npos);
  auto bad = read_predicted_accesses({std::string(ROOFLINT_TEST_DATA_DIR) + "/line_table_kernels.cu"});
  ASSERT_FALSE(bad);  // not a manifest: refused by name
  EXPECT_NE(bad.err().message.find("line_table_kernels.cu"), std::string::npos);
}

// The per-line process's work in a child (CUDA must stay uninitialised here): without a device it says
// so as its reason; it never crashes. Skipped where a device is present (the H200 run covers that).
ROOFLINT_VERIFY_CASE(lines_saxpy_n1M, rooflint::verify_test::saxpy_spec, rooflint::verify_test::N(1 << 20)) {
  return launcher{.launch = [](cudaStream_t) {}};
}

TEST(ObserveLines, WithoutADeviceTheReasonSaysSo) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const case_definition* c = nullptr;
    for (const auto& d : registered_cases())
      if (d.name == "lines_saxpy_n1M") c = &d;
    int n = 0;
    const bool device = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    const std::string text = device ? std::string("DEVICE") : line_observation_to_json(observe_lines(*c));
    (void)!write(fds[1], text.data(), text.size());
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the per-line work crashed its process";
  if (text == "DEVICE") GTEST_SKIP() << "a CUDA device is present; this test covers machines without one";
  auto o = line_observation_from_json(text);
  ASSERT_TRUE(o) << text;
  EXPECT_FALSE(o->not_available.empty());
  EXPECT_TRUE(o->observed.empty());
}

}  // namespace
}  // namespace rooflint::runtime
