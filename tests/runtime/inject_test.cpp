// rooflint-verify's host side (rooflint/runtime/inject.h): the manifest the analyzer wrote for
// data/inject-example.cu, read back into specs; launch arguments read with the manifest's layout;
// binding problems; the injection's lines; the report of a program run; the baseline gate.
//
// data/inject-example.manifest.json (and data/real-kernels.manifest.json, from real-kernels.cu) was written by this tree's analyzer (2026-12-01):
//   build/analyzer/rooflint --manifest tests/runtime/data/inject-example.manifest.json \
//     tests/runtime/data/inject-example.cu -- -std=c++20 -Idsl/include -Imodel/include -Itests/analyzer/inputs -nocudainc -nocudalib

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "rooflint/runtime/inject.h"
#include "inject_support.h"
#include "rooflint/runtime/report.h"

using namespace rooflint;
using namespace rooflint::runtime;
using namespace rooflint::runtime::inject;
using namespace rooflint::inject_test;

namespace {

const std::string manifest_path = std::string(ROOFLINT_TEST_DATA_DIR) + "/inject-example.manifest.json";

std::vector<manifest_kernel> example() { return recorded_manifest("inject-example.manifest.json"); }

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A measured saxpy-like launch at N elements: DRAM reads 8N, stores 4N (the compulsory 12N bytes).
measurement measured_axpy(double n, double seconds) {
  measurement m = measured_dram(8 * n, 4 * n, seconds);
  m.case_name = "axpy";
  return m;
}

launch_event axpy_launch(const manifest_kernel& k, double n, std::optional<measurement> m) {
  launch_event e;
  e.mangled_name = k.mangled_name;
  e.bound = true;
  e.sizes = "N=" + std::to_string(static_cast<long long>(n));
  e.size_values = {n};
  e.measured = m.has_value();
  e.m = std::move(m);
  return e;
}

}  // namespace

TEST(InjectManifest, RebuildsEachSpecFromItsValue) {
  const auto ks = example();
  ASSERT_EQ(ks.size(), 4u);
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  EXPECT_EQ(axpy.mangled_name, "_Z4axpyifPKfPf");  // axpy(int, float, const float*, float*)
  ASSERT_EQ(axpy.params.size(), 4u);
  EXPECT_EQ(axpy.params[0].kind, rooflint::manifest::param_kind::integer);
  EXPECT_EQ(axpy.spec.launch.kind, dsl::binding_kind::kernel);
  dsl::launch_values v;
  v.args[0] = 1000;
  v.has_arg[0] = true;
  const auto r = axpy.spec.bind_launch(v);
  ASSERT_TRUE(r.ok());
  // x read (4 B), y read and written (4 + 4 B): 12 bytes per element.
  EXPECT_EQ(axpy.spec.read_bytes_at(r.bound), 8000);
  EXPECT_EQ(axpy.spec.written_bytes_at(r.bound), 4000);
  EXPECT_EQ(axpy.spec.expected.bound, dsl::expected_bound::memory);
  EXPECT_EQ(kernel_named(ks, "fixed").spec.launch.kind, dsl::binding_kind::none);
}

TEST(InjectManifest, RefusesVersionOneAndNamesAMissingField) {
  const auto v1 = parse_manifest(R"({"schema": "rooflint-manifest", "version": 1, "kernels": []})", "old.json");
  ASSERT_FALSE(v1.ok());
  EXPECT_NE(v1.err().message.find("manifest 'old.json' is version 1"), std::string::npos) << v1.err().message;
  std::string text = text_of(manifest_path);
  const std::size_t at = text.find("\"mangled_name\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::strlen("\"mangled_name\""), "\"mangled_nom\"");
  const auto broken = parse_manifest(text, "x.json");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.err().message.find("kernel 'axpy': '/mangled_name' is missing"), std::string::npos)
      << broken.err().message;
  EXPECT_FALSE(parse_manifest("{", "y.json").ok());
  EXPECT_NE(parse_manifest(R"({"schema": "rooflint-ceilings"})", "z.json").err().message.find("not a rooflint manifest"),
            std::string::npos);
  // Keys of another type are refused with a message; nlohmann's value() threw type_error here, which
  // ended rooflint-verify with an uncaught exception.
  EXPECT_NE(parse_manifest(R"({"schema": 4})", "s.json").err().message.find("not a rooflint manifest"), std::string::npos);
  EXPECT_NE(parse_manifest(R"({"schema": "rooflint-manifest", "version": "4", "kernels": []})", "v.json").err().message.find(
                "'version' must be an integer, not a string"),
            std::string::npos);
}

TEST(InjectManifest, ReadsEveryDtypeTheAnalyzerWrites) {
  // The analyzer writes model::name(dtype) ("u8", "u32", ...); each reads back as that dtype. The
  // recorded manifest's first tensor ("x", f32) takes each name in turn.
  const std::string text = text_of(manifest_path);
  const std::size_t at = text.find("\"dtype\": \"f32\"");
  ASSERT_NE(at, std::string::npos);
  for (std::size_t i = 0; i < model::dtype_count; ++i) {
    const auto d = static_cast<model::dtype>(i);
    std::string changed = text;
    changed.replace(at, std::strlen("\"dtype\": \"f32\""), "\"dtype\": \"" + std::string(model::name(d)) + "\"");
    const auto ks = parse_manifest(changed, "dtypes.json");
    ASSERT_TRUE(ks.ok()) << model::name(d) << ": " << ks.err().message;
    bool found = false;
    for (const manifest_kernel& k : ks.value())
      for (const dsl::tensor_info& t : k.spec.tensor_list())
        found = found || (t.name.view() == "x" && t.dtype == d);
    EXPECT_TRUE(found) << model::name(d);
  }
}

TEST(InjectManifest, FindsManifestsBelowABuildDirectory) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("rooflint-inject-test-" + std::to_string(::getpid()));
  fs::create_directories(dir / "examples" / "saxpy");
  // rooflint_analyze() names a manifest <target>.rooflint.json; another tool's *.manifest.json is no
  // rooflint manifest and must not be read (it would stop the run as "not a rooflint manifest").
  std::ofstream(dir / "examples" / "saxpy" / "saxpy.rooflint.json") << "{}";
  std::ofstream(dir / "examples" / "saxpy" / "app.manifest.json") << "{}";
  std::ofstream(dir / "examples" / "saxpy" / "other.json") << "{}";
  const auto found = find_manifests(dir.string());
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ(fs::path((*found)[0]).filename(), "saxpy.rooflint.json");
  fs::remove_all(dir / "examples");
  EXPECT_FALSE(find_manifests(dir.string()).ok());  // a directory without manifests
  EXPECT_FALSE(find_manifests((dir / "nope").string()).ok());
  fs::remove_all(dir);
}

