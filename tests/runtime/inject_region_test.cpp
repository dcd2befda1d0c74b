// Regions under rooflint-verify -- ./program (rooflint/runtime/inject.h): the manifest's regions read
// back (schema version 3), the grouping of a launch sequence into region instances (synthetic launch
// records, as the injection library feeds them), and the report of instances measured as one unit.
//
// data/inject-region.manifest.json was written by this tree's analyzer (2026-12-01):
//   build/analyzer/rooflint --manifest tests/runtime/data/inject-region.manifest.json \
//     tests/runtime/data/inject-region.cu -- -std=c++20 -Idsl/include -Imodel/include -Itests/analyzer/inputs -nocudainc -nocudalib

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "rooflint/runtime/inject.h"
#include "inject_support.h"
#include "rooflint/runtime/report.h"

using namespace rooflint;
using namespace rooflint::runtime;
using namespace rooflint::runtime::inject;
using namespace rooflint::inject_test;

namespace {

const std::string manifest_path = std::string(ROOFLINT_TEST_DATA_DIR) + "/inject-region.manifest.json";

std::vector<manifest_kernel> example() { return recorded_manifest("inject-region.manifest.json"); }

// Mangled names (Itanium) of the kernels of data/inject-region.cu.
const std::string row_max = "_Z7row_maxPKfPfi", row_sum = "_Z7row_sumPKfS0_Pfi",
                  normalise = "_Z9normalisePKfS0_S0_Pfi", axpy = "_Z4axpyifPKfPf",
                  prologue = "_Z13gemm_prologuePKfPfii";
const std::string cublas = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32";

/// The tracker of the manifest's regions that read sizes from launches (as the injection library builds it).
region_tracker tracker_of(const std::vector<manifest_kernel>& ks, std::vector<std::string>* names = nullptr) {
  std::vector<std::vector<manifest_region_kernel>> regions;
  for (const auto& k : ks)
    if (k.is_region() && k.spec.launch.kind != dsl::binding_kind::none) {
      regions.push_back(k.region);
      if (names) names->push_back(k.kernel_name);
    }
  return region_tracker(std::move(regions));
}

launch_record on(const std::string& symbol, std::uint64_t stream = 7, std::uint64_t thread = 1, bool annotated = false) {
  return {symbol, stream, thread, annotated};
}

/// The steps of @p seq as "region:position[b][c]" or "-" (none), with "!r" for an abandoned instance.
std::vector<std::string> steps(region_tracker t, const std::vector<launch_record>& seq) {
  std::vector<std::string> out;
  for (const auto& l : seq) {
    const region_step s = t.on_launch(l);
    std::string text = s.abandoned >= 0 ? "!" + std::to_string(s.abandoned) + " " : "";
    text += s.region < 0 ? "-" : std::to_string(s.region) + ":" + std::to_string(s.position) + (s.begins ? "b" : "") + (s.completes ? "c" : "");
    out.push_back(text);
  }
  return out;
}

/// A measured instance of softmax_3pass at R rows of C floats reading the matrix @p passes times.
measurement softmax_instance(double r, double c, double passes, double seconds) {
  measurement m = measured_dram(passes * 4 * r * c, 4 * r * c, seconds);
  m.counters.ranges_expected = 3;
  return m;
}

}  // namespace

TEST(InjectRegionManifest, ReadsRegionsWithTheirKernelsAndSite) {
  const auto ks = example();
  ASSERT_EQ(ks.size(), 4u);
  const manifest_kernel& s = kernel_named(ks, "softmax_3pass");
  ASSERT_TRUE(s.is_region());
  EXPECT_EQ(s.mangled_name, region_key("softmax_3pass"));
  ASSERT_EQ(s.region.size(), 3u);
  EXPECT_EQ(s.region[0].mangled_name, row_max);
  EXPECT_EQ(s.region[2].mangled_name, normalise);
  EXPECT_EQ(s.spec.region.kernel_count, 3);
  EXPECT_EQ(s.spec.launches(), 3);
  EXPECT_EQ(s.spec.launch.kind, dsl::binding_kind::region);
  // The spec rebuilt from spec_value counts as the DSL does: 8 bytes per element, R*C elements.
  dsl::launch_values v;
  v.grid = {65536, 1, 1};
  v.args[2] = 4096;
  v.has_arg[2] = true;
  const auto b = s.spec.bind_launch(v);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(s.spec.bytes_at(b.bound), 8.0 * 65536 * 4096);
  // Sizes are read with the parameters of the site kernel (row_max: x, m, cols).
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params[2].name, "cols");
  const manifest_kernel& lib = kernel_named(ks, "sgemm_lib");
  ASSERT_EQ(lib.region.size(), 1u);
  EXPECT_TRUE(lib.region[0].library);
  EXPECT_EQ(lib.region[0].pattern, "gemm");
  EXPECT_EQ(lib.spec.launch.kind, dsl::binding_kind::none);
  EXPECT_FALSE(kernel_named(ks, "axpy").is_region());
}

