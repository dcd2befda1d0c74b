// The manifest's record (rooflint/files/manifest.h): saved and loaded through one field table, older
// versions read, and hostile files refused by name (the file, the kernel and the field) instead of
// aborting the reader. The analyzer's side of the contract (specs analysed, saved, loaded, compared)
// is tests/analyzer/manifest_contract_test.cpp.

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <type_traits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "rooflint/files/manifest.h"
#include "rooflint/files/manifest_tables.h"

namespace manifest = rooflint::manifest;
namespace dsl = rooflint::dsl;
namespace model = rooflint::model;
using nlohmann::json;

namespace {

/// The manifests recorded for the verifier's tests.
const std::string data_dir = ROOFLINT_MANIFEST_DATA_DIR;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A manifest whose fields are not their defaults, in each record the tables name.
manifest::manifest_file every_field() {
  manifest::manifest_file f;
  f.rooflint_version = "9.9.9";
  f.peaks = {"H200", model::peak_source::measured, 4.3e12, {}};
  f.peaks.flops_per_s[model::math_mode::fp32_simt] = 51e12;
  manifest::kernel k;
  k.spec = "saxpy_spec";
  k.name = "saxpy";
  k.function = "ns::saxpy";
  k.mangled_name = "_ZN2ns5saxpyEifPKfPf";
  k.location = {"saxpy.cu", 12, 17};
  k.spec_location = {"saxpy.cu", 9, 3};
  k.operation = "elementwise";
  k.math_mode = model::math_mode::fp32_simt;
  k.convention = {"rooflint", true, true};
  k.dims = {{"N", std::nullopt, 4096.0, 4096.0}};
  k.tensors = {{"x", 2, dsl::role::read, model::dtype::f16, {"N"}, "N", true, true}};
  k.formulas = {"2*N", "8*N", "4*N", "12*N", "1/6"};
  k.expected = {model::bound::memory, 2.5, 0.5};
  k.values = manifest::values{8192, 32768, 16384, 49152, 1.0 / 6};
  k.verdict = manifest::verdict{model::bound::memory, 1.0 / 6, 13.9, 1e-9, 1e-8, 1e-8, "kernel 'saxpy' is memory-bound"};
  k.verdict_change = manifest::verdict_change{"N", 84, model::bound::compute};
  k.parameters = {{0, "n", "int", manifest::param_kind::integer, true, 4, 4, 0},
                  {1, "a", "float", manifest::param_kind::floating, false, 4, 4, 4},
                  {2, "x", "const float *", manifest::param_kind::pointer, false, 8, 8, 8}};
  dsl::spec& s = k.spec_value;
  s.kernel_name = dsl::name_t("saxpy");
  s.op.kind = dsl::op_kind::elementwise;
  s.op.name = dsl::name_t("axpy");
  s.op.zero_under_torch = true;
  s.op.precision_stated = true;
  s.op.compute = model::dtype::f16;
  s.dims[0] = {dsl::name_t("N"), 0, 4096};
  s.dim_count = 1;
  s.op.flops.dims[0] = dsl::name_t("N");
  s.op.flops.dim_count = 1;
  s.op.flops.terms[0].coefficient = 2;
  s.op.flops.terms[0].exponents.set(0, 1);
  s.op.flops.term_count = 1;
  s.flops = s.op.flops;
  s.tensors[0].name = dsl::name_t("x");
  s.tensors[0].dtype = model::dtype::f16;
  s.tensors[0].arg = 2;
  s.tensors[0].rank = 1;
  s.tensors[0].elements = s.op.flops;
  s.tensors[0].indices = dsl::index_distribution::distinct;
  s.tensors[0].index_bound = 0;
  s.tensor_count = 1;
  s.mode_chosen = true;
  s.expected.bound = dsl::expected_bound::memory;
  s.expected.max_traffic_ratio = 2.5;
  s.launch.kind = dsl::binding_kind::kernel;
  s.launch.sizes[0] = {dsl::name_t("N"), dsl::size_source::argument, 0, 4, 2, 0, true};  // N = 4 * 2^arg0 / 2
  s.launch.size_count = 1;
  manifest::predicted_traffic p;
  p.source = "device-side IR";
  p.launch = manifest::launch_assumption{{256, 1, 1}, {16, 1, 1}, true, "256 threads a block (stated)"};
  p.gpu = "H200";
  p.note = "4 of 16 blocks sampled";
  p.levels = {{"x", 2, model::memory_level::l2, manifest::prediction_kind::range, 2.0, 1.0, 3.0, "reused", true},
              {"x", 2, model::memory_level::dram, manifest::prediction_kind::not_predicted, {}, {}, {}, "why not", false}};
  p.accesses = {{"saxpy.cu", 14, 9, "x", 2, true, true, 512.0, 8, 4, 2.0, "a note"}};
  k.predicted = p;
  k.peaks = {"H200", model::peak_source::measured, 4.3e12, 51e12};
  f.kernels.push_back(k);
  manifest::kernel r = k;
  r.name = "pair";
  r.kind = manifest::entry_kind::region;
  r.region = manifest::region{{{dsl::kernel_match::function, "", "a", "_Z1av", {"r.cu", 1, 2}, {}},
                               {dsl::kernel_match::library, "gemm", "", "", {}, {}}}};
  r.spec_value.region.kernels[0] = {dsl::kernel_match::function, dsl::name_t("")};
  r.spec_value.region.kernels[1] = {dsl::kernel_match::library, dsl::name_t("gemm")};
  r.spec_value.region.kernel_count = 2;
  r.spec_value.launch.kind = dsl::binding_kind::region;
  r.parameters.clear();
  r.spec_value.tensors[0].arg = -1;
  f.kernels.push_back(r);
  f.diagnostics = {{"rooflint-bound", rooflint::diagnostics::level::remark, "a message", "saxpy.cu", 9, 3, "spec:saxpy.cu:9:3"}};
  return f;
}

/// @return The error from_json gives for @p doc.
std::string refusal(const json& doc) {
  std::string error;
  EXPECT_FALSE(manifest::from_json(doc.dump(), "hostile.json", error).has_value()) << doc.dump().substr(0, 200);
  return error;
}

/// The recorded version 2 manifest (tests/runtime/data/inject-example.manifest.json), to be edited.
json recorded() { return json::parse(read_text(data_dir + "/inject-example.manifest.json")); }

}  // namespace

