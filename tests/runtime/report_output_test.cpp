// The verifier's reports on recorded H200 data (no GPU): table, JUnit and JSON checked with
// placeholders (Google Benchmark's technique), the SVG checked as well-formed XML with the expected
// elements.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rooflint/files/verify_report.h"
#include "rooflint/model/describe.h"
#include "rooflint/runtime/report.h"
#include "verify_recorded.h"

using namespace rooflint;
using namespace rooflint::runtime;
using namespace rooflint::verify_test;

namespace {

/// Each line of @p expected, with %float, %int and %any placeholders, must match a line of @p output,
/// in order.
::testing::AssertionResult matches_in_order(const std::string& output, const std::vector<std::string>& expected) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::size_t at = 0;
  for (const std::string& pattern : expected) {
    std::string re;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (pattern.compare(i, 6, "%float") == 0) { re += R"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"; i += 5; continue; }
      if (pattern.compare(i, 4, "%int") == 0) { re += "[0-9]+"; i += 3; continue; }
      if (pattern.compare(i, 4, "%any") == 0) { re += ".*"; i += 3; continue; }
      if (std::string(R"(\^$.|?*+()[]{})").find(pattern[i]) != std::string::npos) re += '\\';
      re += pattern[i];
    }
    const std::regex rx(re);
    while (at < lines.size() && !std::regex_match(lines[at], rx)) ++at;
    if (at == lines.size())
      return ::testing::AssertionFailure() << "no line matches '" << pattern << "' in order in:\n" << output;
    ++at;
  }
  return ::testing::AssertionSuccess();
}

/// A run with the recorded saxpy (passes) and a gather-like saxpy reading 16x its compulsory bytes (fails).
run_report recorded_run() {
  run_report run;
  run.device = "NVIDIA H200";
  run.peaks = h200();
  run.peaks_device = "H200";
  run.peaks_label = "datasheet (H200): spec-sheet peaks, this classification may be wrong at your clocks";
  run.counters_mode = "CUPTI range profiler (auto range, kernel replay)";
  case_report good = compare({"saxpy_n64M", &saxpy_spec, saxpy_sizes()}, recorded_saxpy(), run.peaks, tolerances_for(saxpy_spec, 0));
  good.file = "examples/saxpy/saxpy.cu";
  good.line = 40;
  measurement m = recorded_saxpy();
  m.case_name = "gather_stride33";
  m.counters.dram_read_bytes = 16 * 536870912.0;
  const double slower = 2e-3 / m.timing.median_s;  // every timed run slower alike: the same spread
  m.timing.median_s *= slower;
  m.timing.min_s *= slower;
  m.timing.max_s *= slower;
  case_report bad = compare({"gather_stride33", &saxpy_spec, saxpy_sizes()}, m, run.peaks, tolerances_for(saxpy_spec, 0));
  bad.file = "examples/gather/gather.cu";
  bad.line = 12;
  run.cases = {good, bad};
  run.exit_code = exit_failed;
  return run;
}

/// Minimal XML well-formedness: balanced tags, quoted attributes; counts elements by name.
::testing::AssertionResult well_formed(const std::string& xml, std::map<std::string, int>& counts) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    if (xml.compare(i, 4, "<!--") == 0) { i = xml.find("-->", i); if (i == std::string::npos) return ::testing::AssertionFailure() << "open comment"; continue; }
    if (xml.compare(i, 2, "<?") == 0) { i = xml.find("?>", i); continue; }
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unterminated tag at " << i;
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "'<' inside tag '" << tag << "'";
    if (!tag.empty() && tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name)
        return ::testing::AssertionFailure() << "closing '" << name << "' but open is '" << (stack.empty() ? "" : stack.back()) << "'";
      stack.pop_back();
      continue;
    }
    const bool self_closing = !tag.empty() && tag.back() == '/';
    const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return ::testing::AssertionFailure() << "unbalanced quotes in '" << tag << "'";
    ++counts[name];
    if (!self_closing) stack.push_back(name);
  }
  if (!stack.empty()) return ::testing::AssertionFailure() << "unclosed '" << stack.back() << "'";
  return ::testing::AssertionSuccess();
}

}  // namespace