TEST(InjectLaunch, ReadsIntegerArgumentsWithTheManifestsLayout) {
  const auto ks = example();
  const manifest_kernel& copy4 = kernel_named(ks, "copy4");  // (const float*, float*, long long n4, short flag)
  const float* in = nullptr;
  float* out = nullptr;
  long long n4 = 300;
  short flag = -2;
  void* params[] = {&in, &out, &n4, &flag};
  const dsl::launch_values v = launch_values_from(copy4, params, nullptr, 0, {});
  EXPECT_FALSE(v.has_arg[0]);  // pointers are not read
  ASSERT_TRUE(v.has_arg[2]);
  EXPECT_EQ(v.args[2], 300);
  EXPECT_EQ(v.args[3], -2);  // sign-extended from 2 bytes
  const auto r = copy4.spec.bind_launch(v);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.bound[0], 1200);  // N = 4 * n4

  // The packed buffer of `extra`: pointers at 0 and 8, n4 at 16, flag at 24 (manifest offsets).
  unsigned char packed[26] = {};
  std::memcpy(packed + 16, &n4, 8);
  std::memcpy(packed + 24, &flag, 2);
  const dsl::launch_values p = launch_values_from(copy4, nullptr, packed, sizeof packed, {});
  EXPECT_EQ(p.args[2], 300);
  EXPECT_EQ(p.args[3], -2);
  EXPECT_FALSE(launch_values_from(copy4, nullptr, packed, 20, {}).has_arg[2]);  // past the buffer's end

  const manifest_kernel& rows = kernel_named(ks, "rows");  // one block per row, C = cols (unsigned)
  unsigned cols = 4096;
  void* row_params[] = {&in, &out, &cols};
  launch_shape shape;
  shape.grid[0] = 128;
  const auto rr = rows.spec.bind_launch(launch_values_from(rows, row_params, nullptr, 0, shape));
  ASSERT_TRUE(rr.ok());
  EXPECT_EQ(sizes_text(rows.spec, rr.bound), "R=128, C=4096");
}

TEST(InjectLaunch, SaysWhichDimensionAndParameterDidNotBind) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  int n = 0;
  float a = 1;
  void* params[] = {&n, &a, nullptr, nullptr};
  const dsl::launch_values v = launch_values_from(axpy, params, nullptr, 0, {});
  const auto r = axpy.spec.bind_launch(v);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(binding_problem(axpy, r, v), "dimension 'N' = argument 0 ('n') is 0 at this launch; a size must be positive");
  const manifest_kernel& copy4 = kernel_named(ks, "copy4");
  const dsl::launch_values none = launch_values_from(copy4, nullptr, nullptr, 0, {});  // nothing readable
  EXPECT_EQ(binding_problem(copy4, copy4.spec.bind_launch(none), none),
            "dimension 'N' is read from 4 * argument 2 ('n4'), of type 'long long', which is not an integer this launch passes");
}

namespace {
void fwt_rows(float*, const float*, int) {}  // rows of 2^log2N floats, one block a row
}  // namespace

// A size read as a power of two, scaled: an exponent out of 0..62, a product past 2^62, and one that binds.
TEST(InjectLaunch, SaysWhatAnExponentGave) {
  using namespace rooflint::dsl;
  static constexpr struct M final : dim<"M"> {} M;
  static constexpr struct N final : dim<"N"> {} N;
  manifest_kernel k;
  k.spec = kernel<fwt_rows>("fwt_rows", elementwise(0, out<0>("y", f32, M, N), in<1>("x", f32, M, N)))
               .sizes(M(grid_dim.x), N(4 * pow2(arg<2>)));
  k.params = {{"y", "float *"}, {"x", "const float *"}, {"log2N", "int"}};
  dsl::launch_values v;
  v.has_arg[2] = true;
  v.args[2] = 63;
  EXPECT_EQ(binding_problem(k, k.spec.bind_launch(v), v),
            "dimension 'N' = 4 * 2^argument 2 ('log2N') has the exponent 63 at this launch; it must be 0 to 62");
  v.args[2] = 61;  // 4 * 2^61 = 2^63
  EXPECT_EQ(binding_problem(k, k.spec.bind_launch(v), v),
            "dimension 'N' = 4 * 2^argument 2 ('log2N') is past 2^62 at this launch (2305843009213693952 x 4)");
  v.args[2] = 11;
  EXPECT_TRUE(k.spec.bind_launch(v).ok());
  EXPECT_EQ(k.spec.bind_launch(v).bound[1], 8192);  // 4 * 2^11
}

// data/real-kernels.manifest.json, the analyzer's manifest of data/real-kernels.cu (2026-12-01): a
// layernorm's extra mean and rstd outputs and an embedding lookup's min(B*T, V) rows, read back and
// evaluated at launches.
namespace {
std::vector<manifest_kernel> real_kernels() { return recorded_manifest("real-kernels.manifest.json"); }
dsl::launch_values ints(std::initializer_list<std::pair<int, std::int64_t>> values) {
  dsl::launch_values v;
  for (const auto& [i, x] : values) {
    v.args[i] = x;
    v.has_arg[i] = true;
  }
  return v;
}
}  // namespace

