// The analyzer's contract with the DSL: it reads every field of the real dsl headers' specs, and what
// it reads equals what the compiler computed for the same specs in this test binary.
#include <gtest/gtest.h>

#include "inputs/contract.h"
#include "test_harness.h"

using namespace rooflint;
using namespace rooflint::analyzer::testing;

namespace {

void expectSamePoly(const dsl::poly &Read, const dsl::poly &Compiled, const std::string &What) {
  SCOPED_TRACE(What);
  ASSERT_EQ(Read.dim_count, Compiled.dim_count);
  for (int D = 0; D < Compiled.dim_count; ++D) EXPECT_EQ(Read.dims[D].view(), Compiled.dims[D].view());
  ASSERT_EQ(Read.term_count, Compiled.term_count);
  for (int T = 0; T < Compiled.term_count; ++T) {
    EXPECT_EQ(Read.terms[T].coefficient, Compiled.terms[T].coefficient);
    EXPECT_EQ(Read.terms[T].exponents, Compiled.terms[T].exponents);
  }
}

void expectSameSpec(const dsl::spec &R, const dsl::spec &C) {
  EXPECT_EQ(R.kernel_name.view(), C.kernel_name.view());
  EXPECT_EQ(R.op.kind, C.op.kind);
  EXPECT_EQ(R.op.name.view(), C.op.name.view());
  expectSamePoly(R.op.flops, C.op.flops, "op.flops");
  EXPECT_EQ(R.op.zero_under_torch, C.op.zero_under_torch);
  EXPECT_EQ(R.op.causal, C.op.causal);
  EXPECT_EQ(R.op.precision_stated, C.op.precision_stated);
  EXPECT_EQ(R.op.compute, C.op.compute);
  EXPECT_EQ(R.op.accumulate, C.op.accumulate);
  ASSERT_EQ(R.op.derived_count, C.op.derived_count);
  for (int I = 0; I < C.op.derived_count; ++I) {
    EXPECT_EQ(R.op.derived[I].name.view(), C.op.derived[I].name.view());
    EXPECT_EQ(R.op.derived[I].source.view(), C.op.derived[I].source.view());
    EXPECT_EQ(R.op.derived[I].window.view(), C.op.derived[I].window.view());
    EXPECT_EQ(R.op.derived[I].stride, C.op.derived[I].stride);
    EXPECT_EQ(R.op.derived[I].padding, C.op.derived[I].padding);
    EXPECT_EQ(R.op.derived[I].dilation, C.op.derived[I].dilation);
  }
  ASSERT_EQ(R.op.constraint_count, C.op.constraint_count);
  for (int I = 0; I < C.op.constraint_count; ++I) {
    EXPECT_EQ(R.op.constraints[I].lhs.view(), C.op.constraints[I].lhs.view());
    EXPECT_EQ(R.op.constraints[I].factor, C.op.constraints[I].factor);
    EXPECT_EQ(R.op.constraints[I].rhs.view(), C.op.constraints[I].rhs.view());
  }
  ASSERT_EQ(R.dim_count, C.dim_count);
  for (int I = 0; I < C.dim_count; ++I) {
    EXPECT_EQ(R.dims[I].name.view(), C.dims[I].name.view());
    EXPECT_EQ(R.dims[I].static_size, C.dims[I].static_size);
    EXPECT_EQ(R.dims[I].declared_size, C.dims[I].declared_size);
  }
  ASSERT_EQ(R.tensor_count, C.tensor_count);
  for (int I = 0; I < C.tensor_count; ++I) {
    SCOPED_TRACE(std::string(C.tensors[I].name.view()));
    EXPECT_EQ(R.tensors[I].name.view(), C.tensors[I].name.view());
    EXPECT_EQ(R.tensors[I].dtype, C.tensors[I].dtype);
    EXPECT_EQ(R.tensors[I].access, C.tensors[I].access);
    EXPECT_EQ(R.tensors[I].arg, C.tensors[I].arg);
    EXPECT_EQ(R.tensors[I].rank, C.tensors[I].rank);
    EXPECT_EQ(R.tensors[I].shape, C.tensors[I].shape);
    expectSamePoly(R.tensors[I].elements, C.tensors[I].elements, "elements");
    EXPECT_EQ(R.tensors[I].partial, C.tensors[I].partial);
    EXPECT_EQ(R.tensors[I].extra, C.tensors[I].extra);
    expectSamePoly(R.tensors[I].offset, C.tensors[I].offset, "offset");
    EXPECT_EQ(R.tensors[I].sliced, C.tensors[I].sliced);
  }
  ASSERT_EQ(R.size_terms.count, C.size_terms.count);
  for (int I = 0; I < C.size_terms.count; ++I) {
    EXPECT_EQ(R.size_terms.terms[I].name.view(), C.size_terms.terms[I].name.view());
    EXPECT_EQ(R.size_terms.terms[I].op, C.size_terms.terms[I].op);
    expectSamePoly(R.size_terms.terms[I].lhs, C.size_terms.terms[I].lhs, "size term lhs");
    expectSamePoly(R.size_terms.terms[I].rhs, C.size_terms.terms[I].rhs, "size term rhs");
  }
  EXPECT_EQ(R.convention.count_elementwise, C.convention.count_elementwise);
  EXPECT_EQ(R.convention.halve_causal, C.convention.halve_causal);
  EXPECT_EQ(R.mode, C.mode);
  EXPECT_EQ(R.expected.bound, C.expected.bound);
  EXPECT_EQ(R.expected.max_traffic_ratio, C.expected.max_traffic_ratio);
  EXPECT_EQ(R.expected.min_roofline_fraction, C.expected.min_roofline_fraction);
  expectSamePoly(R.flops, C.flops, "flops");
  expectSamePoly(R.read_bytes, C.read_bytes, "read_bytes");
  expectSamePoly(R.written_bytes, C.written_bytes, "written_bytes");
  EXPECT_EQ(R.launch.kind, C.launch.kind);
  ASSERT_EQ(R.launch.size_count, C.launch.size_count);
  for (int I = 0; I < C.launch.size_count; ++I) {
    const dsl::launch_size &A = R.launch.sizes[I], &B = C.launch.sizes[I];
    EXPECT_EQ(A.dim.view(), B.dim.view());
    EXPECT_EQ(A.source, B.source);
    EXPECT_EQ(A.index, B.index);
    EXPECT_EQ(A.multiplier, B.multiplier);
    EXPECT_EQ(A.divisor, B.divisor);
    EXPECT_EQ(A.site, B.site);
    EXPECT_EQ(A.power_of_two, B.power_of_two);
  }
}

const analyzer::KernelRecord *find(const AnalysisRun &R, const std::string &Spec) {
  for (const auto &K : R.Results.Kernels)
    if (K.SpecName == Spec) return &K;
  return nullptr;
}

}  // namespace