// A harness binary (rooflint-examples, a user's verifier) speaks under its own name, not rooflint-verify's.
TEST(ReportTable, StartsWithTheNameOfTheProgramThatRanIt) {
  run_report run = recorded_run();
  run.tool = "my-kernels-verify";
  EXPECT_EQ(to_table(run).rfind("my-kernels-verify: NVIDIA H200 | peaks: ", 0), 0u) << to_table(run).substr(0, 200);
}

TEST(ReportTable, ShowsEachCaseWithRatiosAndFindings) {
  const std::string table = to_table(recorded_run());
  EXPECT_TRUE(matches_in_order(table, {
      "rooflint-verify: NVIDIA H200 | peaks: datasheet (H200)%any | counters: CUPTI range profiler%any",
      "case %any status %any binds %any DRAM bytes (xideal) %any L2 bytes (xideal) %any L1 bytes (xideal) %any",
      // saxpy: DRAM 5.369e8 + 2.60e8 = 796.9 MB, 0.99x the 805.3 MB ideal; L2 16777216 + 8388608 sectors
      // = 805.3 MB, 1x; no L1 sectors in the recorded data; floor 796.9 MB / 4.8 TB/s = 0.166 ms.
      "saxpy_n64M %any PASS %any memory->memory %any DRAM %any 796.9 MB 0.99x %any 805.3 MB 1x %any - %any 0.238 ms %any 0.168 ms %any 0.166 ms %any 70.5 %any",
      // gather: DRAM 16 x 536870912 + 2.6e8 = 8.85 GB, 11x; the floor at DRAM 8.85 GB / 4.8 TB/s = 1.84 ms.
      "gather_stride33 %any FAIL %any memory->memory %any DRAM %any 8.85 GB 11x %any 805.3 MB 1x %any 1.84 ms %any",
      "  error: kernel 'saxpy' moves 8.85 GB at DRAM (reads 8.59 GB, writes 260 MB), 11x its 805.3 MB of compulsory bytes (tolerance 1.1x); its DRAM floor 1.84 ms = 8.85 GB / %any, above the predicted floor t_min 0.168 ms on H200: the memory-bound floor rises from 0.168 ms at compulsory DRAM traffic to 1.84 ms at DRAM [rooflint-ideal-traffic]",
      "2 cases: 1 passed, 1 failed, 0 skipped, 0 could not be measured",
  }));
}

// SARIF for code scanning: the recorded run's failing case (16x the compulsory DRAM reads, above) is an
// error result at its spec's line, under the rule of its finding, which the log's rules describe with
// the registry's summary; the passing case's findings are notes at its own line.
TEST(ReportSarif, PutsEachFindingAtItsSpecsLine) {
  const run_report run = recorded_run();
  const auto log = nlohmann::json::parse(to_sarif(run, "rooflint-examples"));
  EXPECT_EQ(log["version"], "2.1.0");
  const auto& sarif_run = log["runs"][0];
  EXPECT_EQ(sarif_run["tool"]["driver"]["name"], "rooflint-examples");
  std::size_t findings = 0;
  for (const case_report& c : run.cases) findings += c.findings.size();
  ASSERT_EQ(sarif_run["results"].size(), findings);  // no per-line rows: none collected
  bool error_at_gather = false;
  for (const auto& r : sarif_run["results"]) {
    const auto& where = r["locations"][0]["physicalLocation"];
    if (r["level"] == "error") {
      EXPECT_EQ(r["ruleId"], "rooflint-ideal-traffic");
      EXPECT_EQ(where["artifactLocation"]["uri"], "examples/gather/gather.cu");
      EXPECT_EQ(where["region"]["startLine"], 12);
      error_at_gather = true;
    }
    bool described = false;
    for (const auto& rule : sarif_run["tool"]["driver"]["rules"])
      described = described || (rule["id"] == r["ruleId"] && rule.contains("shortDescription"));
    EXPECT_TRUE(described) << r["ruleId"];
  }
  EXPECT_TRUE(error_at_gather);
}