TEST(RealKernels, TheLayernormsMeanAndRstdAreCompulsoryBytes) {
  const auto ks = real_kernels();
  ASSERT_EQ(ks.size(), 2u);
  const manifest_kernel& ln = kernel_named(ks, "layernorm_forward");
  EXPECT_TRUE(ln.spec.tensors[4].extra);
  EXPECT_TRUE(ln.spec.tensors[5].extra);
  // B=8, T=1024, C=768: read inp 4*8192*768 = 25,165,824 + weight, bias 2*4*768 = 6,144;
  // written out 25,165,824 + mean, rstd 2*4*8192 = 65,536.
  const auto r = ln.spec.bind_launch(ints({{6, 8}, {7, 1024}, {8, 768}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ln.spec.read_bytes_at(r.bound), 25171968);
  EXPECT_EQ(ln.spec.written_bytes_at(r.bound), 25231360);
}

TEST(RealKernels, AnEmbeddingLookupReadsMinOfTokensAndTableRows) {
  const auto ks = real_kernels();
  ASSERT_EQ(ks.size(), 2u);
  const manifest_kernel& e = kernel_named(ks, "embed");
  ASSERT_EQ(e.spec.size_terms.count, 1);
  EXPECT_EQ(e.spec.size_terms.terms[0].name.view(), "min(B*T, V)");
  // B=64, T=1024 (65,536 ids, 4 bytes each = 262,144) from a V=1000-row table of C=768 floats: all
  // 1000 rows, 4*1000*768 = 3,072,000 bytes; out 4*65536*768 = 201,326,592 written.
  auto r = e.spec.bind_launch(ints({{3, 64}, {4, 1024}, {5, 768}, {6, 1000}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(e.spec.read_bytes_at(r.bound), 262144 + 3072000);
  EXPECT_EQ(e.spec.written_bytes_at(r.bound), 201326592);
  // B=1, T=16 tokens from V=50257 rows: 16 rows, 4*16*768 = 49,152 bytes of the table, 64 of ids.
  r = e.spec.bind_launch(ints({{3, 1}, {4, 16}, {5, 768}, {6, 50257}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(e.spec.read_bytes_at(r.bound), 64 + 49152);
}

namespace {
void loose_embed(const std::int32_t*, const float*, float*, int, int) {}
inline constexpr struct Tk final : dsl::dim<"T"> {} Tk;
inline constexpr struct Vk final : dsl::dim<"V"> {} Vk;
inline constexpr struct Dk final : dsl::dim<"D"> {} Dk;
// T*D of a (V,D) table: larger than the table once T > V (min(T, V) * D is meant).
inline constexpr auto loose_spec =
    dsl::kernel<loose_embed>("loose_embed", dsl::custom(0, dsl::in<0>("ids", dsl::i32, Tk),                                  // ids: (T)
                                                        dsl::in<1>("table", dsl::f32, Vk, Dk).touches(Tk * Dk),             // table: (V,D)
                                                        dsl::out<2>("out", dsl::f32, Tk, Dk)))                               // out: (T,D)
        .at(Dk(4))
        .sizes(Tk(dsl::arg<3>), Vk(dsl::arg<4>));
}  // namespace

TEST(InjectLaunch, SaysWhichTensorsTouchedPartIsLargerThanTheTensor) {
  manifest_kernel k;
  k.spec = loose_spec;
  // T = 10 lookups of a V = 3-row table: 10*4 touched elements of 3*4.
  const dsl::launch_values v = ints({{3, 10}, {4, 3}});
  const auto r = k.spec.bind_launch(v);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.too_large.view(), "table");
  EXPECT_EQ(binding_problem(k, r, v),
            "tensor 'table': the part the spec says the kernel touches (touches()) is larger than the whole tensor at this launch (T=10, V=3, D=4)");
  EXPECT_TRUE(k.spec.bind_launch(ints({{3, 3}, {4, 10}})).ok());
}

TEST(InjectLines, RoundTripALaunchWithItsMeasurement) {
  const auto ks = example();
  const launch_event e = axpy_launch(kernel_named(ks, "axpy"), 1 << 20, measured_axpy(1 << 20, 1e-3));
  const std::string line = to_json_line(e);
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);  // one line
  const auto back = launch_event_from_json(line);
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_EQ(back->mangled_name, "_Z4axpyifPKfPf");
  EXPECT_EQ(back->sizes, "N=1048576");
  ASSERT_TRUE(back->m.has_value());
  EXPECT_EQ(back->m->counters.dram_read_bytes, 8.0 * (1 << 20));
}

// The end-of-process line: API counts, launches measured and rooflint's own time per phase survive the
// trip through JSON; a line of another type is refused, not read as zeros.
TEST(InjectLines, RoundTripTheApiCountsWithRooflintsOwnTime) {
  api_counts c;
  c.pid = 4242;
  c.command = "python3 worker.py --rank 1";
  c.driver = {{"cuLaunchKernel", 40}, {"cuLaunchKernelEx", 3}};
  c.runtime = {{"cudaLaunchKernel", 40}};
  c.measured = 43;
  c.rooflint_seconds = {{"arm", 0.25}, {"clock", 0.125}, {"counters", 1.5}, {"drain", 0.5}};
  c.batches = {{"after cuMemFreeAsync", 2}, {"at exit", 1}, {"full", 3}};
  const std::string line = to_json_line(c);
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  const auto back = api_counts_from_json(line);
  ASSERT_TRUE(back.ok()) << back.err().message;
  EXPECT_EQ(back->pid, 4242);
  EXPECT_EQ(back->command, c.command);
  EXPECT_EQ(back->measured, 43);
  EXPECT_EQ(back->driver, c.driver);
  EXPECT_EQ(back->runtime, c.runtime);
  EXPECT_EQ(back->rooflint_seconds, c.rooflint_seconds);  // JSON objects keep keys sorted: the order above
  EXPECT_EQ(back->batches, c.batches);
  const auto not_apis = api_counts_from_json(to_json_line(axpy_launch(kernel_named(example(), "axpy"), 1 << 20, std::nullopt)));
  EXPECT_FALSE(not_apis.ok());
}

TEST(InjectReport, KeepsTheMeasurementsOfBatchedLaunchesWhoseProvisionalLinesWereSettled) {
  // A batched launch writes a provisional line, then its measured line (same token); the report reads
  // the settled list. Its groups point at those measurements, so the settled list must outlive the
  // grouping (it once was a loop's temporary: rooflint-verify read freed memory and crashed on the H200).
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  std::vector<launch_event> events;
  for (int i = 0; i < 8; ++i) {
    measurement m = measured_axpy(n, 200e-6 + i * 1e-6);
    m.counters.notes = {"counted in a batch of windows (user range): the time is the CUDA events' around the launches"};
    launch_event provisional = axpy_launch(axpy, n, std::nullopt);
    provisional.pending = "7:" + std::to_string(i);
    provisional.not_measured = "its counters were still in an open batch when the program ended";
    launch_event measured = axpy_launch(axpy, n, m);
    measured.pending = provisional.pending;
    events.push_back(provisional);
    events.push_back(measured);
  }
  verify_options o;
  const program_report p = make_program_report(ks, events, o, {});
  ASSERT_EQ(p.run.cases.size(), 1u);
  const case_report& c = p.run.cases[0];
  EXPECT_EQ(c.measured.timing.repetitions, 8);
  EXPECT_NEAR(c.measured.timing.median_s, 203.5e-6, 1e-12);  // median of 200..207 us
  ASSERT_EQ(c.measured.counters.notes.size(), 1u);
  EXPECT_EQ(c.measured.counters.notes[0], events[1].m->counters.notes[0]);
}

// The report's counting mode says "batched" when the library counted in batches with a user range per
// window: a field of the measurement (kept through the library's JSON line), no longer the text of its
// note, which any rewording broke (and a note quoting it would have matched).
TEST(InjectReport, SaysBatchedFromTheMeasurementsFieldNotItsNote) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  measurement m = measured_axpy(n, 200e-6);
  m.counters.batched_user_range = true;  // and no note
  const auto line = launch_event_from_json(to_json_line(axpy_launch(axpy, n, m)));
  ASSERT_TRUE(line.ok()) << line.err().message;
  ASSERT_TRUE(line->m);
  EXPECT_TRUE(line->m->counters.batched_user_range);
  verify_options o;
  const program_report batched = make_program_report(ks, {*line}, o, {});
  EXPECT_NE(batched.run.counters_mode.find("batched"), std::string::npos) << batched.run.counters_mode;

  measurement quoted = measured_axpy(n, 200e-6);
  quoted.counters.notes = {"not counted in a batch of windows"};
  const program_report single = make_program_report(ks, {axpy_launch(axpy, n, quoted)}, o, {});
  EXPECT_EQ(single.run.counters_mode.find("batched"), std::string::npos) << single.run.counters_mode;
}

TEST(InjectReport, GroupsLaunchesByKernelAndSizesAndComparesThem) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  // t_min at H200 datasheet bandwidth (4.8 TB/s): 12 * 2^26 B / 4.8e12 B/s = 167.8 us; runs of 200 and
  // 220 us: median 210 us, roofline fraction 0.799.
  std::vector<launch_event> events{axpy_launch(axpy, n, measured_axpy(n, 200e-6)), axpy_launch(axpy, n, measured_axpy(n, 220e-6)),
                                   axpy_launch(axpy, n, std::nullopt)};
  launch_event unbound;
  unbound.mangled_name = kernel_named(ks, "copy4").mangled_name;
  unbound.problem = "dimension 'N' = 4 * argument 2 ('n4') is 0 at this launch; a size must be positive";
  events.push_back(unbound);
  verify_options o;
  const program_report p = make_program_report(ks, events, o, {});
  ASSERT_EQ(p.run.cases.size(), 2u);
  const case_report& c = p.run.cases[0];
  EXPECT_EQ(c.name, "axpy [N=67108864]");
  EXPECT_EQ(c.status, case_status::passed);
  EXPECT_EQ(c.measured.timing.repetitions, 2);
  EXPECT_NEAR(c.measured.timing.median_s, 210e-6, 1e-12);
  EXPECT_NEAR(c.compared.roofline_fraction, 12 * n / 4.8e12 / 210e-6, 1e-6);
  bool launches_remark = false;
  for (const finding& f : c.findings)
    launches_remark = launches_remark || f.message == "kernel 'axpy': 3 annotated launches seen, 2 measured";
  EXPECT_TRUE(launches_remark);
  const case_report& bad = p.run.cases[1];
  EXPECT_EQ(bad.status, case_status::error);
  ASSERT_FALSE(bad.findings.empty());
  EXPECT_NE(bad.findings[0].message.find("dimension 'N' = 4 * argument 2 ('n4') is 0"), std::string::npos);
  EXPECT_EQ(p.run.exit_code, exit_cannot_measure);  // a launch that did not bind
  // rows was annotated but never launched; fixed has no .sizes() and is not a kernel of the program report.
  ASSERT_EQ(p.remarks.size(), 1u);
  EXPECT_NE(p.remarks[0].find("kernel 'rows' is annotated but was never launched"), std::string::npos);
}

// A program of one process per GPU (a data-parallel job): the same kernel at the same sizes on two cards
// is a case per card, each judged against its own card's ceilings file. axpy at N = 2^26 moves
// 12 x 2^26 = 805306368 compulsory bytes: t_min is 201.33 us at card A's 4 TB/s and 402.65 us at card
// B's 2 TB/s, so 300 us on A is a roofline fraction of 0.6711 and 900 us on B one of 0.4474.
namespace {
const std::string card_a = "GPU-aaaaaaaa-1111-2222-3333-444444444444", card_b = "GPU-bbbbbbbb-1111-2222-3333-444444444444";

measurement axpy_on(const std::string& uuid, double n, double seconds) {
  measurement m = measured_axpy(n, seconds);
  m.device.uuid = uuid;
  m.device.driver_version = "580.159.04";
  return m;
}

ceilings_source ceilings_of(const std::string& uuid, double bytes_per_s) {
  ceilings_source c{"ceilings-" + uuid.substr(4, 8) + ".json", {}};
  c.file.device.name = "NVIDIA H200";
  c.file.device.uuid = uuid;
  c.file.device.driver_version = "580.159.04";
  c.file.bandwidth_bytes_per_s = bytes_per_s;
  c.file.compute[model::math_mode::fp32_simt] = ceilings::compute_ceiling{6.4e13, "ffma_chains", "", 0, true};
  return c;
}
}  // namespace

TEST(InjectReport, EachGpuIsACaseJudgedAgainstItsOwnCeilings) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  const std::vector<launch_event> events{axpy_launch(axpy, n, axpy_on(card_a, n, 300e-6)), axpy_launch(axpy, n, axpy_on(card_b, n, 900e-6))};
  const program_report p = make_program_report(ks, events, verify_options{}, {ceilings_of(card_a, 4e12), ceilings_of(card_b, 2e12)});
  ASSERT_EQ(p.run.cases.size(), 2u);
  EXPECT_EQ(p.run.cases[0].name, "axpy [N=67108864] on GPU-aaaaaaaa");
  EXPECT_EQ(p.run.cases[1].name, "axpy [N=67108864] on GPU-bbbbbbbb");
  EXPECT_NEAR(p.run.cases[0].compared.roofline_fraction, 805306368 / 4e12 / 300e-6, 1e-6);
  EXPECT_NEAR(p.run.cases[1].compared.roofline_fraction, 805306368 / 2e12 / 900e-6, 1e-6);
  EXPECT_EQ(p.run.cases[0].status, case_status::passed);
  EXPECT_EQ(p.run.cases[1].status, case_status::passed);
  EXPECT_EQ(p.run.peaks_label, "measured (ceilings-aaaaaaaa.json)");
  const auto several = std::find_if(p.run.warnings.begin(), p.run.warnings.end(),
                                    [](const std::string& w) { return w.starts_with("the cases ran on 2 GPUs"); });
  ASSERT_NE(several, p.run.warnings.end());
  EXPECT_NE(several->find("(" + card_b + "): measured (ceilings-bbbbbbbb.json)"), std::string::npos) << *several;
}

// The same program with only card A's file: card B's case has no verdict (never A's figures for B), and
// the run cannot pass (exit 3); card A's case is judged as before.
TEST(InjectReport, AGpuNoCeilingsFileAppliesToHasNoVerdict) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  const std::vector<launch_event> events{axpy_launch(axpy, n, axpy_on(card_a, n, 300e-6)), axpy_launch(axpy, n, axpy_on(card_b, n, 900e-6))};
  const program_report p = make_program_report(ks, events, verify_options{}, {ceilings_of(card_a, 4e12)});
  ASSERT_EQ(p.run.cases.size(), 2u);
  EXPECT_EQ(p.run.cases[0].status, case_status::passed);
  EXPECT_NEAR(p.run.cases[0].compared.roofline_fraction, 805306368 / 4e12 / 300e-6, 1e-6);
  const case_report& b = p.run.cases[1];
  EXPECT_EQ(b.status, case_status::error);
  ASSERT_FALSE(b.findings.empty());
  EXPECT_EQ(b.findings[0].id, "rooflint-no-peaks");
  EXPECT_NE(b.findings[0].message.find("ceilings were measured on another GPU: 'NVIDIA H200' (" + card_a + "), this is 'NVIDIA H200' (" + card_b + ")"),
            std::string::npos) << b.findings[0].message;
  EXPECT_EQ(p.run.exit_code, exit_cannot_measure);
}

// One GPU: the case keeps its plain name, and a file of another card is refused for it.
TEST(InjectReport, OneGpuKeepsThePlainCaseNameAndRefusesAnotherCardsFile) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  const program_report p = make_program_report(ks, {axpy_launch(axpy, n, axpy_on(card_b, n, 900e-6))}, verify_options{}, {ceilings_of(card_a, 4e12)});
  ASSERT_EQ(p.run.cases.size(), 1u);
  EXPECT_EQ(p.run.cases[0].name, "axpy [N=67108864]");
  EXPECT_EQ(p.run.cases[0].status, case_status::error);
  EXPECT_EQ(p.run.peaks_label, "none: no --ceilings file applies to this GPU");
  EXPECT_EQ(p.run.exit_code, exit_cannot_measure);
}

// The launch that ran beside the one the prediction evaluated, at the spec's declared size (N = 2^20, set
// here: the recorded axpy declares none), where the manifest's launch holds: a launch of 128 threads a
// block against a prediction for 256 (so a grid of 8192 for 4096) and without the stated 1024 bytes of
// dynamic shared memory is a rooflint-launch-shape warning naming each, and the predicted ratios are not
// set beside the observed ones; the predicted launch itself passes without a word. At another size the
// spec's grid (and any block or shared memory written in its sizes) may differ: nothing is compared.
TEST(InjectReport, ALaunchOfAnotherBlockThanPredictedIsNamedAndNotCompared) {
  auto ks = example();
  auto& axpy = *std::find_if(ks.begin(), ks.end(), [](const manifest_kernel& k) { return k.kernel_name == "axpy"; });
  const double n = 1 << 20;
  axpy.spec.dims[0].declared_size = n;
  axpy.traffic_predicted = true;
  axpy.predicted.clear();
  for (const dsl::tensor_info& t : axpy.spec.tensor_list())
    axpy.predicted.push_back({.tensor = std::string(t.name.view()), .param = t.arg, .level = model::memory_level::dram,
                              .kind = manifest::prediction_kind::value, .ratio = 1, .low = 1, .high = 1});
  axpy.predicted_launch = manifest::launch_assumption{{256, 1, 1}, {4096, 1, 1}, true, "grid (4096, 1, 1), block (256, 1, 1)", 1024};
  const auto launched = [&](double size, std::int64_t block, std::int64_t shared) {
    launch_event e = axpy_launch(axpy, size, measured_axpy(size, 20e-6));
    e.shape = launch_shape{{static_cast<std::int64_t>(size) / block, 1, 1}, {block, 1, 1}, shared};
    return make_program_report(ks, {e}, verify_options{}, {}).run.cases.at(0);
  };
  const auto shape_warning = [](const case_report& r) -> std::string {
    for (const finding& f : r.findings)
      if (f.id == "rooflint-launch-shape") return f.message;
    return "";
  };
  const std::size_t dram = static_cast<std::size_t>(model::memory_level::dram);
  const case_report same = launched(n, 256, 1024);
  EXPECT_EQ(shape_warning(same), "");
  EXPECT_TRUE(same.predicted_ratio[dram].predicted());
  const case_report other = launched(n, 128, 0);
  EXPECT_EQ(shape_warning(other), "the traffic was predicted for another launch: block (128, 1, 1) ran, (256, 1, 1) predicted, "
                                   "grid (8192, 1, 1) ran, (4096, 1, 1) predicted and 0 bytes of dynamic shared memory ran, "
                                   "1024 predicted; the predicted ratios are not compared");
  for (const auto& level : other.predicted_ratio) EXPECT_FALSE(level.predicted());
  // The registers the function ran with against those the spec states (.registers: 96, 2 blocks an SM of
  // 256 threads predicted). 168 ran and the driver held 1 block an SM: another launch, not compared.
  // 95 ran, 2 blocks an SM as predicted: compared, with a note; 96 ran: nothing to say.
  axpy.predicted_launch->registers = 96;
  axpy.predicted_launch->blocks_per_sm = 2;
  launch_event spilled = axpy_launch(axpy, n, measured_axpy(n, 20e-6));
  spilled.shape = launch_shape{{4096, 1, 1}, {256, 1, 1}, 1024, 168, 1};
  const auto report_of = [&] { return make_program_report(ks, {spilled}, verify_options{}, {}).run.cases.at(0); };
  const case_report more = report_of();
  EXPECT_EQ(shape_warning(more), "the traffic was predicted for another launch: 1 block per SM ran (168 registers a thread), "
                                 "2 predicted (96 stated); the predicted ratios are not compared");
  EXPECT_FALSE(more.predicted_ratio[dram].predicted());
  spilled.shape->registers = 95;
  spilled.shape->blocks_per_sm = 2;
  const case_report near = report_of();
  EXPECT_EQ(shape_warning(near), "95 registers a thread ran, 96 stated, the same blocks per SM: state .registers(95) in the spec");
  EXPECT_TRUE(near.predicted_ratio[dram].predicted());
  spilled.shape->registers = 96;
  EXPECT_EQ(shape_warning(report_of()), "");
  axpy.predicted_launch->registers.reset();
  // Registers unstated, the prediction took 8 blocks an SM (2048 threads / 256); the launch held 2 by its
  // 96 registers (the driver's occupancy): a note says what to state, and the ratios are compared.
  axpy.predicted_launch->blocks_per_sm = 8;
  spilled.shape->blocks_per_sm = 2;
  const case_report held = report_of();
  EXPECT_EQ(shape_warning(held), "the prediction took 8 blocks per SM, as threads and shared memory allow; the launch held 2 "
                                 "(96 registers a thread): state .registers(96) in the spec for the waves it runs");
  EXPECT_TRUE(held.predicted_ratio[dram].predicted());
  spilled.shape->blocks_per_sm = 8;  // as many as predicted: nothing to say
  EXPECT_EQ(shape_warning(report_of()), "");
  axpy.predicted_launch->blocks_per_sm.reset();
  const case_report elsewhere = launched(2 * n, 128, 0);
  EXPECT_EQ(shape_warning(elsewhere), "");
  EXPECT_TRUE(elsewhere.predicted_ratio[dram].predicted());
  // The line the injection library writes carries the shape to the report.
  launch_event e = axpy_launch(axpy, n, std::nullopt);
  e.shape = launch_shape{{8192, 2, 1}, {128, 1, 1}, 4096, 40, 12};
  const auto back = launch_event_from_json(to_json_line(e));
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(back->shape.has_value());
  EXPECT_EQ(back->shape->grid[1], 2);
  EXPECT_EQ(back->shape->registers, 40);
  EXPECT_EQ(back->shape->blocks_per_sm, 12);
  EXPECT_EQ(back->shape->block[0], 128);
  EXPECT_EQ(back->shape->shared_bytes, 4096);
}

// Two specs of one kernel (two files each stating one for it): the injection library and the report judge
// its launches against the first, and the run says so; one spec read from two manifests (a header) is
// one spec, said nothing of.
TEST(InjectReport, TwoSpecsOfOneKernelAreNamedAndTheFirstJudges) {
  auto ks = example();
  manifest_kernel copy = kernel_named(ks, "axpy");
  copy.manifest_path = "other.rooflint.json";
  ks.push_back(copy);
  const auto warned = [](const program_report& p) {
    return std::count_if(p.run.warnings.begin(), p.run.warnings.end(),
                         [](const std::string& w) { return w.find("has two specs") != std::string::npos; });
  };
  EXPECT_EQ(warned(make_program_report(ks, {}, verify_options{}, {})), 0);
  ks.back().spec_name = "axpy_again";
  ks.back().line += 40;
  ks.push_back(ks.back());  // the second spec read from a third manifest too: said once
  ks.back().manifest_path = "third.rooflint.json";
  const program_report p = make_program_report(ks, {}, verify_options{}, {});
  ASSERT_EQ(warned(p), 1);
  const manifest_kernel& first = kernel_named(ks, "axpy");
  const auto w = std::find_if(p.run.warnings.begin(), p.run.warnings.end(),
                              [](const std::string& x) { return x.find("has two specs") != std::string::npos; });
  EXPECT_EQ(*w, "kernel 'axpy' (_Z4axpyifPKfPf) has two specs, '" + first.spec_name + "' (" + first.file + ":" +
                    std::to_string(first.line) + ") and 'axpy_again' (" + first.file + ":" + std::to_string(first.line + 40) +
                    "): its launches are judged against the first; give the kernel one spec");
}

// Two kernels of one spec name (overloads, each with its own spec): a case shows its own kernel's
// prediction and launch counts, never the other's. Only the second is predicted here; the first is
// launched: its case has no predicted lines, and its launches remark counts its own launch.
TEST(InjectReport, ACaseShowsItsOwnKernelsPredictionNotAnotherOfItsName) {
  auto ks = example();
  manifest_kernel other = kernel_named(ks, "axpy");
  other.mangled_name = "_Z4axpyidPKdPd";  // axpy(int, double, const double*, double*)
  other.traffic_predicted = true;
  for (const dsl::tensor_info& t : other.spec.tensor_list())
    other.predicted.push_back({.tensor = std::string(t.name.view()), .param = t.arg, .level = model::memory_level::dram,
                               .kind = manifest::prediction_kind::value, .ratio = 1, .low = 1, .high = 1});
  ks.push_back(other);
  const double n = 1 << 20;
  const program_report p = make_program_report(ks, {axpy_launch(kernel_named(ks, "axpy"), n, measured_axpy(n, 20e-6))}, verify_options{}, {});
  ASSERT_EQ(p.run.cases.size(), 1u);
  const case_report& c = p.run.cases[0];
  EXPECT_TRUE(c.predicted_traffic.empty());
  for (const auto& level : c.predicted_ratio) EXPECT_FALSE(level.predicted());
  const auto launches = std::find_if(c.findings.begin(), c.findings.end(), [](const finding& f) { return f.id == "rooflint-launches"; });
  ASSERT_NE(launches, c.findings.end());
  EXPECT_EQ(launches->message, "kernel 'axpy': 1 annotated launches seen, 1 measured");
}

// A program that launched none of the annotated kernels (no GPU, or it failed before them): one remark
// for all of them, not one per kernel (a new user's run on a machine without a GPU printed one per
// kernel of the manifest, as if each were missing from the program). The recorded manifest's axpy,
// copy4 and rows take launch sizes: three kernels of the report.
TEST(InjectReport, NoLaunchAtAllIsOneRemark) {
  verify_options o;
  const program_report p = make_program_report(example(), {}, o, {});
  ASSERT_EQ(p.kernels.size(), 3u);
  ASSERT_EQ(p.remarks.size(), 1u);
  EXPECT_EQ(p.remarks[0], "none of the 3 annotated kernels and regions was launched by the program [rooflint-not-launched]");
}

// Two worker processes of one program on one GPU: the second's counters are not readable (it waited in
// vain for the GPU's counters). A kernel whose bytes were not counted is never a pass: its case could not
// be measured, and the run exits 3 (the documented precedence of 3 over 1).
TEST(InjectReport, AKernelWhoseCountersCouldNotBeReadIsNeverAPass) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  measurement uncounted = measured_axpy(n, 200e-6);
  uncounted.counters = {};
  uncounted.counters.unavailable_reason = "core group not collected: the GPU's performance counters were held by process 4242";
  verify_options o;  // counters required (the default)
  const program_report p = make_program_report(ks, {axpy_launch(axpy, n, uncounted)}, o, {});
  ASSERT_EQ(p.run.cases.size(), 1u);
  const case_report& c = p.run.cases[0];
  EXPECT_EQ(c.status, case_status::error);
  ASSERT_FALSE(c.findings.empty());
  EXPECT_EQ(c.findings[0].id, "rooflint-not-measured");
  EXPECT_EQ(c.findings[0].level, severity::error);
  EXPECT_NE(c.findings[0].message.find("held by process 4242"), std::string::npos) << c.findings[0].message;
  EXPECT_EQ(p.run.exit_code, exit_cannot_measure);
  EXPECT_NE(to_table(p.run).find("1 could not be measured"), std::string::npos);

  // The same launch measured by the other process too: the case takes the counted launch's counters.
  const program_report both = make_program_report(ks, {axpy_launch(axpy, n, uncounted), axpy_launch(axpy, n, measured_axpy(n, 210e-6))}, o, {});
  ASSERT_EQ(both.run.cases.size(), 1u);
  EXPECT_EQ(both.run.cases[0].status, case_status::passed);
  EXPECT_TRUE(both.run.cases[0].compared.traffic_measured);

  // --no-counters asked for timing only: the timing verdicts decide.
  o.counters = false;
  uncounted.counters.unavailable_reason = "counters switched off (--no-counters)";
  const program_report timing = make_program_report(ks, {axpy_launch(axpy, n, uncounted)}, o, {});
  EXPECT_EQ(timing.run.cases[0].status, case_status::passed);
  EXPECT_EQ(timing.run.exit_code, exit_passed);
}

