/// Tests of the ceilings file (dsl/src/ceilings_file.cpp): round trip, rejection of bad files with
/// what and where, and the model's peaks and ridge from a recorded file. Host only: no GPU, no CUDA.

#include "rooflint/files/ceilings_file.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>

#include "io_limits.h"
#include "rooflint/model/roofline.h"

namespace {

using rooflint::ceilings::ceilings_file;
using rooflint::ceilings::from_json;
using rooflint::ceilings::load;
using rooflint::model::math_mode;

const std::string recorded = std::string(ROOFLINT_TEST_DATA_DIR) + "/h200-ceilings.json";

ceilings_file full_file() {
  ceilings_file f;
  f.created_utc = "2026-11-30T03:00:00Z";
  f.rooflint_version = "0.1.0";
  f.mode = "quick";
  f.device = {"NVIDIA H200", "GPU-aa", "9.0", 132, 62914560, 150754820096, "580.159.04", "13.0", "13.0.0"};
  rooflint::ceilings::clock_state c;
  c.sm_mhz_min = 1560;
  c.sm_mhz_max = 1980;
  c.memory_mhz = 3201;
  c.sm_max_mhz = 1980;
  c.power_w_max = 690.5;
  c.power_limit_w = 700;
  c.temperature_c_max = 61;
  c.throttle_reasons = {"sw_power_cap", "hw_slowdown"};
  c.persistence_mode = true;
  c.ecc_enabled = true;
  f.clocks = c;
  f.bandwidth_bytes_per_s = 4.1e12;
  f.bandwidth_probe_name = "copy_float4";
  f.bandwidth_probes = {{"copy_float4", 4.1e12, 0.004, 4294967296.0, "1056x512"},
                        {"memcpy_d2d", 3.9e12, 0.01, 4294967296.0, ""}};
  f.bandwidth_probes.push_back({"read_l2_cg_float4", 1.0e13, 0.01, 25165824.0, "1056x512", "l2", "read"});
  f.level(rooflint::model::memory_level::dram) = {{4.3e12, "read_float4"}, {4.0e12, "write_float4"}, {4.1e12, "copy_float4"}};
  f.level(rooflint::model::memory_level::l2) = {{1.0e13, "read_l2_cg_float4"}, {8e12, "write_l2_float4"}, {}};
  f.level(rooflint::model::memory_level::l1) = {{3.0e13, "read_l1_float4"}, {}, {}};
  f.compute[math_mode::fp32_simt] = rooflint::ceilings::compute_ceiling{6.5e13, "ffma_chains", "", 1980, true};
  f.compute[math_mode::fp8_tensor] =
      rooflint::ceilings::compute_ceiling{1.3e15, "cublaslt", "8192x8192x16384", 1605, false};
  return f;
}

std::string parse_error(const std::string& text) {
  std::string error;
  EXPECT_FALSE(from_json(text, error).has_value()) << text;
  return error;
}

std::string read_recorded() {
  std::ifstream in(recorded);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(CeilingsFile, RoundTripKeepsEveryField) {
  const ceilings_file f = full_file();
  std::string error;
  const auto back = from_json(rooflint::ceilings::to_json(f), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->version, 2);
  EXPECT_TRUE(back->notes.empty());
  EXPECT_EQ(back->created_utc, f.created_utc);
  EXPECT_EQ(back->rooflint_version, "0.1.0");
  EXPECT_EQ(back->mode, "quick");
  EXPECT_EQ(back->device.name, "NVIDIA H200");
  EXPECT_EQ(back->device.uuid, "GPU-aa");
  EXPECT_EQ(back->device.compute_capability, "9.0");
  EXPECT_EQ(back->device.sm_count, 132);
  EXPECT_EQ(back->device.l2_bytes, 62914560);
  EXPECT_EQ(back->device.dram_bytes, 150754820096);
  EXPECT_EQ(back->device.driver_version, "580.159.04");
  EXPECT_EQ(back->device.cuda_runtime_version, "13.0");
  EXPECT_EQ(back->device.cublas_version, "13.0.0");
  ASSERT_TRUE(back->clocks);
  EXPECT_EQ(back->clocks->sm_mhz_min, 1560);
  EXPECT_EQ(back->clocks->sm_mhz_max, 1980);
  EXPECT_EQ(back->clocks->memory_mhz, 3201);
  EXPECT_EQ(back->clocks->sm_max_mhz, 1980);
  EXPECT_EQ(back->clocks->power_w_max, 690.5);
  EXPECT_EQ(back->clocks->power_limit_w, 700);
  EXPECT_EQ(back->clocks->temperature_c_max, 61);
  EXPECT_EQ(back->clocks->throttle_reasons, (std::vector<std::string>{"sw_power_cap", "hw_slowdown"}));
  EXPECT_TRUE(back->clocks->persistence_mode);
  EXPECT_TRUE(back->clocks->ecc_enabled);
  EXPECT_EQ(back->bandwidth_bytes_per_s, 4.1e12);
  EXPECT_EQ(back->bandwidth_probe_name, "copy_float4");
  ASSERT_EQ(back->bandwidth_probes.size(), 3u);
  EXPECT_EQ(back->bandwidth_probes[0].level, "dram");      // written from the name when left empty
  EXPECT_EQ(back->bandwidth_probes[0].direction, "copy");
  EXPECT_EQ(back->bandwidth_probes[2].level, "l2");
  EXPECT_EQ(back->bandwidth_probes[2].direction, "read");
  using rooflint::model::memory_level;
  EXPECT_EQ(back->level(memory_level::dram).read.bytes_per_s, 4.3e12);
  EXPECT_EQ(back->level(memory_level::dram).write.probe, "write_float4");
  EXPECT_EQ(back->level(memory_level::dram).copy.bytes_per_s, 4.1e12);
  EXPECT_EQ(back->level(memory_level::l2).read.probe, "read_l2_cg_float4");
  EXPECT_EQ(back->level(memory_level::l2).copy.bytes_per_s, 0);
  EXPECT_EQ(back->level(memory_level::l1).read.bytes_per_s, 3.0e13);
  const auto peaks = back->peaks();
  EXPECT_EQ(peaks.level(memory_level::l2).write_bytes_per_s, 8e12);
  EXPECT_EQ(peaks.level(memory_level::l1).read_bytes_per_s, 3.0e13);
  EXPECT_EQ(back->bandwidth_probes[0].name, "copy_float4");
  EXPECT_EQ(back->bandwidth_probes[0].bytes_per_s, 4.1e12);
  EXPECT_EQ(back->bandwidth_probes[0].spread, 0.004);
  EXPECT_EQ(back->bandwidth_probes[0].working_set_bytes, 4294967296.0);
  EXPECT_EQ(back->bandwidth_probes[0].launch, "1056x512");
  EXPECT_EQ(back->bandwidth_probes[1].name, "memcpy_d2d");
  ASSERT_TRUE(back->compute[math_mode::fp32_simt]);
  EXPECT_EQ(back->compute[math_mode::fp32_simt]->flops_per_s, 6.5e13);
  EXPECT_EQ(back->compute[math_mode::fp32_simt]->probe, "ffma_chains");
  EXPECT_EQ(back->compute[math_mode::fp32_simt]->shape, "");
  EXPECT_TRUE(back->compute[math_mode::fp32_simt]->sustained);
  ASSERT_TRUE(back->compute[math_mode::fp8_tensor]);
  EXPECT_EQ(back->compute[math_mode::fp8_tensor]->shape, "8192x8192x16384");
  EXPECT_EQ(back->compute[math_mode::fp8_tensor]->sm_mhz, 1605);
  EXPECT_FALSE(back->compute[math_mode::fp8_tensor]->sustained);
  EXPECT_FALSE(back->compute[math_mode::bf16_tensor]);
  EXPECT_EQ(rooflint::ceilings::to_json(*back), rooflint::ceilings::to_json(f));
}

TEST(CeilingsFile, WritesTheDocumentedKeys) {
  const std::string text = rooflint::ceilings::to_json(full_file());
  EXPECT_EQ(text.rfind("{\n  \"schema\": \"rooflint-ceilings\",\n  \"version\": 2,", 0), 0u) << text;
  EXPECT_NE(text.find("\"fp32_simt\": {"), std::string::npos);
  EXPECT_NE(text.find("\"shape\": null"), std::string::npos) << "a non-matmul probe has a null shape";
  EXPECT_NE(text.find("\"grid\": \"1056x512\""), std::string::npos);
}

TEST(CeilingsFile, MissingClocksRoundTripAsNull) {
  ceilings_file f = full_file();
  f.clocks.reset();
  const std::string text = rooflint::ceilings::to_json(f);
  EXPECT_NE(text.find("\"clocks\": null"), std::string::npos);
  std::string error;
  const auto back = from_json(text, error);
  ASSERT_TRUE(back) << error;
  EXPECT_FALSE(back->clocks);
}

TEST(CeilingsFile, MalformedJsonIsRejectedWithTheByteOffset) {
  const std::string error = parse_error("{\"schema\": \"rooflint-ceilings\",\n \"version\": }");
  EXPECT_EQ(error.rfind("malformed JSON at byte 44 (line 2, column 13): ", 0), 0u) << error;
}

TEST(CeilingsFile, TopLevelThatIsNotAnObjectIsRejected) {
  EXPECT_EQ(parse_error("[1, 2]"), "not a ceilings file: the top level is an array, not an object");
}

TEST(CeilingsFile, WrongSchemaIsRejected) {
  const std::string error = parse_error(replaced(read_recorded(), "\"rooflint-ceilings\"", "\"rooflint-manifest\""));
  EXPECT_EQ(error, "'schema' is \"rooflint-manifest\", not \"rooflint-ceilings\": not a rooflint ceilings file");
}

TEST(CeilingsFile, MissingSchemaIsRejected) {
  EXPECT_EQ(parse_error("{\"version\": 1}"), "'/schema' is missing");
}

TEST(CeilingsFile, UnknownVersionIsRejected) {
  const std::string error = parse_error(replaced(read_recorded(), "\"version\": 1", "\"version\": 3"));
  EXPECT_EQ(error.rfind("unsupported version 3 (this rooflint reads versions 1 to 2)", 0), 0u) << error;
}

TEST(CeilingsFile, VersionThatIsNotAnIntegerIsRejected) {
  const std::string error = parse_error(replaced(read_recorded(), "\"version\": 1", "\"version\": \"1\""));
  EXPECT_EQ(error, "'/version' must be an integer, not a string");
}

TEST(CeilingsFile, WrongTypeIsRejectedWithItsJsonPointer) {
  const std::string error =
      parse_error(replaced(read_recorded(), "\"flops_per_s\": 6.4e13", "\"flops_per_s\": \"64 TFLOP/s\""));
  EXPECT_EQ(error, "'/compute/fp32_simt/flops_per_s' must be a number, not a string");
}

TEST(CeilingsFile, MissingBandwidthIsRejected) {
  const std::string error = parse_error(
      "{\"schema\": \"rooflint-ceilings\", \"version\": 1, \"device\": {\"name\": \"NVIDIA H200\"}}");
  EXPECT_EQ(error, "'/bandwidth' is missing");
}

TEST(CeilingsFile, MissingDeviceNameIsRejected) {
  const std::string error = parse_error(replaced(read_recorded(), "\"name\": \"NVIDIA H200\", ", ""));
  EXPECT_EQ(error, "'/device/name' is missing");
}

TEST(CeilingsFile, ZeroBandwidthIsRejected) {
  const std::string error =
      parse_error(replaced(read_recorded(), "\"bytes_per_s\": 4.0e12, \"probe\"", "\"bytes_per_s\": 0, \"probe\""));
  EXPECT_EQ(error, "'/bandwidth/bytes_per_s' is 0, outside the plausible range 1e+09 to 1e+15") << error;
}

TEST(CeilingsFile, UnknownMathModeIsRejected) {
  const std::string error = parse_error(replaced(read_recorded(), "\"fp64\":", "\"fp4_tensor\":"));
  EXPECT_EQ(error.rfind("'/compute/fp4_tensor' is not a math mode; known math modes: 'fp64', ", 0), 0u) << error;
}

TEST(CeilingsFile, BadProbeEntryIsRejectedWithItsIndex) {
  const std::string error =
      parse_error(replaced(read_recorded(), "{\"name\": \"read_float4\", ", "{\"name\": 7, "));
  EXPECT_EQ(error, "'/bandwidth/probes/1/name' must be a string, not a number");
}

TEST(CeilingsFile, MissingFileIsRejected) {
  std::string error;
  EXPECT_FALSE(load("/nonexistent/rooflint-ceilings.json", error));
  EXPECT_EQ(error, "cannot read '/nonexistent/rooflint-ceilings.json': " + std::string(std::strerror(ENOENT)));
}

TEST(CeilingsFile, LoadErrorsNameTheFile) {
  const auto path = std::filesystem::temp_directory_path() / "rooflint-ceilings-malformed-test.json";
  std::ofstream(path) << "{";
  std::string error;
  EXPECT_FALSE(load(path.string(), error));
  EXPECT_EQ(error.rfind("'" + path.string() + "': malformed JSON at byte 1 (line 1, column 2): ", 0), 0u) << error;
  std::filesystem::remove(path);
}

TEST(CeilingsFile, SaveThenLoadGivesTheSameFile) {
  const auto path = std::filesystem::temp_directory_path() / "rooflint-ceilings-save-test.json";
  std::string error;
  ASSERT_TRUE(rooflint::ceilings::save(full_file(), path.string(), error)) << error;
  const auto back = load(path.string(), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(rooflint::ceilings::to_json(*back), rooflint::ceilings::to_json(full_file()));
  std::filesystem::remove(path);
}

TEST(CeilingsFile, SaveToAnUnwritablePathFailsWithTheReason) {
  std::string error;
  EXPECT_FALSE(rooflint::ceilings::save(full_file(), "/nonexistent/dir/c.json", error));
  EXPECT_EQ(error, "cannot write '/nonexistent/dir/c.json': cannot create a file in '/nonexistent/dir': " +
                       std::string(std::strerror(ENOENT)));
}

// rooflint-ceilings keeps the figures of probes it did not run from the old file: a save that fails
// half-way must leave that file as it was, not truncated.
TEST(CeilingsFile, ASaveThatFailsLeavesTheOldFileWhole) {
  const auto dir = rooflint::test::scratch_dir("save");
  const std::string path = (dir / "c.json").string();
  std::string error;
  ASSERT_TRUE(rooflint::ceilings::save(full_file(), path, error)) << error;
  const std::string before = rooflint::test::read_text(path);
  ceilings_file bigger = full_file();
  bigger.bandwidth_probes.resize(200, bigger.bandwidth_probes.front());  // well past the limit below
  const auto [status, message] = rooflint::test::in_child([&] {
    std::string why;
    return rooflint::ceilings::save(bigger, path, why) ? std::string("saved") : why;
  }, before.size() + 100);
  EXPECT_EQ(message, "cannot write '" + path + "': " + std::strerror(EFBIG));
  EXPECT_EQ(rooflint::test::read_text(path), before);
}

TEST(CeilingsFile, ANonFiniteFigureIsNotWritten) {
  const auto dir = rooflint::test::scratch_dir("inf");
  const std::string path = (dir / "c.json").string();
  ceilings_file f = full_file();
  f.compute[math_mode::fp32_simt]->flops_per_s = std::numeric_limits<double>::infinity();
  std::string error;
  EXPECT_FALSE(rooflint::ceilings::save(f, path, error));
  EXPECT_EQ(error, "cannot write '" + path + "': '/compute/fp32_simt/flops_per_s' is not a finite number");
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(CeilingsFilePeaks, RecordedFileGivesMeasuredPeaks) {
  std::string error;
  const auto f = load(recorded, error);
  ASSERT_TRUE(f) << error;
  const rooflint::model::peaks p = f->peaks();
  EXPECT_EQ(p.device, "NVIDIA H200");
  EXPECT_EQ(p.source, rooflint::model::peak_source::measured);
  EXPECT_EQ(p.dram_bytes_per_s, 4.0e12);
  EXPECT_EQ(p.flops_per_s[math_mode::fp32_simt], 6.4e13);
  EXPECT_EQ(p.flops_per_s[math_mode::bf16_tensor], 8.0e14);
  EXPECT_FALSE(p.has(math_mode::fp16_tensor)) << "modes absent from the file stay unknown";
}

TEST(CeilingsFilePeaks, RidgeFromARecordedFileIsFlopsOverBandwidth) {
  std::string error;
  const auto f = load(recorded, error);
  ASSERT_TRUE(f) << error;
  const rooflint::model::peaks p = f->peaks();
  // 6.4e13 / 4.0e12 = 16, 8.0e14 / 4.0e12 = 200, 3.2e13 / 4.0e12 = 8 FLOP/byte.
  EXPECT_DOUBLE_EQ(rooflint::model::ridge(p, math_mode::fp32_simt), 16.0);
  EXPECT_DOUBLE_EQ(rooflint::model::ridge(p, math_mode::bf16_tensor), 200.0);
  EXPECT_DOUBLE_EQ(rooflint::model::ridge(p, math_mode::fp64), 8.0);
}

TEST(CeilingsFilePeaks, SaxpyIsMemoryBoundAgainstARecordedFile) {
  std::string error;
  const auto f = load(recorded, error);
  ASSERT_TRUE(f) << error;
  // saxpy on 2^26 floats: 2 FLOP and 12 bytes per element, intensity 1/6 below the ridge 16.
  const double n = 1 << 26;
  const rooflint::model::workload w{2 * n, 12 * n, math_mode::fp32_simt};
  const auto r = rooflint::model::classify(w, f->peaks());
  EXPECT_EQ(r.verdict, rooflint::model::bound::memory);
  EXPECT_DOUBLE_EQ(r.t_min_s, 12 * n / 4.0e12);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Version 1 still read; values outside their plausible range refused by name.

TEST(CeilingsFile, VersionOneIsReadWithANoteAndItsDramRoofsFromProbeNames) {
  std::string error;
  const auto f = from_json(read_recorded(), error);
  ASSERT_TRUE(f) << error;
  EXPECT_EQ(f->version, 1);
  ASSERT_EQ(f->notes.size(), 1u);
  EXPECT_NE(f->notes[0].find("version 1"), std::string::npos) << f->notes[0];
  using rooflint::model::memory_level;
  // The recorded file's probes: copy_float4 4.0e12 and read_float4 4.2e12; no write probe.
  EXPECT_EQ(f->level(memory_level::dram).copy.bytes_per_s, 4.0e12);
  EXPECT_EQ(f->level(memory_level::dram).read.bytes_per_s, 4.2e12);
  EXPECT_EQ(f->level(memory_level::dram).read.probe, "read_float4");
  EXPECT_EQ(f->level(memory_level::dram).write.bytes_per_s, 0);
  EXPECT_FALSE(f->level(memory_level::l2).read.bytes_per_s > 0);
  EXPECT_EQ(f->bandwidth_probes[1].direction, "read");
}

TEST(CeilingsFile, VersionTwoWithoutLevelsIsRejected) {
  std::string text = replaced(read_recorded(), "\"version\": 1", "\"version\": 2");
  text = replaced(text, "\"grid\": \"1056x512\"}", "\"grid\": \"1056x512\", \"level\": \"dram\", \"direction\": \"copy\"}");
  text = replaced(text, "\"grid\": \"1056x512\"}", "\"grid\": \"1056x512\", \"level\": \"dram\", \"direction\": \"read\"}");
  EXPECT_EQ(parse_error(text), "'/levels' is missing");
}

TEST(CeilingsFile, AVersionBeyondThirtyTwoBitsIsNotReadAsOne) {
  // 4294967297 = 2^32 + 1: read through a 32-bit int it was 1.
  const std::string error = parse_error(replaced(read_recorded(), "\"version\": 1", "\"version\": 4294967297"));
  EXPECT_NE(error.find("unsupported version"), std::string::npos) << error;
  EXPECT_NE(error.find("4294967297"), std::string::npos) << error;
}

TEST(CeilingsFile, VersionsBelowTheOldestAreUnsupportedByValue) {
  // Versions 1 and 2 are read; 0, a negative one and one beyond INT64_MAX (read as unsigned) are each
  // "unsupported version V", with V as written.
  for (const std::string v : {"0", "-1", "18446744073709551615"}) {
    const std::string error = parse_error(replaced(read_recorded(), "\"version\": 1", "\"version\": " + v));
    EXPECT_EQ(error.rfind("unsupported version " + v + " (this rooflint reads versions 1 to 2)", 0), 0u) << error;
  }
}

TEST(CeilingsFile, AnSmCountBeyondThirtyTwoBitsIsNotTruncated) {
  // 4294967428 = 2^32 + 132: truncated it was 132.
  const std::string error = parse_error(replaced(read_recorded(), "\"sm_count\": 132", "\"sm_count\": 4294967428"));
  EXPECT_EQ(error, "'/device/sm_count' is 4294967428, outside the range 1 to 10000");
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"sm_count\": 132", "\"sm_count\": 0")),
            "'/device/sm_count' is 0, outside the range 1 to 10000");
}

TEST(CeilingsFile, AnEmptyDeviceNameIsRejected) {
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"name\": \"NVIDIA H200\"", "\"name\": \"\"")), "'/device/name' is empty");
}