TEST(ReportJunit, FailedVerdictIsAFailureElement) {
  const std::string xml = to_junit(recorded_run());
  EXPECT_TRUE(matches_in_order(xml, {
      R"(<?xml version="1.0" encoding="UTF-8"?>)",
      R"(<testsuites name="rooflint-verify" tests="2" failures="1" errors="0" skipped="0">)",
      R"(  <testsuite name="rooflint-verify" tests="2" failures="1" errors="0" skipped="0" time="%float">)",
      R"(      <property name="device" value="NVIDIA H200"/>)",
      R"(    <testcase classname="rooflint.saxpy" name="saxpy_n64M" file="examples/saxpy/saxpy.cu" line="40" time="0.000238">)",
      R"(    </testcase>)",
      R"(    <testcase classname="rooflint.saxpy" name="gather_stride33" file="examples/gather/gather.cu" line="12" time="0.002">)",
      R"(      <failure message="error: kernel &apos;saxpy&apos; moves %any [rooflint-ideal-traffic]" type="rooflint">%any)",
      R"(</testsuites>)",
  }));
  std::map<std::string, int> counts;
  EXPECT_TRUE(well_formed(xml, counts));
  EXPECT_EQ(counts["testcase"], 2);
  EXPECT_EQ(counts["failure"], 1);
}

TEST(ReportJson, EveryFigureCarriesItsUnitInTheKey) {
  const std::string text = to_json(recorded_run());
  EXPECT_TRUE(matches_in_order(text, {
      R"(  "cases": [)",
      R"(          "dram_read_bytes": 536900000.0,)",
      R"(          "duration_s": %float,)",
      R"(      "name": "saxpy_n64M",)",
  }));
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["schema"], "rooflint-verify");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["peaks"]["source"], "datasheet");
  EXPECT_DOUBLE_EQ(j["peaks"]["dram_bytes_per_s"].get<double>(), 4.8e12);
  const auto& saxpy = j["cases"][0];
  EXPECT_EQ(saxpy["status"], "passed");
  EXPECT_DOUBLE_EQ(saxpy["predicted"]["read_bytes"].get<double>(), 536870912.0);
  EXPECT_DOUBLE_EQ(saxpy["measured"]["counters"]["dram_write_bytes"].get<double>(), 2.60e8);
  EXPECT_DOUBLE_EQ(saxpy["measured"]["counters"]["l2_write_bytes"].get<double>(), 268435456.0);
  EXPECT_DOUBLE_EQ(saxpy["measured"]["timing"]["median_s"].get<double>(), 238e-6);
  EXPECT_NEAR(saxpy["compared"]["roofline_fraction"].get<double>(), 0.704925, 1e-6);
  EXPECT_EQ(saxpy["compared"]["measured_dot"]["bound"], "memory-bound");
  EXPECT_EQ(j["cases"][1]["findings"][0]["id"], "rooflint-ideal-traffic");
  // Per level: DRAM and L2 (no L1 sectors in the recorded saxpy), each its own bytes and floor.
  ASSERT_EQ(saxpy["compared"]["levels"].size(), 2u);
  EXPECT_EQ(saxpy["compared"]["levels"][0]["level"], "dram");
  EXPECT_DOUBLE_EQ(saxpy["compared"]["levels"][0]["bytes"].get<double>(), 5.369e8 + 2.60e8);
  EXPECT_EQ(saxpy["compared"]["levels"][1]["level"], "l2");
  EXPECT_DOUBLE_EQ(saxpy["compared"]["levels"][1]["bytes"].get<double>(), 805306368.0);
  EXPECT_EQ(saxpy["compared"]["levels"][1]["floor_s"].get<double>(), 0);  // no L2 roof in datasheet peaks
  EXPECT_EQ(saxpy["compared"]["binding"], "DRAM");
  EXPECT_EQ(j["version"], 2);
  // Units in the keys: every number's key ends in a unit or is a ratio, count or flag.
  const std::regex unit_key(R"(.*(_bytes|bytes|_s|_hz|_mhz|_mhz_min|_mhz_max|_mhz_mean|_per_s|_per_byte|flops|_ratio|_fraction|_of_peak|_sectors|sm_count|_runs|repetitions|line|version|exit_code|ranges_per_group|fp_thread_instructions\..*|by_metric\..*|passes\..*|flops_per_s\..*)$)");
  std::function<void(const nlohmann::json&, const std::string&)> walk = [&](const nlohmann::json& v, const std::string& key) {
    if (v.is_object()) for (auto it = v.begin(); it != v.end(); ++it) walk(it.value(), key.empty() ? it.key() : key + "." + it.key());
    else if (v.is_array()) for (const auto& e : v) walk(e, key);
    else if (v.is_number()) EXPECT_TRUE(std::regex_match(key, unit_key)) << "number without a unit in its key: " << key;
  };
  walk(j, "");
}