// Launches seen at some sizes but none measured there (inside a CUDA graph, a forked child, another
// thread's window) are a case that could not be measured, with the reason: never absent from the report.
TEST(InjectReport, SizesWhoseLaunchesWereAllUnmeasuredAreACaseThatCouldNotBeMeasured) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  launch_event captured = axpy_launch(axpy, 1 << 22, std::nullopt);
  captured.not_measured = "launched while its stream was capturing a CUDA graph";
  verify_options o;
  const program_report p =
      make_program_report(ks, {captured, captured, axpy_launch(axpy, 1 << 20, measured_axpy(1 << 20, 5e-6))}, o, {});
  ASSERT_EQ(p.run.cases.size(), 2u);
  const auto graph = std::find_if(p.run.cases.begin(), p.run.cases.end(), [](const case_report& c) { return c.name == "axpy [N=4194304]"; });
  ASSERT_NE(graph, p.run.cases.end());
  EXPECT_EQ(graph->status, case_status::error);
  ASSERT_FALSE(graph->findings.empty());
  EXPECT_EQ(graph->findings[0].id, "rooflint-not-measured");
  EXPECT_NE(graph->findings[0].message.find("2 launches of kernel 'axpy' at N=4194304 seen, none measured: launched while its stream was capturing"),
            std::string::npos) << graph->findings[0].message;
  EXPECT_EQ(p.run.exit_code, exit_cannot_measure);
}