TEST(DslContract, AnalyzerReadsEveryFieldOfTheRealDslSpecs) {
  const AnalysisRun R = analyze(readInput("contract.h"), "contract.cpp");
  ASSERT_TRUE(R.Parsed) << R.Output;
  EXPECT_TRUE(analyzer::testing::named(R, "rooflint-spec-evaluation").empty()) << R.Output;
  ASSERT_EQ(R.Results.Kernels.size(), 6u) << R.Output;
  const std::pair<const char *, const dsl::spec *> Specs[] = {{"conv_spec", &contract::conv_spec},
                                                              {"flash_spec", &contract::flash_spec},
                                                              {"embed_spec", &contract::embed_spec},
                                                              {"norm_spec", &contract::norm_spec},
                                                              {"gelu_spec", &contract::gelu_spec},
                                                              {"packed_spec", &contract::packed_spec}};
  for (const auto &[Name, Compiled] : Specs) {
    SCOPED_TRACE(Name);
    const analyzer::KernelRecord *K = find(R, Name);
    ASSERT_NE(K, nullptr);
    expectSameSpec(K->Spec, *Compiled);
    // The same model functions on the same data give the same numbers.
    const auto Declared = Compiled->declared();
    ASSERT_TRUE(Declared.ok());
    EXPECT_EQ(K->Flops, Compiled->flops_at(Declared.bound));
    EXPECT_EQ(K->ReadBytes + K->WrittenBytes, Compiled->bytes_at(Declared.bound));
  }
}

TEST(DslContract, BindsEachSpecToItsFunctionAndMangledName) {
  const AnalysisRun R = analyze(readInput("contract.h"), "contract.cpp");
  const analyzer::KernelRecord *K = find(R, "conv_spec");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->FunctionName, "contract::conv_kernel");
  EXPECT_EQ(K->MangledName, "_ZN8contract11conv_kernelEPKfS1_PfS2_");
  // Stride 2, padding 1, 3x3 over 56: Ho = (56 + 2 - 2 - 1) / 2 + 1 = 28, derived by the spec's own binding.
  const int Ho = K->Spec.dim_index(dsl::name_t("Ho"));
  ASSERT_GE(Ho, 0);
  EXPECT_EQ(K->Sizes[Ho], 28);
  // The uncounted workspace pointer is covered: no uncovered-parameter warning.
  EXPECT_TRUE(analyzer::testing::named(R, "rooflint-uncovered-param").empty()) << R.Output;
}

// Causal attention, halved: 2*B*Nh*S^2*D FLOP over 4 f16 tensors of B*Nh*S*D (8*B*Nh*S*D bytes): AI = S/4.
// FP16 ridge on H200: 989.4 / 4.8 = 206.125, crossed from S = 824.5, so S = 825; B, Nh, D do not matter.
TEST(BoundRemark, NamesOnlyTheDimensionsTheIntensityDependsOn) {
  const AnalysisRun R = analyze(readInput("contract.h"), "contract.cpp");
  const analyzer::KernelRecord *K = find(R, "flash_spec");
  ASSERT_NE(K, nullptr);
  ASSERT_TRUE(K->VerdictChange.has_value());
  EXPECT_EQ(K->VerdictChange->Dim, "S");
  EXPECT_EQ(K->VerdictChange->Size, 825);
  EXPECT_EQ(K->VerdictChange->Above, model::bound::compute);
}