TEST(ReportSvg, IsWellFormedWithRoofsRidgeDotsArrowsAndLegend) {
  const std::string svg = to_svg(recorded_run());
  // ROOFLINT_REPORT_DIR=dir writes the recorded reports for viewing (a headless-browser screenshot).
  if (const char* dir = std::getenv("ROOFLINT_REPORT_DIR")) {
    const run_report run = recorded_run();
    std::ofstream(std::string(dir) + "/recorded.svg") << svg;
    std::ofstream(std::string(dir) + "/recorded.txt") << to_table(run);
    std::ofstream(std::string(dir) + "/recorded.json") << to_json(run);
    std::ofstream(std::string(dir) + "/recorded.junit.xml") << to_junit(run);
  }
  std::map<std::string, int> counts;
  ASSERT_TRUE(well_formed(svg, counts)) << svg;
  EXPECT_EQ(counts["svg"], 1);
  EXPECT_NE(svg.find(R"(id="bandwidth-roof")"), std::string::npos);
  EXPECT_NE(svg.find(R"(class="compute-roof")"), std::string::npos);
  EXPECT_NE(svg.find(R"(class="ridge")"), std::string::npos);
  EXPECT_NE(svg.find("ridge 13.9 FLOP/B"), std::string::npos);
  EXPECT_NE(svg.find(R"(id="legend")"), std::string::npos);
  // Two kernels: each a predicted and a measured dot; the gather's dot moved, so it has an arrow.
  std::size_t predicted = 0, measured = 0, arrows = 0;
  for (std::size_t at = 0; (at = svg.find(R"(class="predicted")", at)) != std::string::npos; ++at) ++predicted;
  for (std::size_t at = 0; (at = svg.find(R"(class="measured")", at)) != std::string::npos; ++at) ++measured;
  for (std::size_t at = 0; (at = svg.find(R"(class="arrow")", at)) != std::string::npos; ++at) ++arrows;
  EXPECT_EQ(predicted, 2u);
  EXPECT_EQ(measured, 2u);
  EXPECT_GE(arrows, 1u);
  // Each label names the level that binds its kernel.
  EXPECT_NE(svg.find(">gather_stride33 [bound by DRAM]<"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">saxpy_n64M [bound by DRAM]<"), std::string::npos);
  // One dot per measured level (DRAM and L2 in the recorded data), each drawn as its own marker.
  std::size_t level_dots = 0;
  for (std::size_t at = 0; (at = svg.find(R"(class="level-dot")", at)) != std::string::npos; ++at) ++level_dots;
  EXPECT_EQ(level_dots, 4u);
}