TEST(InjectBaseline, FlagsADropBeyondTheNoiseAndSaysNoChangeOtherwise) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  verify_options o;
  const auto run_at = [&](std::vector<double> seconds) {
    std::vector<launch_event> events;
    for (double s : seconds) events.push_back(axpy_launch(axpy, n, measured_axpy(n, s)));
    return make_program_report(ks, events, o, {}).run;
  };
  // Baseline: 200, 202, 204 us: median 202, relative noise (204 - 200) / (2 x 202) = 0.99%; band 3 x 0.99% = 2.97%.
  const std::string baseline = to_json(run_at({200e-6, 202e-6, 204e-6}));
  // Each current run times two launches: the time is judged only where both runs have a noise estimate.
  const auto same = compare_baseline(run_at({203e-6, 203e-6}), baseline);  // fraction -0.5%: inside the band
  ASSERT_TRUE(same.ok()) << same.err().message;
  ASSERT_EQ(same->size(), 1u);
  EXPECT_EQ((*same)[0].outcome, baseline_case::verdict::no_change);
  EXPECT_NEAR((*same)[0].band, 3 * 4.0 / (2 * 202), 1e-9);
  EXPECT_NE(baseline_findings(*same)[0].second.message.find("SAME as the baseline: DRAM 1.00x"), std::string::npos)
      << baseline_findings(*same)[0].second.message;
  const auto slower = compare_baseline(run_at({220e-6, 220e-6}), baseline);  // fraction 202/220 - 1 = -8.2%
  EXPECT_EQ((*slower)[0].outcome, baseline_case::verdict::regression);
  EXPECT_NEAR((*slower)[0].change, 202.0 / 220.0 - 1, 1e-9);
  EXPECT_EQ(baseline_findings(*slower)[0].second.level, severity::error);
  const auto faster = compare_baseline(run_at({180e-6, 180e-6}), baseline);
  // One timed launch has no noise estimate: its 8.2% drop is not judged; the equal bytes say SAME.
  const auto single = compare_baseline(run_at({220e-6}), baseline);
  EXPECT_FALSE((*single)[0].time_judged);
  EXPECT_EQ((*single)[0].outcome, baseline_case::verdict::no_change);
  EXPECT_EQ((*faster)[0].outcome, baseline_case::verdict::improvement);
  EXPECT_FALSE(compare_baseline(run_at({200e-6}), "{}").ok());  // not a rooflint-verify report
}