TEST(ManifestRecord, EveryFieldSurvivesASaveAndALoad) {
  const manifest::manifest_file written = every_field();
  std::string error;
  const auto read = manifest::from_json(manifest::to_json(written), "round.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(manifest::differences(written, *read), std::vector<std::string>{});
  EXPECT_EQ(read->version, manifest::version);
}

TEST(ManifestRecord, DifferencesNameTheField) {
  const manifest::manifest_file a = every_field();
  manifest::manifest_file b = a;
  b.kernels[0].spec_value.dims[0].name = dsl::name_t("M");
  b.kernels[0].predicted->levels[0].kind = manifest::prediction_kind::value;
  const auto d = manifest::differences(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0], "/kernels/0/spec_value/dims/0/name: \"N\" vs \"M\"");
  EXPECT_EQ(d[1], "/kernels/0/predicted_traffic/tensors/0/kind: \"range\" vs \"value\"");
}

// A range whose point rests on what the spec does not state (the registers a thread) has low and high
// and no ratio: it saves and loads so. A value needs all three figures, a range its two bounds in order,
// and a point inside them; each figure that breaks this is refused by its field.
TEST(ManifestRecord, ARangeWithoutAPointRoundTripsAndBrokenFiguresAreRefused) {
  manifest::manifest_file f = every_field();
  f.kernels[0].predicted->levels[0].ratio.reset();
  std::string error;
  const auto read = manifest::from_json(manifest::to_json(f), "pointless.json", error);
  ASSERT_TRUE(read) << error;
  const manifest::level_prediction& l = read->kernels[0].predicted->levels[0];
  EXPECT_EQ(l.kind, manifest::prediction_kind::range);
  EXPECT_FALSE(l.ratio.has_value());
  EXPECT_EQ(*l.low, 1.0);
  EXPECT_EQ(*l.high, 3.0);
  const auto refused = [&](auto edit) {
    manifest::manifest_file g = every_field();
    edit(g.kernels[0].predicted->levels[0]);
    std::string why;
    EXPECT_FALSE(manifest::from_json(manifest::to_json(g), "broken.json", why).has_value());
    return why;
  };
  const auto has = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
  EXPECT_TRUE(has(refused([](manifest::level_prediction& p) { p.low.reset(); }), "is a range without its low and high"));
  EXPECT_TRUE(has(refused([](manifest::level_prediction& p) { p.low = 4.0, p.ratio.reset(); }), "is a range whose low is above its high"));
  EXPECT_TRUE(has(refused([](manifest::level_prediction& p) { p.ratio = 5.0; }), "has a ratio outside its range"));
  EXPECT_TRUE(has(refused([](manifest::level_prediction& p) { p.kind = manifest::prediction_kind::value, p.ratio.reset(); }),
                  "is a value without its ratio, low and high"));
}