namespace {

/// A gather-like copy: saxpy's bytes (8N read, 4N written) and 0 FLOP.
inline constexpr auto copy_spec = dsl::kernel<saxpy>("gather", dsl::elementwise(0, dsl::in<2>("x", dsl::f32, N),     // x: (N)
                                                                                   dsl::inout<3>("y", dsl::f32, N)))  // y: (N)
                                      .expect(dsl::memory_bound);

/// The recorded saxpy with no FLOPs seen by the counters, @p read_x its compulsory reads and
/// @p write_x its compulsory writes, in @p seconds.
measurement data_movement(const std::string& name, double read_x, double write_x, double seconds) {
  measurement m = recorded_saxpy();
  m.case_name = name;
  m.counters.fp_available = false;
  m.counters.fp_instructions.clear();
  m.counters.dram_read_bytes = read_x * 8 * saxpy_n;
  m.counters.l2_write_sectors = write_x * 4 * saxpy_n / 32;
  m.timing.median_s = seconds;
  return m;
}

/// recorded_run() plus two 0-FLOP kernels (a failing gather with 16x its reads, a passing copy) and a
/// cluster of SGEMM dots at S = 512 close together.
run_report run_with_data_movement() {
  run_report run = recorded_run();
  const tolerances bands = tolerances_for(copy_spec, 0);
  run.cases.push_back(compare({"gather_strided_n64M", &copy_spec, saxpy_sizes()}, data_movement("gather_strided_n64M", 16, 1, 2.1e-3),
                              run.peaks, bands));
  run.cases.push_back(compare({"transpose_naive_16K", &copy_spec, saxpy_sizes()}, data_movement("transpose_naive_16K", 1, 8, 7.0e-4),
                              run.peaks, bands));
  run.cases.push_back(compare({"copy_n64M", &copy_spec, saxpy_sizes()}, data_movement("copy_n64M", 1.0, 1.0, 1.9e-4), run.peaks, bands));
  const auto sizes = sgemm_spec.bind(S(512)).bound;
  const double s3 = 512.0 * 512 * 512;
  int i = 0;
  for (const char* name : {"sgemm_naive_n512", "sgemm_tiled_n512", "sgemm_register_blocked_n512", "sgemm_cublas_n512"}) {
    measurement m = recorded_saxpy();
    m.case_name = name;
    m.counters.fp_instructions = {{"ffma", s3}};
    m.counters.dram_read_bytes = 8 * 512.0 * 512 * (1.0 + 0.05 * i);
    m.counters.l2_write_sectors = 4 * 512.0 * 512 / 32;
    m.timing.median_s = 2 * s3 / ((5 + 0.6 * i) * 1e12);
    run.cases.push_back(compare({name, &sgemm_spec, sizes}, m, run.peaks, tolerances_for(sgemm_spec, 0)));
    ++i;
  }
  return run;
}

}  // namespace

TEST(ReportSvg, ZeroFlopKernelsAppearInTheDataMovementPanelWithTheirRatio) {
  const run_report run = run_with_data_movement();
  ASSERT_EQ(run.cases[2].predicted.flops, 0.0);
  ASSERT_EQ(run.cases[2].compared.observed_flops, 0.0);
  ASSERT_EQ(run.cases[2].status, case_status::failed);
  const std::string svg = to_svg(run);
  if (const char* dir = std::getenv("ROOFLINT_REPORT_DIR")) std::ofstream(std::string(dir) + "/data_movement.svg") << svg;
  std::map<std::string, int> counts;
  ASSERT_TRUE(well_formed(svg, counts)) << svg;
  const std::size_t panel = svg.find(R"(<g id="data-movement">)");
  ASSERT_NE(panel, std::string::npos) << svg;
  EXPECT_NE(svg.find("data movement (kernels without ideal FLOPs)", panel), std::string::npos);
  // The failing gather: a row in the panel, in the failure colour, with its read ratio and bandwidth.
  const std::size_t row = svg.find(R"(<g class="movement" data-case="gather_strided_n64M">)", panel);
  ASSERT_NE(row, std::string::npos) << svg;
  const std::string gather = svg.substr(row, svg.find("</g>", row) - row);
  // DRAM (16 x 8N + 2.6e8) / 12N = 11.0x; L2 (8N + 4N) / 12N = 1.0x: each level its own ratio.
  EXPECT_NE(gather.find("DRAM 11.0x, L2 1.0x"), std::string::npos) << gather;
  EXPECT_NE(gather.find(" of 4.8 TB/s"), std::string::npos) << gather;
  EXPECT_NE(gather.find("#cf222e"), std::string::npos) << gather;
  EXPECT_NE(gather.find(R"(class="compulsory-bytes")"), std::string::npos);
  EXPECT_NE(gather.find(R"(class="observed-bytes")"), std::string::npos);
  const std::size_t transpose = svg.find(R"(data-case="transpose_naive_16K")", panel);
  ASSERT_NE(transpose, std::string::npos);
  // L2: 8N read + 8 x 4N stored = 40N bytes over 12N: 3.3x; DRAM stays at 1.0x.
  EXPECT_NE(svg.find("DRAM 1.0x, L2 3.3x", transpose), std::string::npos);
  // Not on the roofline, and no longer listed as not drawn; the FLOP kernels still are.
  EXPECT_EQ(svg.find(R"(<g class="kernel" data-case="gather_strided_n64M">)"), std::string::npos);
  EXPECT_EQ(svg.find("not drawn"), std::string::npos);
  EXPECT_NE(svg.find(R"(<g class="kernel" data-case="sgemm_tiled_n512">)"), std::string::npos);
  EXPECT_EQ(counts["svg"], 1);
}