// A run on two cards names its cases by card; the baseline from a run on one card (or on other cards)
// still judges them: each case of the two-card run meets the one-card case of its kernel and sizes, and
// a case 10% slower on card B (fraction 200/220 - 1 = -9.1%) is WORSE; the other SAME. And back: the
// one-card run against the two-card baseline meets one of its cases, the other baseline case is missing.
TEST(InjectBaseline, CasesOfSeveralGpusMeetTheBaselineOfOne) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  const auto on = [&](const std::string& uuid, double s) {
    measurement m = axpy_on(uuid, n, s);
    m.timing.repetitions = 2;
    return axpy_launch(axpy, n, m);
  };
  const run_report one = make_program_report(ks, {on(card_a, 200e-6), on(card_a, 200e-6)}, verify_options{}, {}).run;
  const run_report two =
      make_program_report(ks, {on(card_a, 200e-6), on(card_a, 200e-6), on(card_b, 220e-6), on(card_b, 220e-6)}, verify_options{}, {}).run;
  ASSERT_EQ(two.cases.size(), 2u);
  const auto judged = compare_baseline(two, to_json(one));
  ASSERT_TRUE(judged.ok()) << judged.err().message;
  ASSERT_EQ(judged->size(), 2u);
  EXPECT_EQ((*judged)[0].outcome, baseline_case::verdict::no_change);
  EXPECT_EQ((*judged)[1].outcome, baseline_case::verdict::regression);
  EXPECT_NEAR((*judged)[1].change, 200.0 / 220.0 - 1, 1e-9);
  const auto back = compare_baseline(one, to_json(two));
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].outcome, baseline_case::verdict::no_change);
  EXPECT_EQ((*back)[1].outcome, baseline_case::verdict::missing);
}

