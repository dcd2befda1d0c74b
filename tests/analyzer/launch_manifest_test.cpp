// The manifest's launch fields (schema version 2, docs/manifest-schema.md) for an input whose layout
// and sizes are worked out by hand below.
#include <gtest/gtest.h>

#include "rooflint/analyzer/Outputs.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint;
using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

// Parameter buffer of `scaled` (x86-64 and CUDA agree on these sizes and alignments):
//   char tag        size 1, align 1, offset 0
//   const float* x  size 8, align 8, offset 8   (1 rounded up to 8)
//   float* y        size 8, align 8, offset 16
//   long long n4    size 8, align 8, offset 24
//   short rows      size 2, align 2, offset 32
//   double a        size 8, align 8, offset 40  (34 rounded up to 8)
// Itanium mangling of scaled(char, const float*, float*, long long, short, double): _Z6scaledcPKfPfxsd.
const char *const Input = R"cu(
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct K final : dim<"K"> {} K;

__global__ void scaled(char tag, const float* x, float* y, long long n4, short rows, double a) {}
__global__ void mm(const float* A, const float* B, float* C, int m) {}

inline constexpr auto scaled_spec =
    kernel<scaled>("scaled", elementwise(1, in<1>("x", f32, R, N), out<2>("y", f32, R, N)))
        .sizes(N(4 * arg<3>), R(grid_dim.y));
inline constexpr auto mm_spec =
    kernel<mm>("mm", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)))
        .at(K(64))
        .sizes(M(arg<3>), N(grid_dim.x * 16));
inline constexpr auto unbound_spec =
    kernel<mm>("mm_at", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)))
        .at(M(8), N(8), K(8));
)cu";

}  // namespace

TEST(LaunchManifest, IsTheCurrentVersion) {
  const AnalysisRun R = analyze(Input, "launch.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(manifestOf(R.Results, *model::find_peaks("H200")).version, 6);  // 3: regions, 4: predictions, 5: typed, 6: pow2
}

TEST(LaunchManifest, LaysOutParametersAsTheArgumentBufferDoes) {
  const AnalysisRun R = analyze(Input, "launch.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  const manifest::kernel &K = kernelNamed(M, "scaled");
  EXPECT_EQ(K.mangled_name, "_Z6scaledcPKfPfxsd");
  const std::vector<manifest::parameter> &P = K.parameters;
  ASSERT_EQ(P.size(), 6u);
  const int Offsets[] = {0, 8, 16, 24, 32, 40}, Sizes[] = {1, 8, 8, 8, 2, 8};
  using manifest::param_kind;
  const param_kind Kinds[] = {param_kind::integer, param_kind::pointer, param_kind::pointer,
                              param_kind::integer, param_kind::integer, param_kind::floating};
  for (std::size_t I = 0; I < P.size(); ++I) {
    SCOPED_TRACE(I);
    EXPECT_EQ(P[I].index, static_cast<int>(I));
    EXPECT_EQ(P[I].offset_bytes, Offsets[I]);
    EXPECT_EQ(P[I].size_bytes, Sizes[I]);
    EXPECT_EQ(P[I].kind, Kinds[I]);
  }
  EXPECT_EQ(P[3].name, "n4");
  EXPECT_EQ(P[3].type, "long long");
  EXPECT_TRUE(P[3].is_signed);
}

TEST(LaunchManifest, WritesEachSizeWithItsSource) {
  const AnalysisRun R = analyze(Input, "launch.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  const manifest::kernel &Scaled = kernelNamed(M, "scaled");
  const dsl::launch_binding &L = Scaled.spec_value.launch;
  EXPECT_EQ(L.kind, dsl::binding_kind::kernel);
  ASSERT_EQ(L.size_count, 2);
  const dsl::launch_size &N = L.sizes[0];  // in the order sizes() lists them
  EXPECT_EQ(N.dim.view(), "N");
  EXPECT_EQ(N.source, dsl::size_source::argument);
  EXPECT_EQ(N.index, 3);
  EXPECT_EQ(Scaled.parameters[N.index].name, "n4");
  EXPECT_EQ(N.multiplier, 4);
  EXPECT_EQ(N.divisor, 1);
  const dsl::launch_size &Rows = L.sizes[1];
  EXPECT_EQ(Rows.source, dsl::size_source::grid_dim);
  EXPECT_EQ(Rows.index, 1);  // y

  const manifest::kernel &Mm = kernelNamed(M, "mm");
  EXPECT_EQ(Mm.spec_value.dims[Mm.spec_value.dim_index(dsl::name_t("K"))].declared_size, 64);  // .at(K(64))
  EXPECT_EQ(Mm.spec_value.launch.sizes[1].multiplier, 16);
  EXPECT_EQ(kernelNamed(M, "mm_at").spec_value.launch.kind, dsl::binding_kind::none);  // "launch": null
}

TEST(LaunchManifest, WritesTheSpecValueWithItsPolynomials) {
  const AnalysisRun R = analyze(Input, "launch.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  const dsl::spec &V = kernelNamed(M, "mm").spec_value;
  // Compulsory reads 4*M*K + 4*K*N bytes: two terms with coefficient 4 over the dims M, N, K.
  EXPECT_EQ(V.read_bytes.term_count, 2);
  EXPECT_EQ(V.read_bytes.terms[0].coefficient, 4);
  EXPECT_EQ(V.mode, model::math_mode::fp32_simt);
  EXPECT_EQ(V.tensors[2].access, dsl::role::write);
  EXPECT_EQ(V.dims[2].declared_size, 64);  // K, third in 2*M*N*K
}

// Unsigned dtypes and a dimension defined by others reach the manifest by their names: the runtime reads
// dtypes and size-term operations back by these names (runtime/src/inject/manifest.cpp).
TEST(LaunchManifest, WritesUnsignedDtypesAndDefinedSizesByName) {
  const AnalysisRun R = analyze(R"cu(
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct D final : dim<"D"> {} D;
__global__ void heads(const unsigned char* x, unsigned int* y, int n, int c, int h) {}
inline constexpr auto heads_spec =
    kernel<heads>("heads", unary(1, in<0>("x", u8, N, H, D), out<1>("y", u32, N, H, D)))
        .sizes(N(arg<2>), C(arg<3>), H(arg<4>), D(C / H));
)cu", "heads.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file M = manifestOf(R.Results, *model::find_peaks("H200"));
  const dsl::spec &V = kernelNamed(M, "heads").spec_value;
  EXPECT_EQ(V.tensors[0].dtype, model::dtype::u8);
  EXPECT_EQ(V.tensors[1].dtype, model::dtype::u32);
  // D = C / H: a size term named D, op div, over C and H.
  ASSERT_EQ(V.size_terms.count, 1);
  EXPECT_EQ(V.size_terms.terms[0].name.view(), "D");
  EXPECT_EQ(V.size_terms.terms[0].op, dsl::size_op::div);
}