TEST(ReportSvg, CloseDotsGetLabelsThatDoNotOverlap) {
  const std::string svg = to_svg(run_with_data_movement());
  // Label boxes (6.5 px per character, 14 px high) of the dot labels must not intersect.
  const std::regex label(R"re(<text data-case="[^"]*" x="([-0-9.]+)" y="([-0-9.]+)" fill="[^"]*"( text-anchor="end")?>([^<]*)</text>)re");
  struct rect { double x0, y0, x1, y1; };
  std::vector<rect> boxes;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    const double w = 6.5 * static_cast<double>((*it)[4].length());
    const double x0 = (*it)[3].matched ? x - w : x;
    boxes.push_back({x0, y - 11, x0 + w, y + 3});
  }
  ASSERT_EQ(boxes.size(), 6u) << svg;
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const rect& a = boxes[i];
      const rect& b = boxes[j];
      EXPECT_FALSE(a.x0 < b.x1 - 0.01 && b.x0 < a.x1 - 0.01 && a.y0 < b.y1 - 0.01 && b.y0 < a.y1 - 0.01) << "labels " << i << " and " << j << " overlap";
    }
}

// The analyzer's predicted DRAM traffic (manifest version 4, case_report::predicted_ratio): a hollow
// dashed dot beside the compulsory-traffic dot, at the intensity of 10x the compulsory bytes (a decade
// to the left of it, at the same FLOPs), with its legend line; none without a prediction.
TEST(ReportSvg, DrawsThePredictedWithAccessPatternDotBesideTheCompulsoryOne) {
  run_report run = recorded_run();
  EXPECT_EQ(to_svg(run).find(R"(class="predicted-access")"), std::string::npos);
  std::size_t k = run.cases.size();
  for (std::size_t i = 0; i < run.cases.size(); ++i)
    if (run.cases[i].predicted.flops > 0 && k == run.cases.size()) k = i;
  ASSERT_LT(k, run.cases.size());
  run.cases[k].predicted_ratio[static_cast<std::size_t>(model::memory_level::dram)] = {manifest::prediction_kind::value, 10, 10, 10};
  const std::string svg = to_svg(run);
  std::map<std::string, int> counts;
  ASSERT_TRUE(well_formed(svg, counts)) << svg;
  const std::size_t group = svg.find(R"(<g class="kernel" data-case=")" + run.cases[k].name + "\">");
  ASSERT_NE(group, std::string::npos) << svg;
  const std::string dots = svg.substr(group, svg.find("</g>", group) - group);
  const std::regex cx(R"re(class="(predicted|predicted-access)" cx="([0-9.]+)" cy="([0-9.]+)")re");
  std::map<std::string, std::pair<double, double>> at;
  for (std::sregex_iterator it(dots.begin(), dots.end(), cx), end; it != end; ++it)
    at[(*it)[1]] = {std::stod((*it)[2]), std::stod((*it)[3])};
  ASSERT_EQ(at.count("predicted"), 1u) << dots;
  ASSERT_EQ(at.count("predicted-access"), 1u) << dots;
  EXPECT_LT(at["predicted-access"].first, at["predicted"].first);    // less intensity: left
  EXPECT_GE(at["predicted-access"].second, at["predicted"].second);  // no higher on the roof
  EXPECT_NE(svg.find("predicted with the access pattern (DRAM)"), std::string::npos);
  // The table: the kernel's line per level, "not predicted" where no ratio is given.
  run.cases[k].predicted_traffic = {"A: DRAM 10x (a basis)"};
  const std::string table = to_table(run);
  EXPECT_NE(table.find("  predicted (access pattern): A: DRAM 10x (a basis)\n  predicted for the kernel: DRAM 10x"), std::string::npos)
      << table;
  EXPECT_NE(table.find("L2 not predicted"), std::string::npos) << table;
  // A range without a point: no dot (it would stand for a point), the range in the table, and in the
  // JSON a null point beside the range.
  run.cases[k].predicted_ratio[static_cast<std::size_t>(model::memory_level::dram)] = {manifest::prediction_kind::range, 1, 1, 20, false};
  EXPECT_EQ(to_svg(run).find(R"(class="predicted-access")"), std::string::npos);
  EXPECT_NE(to_table(run).find("predicted for the kernel: DRAM 1x to 20x (no point)"), std::string::npos) << to_table(run);
  const nlohmann::json json = nlohmann::json::parse(to_json(run));
  const nlohmann::json& c = json["cases"][k];
  EXPECT_TRUE(c["predicted_ratio"]["dram"].is_null()) << c.dump();
  EXPECT_EQ(c["predicted_range"]["dram"], (nlohmann::json{{"low", 1.0}, {"high", 20.0}})) << c.dump();
  EXPECT_TRUE(c["predicted_range"]["l2"].is_null()) << c.dump();
}