TEST(CeilingsFile, ARateOutsideItsPlausibleRangeIsRejectedByFieldAndValue) {
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"flops_per_s\": 6.4e13", "\"flops_per_s\": 1e-300")),
            "'/compute/fp32_simt/flops_per_s' is 1e-300, outside the plausible range 1e+09 to 1e+18");
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"bytes_per_s\": 4.0e12, \"probe\"", "\"bytes_per_s\": 5e-324, \"probe\"")),
            "'/bandwidth/bytes_per_s' is 5e-324, outside the plausible range 1e+09 to 1e+15");
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"bytes_per_s\": 4.2e12", "\"bytes_per_s\": -4.2e12")),
            "'/bandwidth/probes/1/bytes_per_s' is -4.2e+12, outside the plausible range 1e+09 to 1e+15");
  EXPECT_EQ(parse_error(replaced(read_recorded(), "\"sm_mhz_max\": 1980", "\"sm_mhz_max\": 1e9")),
            "'/clocks/sm_mhz_max' is 1e+09, outside the plausible range 0 to 10000");
}

TEST(CeilingsFile, ANulByteIsNamedWithItsOffset) {
  EXPECT_EQ(parse_error(std::string("\0{}", 3)),
            "not JSON text: a NUL byte at byte 0 (a binary, truncated or zero-filled file?)");
  std::string text = read_recorded();
  text[10] = '\0';
  EXPECT_EQ(parse_error(text).rfind("not JSON text: a NUL byte at byte 10", 0), 0u);
}