TEST(ManifestRecord, AKernelEntryRoundTripsAlone) {
  const manifest::kernel k = every_field().kernels[0];
  std::string error;
  const auto read = manifest::kernel_from_json(manifest::to_json(k), error);
  ASSERT_TRUE(read) << error;
  manifest::manifest_file a, b;
  a.kernels = {k};
  b.kernels = {*read};
  EXPECT_TRUE(manifest::differences(a, b).empty());
}

TEST(ManifestRecord, RecordedManifestsOfVersionsTwoAndThreeLoad) {
  // Written by the analyzer of their day (tests/runtime/data, tests/fuzz/corpus/manifest).
  std::string error;
  const auto v2 = manifest::load(data_dir + "/inject-example.manifest.json", error);
  ASSERT_TRUE(v2) << error;
  EXPECT_EQ(v2->version, 2);
  ASSERT_EQ(v2->kernels.size(), 4u);
  EXPECT_EQ(v2->kernels[0].name, "axpy");
  EXPECT_EQ(v2->kernels[0].kind, manifest::entry_kind::kernel);  // version 3's field, absent in 2
  EXPECT_FALSE(v2->kernels[0].predicted.has_value());            // version 4's, absent in 2
  const auto v3 = manifest::load(data_dir + "/inject-region.manifest.json", error);
  ASSERT_TRUE(v3) << error;
  EXPECT_EQ(v3->version, 3);
}

TEST(ManifestRecord, VersionFourRatiosReadAsValuesOrNotPredicted) {
  json doc = recorded();
  doc["version"] = 4;
  for (json& k : doc["kernels"]) {  // what version 3 added
    k["kind"] = "kernel";
    k["region"] = nullptr;
    k["spec_value"]["region_kernels"] = json::array();
  }
  doc["kernels"][0]["predicted_traffic"] = {
      {"source", "device-side IR, scalar evolution"},
      {"tensors", {{{"tensor", "x"}, {"param", 1}, {"level", "l2"}, {"ratio", 8}, {"basis", "load line 11"}, {"sized", false}},
                   {{"tensor", "x"}, {"param", 1}, {"level", "dram"}, {"ratio", nullptr}, {"basis", "gather"}, {"sized", true}}}}};
  std::string error;
  const auto m = manifest::from_json(doc.dump(), "v4.json", error);
  ASSERT_TRUE(m) << error;
  const auto& levels = m->kernels[0].predicted->levels;
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].kind, manifest::prediction_kind::value);
  EXPECT_EQ(levels[0].level, model::memory_level::l2);
  EXPECT_EQ(*levels[0].ratio, 8);
  EXPECT_EQ(*levels[0].low, 8);
  EXPECT_EQ(levels[1].kind, manifest::prediction_kind::not_predicted);
  EXPECT_FALSE(levels[1].ratio.has_value());
  EXPECT_EQ(m->notes.size(), 1u);
}