TEST(InjectRegionManifest, VersionTwoManifestsStillRead) {
  auto ks = read_manifest(std::string(ROOFLINT_TEST_DATA_DIR) + "/inject-example.manifest.json");
  ASSERT_TRUE(ks.ok()) << ks.err().message;
  for (const auto& k : *ks) EXPECT_FALSE(k.is_region());
}

TEST(InjectRegionManifest, RefusesARegionSizeReadAtALibraryKernel) {
  std::ifstream in(manifest_path);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // prologue_gemm reads M at kernel 0; move it to kernel 1, the library's GEMM.
  nlohmann::json doc = nlohmann::json::parse(text);
  for (auto& k : doc["kernels"])
    if (k["name"] == "prologue_gemm") k["launch"]["sizes"][0]["site"] = 1;
  text = doc.dump();
  const auto ks = parse_manifest(text, "edited.json");
  ASSERT_FALSE(ks.ok());
  EXPECT_NE(ks.err().message.find("'launch/sizes/0/site' reads the size of 'M' at kernel 1, which is not one of the region's kernels given by function"), std::string::npos)
      << ks.err().message;
}

TEST(InjectRegionTracker, GroupsConsecutiveLaunchesIntoInstances) {
  std::vector<std::string> names;
  const region_tracker t = tracker_of(example(), &names);
  ASSERT_EQ(names, (std::vector<std::string>{"softmax_3pass", "prologue_gemm"}));  // sgemm_lib reads no sizes
  // Two instances back to back, an unannotated kernel between them and after.
  EXPECT_EQ(steps(t, {on(row_max), on(row_sum), on(normalise), on("_Z5otherv"), on(row_max), on(row_sum), on(normalise)}),
            (std::vector<std::string>{"0:0b", "0:1", "0:2c", "-", "0:0b", "0:1", "0:2c"}));
}

TEST(InjectRegionTracker, AnotherLaunchInsideAnInstanceAbandonsIt) {
  const region_tracker t = tracker_of(example());
  // An axpy between row_sum and normalise: the instance is abandoned; normalise alone is no instance.
  EXPECT_EQ(steps(t, {on(row_max), on(row_sum), on(axpy, 7, 1, true), on(normalise)}),
            (std::vector<std::string>{"0:0b", "0:1", "!0 -", "-"}));
  // A kernel of the region out of order: row_max twice restarts the instance at the second.
  EXPECT_EQ(steps(t, {on(row_max), on(row_max), on(row_sum), on(normalise)}),
            (std::vector<std::string>{"0:0b", "!0 0:0b", "0:1", "0:2c"}));
}

TEST(InjectRegionTracker, AnInstanceStaysOnItsStreamAndThread) {
  const region_tracker t = tracker_of(example());
  EXPECT_EQ(steps(t, {on(row_max, 7), on(row_sum, 8)}), (std::vector<std::string>{"0:0b", "!0 -"}));
  EXPECT_EQ(steps(t, {on(row_max, 7, 1), on(row_sum, 7, 2)}), (std::vector<std::string>{"0:0b", "!0 -"}));
  region_tracker u = tracker_of(example());
  u.on_launch(on(row_max, 7));
  EXPECT_EQ(u.on_launch(on(row_sum, 8)).abandoned_reason, "kernel 2 of 3 was launched on another stream than the instance's first kernel");
  u.on_launch(on(row_max, 7));
  EXPECT_EQ(u.open_region(), 0);  // the program ended here: an instance is still open
}

TEST(InjectRegionTracker, LibraryKernelsMatchByPatternButNotAnnotatedKernels) {
  const region_tracker t = tracker_of(example());
  // prologue_gemm: our prologue then cuBLAS's GEMM, whose symbol contains "xmma_gemm".
  EXPECT_EQ(steps(t, {on(prologue), on(cublas)}), (std::vector<std::string>{"1:0b", "1:1c"}));
  // A kernel of ours whose name contains the pattern but that has a spec of its own is not the library's.
  EXPECT_EQ(steps(t, {on(prologue), on("_Z9xmma_gemmv", 7, 1, true)}), (std::vector<std::string>{"1:0b", "!1 -"}));
}

TEST(InjectRegionTracker, AOneKernelRegionOpensAndClosesAtOneLaunch) {
  manifest_region_kernel gemm;
  gemm.library = true;
  gemm.pattern = "gemm";
  region_tracker t({{gemm}});
  EXPECT_EQ(steps(t, {on(cublas), on("_Z5otherv"), on(cublas)}), (std::vector<std::string>{"0:0bc", "-", "0:0bc"}));
}