TEST(CeilingsFile, AnUnknownLevelIsRejected) {
  ceilings_file f = full_file();
  std::string text = replaced(rooflint::ceilings::to_json(f), "\"l1\": {", "\"l3\": {");
  EXPECT_EQ(parse_error(text), "'/levels/l3' is not a memory level; known levels: 'dram', 'l2', 'l1'");
}

// ---------------------------------------------------------------------------------------------------
// The GPU a ceilings file describes: its measured peaks, the geometry its device reported, the datasheet
// row of the same GPU for what it did not report.

TEST(CeilingsFileGpu, TheDevicesFiguresRoundTrip) {
  ceilings_file f = full_file();
  // cudaGetDeviceProperties on an H200: 233472 (228 KiB) per SM, 232448 (227 KiB) per block, 1024 reserved.
  f.device.shared_bytes_per_sm = 233472;
  f.device.shared_bytes_per_block = 232448;
  f.device.reserved_shared_bytes_per_block = 1024;
  f.device.max_threads_per_sm = 2048;
  f.device.max_blocks_per_sm = 32;
  f.device.registers_per_sm = 65536;
  f.device.warp_size = 32;
  std::string error;
  const auto back = from_json(rooflint::ceilings::to_json(f), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->device.shared_bytes_per_sm, 233472);
  EXPECT_EQ(back->device.shared_bytes_per_block, 232448);
  EXPECT_EQ(back->device.reserved_shared_bytes_per_block, 1024);
  EXPECT_EQ(back->device.max_threads_per_sm, 2048);
  EXPECT_EQ(back->device.max_blocks_per_sm, 32);
  EXPECT_EQ(back->device.registers_per_sm, 65536);
  EXPECT_EQ(back->device.warp_size, 32);
}