// The contract between the verifier's JSON writer and the report's reader in rooflint::files (what
// rooflint-summary reads): every field the reader knows, read back as written.
TEST(ReportJson, TheFilesReaderReadsWhatTheWriterWrites) {
  run_report run = recorded_run();
  run.baseline_verdicts = {{"saxpy_n64M", "SAME"}, {"gather_stride33", "WORSE"}};
  std::string error;
  const auto read = verify_report::from_json(to_json(run), "recorded", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->version, verify_report::version);
  EXPECT_EQ(read->device, run.device);
  EXPECT_EQ(read->exit_code, run.exit_code);
  ASSERT_EQ(read->baseline.size(), 2u);
  EXPECT_EQ(read->baseline[1].name, "gather_stride33");
  EXPECT_EQ(read->baseline[1].verdict, "WORSE");
  ASSERT_EQ(read->cases.size(), run.cases.size());
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const case_report& w = run.cases[i];
    const verify_report::case_entry& r = read->cases[i];
    EXPECT_EQ(r.name, w.name);
    EXPECT_EQ(r.kernel, w.kernel);
    EXPECT_EQ(r.sizes, w.sizes);
    EXPECT_EQ(r.status, name(w.status));
    EXPECT_DOUBLE_EQ(r.compared.roofline_fraction, w.compared.roofline_fraction);
    EXPECT_DOUBLE_EQ(r.compared.t_measured_s, w.compared.t_measured_s);
    ASSERT_EQ(r.compared.levels.size(), w.compared.levels.size());
    for (std::size_t l = 0; l < w.compared.levels.size(); ++l) {
      EXPECT_EQ(r.compared.levels[l].level, w.compared.levels[l].level);
      EXPECT_DOUBLE_EQ(r.compared.levels[l].bytes, w.compared.levels[l].bytes());
      EXPECT_DOUBLE_EQ(r.compared.levels[l].traffic_ratio, w.compared.levels[l].ratio);
    }
    const timing_values& t = w.measured.timing;  // what the baseline gate takes its noise from
    EXPECT_EQ(r.measured.timing.available, t.available);
    EXPECT_EQ(r.measured.timing.repetitions, t.repetitions);
    EXPECT_DOUBLE_EQ(r.measured.timing.median_s, t.median_s);
    EXPECT_DOUBLE_EQ(r.measured.timing.min_s, t.min_s);
    EXPECT_DOUBLE_EQ(r.measured.timing.max_s, t.max_s);
  }
}