TEST(InjectRegionReport, AnInstanceIsOneCaseJudgedAsOneUnit) {
  const auto ks = example();
  const manifest_kernel& s = kernel_named(ks, "softmax_3pass");
  // Two instances at R = 65536, C = 4096 (1 GiB matrix): the three passes read it three times, as the
  // H200 measured for the harness's case (3.222 GB against 1.074 GB compulsory, README).
  std::vector<launch_event> events;
  for (int i = 0; i < 2; ++i) {
    launch_event e;
    e.mangled_name = s.mangled_name;
    e.bound = true;
    e.sizes = "R=65536, C=4096";
    e.size_values = {65536, 4096};
    e.measured = i == 0;
    if (i == 0) e.m = softmax_instance(65536, 4096, 3, 1.58e-3);
    events.push_back(e);
  }
  launch_event abandoned;
  abandoned.mangled_name = s.mangled_name;
  abandoned.bound = true;
  abandoned.not_measured = "instance not complete: another kernel ('_Z5otherv') was launched where kernel 2 of 3 was expected";
  events.push_back(abandoned);
  verify_options o;
  const program_report r = make_program_report(ks, events, o, {});
  ASSERT_EQ(r.run.cases.size(), 1u);
  const case_report& c = r.run.cases[0];
  EXPECT_EQ(c.name, "softmax_3pass [R=65536, C=4096]");
  // 3 x 1 GiB read against 1 GiB compulsory: the traffic check fails, as in the harness.
  EXPECT_EQ(c.status, case_status::failed);
  bool launches_remark = false;
  for (const finding& f : c.findings)
    launches_remark |= f.message == "region 'softmax_3pass': 3 instances seen, 1 measured; one not measured: " + abandoned.not_measured;
  EXPECT_TRUE(launches_remark);
  // prologue_gemm never ran an instance.
  bool never = false;
  for (const std::string& m : r.remarks) never |= m.find("region 'prologue_gemm' is annotated but no complete instance of it was launched") != std::string::npos;
  EXPECT_TRUE(never);
}

namespace {
region_step at(int position, bool begins, bool completes = false) {
  region_step s;
  s.region = 0;
  s.position = position;
  s.begins = begins;
  s.completes = completes;
  return s;
}
}  // namespace

TEST(InjectRegionWindow, OpensAtTheFirstKernelUnlessTheSizesThereSayNot) {
  // Sizes read at kernel 0 (softmax_3pass): a new (region, sizes) opens the window and counts.
  region_window w = plan_region_window(at(0, true), 0, true, false, false, false);
  EXPECT_TRUE(w.open);
  EXPECT_TRUE(w.count);
  // A repeat, or sizes that did not bind: no window at all.
  EXPECT_FALSE(plan_region_window(at(0, true), 0, true, true, false, false).open);
  EXPECT_FALSE(plan_region_window(at(0, true), 0, false, false, false, false).open);
  // Another launch holds the window: seen, not measured.
  w = plan_region_window(at(0, true), 0, true, false, true, false);
  EXPECT_FALSE(w.open);
  EXPECT_TRUE(w.busy_elsewhere);
  // The later kernels of a counted instance change nothing.
  w = plan_region_window(at(1, false), 0, true, false, true, true);
  EXPECT_FALSE(w.open || w.close_unused || w.count);
}

TEST(InjectRegionWindow, SizesReadAtALaterKernelCloseAnUnwantedWindowThere) {
  // Sizes read at kernel 2: the window opens at kernel 0 before they are known ...
  EXPECT_TRUE(plan_region_window(at(0, true), 2, false, false, false, false).open);
  EXPECT_FALSE(plan_region_window(at(1, false), 2, false, false, true, true).close_unused);
  // ... and closes unused at kernel 2 when they are a repeat or do not bind; else the instance counts.
  EXPECT_TRUE(plan_region_window(at(2, false, true), 2, true, true, true, true).close_unused);
  EXPECT_TRUE(plan_region_window(at(2, false, true), 2, false, false, true, true).close_unused);
  const region_window w = plan_region_window(at(2, false, true), 2, true, false, true, true);
  EXPECT_FALSE(w.close_unused);
  EXPECT_TRUE(w.count);
}

TEST(InjectRegionReport, AKernelOfARegionWithASpecOfItsOwnIsJudgedWithTheRegion) {
  auto ks = example();
  // A spec of row_max alone, beside the region that runs it first.
  manifest_kernel alone = kernel_named(ks, "axpy");
  alone.kernel_name = "row_max_alone";
  alone.mangled_name = row_max;
  ks.push_back(alone);
  const program_report r = make_program_report(ks, {}, verify_options{}, {});
  bool said = false, never = false;
  for (const std::string& m : r.remarks) {
    said |= m == "kernel 'row_max_alone' is a kernel of region 'softmax_3pass': its launches are judged with the region, not alone [rooflint-launches]";
    never |= m.find("kernel 'row_max_alone' is annotated but was never launched") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_FALSE(never);
}