TEST(CeilingsFileGpu, AnOlderFileTakesWhatItLacksFromTheDatasheetRow) {
  // The recorded file (2026-11-30) has the SM count and L2 but no shared-memory figures: those are the
  // Hopper Tuning Guide's (256 KiB per SM, configurations up to 228 KiB).
  std::string error;
  const auto f = load(recorded, error);
  ASSERT_TRUE(f) << error;
  const rooflint::model::gpu g = f->gpu();
  EXPECT_EQ(g.peaks.source, rooflint::model::peak_source::measured);
  EXPECT_EQ(g.peaks.device, "NVIDIA H200");
  EXPECT_EQ(g.geometry.sm_count, 132);
  EXPECT_EQ(g.geometry.l2_bytes, 62914560);
  EXPECT_EQ(g.geometry.l1_shared_bytes_per_sm, 256 * 1024);
  EXPECT_EQ(g.geometry.shared.max_bytes(), 228 * 1024);
  EXPECT_EQ(g.geometry.registers_per_sm, 65536);
  EXPECT_TRUE(g.geometry.known());
}

TEST(CeilingsFileGpu, WhatTheDeviceReportedWinsOverTheDatasheet) {
  // An H100 SXM whose driver reports a 40 MiB L2 (a partitioned part, say): the file, not the table, is it.
  ceilings_file f = full_file();
  f.device.name = "NVIDIA H100 80GB HBM3";
  f.device.l2_bytes = 40 * 1024 * 1024;
  f.device.sm_count = 66;
  const rooflint::model::gpu g = f.gpu();
  EXPECT_EQ(g.geometry.l2_bytes, 40 * 1024 * 1024);
  EXPECT_EQ(g.geometry.sm_count, 66);
  EXPECT_EQ(g.geometry.l1_shared_bytes_per_sm, 256 * 1024);  // not reported: the datasheet row's
}