// The counter figures decide apart from the time: a kernel that moves twice its DRAM bytes at the same
// time is WORSE (its bytes beyond the 5% counter band), though its roofline fraction did not move; one
// that moves the same bytes (inside the band) at the same time is SAME; without counter figures and with
// a time band wider than 30% the gate cannot tell: UNDECIDED.
TEST(InjectBaseline, CountsDecideApartFromTheTimeAndANoisyRunWithoutCountsIsUndecided) {
  const auto ks = example();
  const manifest_kernel& axpy = kernel_named(ks, "axpy");
  const double n = 1 << 26;
  verify_options o;
  const auto run_of = [&](const measurement& m) { return make_program_report(ks, {axpy_launch(axpy, n, m)}, o, {}).run; };
  const std::string baseline = to_json(run_of(measured_axpy(n, 200e-6)));

  measurement twice = measured_axpy(n, 200e-6);
  twice.counters.dram_read_bytes *= 2;  // 16 n read instead of 8 n: DRAM bytes (8n + 4n) -> (16n + 4n), 1.67x
  const auto worse = compare_baseline(run_of(twice), baseline);
  ASSERT_TRUE(worse.ok()) << worse.err().message;
  EXPECT_EQ((*worse)[0].outcome, baseline_case::verdict::regression);
  EXPECT_EQ(name((*worse)[0].outcome), "WORSE");
  EXPECT_NEAR((*worse)[0].change, 0, 1e-12);  // the time, and so the fraction, did not move
  ASSERT_FALSE((*worse)[0].levels.empty());
  EXPECT_EQ((*worse)[0].levels[0].level, model::memory_level::dram);
  EXPECT_NEAR((*worse)[0].levels[0].change, 20.0 / 12.0 - 1, 1e-9);
  EXPECT_NEAR((*worse)[0].levels[0].band, 0.05, 1e-12);  // 12 n = 768 MiB: the 256 KiB floor is far below 5%
  EXPECT_NE(baseline_findings(*worse)[0].second.message.find("WORSE than the baseline: DRAM 1.67x"), std::string::npos)
      << baseline_findings(*worse)[0].second.message;

  measurement near = measured_axpy(n, 200e-6);
  near.counters.dram_read_bytes *= 1.02;  // +1.3% of the DRAM bytes: inside the 5% band
  EXPECT_EQ((*compare_baseline(run_of(near), baseline))[0].outcome, baseline_case::verdict::no_change);

  // Timing only on both sides (no levels), launches of 100, 200 and 300 us: relative noise
  // (300 - 100) / (2 x 200) = 50%, band 150%.
  o.counters = false;
  std::vector<launch_event> noisy;
  for (double seconds : {100e-6, 200e-6, 300e-6}) {
    measurement m = measured_axpy(n, seconds);
    m.counters = {};
    noisy.push_back(axpy_launch(axpy, n, m));
  }
  const run_report timing_only = make_program_report(ks, noisy, o, {}).run;
  const auto undecided = compare_baseline(timing_only, to_json(timing_only));
  ASSERT_TRUE(undecided.ok()) << undecided.err().message;
  EXPECT_TRUE((*undecided)[0].levels.empty());
  EXPECT_EQ((*undecided)[0].outcome, baseline_case::verdict::undecided);
  EXPECT_EQ(baseline_findings(*undecided)[0].second.level, severity::warning);
}

// A baseline whose fields have another type, or a value out of range, is refused with the field named
// by its JSON pointer (the report's own reader, verify_report::from_json); it never throws (an abort of
// rooflint-verify) and never reads as "no baseline".
TEST(InjectBaseline, RefusesFieldsOfAnotherTypeOrRangeNamingThem) {
  const run_report empty;
  const auto refused = [&](const std::string& cases, const std::string& version = "2") {
    const auto r = compare_baseline(empty, R"({"schema": "rooflint-verify", "version": )" + version + R"(, "cases": )" + cases + "}");
    return r.ok() ? std::string("accepted") : r.err().message;
  };
  // A case as the gate needs it: its name, status and comparison; the rest of what reports hold is optional.
  const auto one_case = [&](const std::string& fields) { return refused(R"([{"name": "k", "status": "passed", )" + fields + "}]"); };
  EXPECT_EQ(refused("[]"), "accepted");
  EXPECT_EQ(one_case(R"("compared": {"roofline_fraction": null})"), "accepted");  // not measured
  EXPECT_EQ(refused("[]", "99"), "the baseline: 'version' is not one this reader knows (1 to 2)");
  EXPECT_EQ(refused("[]", R"("2")"), refused("[]", "99"));
  EXPECT_EQ(refused(R"({"k": 1})"), "the baseline: '/cases' must be an array, not an object");
  EXPECT_EQ(refused("[7]"), "the baseline: '/cases/0' must be an object, not an integer");
  EXPECT_EQ(refused(R"([{"name": 5}])"), "the baseline: '/cases/0/name' must be a string, not an integer");
  EXPECT_EQ(refused(R"([{"name": "k", "compared": {}}])"), "the baseline: '/cases/0/status' is missing");
  EXPECT_EQ(one_case(R"("compared": {"roofline_fraction": "high"})"),
            "the baseline: '/cases/0/compared/roofline_fraction' must be a number, not a string");
  EXPECT_EQ(one_case(R"("compared": {"roofline_fraction": -0.5})"),
            "the baseline: '/cases/0/compared/roofline_fraction' is -0.5, less than 0");
  EXPECT_EQ(one_case(R"("compared": {"roofline_fraction": 1e999})"),  // no infinity gets in: the parser refuses it
            "the baseline is not a JSON object");
  EXPECT_EQ(one_case(R"("compared": [0.5])"), "the baseline: '/cases/0/compared' must be an object, not an array");
  EXPECT_EQ(one_case(R"("compared": {}, "measured": {"timing": {"available": true, "repetitions": 3, "median_s": 1, "min_s": 2, "max_s": 3}})"),
            "the baseline: '/cases/0/measured/timing' has min_s, median_s and max_s out of order");
  EXPECT_EQ(one_case(R"("compared": {}, "measured": {"timing": {"repetitions": 2.5}})"),
            "the baseline: '/cases/0/measured/timing/repetitions' must be an integer, not a number with a fraction");
  EXPECT_EQ(one_case(R"("compared": {}, "measured": {"timing": {"available": "yes"}})"),
            "the baseline: '/cases/0/measured/timing/available' must be true or false, not a string");
  EXPECT_EQ(refused(R"([{"name": "k", "status": "passed", "compared": {}}, {"name": "k", "status": "failed", "compared": {}}])"),
            "the baseline: '/cases/1/name' repeats the case 'k'");
  EXPECT_EQ(refused(R"("cases")"), "the baseline: '/cases' must be an array, not a string");
  const auto not_json = compare_baseline(empty, "");
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.err().message, "the baseline is not a JSON object");
}

TEST(InjectBaseline, UsesTheHalfRangeOfTheRepetitionsAsNoise) {
  timing_values t;
  t.available = true;
  t.repetitions = 30;
  t.median_s = 1.0;
  t.min_s = 0.9;
  t.max_s = 1.3;
  EXPECT_NEAR(relative_noise(t), 0.2, 1e-12);  // (1.3 - 0.9) / (2 x 1.0)
  t.repetitions = 1;
  EXPECT_EQ(relative_noise(t), 0);  // one run: no noise estimate, the floor band applies
}

