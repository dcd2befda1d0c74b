// The manifest's contract between the analyzer and its readers: specs analysed, the manifest saved the
// way `rooflint --manifest` saves it, loaded the way rooflint-verify and rooflint-summary load it, and
// compared field by field (manifest::differences walks the same tables as the writer and the reader).
// A field the writer fills and the reader drops, or reads back otherwise, fails here.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

#include "rooflint/analyzer/Outputs.h"
#include "rooflint/model/peaks_table.h"
#include "test_harness.h"

using namespace rooflint;
using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

std::string readCorpus(const std::string &Name) {
  std::ifstream In(std::string(ROOFLINT_TRAFFIC_CORPUS) + "/" + Name);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Saves @p Written as the analyzer does and loads it as the readers do.
manifest::manifest_file roundTrip(const manifest::manifest_file &Written, const std::string &Name) {
  const std::string Path = (std::filesystem::path(::testing::TempDir()) / ("rooflint-contract-" + Name + ".json")).string();
  llvm::Error E = writeManifest(Written, Path);
  EXPECT_FALSE(static_cast<bool>(E)) << llvm::toString(std::move(E));
  std::string Error;
  std::optional<manifest::manifest_file> Read = manifest::load(Path, Error);
  std::filesystem::remove(Path);
  EXPECT_TRUE(Read) << Error;
  return Read ? *Read : manifest::manifest_file{};
}

struct Source {
  std::string Name, Code;
  RunOptions Options;
};

std::vector<Source> sources() {
  std::vector<Source> Out;
  // The inputs with specs (the others hold kernels only).
  for (const char *Input : {"rooflint-bound.cu", "rooflint-expectation.cu", "rooflint-kernel-binding.cu",
                            "rooflint-param-name.cu", "rooflint-read-only-written.cu", "rooflint-uncovered-param.cu"})
    Out.push_back({Input, readInput(Input), {}});
  RunOptions Corpus;
  Corpus.CompilerArgs = {"-I" ROOFLINT_TRAFFIC_CORPUS};
  for (const char *File : {"reread.cu", "reuse.cu"})
    Out.push_back({File, readCorpus(File), Corpus});
  return Out;
}

}  // namespace

TEST(ManifestContract, WhatTheAnalyzerWritesIsWhatTheReadersLoad) {
  unsigned Kernels = 0, Predicted = 0;
  for (const Source &S : sources()) {
    SCOPED_TRACE(S.Name);
    const AnalysisRun R = analyze(S.Code, S.Name, S.Options);  // some inputs have error diagnostics: still written
    const manifest::manifest_file Written = manifestOf(R.Results, *model::find_peaks("H200"));
    const manifest::manifest_file Read = roundTrip(Written, S.Name);
    EXPECT_EQ(manifest::differences(Written, Read), std::vector<std::string>{});
    EXPECT_FALSE(Read.kernels.empty());  // every input has specs: the comparison saw them
    Kernels += Read.kernels.size();
    for (const manifest::kernel &K : Read.kernels) Predicted += K.predicted.has_value();
  }
  // Every spec of a kernel the device side generated has its predicted traffic (values, ranges or
  // "not predicted"): the typed levels were compared too. (A manifest without it: tests/files.)
  EXPECT_EQ(Predicted, Kernels);
  EXPECT_GT(Predicted, 0u);
}