TEST(CeilingsFileGpu, AGpuOutsideTheTableHasNoCacheGeometry) {
  // Its SM count and L2 are known, its L1 and shared-memory configurations are not: no cache prediction.
  ceilings_file f = full_file();
  f.device.name = "NVIDIA RTX PRO 6000";
  f.device.shared_bytes_per_sm = 102400;
  const rooflint::model::gpu g = f.gpu();
  EXPECT_EQ(g.geometry.sm_count, 132);
  EXPECT_EQ(g.geometry.l1_shared_bytes_per_sm, 0);
  EXPECT_FALSE(g.geometry.known());
  EXPECT_DOUBLE_EQ(g.peaks.flops_per_s[math_mode::fp32_simt], 6.5e13);  // the measured peaks all the same
}

TEST(CeilingsFileGpu, ADeviceShapedUnlikeItsRowLosesTheRowsConfigurations) {
  // A device called an H200 whose largest shared configuration is 100 KiB is not the row's SM.
  ceilings_file f = full_file();
  f.device.shared_bytes_per_sm = 100 * 1024;
  EXPECT_FALSE(f.gpu().geometry.known());
}

TEST(CeilingsFile, ACharacterDeviceOrADirectoryIsRefusedUnread) {
  // /dev/zero never ends: it would be read until memory runs out.
  std::string error;
  EXPECT_FALSE(load("/dev/zero", error));
  EXPECT_EQ(error, "cannot read '/dev/zero': not a regular file (a FIFO, socket or device)");
  EXPECT_FALSE(load("/", error));
  EXPECT_EQ(error, "cannot read '/': " + std::string(std::strerror(EISDIR)));
}