// The later form of version 4 (its analyzer wrote kinds, bounds, the launch, the GPU and the accesses):
// read as written, a range stays a range, and no note says the figures were mapped.
TEST(ManifestRecord, VersionFourWithKindsReadsAsWritten) {
  json doc = recorded();
  doc["version"] = 4;
  for (json& k : doc["kernels"]) {
    k["kind"] = "kernel";
    k["region"] = nullptr;
    k["spec_value"]["region_kernels"] = json::array();
  }
  doc["kernels"][0]["predicted_traffic"] = {
      {"source", "device-side IR evaluated for sampled warps"},
      {"gpu", "A100"},
      {"launch", {{"grid", {4, 1, 1}}, {"block", {256, 1, 1}}, {"stated", false}, {"text", "assumed"}}},
      {"note", ""},
      {"tensors", {{{"tensor", "x"}, {"param", 1}, {"level", "l2"}, {"kind", "range"}, {"ratio", 2}, {"low", 1},
                    {"high", 3}, {"basis", "kept in part"}, {"sized", true}},
                   {{"tensor", "x"}, {"param", 1}, {"level", "dram"}, {"kind", "value"}, {"ratio", 0}, {"low", 0},
                    {"high", 0}, {"basis", "stays in L2"}, {"sized", true}}}},
      {"accesses", json::array()}};
  std::string error;
  const auto m = manifest::from_json(doc.dump(), "v4k.json", error);
  ASSERT_TRUE(m) << error;
  const manifest::predicted_traffic& p = *m->kernels[0].predicted;
  EXPECT_EQ(p.gpu, "A100");
  ASSERT_TRUE(p.launch);
  EXPECT_EQ(p.launch->block[0], 256);
  ASSERT_EQ(p.levels.size(), 2u);
  EXPECT_EQ(p.levels[0].kind, manifest::prediction_kind::range);
  EXPECT_EQ(*p.levels[0].low, 1);
  EXPECT_EQ(*p.levels[0].high, 3);
  EXPECT_EQ(p.levels[1].kind, manifest::prediction_kind::value);  // a ratio of 0 is a prediction
  EXPECT_EQ(*p.levels[1].ratio, 0);
  EXPECT_TRUE(m->notes.empty());
}

// ---------------------------------------------------------------------------------------------------
// Hostile files: each refused with the file, the kernel and the field, never an abort

TEST(ManifestHostile, KernelNameOfTheWrongType) {
  json doc = recorded();
  doc["kernels"][0]["name"] = 7;
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 0: '/name' must be a string, not an integer");
}

TEST(ManifestHostile, SizeTermExponentsOfTheWrongType) {
  json doc = recorded();
  const json n = {{"dims", {"N"}}, {"terms", {{{"coefficient", 1}, {"exponents", {"1"}}}}}};
  doc["kernels"][0]["spec_value"]["size_terms"] = {{{"name", "N"}, {"op", "min"}, {"lhs", n}, {"rhs", n}}};
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'axpy': '/spec_value/size_terms/0/lhs/terms/0/exponents/0' "
                          "must be an integer, not a string");
}

TEST(ManifestHostile, ShapeEntriesOfTheWrongTypeOrOutOfRange) {
  json doc = recorded();
  doc["kernels"][0]["spec_value"]["tensors"][0]["shape"][0] = "N";
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'axpy': '/spec_value/tensors/0/shape/0' must be an integer, "
                          "not a string");
  doc = recorded();
  doc["kernels"][0]["spec_value"]["tensors"][0]["shape"][0] = 5;  // axpy has one dimension
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'axpy': 'spec_value/tensors/0/shape/0' is 5, not a "
                          "dimension of the spec (it has 1)");
}

