// Regions (dsl/region.h) in the analyzer: the bound remark at the region's spec with its kernels as
// notes, the manifest's region fields (schema version 3) and SARIF. Values worked out by hand below.
#include <gtest/gtest.h>

#include "rooflint/analyzer/Outputs.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint;
using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

// Itanium mangling: row_max(const float*, float*, int) is _Z7row_maxPKfPfi.
const char *const Input = R"cu(
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;

__global__ void row_max(const float* x, float* m, int cols) {}
__global__ void row_sum(const float* x, const float* m, float* s, int cols) {}
__global__ void normalise(const float* x, const float* m, const float* s, float* y, int cols) {}
void host_pass(const float* x, float* y, int cols) {}

inline constexpr auto softmax_3pass =
    region<row_max, row_sum, normalise>("softmax_3pass", softmax(in("x", f32, R, C), out("y", f32, R, C)))
        .at(R(65536), C(4096))
        .sizes<0>(R(grid_dim.x), C(arg<2>))
        .expect(memory_bound);
inline constexpr auto sgemm_lib =
    region<library_kernel<"gemm">>("sgemm_lib", matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096));
)cu";

// A region whose second kernel is a host function: an error, so in an input of its own.
const std::string WithHost = std::string(Input) + R"cu(
inline constexpr auto with_host =
    region<row_max, host_pass>("with_host", softmax(in("x", f32, R, C), out("y", f32, R, C))).at(R(8), C(8));
)cu";

}  // namespace

TEST(Region, BoundRemarkAtTheSpecWithItsKernels) {
  const AnalysisRun R = analyze(Input, "region.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  // softmax over 65536 x 4096 f32: 8*R*C = 2,147,483,648 compulsory bytes, 0 FLOP: memory-bound; the
  // floor is 2147483648 B / 4.8 TB/s (H200 datasheet) = 0.447 ms.
  const DiagRecord *D = diagnosticContaining(R, "rooflint-bound", "region 'softmax_3pass' is memory-bound");
  ASSERT_NE(D, nullptr) << R.Output;
  EXPECT_EQ(D->Line, 16u);  // the spec's line, not a kernel's
  EXPECT_NE(llvm::StringRef(D->Message).find("floor 0.447 ms at R = 65536, C = 4096"), llvm::StringRef::npos) << D->Message;
  std::vector<unsigned> KernelLines;
  for (const DiagRecord &N : D->Notes)
    if (llvm::StringRef(N.Message).contains("of 3 of region 'softmax_3pass'")) KernelLines.push_back(N.Line);
  EXPECT_EQ(KernelLines, (std::vector<unsigned>{11, 12, 13}));  // in launch order, where each is declared
  const DiagRecord *Lib = diagnosticContaining(R, "rooflint-bound", "region 'sgemm_lib' is compute-bound");
  ASSERT_NE(Lib, nullptr) << R.Output;
  bool LibraryNote = false;
  for (const DiagRecord &N : Lib->Notes) LibraryNote |= llvm::StringRef(N.Message).contains("library kernel, matched by its symbol containing 'gemm'");
  EXPECT_TRUE(LibraryNote);
}

TEST(Region, AHostFunctionIsNoKernelOfARegion) {
  const AnalysisRun R = analyze(WithHost, "region.cu");
  const DiagRecord *D = diagnosticContaining(R, "rooflint-kernel-binding", "kernel 2 of region 'with_host', 'host_pass', is not a __global__ function");
  ASSERT_NE(D, nullptr) << R.Output;
  EXPECT_EQ(D->Level, "error");
}

TEST(Region, ManifestNamesTheKernelsAndTheSite) {
  const AnalysisRun R = analyze(Input, "region.cu");
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  const manifest::kernel &K = kernelNamed(M, "softmax_3pass");
  EXPECT_EQ(K.kind, manifest::entry_kind::region);
  EXPECT_EQ(K.mangled_name, "");
  ASSERT_TRUE(K.region);
  const std::vector<manifest::region_member> &Members = K.region->kernels;
  ASSERT_EQ(Members.size(), 3u);
  EXPECT_EQ(Members[0].mangled_name, "_Z7row_maxPKfPfi");
  EXPECT_EQ(Members[2].function, "normalise");
  EXPECT_EQ(Members[1].parameters.size(), 4u);
  // The sizes are read at kernel 0, whose parameters are the spec's: C is argument 2, 'cols'.
  const dsl::launch_binding &L = K.spec_value.launch;
  EXPECT_EQ(L.kind, dsl::binding_kind::region);
  const dsl::launch_size &C = L.sizes[1];
  EXPECT_EQ(K.parameters[C.index].name, "cols");
  EXPECT_EQ(C.site, 0);
  EXPECT_EQ(K.parameters.size(), 3u);
  EXPECT_EQ(K.spec_value.region.kernel_count, 3);
  // Compulsory bytes as for a kernel: 2 * 4 * 65536 * 4096.
  ASSERT_TRUE(K.values);
  EXPECT_EQ(K.values->bytes, 2147483648.0);

  const manifest::kernel &Lib = kernelNamed(M, "sgemm_lib");
  ASSERT_TRUE(Lib.region);
  const manifest::region_member &G = Lib.region->kernels.at(0);
  EXPECT_EQ(G.match, dsl::kernel_match::library);
  EXPECT_EQ(G.pattern, "gemm");
  EXPECT_EQ(Lib.spec_value.launch.kind, dsl::binding_kind::none);  // no .sizes: the harness binds it
}

TEST(Region, SarifCarriesTheRegionsVerdict) {
  const AnalysisRun R = analyze(Input, "region.cu");
  const llvm::json::Value S = sarifJson(R.Results);
  bool Found = false;
  for (const llvm::json::Value &Result : *(*S.getAsObject()->getArray("runs"))[0].getAsObject()->getArray("results")) {
    const llvm::json::Object &O = *Result.getAsObject();
    if (O.getString("ruleId") != "rooflint-bound") continue;
    if (!O.getObject("message")->getString("text")->contains("region 'softmax_3pass'")) continue;
    Found = true;
    const auto *Loc = (*O.getArray("locations"))[0].getAsObject()->getObject("physicalLocation")->getObject("region");
    EXPECT_EQ(*Loc->getInteger("startLine"), 16);
  }
  EXPECT_TRUE(Found);
}