// A case beside its reference implementation of the same work (ROOFLINT_VERIFY_REFERENCE): the recorded
// gather-like case (16x the reads, 2 ms) against the recorded saxpy (t_min / median from the recording)
// states the same work (the same spec and sizes), so both fractions, the time ratio and the bytes per
// level are set side by side; the JSON carries them, and the report's reader reads them back.
TEST(ReportReference, SetsACaseBesideItsReferenceOfTheSameWork) {
  run_report run = recorded_run();
  pair_references(run, {{"gather_stride33", "saxpy_n64M"}, {"saxpy_n64M", "not_a_case"}});
  const case_report& good = run.cases[0];
  const case_report& bad = run.cases[1];
  ASSERT_TRUE(bad.reference);
  EXPECT_EQ(bad.reference->name, "saxpy_n64M");
  EXPECT_DOUBLE_EQ(bad.reference->roofline_fraction, good.compared.roofline_fraction);
  EXPECT_DOUBLE_EQ(bad.reference->t_measured_s, good.compared.t_measured_s);
  const auto remark = std::find_if(bad.findings.begin(), bad.findings.end(), [](const finding& f) { return f.id == "rooflint-reference"; });
  ASSERT_NE(remark, bad.findings.end());
  EXPECT_EQ(remark->level, severity::remark);
  // 2 ms against the recorded saxpy's median: the time ratio is their quotient.
  const std::string ratio = model::format_significant(2e-3 / good.compared.t_measured_s, 3) + "x the reference's";
  EXPECT_NE(remark->message.find("reference 'saxpy_n64M' reaches " + fmt::format("{:.1f}%", 100 * good.compared.roofline_fraction)),
            std::string::npos) << remark->message;
  EXPECT_NE(remark->message.find(ratio), std::string::npos) << remark->message;
  EXPECT_NE(remark->message.find("DRAM "), std::string::npos) << remark->message;
  // A reference the run did not measure: said, never a failure.
  EXPECT_FALSE(good.reference);
  EXPECT_EQ(good.status, case_status::passed);
  EXPECT_NE(to_table(run).find("reference 'not_a_case' was not measured in this run"), std::string::npos);

  std::string error;
  const auto read = verify_report::from_json(to_json(run), "paired", error);
  ASSERT_TRUE(read) << error;
  ASSERT_TRUE(read->cases[1].reference);
  EXPECT_EQ(read->cases[1].reference->name, "saxpy_n64M");
  EXPECT_DOUBLE_EQ(read->cases[1].reference->roofline_fraction, good.compared.roofline_fraction);
}

// A reference whose spec states other work (saxpy at another size) is not compared: a warning says so.
TEST(ReportReference, AReferenceOfOtherWorkIsNotCompared) {
  run_report run = recorded_run();
  dsl::sizes half = saxpy_sizes();
  half.values[0] /= 2;
  case_report smaller = compare({"saxpy_half", &saxpy_spec, half}, recorded_saxpy(), run.peaks, tolerances_for(saxpy_spec, 0));
  run.cases.push_back(smaller);
  pair_references(run, {{"saxpy_n64M", "saxpy_half"}});
  EXPECT_FALSE(run.cases[0].reference);
  const auto w = std::find_if(run.cases[0].findings.begin(), run.cases[0].findings.end(), [](const finding& f) { return f.id == "rooflint-reference"; });
  ASSERT_NE(w, run.cases[0].findings.end());
  EXPECT_EQ(w->level, severity::warning);
  EXPECT_NE(w->message.find("states other work"), std::string::npos) << w->message;
}