TEST(ManifestHostile, SchemaOrVersionOfTheWrongType) {
  json doc = recorded();
  doc["schema"] = 1;
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json': not a rooflint manifest: 'schema' is 1, not \"rooflint-manifest\"");
  for (const json& v : {json(nullptr), json::array(), json::object(), json("2"), json(2.5)}) {
    doc = recorded();
    doc["version"] = v;
    EXPECT_NE(refusal(doc).find("'version' must be an integer"), std::string::npos) << v.dump();
  }
}

TEST(ManifestHostile, VersionsThisRooflintDoesNotKnow) {
  json doc = recorded();
  doc["version"] = 99;
  EXPECT_NE(refusal(doc).find("unsupported version 99 (this rooflint reads versions 1 to 6)"), std::string::npos);
  doc["version"] = 4294967298ull;  // 2 in 32 bits: not version 2
  EXPECT_NE(refusal(doc).find("unsupported version 4294967298"), std::string::npos);
  doc["version"] = -1;
  EXPECT_NE(refusal(doc).find("unsupported version -1"), std::string::npos);
}

TEST(ManifestHostile, ADivisorOfZero) {
  json doc = recorded();
  doc["kernels"][1]["launch"]["sizes"][0]["divisor"] = 0;
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'copy4': '/launch/sizes/0/divisor' is 0, outside the range 1 to "
                          "1099511627776");
}

TEST(ManifestHostile, AnUnknownOperationKind) {
  json doc = recorded();
  doc["kernels"][0]["spec_value"]["op"]["kind"] = 11;  // dsl::op_kind has 0 (matmul) to 10 (custom)
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'axpy': '/spec_value/op/kind' is 11, outside the range 0 to 10");
}

TEST(ManifestHostile, ALaunchSizeOfAnUnknownDimension) {
  json doc = recorded();
  doc["kernels"][0]["launch"]["sizes"][0]["dim"] = "Q";
  EXPECT_EQ(refusal(doc), "manifest 'hostile.json', kernel 'axpy': 'launch/sizes/0/dim' is \"Q\", not a dimension of the spec");
}

TEST(ManifestHostile, AnAccessLineOfTheWrongType) {
  // The per-line join reads the accesses from the record: their types are checked here, once.
  std::string error;
  manifest::manifest_file f = every_field();
  json doc = json::parse(manifest::to_json(f));
  doc["kernels"][0]["predicted_traffic"]["accesses"][0]["line"] = "43";
  EXPECT_EQ(refusal(doc),
            "manifest 'hostile.json', kernel 'saxpy': '/predicted_traffic/accesses/0/line' must be an integer, not a string");
}

TEST(ManifestHostile, NotARegularFile) {
  // The one reader of inputs (input_file.h) refuses them before a byte is read; its messages.
  std::string error;
  EXPECT_FALSE(manifest::load("/dev/zero", error));
  EXPECT_EQ(error, "cannot read '/dev/zero': not a regular file (a FIFO, socket or device)");
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_FALSE(manifest::load(dir, error));
  EXPECT_EQ(error, "cannot read '" + dir + "': " + std::strerror(EISDIR));
  EXPECT_FALSE(manifest::load(dir + "/no-such-manifest.json", error));
  EXPECT_EQ(error, "cannot read '" + dir + "/no-such-manifest.json': " + std::strerror(ENOENT));
}

TEST(ManifestHostile, AKernelWithManyParametersLoads) {
  // 70 parameters: more than a launch's values hold (dsl::max_launch_args, 64), which is the verifier's
  // concern for that kernel only; the file itself is valid.
  json doc = recorded();
  json& params = doc["kernels"][0]["parameters"];
  for (int i = static_cast<int>(params.size()); i < 70; ++i)
    params.push_back({{"index", i}, {"name", "p" + std::to_string(i)}, {"type", "int"}, {"kind", "integer"},
                      {"signed", true}, {"size_bytes", 4}, {"align_bytes", 4}, {"offset_bytes", 4 * i}});
  std::string error;
  const auto m = manifest::from_json(doc.dump(), "many.json", error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->kernels[0].parameters.size(), 70u);
}

