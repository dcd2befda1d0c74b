// The analyzer on hostile kernels: index chains that once made the uncoalesced check exponential,
// strides whose byte offsets overflow 64 bits, and what nvcc supplies that clang does not.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/Tooling.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "test_harness.h"

using namespace rooflint::analyzer;
using namespace rooflint::analyzer::testing;

namespace {

/// A kernel whose index variables form a chain, each used four times by the next:
///   a0 = threadIdx.x; a1 = (a0 + a0) + (a0 + a0); ...; x[aN] = 0 (x a char pointer).
/// Followed without memoisation, evaluating aN visits a0 4^N times (N = 11 took 62 s).
std::string chainKernel(int Links) {
  std::string S = "#include \"cuda_mock.h\"\n__global__ void chain(char *x) {\n  long long a0 = threadIdx.x;\n";
  for (int I = 1; I <= Links; ++I) {
    const std::string P = "a" + std::to_string(I - 1);
    S += "  long long a" + std::to_string(I) + " = (" + P + " + " + P + ") + (" + P + " + " + P + ");\n";
  }
  S += "  x[a" + std::to_string(Links) + "] = 0;\n}\n";
  return S;
}

}  // namespace

// 30 variables a0..a29: a_k's coefficient of threadIdx.x is 4^k (each link adds four copies of the last):
// 4^29 = 2^58 = 288230376151711744 elements of 1 byte (lane 31 at 31 * 2^58 bytes, under 2^63), one
// sector per lane: 32 sectors = 1024 bytes for 32 bytes used, 32x.
TEST(Robustness, FollowsAThirtyVariableIndexChainOnceEach) {
  const AnalysisRun R = analyze(chainKernel(29), "chain.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "store through 'x' is not unit-stride in 'threadIdx.x'; stride 288230376151711744 "
                          "elements of 1 byte: a warp moves 1024 bytes in 32 sectors for 32 bytes used (32x the "
                          "traffic)");
}

// Strides whose byte offsets do not fit in 64 bits (it printed "0 bytes in 0 sectors (0x)" and UBSan
// reported signed overflows in the sector arithmetic). The analysis reads the device-side
// IR, whose address arithmetic is the generated code's: 64-bit, wrapping (the source's overflow is
// undefined behaviour). a's bytes per lane, 4 * -2^63, wrap to 0 (a broadcast); b's 4 * (2^63 - 1) to
// -4 (reversed unit stride); c's 4 * 2^62 to 0: all silent. d's 4 * 2^58 = 2^60 bytes per lane fit,
// but lane 31's 31 * 2^60 does not: its traffic is unknown, said so.
TEST(Robustness, SaysTheTrafficIsUnknownWhenTheWarpsOffsetsOverflow) {
  const AnalysisRun R = analyze(R"(#include "cuda_mock.h"
__global__ void huge(float *a, float *b, float *c, float *d) {
  long long i = threadIdx.x;
  a[i * (-9223372036854775807LL - 1)] = 0;
  b[i * 9223372036854775807LL] = 0;
  c[i * 4611686018427387904LL] = 0;
  d[i * 288230376151711744LL] = 0;
}
)", "huge.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 1u) << R.Output;
  EXPECT_EQ(W[0].Message, "store through 'd' is not unit-stride in 'threadIdx.x'; stride 288230376151711744 "
                          "elements of 4 bytes: the warp's byte offsets overflow 64 bits, so its traffic is unknown");
}