// Manifest version 4: predicted_traffic per tensor and level, one line per tensor for the
// verifier's table; a version 2 kernel (the example's others) has none.
TEST(InjectManifest, ReadsThePredictedTrafficOfVersionFour) {
  std::string text = text_of(manifest_path);
  const std::string key = "\"mangled_name\": \"_Z4axpyifPKfPf\"";
  const std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  text.insert(at, R"("predicted_traffic": {"source": "device-side IR, scalar evolution", "tensors": [
      {"tensor": "x", "param": 2, "level": "dram", "ratio": null, "basis": "sectors shared with other warps: not predicted"},
      {"tensor": "x", "param": 2, "level": "l2", "ratio": 8, "basis": "load line 3: 8x per warp request"},
      {"tensor": "x", "param": 2, "level": "l1", "ratio": 8, "basis": "load line 3: 8x per warp request"},
      {"tensor": "y", "param": 3, "level": "l2", "ratio": 1, "basis": "every access coalesced"},
      {"tensor": "y", "param": 3, "level": "dram", "ratio": 1, "basis": "every access coalesced"},
      {"tensor": "z", "param": 4, "level": "l2", "ratio": null, "basis": "line 9: the address depends on loaded data"}]},
    )");
  const auto ks = parse_manifest(text, "v3.json");
  ASSERT_TRUE(ks.ok()) << ks.err().message;
  // Levels in the manifest's order; a basis where it differs from the level before; null: not predicted.
  const std::vector<std::string> expected{
      "x: DRAM not predicted (sectors shared with other warps: not predicted), L2 8x (load line 3: 8x per warp request), L1 8x",
      "y: L2 1x (every access coalesced), DRAM 1x",
      "z: L2 not predicted (line 9: the address depends on loaded data)"};
  EXPECT_EQ(predicted_traffic_lines(kernel_named(*ks, "axpy").predicted), expected);
  EXPECT_FALSE(kernel_named(*ks, "fixed").traffic_predicted);

  // The kernel's ratio per level at N = 1000: x (read) 4,000 compulsory bytes, y (read_write) 8,000.
  // L2: (8 x 4,000 + 1 x 8,000) / 12,000 = 3.333x; DRAM: x has none, so the kernel has none; L1: y has none.
  dsl::sizes n1000;
  n1000.values[0] = 1000;
  const auto ratios = kernel_predicted_ratios(kernel_named(*ks, "axpy"), n1000);
  EXPECT_FALSE(ratios[static_cast<std::size_t>(model::memory_level::dram)].predicted());
  EXPECT_EQ(ratios[static_cast<std::size_t>(model::memory_level::l2)].kind, manifest::prediction_kind::value);
  EXPECT_NEAR(ratios[static_cast<std::size_t>(model::memory_level::l2)].ratio, 40000.0 / 12000.0, 1e-12);
  EXPECT_FALSE(ratios[static_cast<std::size_t>(model::memory_level::l1)].predicted());
  // A ratio that holds at the declared sizes only ("sized"): axpy declares no size, so none at N = 1000.
  std::string sized = text;
  const std::string entry = R"("level": "l2", "ratio": 1, "basis": "every access coalesced"})";
  sized.replace(sized.find(entry), entry.size(), R"("level": "l2", "ratio": 1, "basis": "every access coalesced", "sized": true})");
  const auto sized_ks = parse_manifest(sized, "v4.json");
  ASSERT_TRUE(sized_ks.ok()) << sized_ks.err().message;
  EXPECT_FALSE(kernel_predicted_ratios(kernel_named(*sized_ks, "axpy"), n1000)[static_cast<std::size_t>(model::memory_level::l2)].predicted());
}

// A tensor's range without a point (the analyzer's where the point rests on registers the spec does not
// state) gives the kernel a range without one: at N = 1000, x (read, 4,000 bytes) 1x to 4x and y
// (read_write, 8,000) 1x: low (4,000 + 8,000) / 12,000 = 1x, high (16,000 + 8,000) / 12,000 = 2x. Its
// line says it has no point, and the report's JSON leaves the point null beside the range.
TEST(InjectManifest, ATensorsRangeWithoutAPointLeavesTheKernelsWithoutOne) {
  std::string text = text_of(manifest_path);
  const std::size_t at = text.find("\"mangled_name\": \"_Z4axpyifPKfPf\"");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, R"("predicted_traffic": {"source": "device-side IR", "tensors": [
      {"tensor": "x", "param": 2, "level": "dram", "kind": "range", "ratio": null, "low": 1, "high": 4, "basis": "registers", "sized": false},
      {"tensor": "y", "param": 3, "level": "dram", "kind": "value", "ratio": 1, "low": 1, "high": 1, "basis": "once", "sized": false}]},
    )");
  const auto ks = parse_manifest(text, "v6.json");
  ASSERT_TRUE(ks.ok()) << ks.err().message;
  const manifest_kernel& k = kernel_named(*ks, "axpy");
  EXPECT_EQ(predicted_traffic_lines(k.predicted),
            (std::vector<std::string>{"x: DRAM 1x to 4x (no point) (registers)", "y: DRAM 1x (once)"}));
  dsl::sizes n1000;
  n1000.values[0] = 1000;
  const predicted_level_ratio dram = kernel_predicted_ratios(k, n1000)[static_cast<std::size_t>(model::memory_level::dram)];
  EXPECT_EQ(dram.kind, manifest::prediction_kind::range);
  EXPECT_TRUE(dram.predicted());
  EXPECT_FALSE(dram.has_point());
  EXPECT_NEAR(dram.low, 1.0, 1e-12);
  EXPECT_NEAR(dram.high, 2.0, 1e-12);
}

// The report's lines and the ratios per level come from one reading of predicted_traffic. They were
// read twice with different rules: an entry without a level got a line ("w:  2x") and no ratio, and a
// ratio of 0 or below printed "0x" / "-1x" where the ratios said not predicted.
TEST(InjectManifest, PredictedTrafficLinesAndRatiosAgree) {
  std::string text = text_of(manifest_path);
  const std::size_t at = text.find("\"mangled_name\": \"_Z4axpyifPKfPf\"");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, R"("predicted_traffic": {"source": "device-side IR, scalar evolution", "tensors": [
      {"tensor": "w", "param": 1, "ratio": 2, "basis": "no level"},
      {"tensor": "x", "param": 2, "level": "l2", "ratio": 0, "basis": "zero"},
      {"tensor": "y", "param": 3, "level": "dram", "ratio": -1},
      {"tensor": "y", "param": 3, "level": "l1", "ratio": 4, "sized": true}]},
    )");
  const auto ks = parse_manifest(text, "v4.json");
  ASSERT_TRUE(ks.ok()) << ks.err().message;
  const manifest_kernel& k = kernel_named(*ks, "axpy");
  const std::vector<std::string> lines{"x: L2 not predicted (zero)", "y: DRAM not predicted, L1 4x at the declared sizes"};
  EXPECT_EQ(predicted_traffic_lines(k.predicted), lines);
  ASSERT_EQ(k.predicted.size(), 3u);  // w has no level: in neither
  EXPECT_EQ(k.predicted[0].kind, rooflint::manifest::prediction_kind::not_predicted);
  EXPECT_EQ(k.predicted[1].kind, rooflint::manifest::prediction_kind::not_predicted);
  EXPECT_EQ(*k.predicted[2].ratio, 4);
  EXPECT_TRUE(k.predicted[2].sized);
}