TEST(ManifestSave, RefusesANumberThatIsNotFinite) {
  manifest::manifest_file f = every_field();
  f.kernels[0].values->intensity = std::numeric_limits<double>::infinity();
  std::string error;
  const std::string path = (std::filesystem::temp_directory_path() / "rooflint-manifest-inf.json").string();
  EXPECT_FALSE(manifest::save(f, path, error));
  EXPECT_EQ(error, "cannot write '" + path + "': '/kernels/0/values/intensity' is not a finite number");
}

// ---------------------------------------------------------------------------------------------------
// A field of the record is one line of its table: a member added to a record without its line (written
// by no writer, read by no reader, compared by no test) fails here.

namespace {

/// Converts to any type: initialises one member of an aggregate.
struct any_member {
  template <class T>
  operator T() const;
};

/// @return The number of members of the aggregate @p T (each initialised by one any_member).
template <class T, class... Members>
constexpr std::size_t member_count() {
  if constexpr (requires { T{Members{}..., any_member{}}; }) return member_count<T, Members..., any_member>();
  else return sizeof...(Members);
}

template <class T>
constexpr std::size_t table_size() {
  return std::tuple_size_v<std::remove_cvref_t<decltype(rooflint::files::table<T>::fields)>>;
}

}  // namespace

TEST(ManifestRecord, EveryMemberOfARecordIsALineOfItsTable) {
  EXPECT_EQ(table_size<manifest::position>(), member_count<manifest::position>());
  EXPECT_EQ(table_size<manifest::peaks_used>(), member_count<manifest::peaks_used>());
  EXPECT_EQ(table_size<manifest::kernel_peaks>(), member_count<manifest::kernel_peaks>());
  EXPECT_EQ(table_size<manifest::parameter>(), member_count<manifest::parameter>());
  EXPECT_EQ(table_size<manifest::convention>(), member_count<manifest::convention>());
  EXPECT_EQ(table_size<manifest::dim_sizes>(), member_count<manifest::dim_sizes>());
  EXPECT_EQ(table_size<manifest::tensor_summary>(), member_count<manifest::tensor_summary>());
  EXPECT_EQ(table_size<manifest::formulas>(), member_count<manifest::formulas>());
  EXPECT_EQ(table_size<manifest::expectations>(), member_count<manifest::expectations>());
  EXPECT_EQ(table_size<manifest::values>(), member_count<manifest::values>());
  EXPECT_EQ(table_size<manifest::verdict>(), member_count<manifest::verdict>());
  EXPECT_EQ(table_size<manifest::verdict_change>(), member_count<manifest::verdict_change>());
  EXPECT_EQ(table_size<manifest::region_member>(), member_count<manifest::region_member>());
  EXPECT_EQ(table_size<manifest::region>(), member_count<manifest::region>());
  EXPECT_EQ(table_size<manifest::level_prediction>(), member_count<manifest::level_prediction>());
  EXPECT_EQ(table_size<manifest::access>(), member_count<manifest::access>());
  EXPECT_EQ(table_size<manifest::launch_assumption>(), member_count<manifest::launch_assumption>());
  EXPECT_EQ(table_size<manifest::predicted_traffic>(), member_count<manifest::predicted_traffic>());
  // "launch" is written from the spec's launch binding, a part of spec_value: one line more.
  EXPECT_EQ(table_size<manifest::kernel>(), member_count<manifest::kernel>() + 1);
  EXPECT_EQ(table_size<manifest::diagnostic>(), member_count<manifest::diagnostic>());
  // The file's version is written beside the table (it decides how the rest is read), and its notes
  // are the reader's, never written.
  EXPECT_EQ(table_size<manifest::manifest_file>() + 2, member_count<manifest::manifest_file>());
}