// Coefficients that overflow while being combined, in the generated code's wrapping arithmetic (see
// above): a's (2^62 * 4) elements * 4 bytes = 2^66 wraps to 0; b's 2 * (2^63 - 1) elements to -2 (the
// code the compiler generates does move 256 bytes in 8 sectors for 128 used: 2x); c's -(-2^63) * 4 bytes
// to 0; d's (long long)(1 << 100) is 0; e's stride 4: 16-byte gaps under a sector: 16 sectors, 4x.
TEST(Robustness, CountsWrappedCoefficientsAsTheGeneratedCodeDoes) {
  const AnalysisRun R = analyze(R"(#include "cuda_mock.h"
__global__ void wrap(float *a, float *b, float *c, float *d, float *e) {
  long long i = threadIdx.x;
  a[(i * 4611686018427387904LL) * 4] = 0;
  b[i * 9223372036854775807LL + i * 9223372036854775807LL] = 0;
  c[-(i * (-9223372036854775807LL - 1))] = 0;
  d[i * (long long)(((__int128)1) << 100)] = 0;
  e[i * 2 * 2] = 0;
}
)", "wrap.cu");
  ASSERT_TRUE(R.Parsed) << R.Output;
  const auto W = named(R, "rooflint-uncoalesced");
  ASSERT_EQ(W.size(), 2u) << R.Output;
  EXPECT_EQ(W[0].Message, "store through 'b' is not unit-stride in 'threadIdx.x'; stride -2 elements of 4 bytes: a "
                          "warp moves 256 bytes in 8 sectors for 128 bytes used (2x the traffic)");
  EXPECT_EQ(W[1].Message, "store through 'e' is not unit-stride in 'threadIdx.x'; stride 4 elements of 4 bytes: a "
                          "warp moves 512 bytes in 16 sectors for 128 bytes used (4x the traffic)");
}

// What nvcc supplies and clang 19 did not (once 184 of 331 public files stopped on clang errors):
// the version macros (CUTLASS tests __CUDACC_VER_MAJOR__ in code), host overloads of max/min/isfinite
// that CUDA code calls from host and host-device functions, the macro of --extended-lambda. Checked
// against cuda.h's CUDA_VERSION (1000 * major + 10 * minor), a second source.
TEST(RealToolkit, ParsesWhatNvccSupplies) {
  if (detectEnvironment().ToolkitPath.empty()) GTEST_SKIP() << "no CUDA toolkit found";
  RunOptions O;
  O.RealToolkit = true;
  O.CompilerArgs = {"--extended-lambda", "--expt-relaxed-constexpr"};
  const AnalysisRun R = analyze(R"(#include <cuda.h>
#include <cstdio>
static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 == CUDA_VERSION);
static_assert(__CUDACC_VER_BUILD__ >= 0);
static_assert(__CUDACC_EXTENDED_LAMBDA__ == 1 && __CUDACC_RELAXED_CONSTEXPR__ == 1);
__host__ __device__ int both(int a, unsigned u, long long l, float f, double d) {
  return max(a, 1) + min(u, 2u) + (int)max(l, 3LL) + (int)min(f, 1.5f) + (int)max(d, 2.0) + (int)max(a, u);
}
int host(int a, float f, double d) {
  const int v = __CUDACC_VER_MAJOR__ >= 12 ? max(a, 1) : min(a, 1);  // in code, as CUTLASS does
  return v + (isfinite(f) ? 1 : 0) + (isnan(d) ? 1 : 0) + (isinf(f) ? 1 : 0) + both(a, 1u, 2, f, d);
}
int main() { printf("%d\n", host(1, 2.f, 3.0)); }
)", "nvcc-supplies.cu", O);
  EXPECT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(R.Output.find("error"), std::string::npos) << R.Output;
}

// nvcc's CUDA headers include <time.h> (crt/common_functions.h), so host code calls clock() and uses
// CLOCKS_PER_SEC without an include of its own (llm.c's dev/cuda/permute.cu); under clang 19 only the
// device clock() was declared: "no matching function for call to 'clock'" (parse sweep, 2026-12-01).
TEST(RealToolkit, DeclaresTheHostClockAsNvccsHeadersDo) {
  if (detectEnvironment().ToolkitPath.empty()) GTEST_SKIP() << "no CUDA toolkit found";
  RunOptions O;
  O.RealToolkit = true;
  const AnalysisRun R = analyze(R"(#include <cstdio>
int main() {
  const clock_t start = clock();
  printf("%f\n", static_cast<double>(clock() - start) / CLOCKS_PER_SEC);
}
)", "host-clock.cu", O);
  EXPECT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(R.Output.find("error"), std::string::npos) << R.Output;
}