// A second method for the figures the readers compute with: the spec the reader rebuilt gives the
// analyzer's FLOPs and bytes at the declared sizes (the analyzer evaluated them in Clang's constant
// evaluator; the reader evaluates the loaded polynomials).
TEST(ManifestContract, TheLoadedSpecGivesTheAnalyzersFigures) {
  const AnalysisRun R = analyze(readInput("rooflint-bound.cu"), "rooflint-bound.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const manifest::manifest_file Read = roundTrip(manifestOf(R.Results, *model::find_peaks("H200")), "figures");
  ASSERT_FALSE(Read.kernels.empty());
  const manifest::kernel &K = kernelNamed(Read, "sgemm");
  const dsl::sizes At = K.spec_value.declared().bound;
  const std::span<const double> Values(At.values.data(), At.values.size());
  // 2 * 4096^3 FLOP and 3 * 4 * 4096^2 bytes (outputs_test.cpp works them out).
  EXPECT_EQ(K.spec_value.flops.evaluate(Values), 137438953472.0);
  EXPECT_EQ(K.spec_value.read_bytes.evaluate(Values) + K.spec_value.written_bytes.evaluate(Values), 201326592.0);
}

// The predictions travel typed: each of the analyzer's figures keeps its kind (a value, a range with or
// without a point, not predicted), its bounds, its level and its basis; a ratio of 0 is a figure like
// any other. The corpus's naive GEMM at 4096 in blocks of 32 x 8 has a DRAM range for B without a
// point (its sharers may run in step, the registers unstated), as the corpus program's
// reuse_gemm_naive_n4096.
TEST(ManifestContract, PredictionsKeepTheirKindLevelAndBasis) {
  RunOptions O;
  O.CompilerArgs = {"-I" ROOFLINT_TRAFFIC_CORPUS};
  const std::string NaiveGemm = R"(#include "gemm.cu"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr auto naive = kernel<gemm_naive>("gemm_naive", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N),
    out<2>("C", f32, N, N))).at(N(4096)).sizes(N(arg<3>)).block(32, 8).grid(ceil_div(N, 32), ceil_div(N, 8));
)";
  unsigned Pointless = 0;
  for (const auto &[Name, Source] : {std::pair{"reread.cu", readCorpus("reread.cu")}, std::pair{"naive_gemm.cu", NaiveGemm}}) {
    const AnalysisRun R = analyze(Source, Name, O);
    ASSERT_TRUE(R.Parsed) << R.Output;
    const manifest::manifest_file Read = roundTrip(manifestOf(R.Results, *model::find_peaks("H200")), "predictions");
    for (const KernelRecord &K : R.Results.Kernels) {
      if (!K.TrafficAnalysed) continue;
      const manifest::kernel &M = kernelNamed(Read, K.KernelName);
      ASSERT_TRUE(M.predicted) << K.KernelName;
      EXPECT_EQ(M.predicted->gpu, "H200");
      ASSERT_EQ(M.predicted->levels.size(), K.Predicted.size());
      for (std::size_t I = 0; I < K.Predicted.size(); ++I) {
        const KernelRecord::PredictedTraffic &A = K.Predicted[I];
        const manifest::level_prediction &B = M.predicted->levels[I];
        EXPECT_EQ(B.tensor, A.Tensor);
        EXPECT_EQ(B.level, A.Level);
        EXPECT_EQ(B.basis, A.Basis);
        using Kind = KernelRecord::PredictedTraffic::Kind;
        const manifest::prediction_kind Expected = A.K == Kind::Value   ? manifest::prediction_kind::value
                                                   : A.K == Kind::Range ? manifest::prediction_kind::range
                                                                        : manifest::prediction_kind::not_predicted;
        EXPECT_EQ(B.kind, Expected);
        if (A.K == Kind::NotPredicted) {
          EXPECT_FALSE(B.ratio.has_value());
          continue;
        }
        ASSERT_TRUE(B.low && B.high);
        EXPECT_EQ(B.ratio.has_value(), A.K == Kind::Value || A.Pointed);  // a range without a point has no ratio
        if (B.ratio) EXPECT_EQ(*B.ratio, A.Ratio);
        Pointless += !B.ratio;
        EXPECT_EQ(*B.low, A.K == Kind::Value ? A.Ratio : A.Low);
        EXPECT_EQ(*B.high, A.K == Kind::Value ? A.Ratio : A.High);
      }
    }
  }
  EXPECT_GE(Pointless, 1u);
}