// The surface functions (surface_indirect_functions.h), which clang 19's CUDA wrapper does not declare:
// cuda-samples' bindlessTexture_kernel.cu and volumeRender_kernel.cu stopped on "use of undeclared
// identifier 'surf2Dwrite'" (parse sweep, 2026-12-01); nvcc 13.0 accepts this file. Both overloads of a
// read (through a pointer, and returning T), every shape, a boundary mode, and the header included
// directly (its include guard is set, so nvcc's definitions are not parsed).
TEST(RealToolkit, DeclaresTheSurfaceFunctions) {
  if (detectEnvironment().ToolkitPath.empty()) GTEST_SKIP() << "no CUDA toolkit found";
  RunOptions O;
  O.RealToolkit = true;
  const AnalysisRun R = analyze(R"(#include <cuda_runtime.h>
#include <surface_indirect_functions.h>
__global__ void k(cudaSurfaceObject_t s, cudaSurfaceObject_t t) {
  const int x = threadIdx.x, y = blockIdx.x;
  float v;
  surf2Dread(&v, s, x * 4, y);
  const float4 q = surf2Dread<float4>(s, x * 16, y);
  surf2Dwrite(v + q.x, t, x * 4, y);
  surf1Dwrite(v, t, x * 4, cudaBoundaryModeZero);
  const uchar4 c = surf1Dread<uchar4>(s, x * 4);
  surf2DLayeredwrite(c, t, x * 4, y, 1);
  surf3Dwrite(surf3Dread<int>(s, x * 4, y, 2), t, x * 4, y, 0, cudaBoundaryModeClamp);
  surf1DLayeredwrite(surf1DLayeredread<short>(s, x * 2, 3), t, x * 2, 3);
  surfCubemapwrite(surfCubemapread<float2>(s, x * 8, y, 5), t, x * 8, y, 5);
  surfCubemapLayeredwrite(surfCubemapLayeredread<float>(s, x * 4, y, 7), t, x * 4, y, 7);
}
)", "surfaces.cu", O);
  EXPECT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(R.Output.find("error"), std::string::npos) << R.Output;
}

// CUDA 12.8's memory-order atomics, builtins of nvcc: CUTLASS's subbyte_reference.h calls
// __nv_atomic_load_n(ptr, __NV_ATOMIC_RELAXED) with a 12.8 or newer toolkit, so every CUTLASS example
// stopped on "use of undeclared identifier '__NV_ATOMIC_RELAXED'" (parse sweep, 2026-12-01, CUTLASS
// 7107b0553). The orders keep nvcc's values, which are clang's __ATOMIC_* values (checked below against
// clang's own macros, a second source); a call with and without the optional scope.
TEST(RealToolkit, SuppliesNvccsMemoryOrderAtomics) {
  if (detectEnvironment().ToolkitPath.empty()) GTEST_SKIP() << "no CUDA toolkit found";
  RunOptions O;
  O.RealToolkit = true;
  const AnalysisRun R = analyze(R"(#include <cuda_runtime.h>
static_assert(__NV_ATOMIC_RELAXED == __ATOMIC_RELAXED && __NV_ATOMIC_CONSUME == __ATOMIC_CONSUME &&
              __NV_ATOMIC_ACQUIRE == __ATOMIC_ACQUIRE && __NV_ATOMIC_RELEASE == __ATOMIC_RELEASE &&
              __NV_ATOMIC_ACQ_REL == __ATOMIC_ACQ_REL && __NV_ATOMIC_SEQ_CST == __ATOMIC_SEQ_CST);
__global__ void k(unsigned *p, int *q) {
  const unsigned v = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  const unsigned w = __nv_atomic_load_n(p + 1, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(p + 2, v + w, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  int expected = 0;
  __nv_atomic_compare_exchange_n(q, &expected, 1, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED,
                                 __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_fetch_add(q + 1, 2, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_fetch_max(q + 2, 3, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
}
)", "nv-atomics.cu", O);
  EXPECT_TRUE(R.Parsed) << R.Output;
  EXPECT_EQ(R.Output.find("error"), std::string::npos) << R.Output;
}
