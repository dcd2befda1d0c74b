#include <gtest/gtest.h>

#include "rooflint/analyzer/CudaSetup.h"

#include <algorithm>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace rooflint::analyzer;

TEST(AdjustCommandLine, DropsNvccOnlyFlagsWithANoteAndTranslatesTheRest) {
  const std::vector<std::string> Nvcc{"/usr/local/cuda/bin/nvcc", "-gencode", "arch=compute_90,code=sm_90",
                                      "--expt-relaxed-constexpr", "-Xcompiler", "-fPIC,-Wall", "-x", "cu",
                                      "-rdc=true", "--use_fast_math", "-arch=sm_90", "-std=c++20", "-c", "a.cu",
                                      "-o", "a.o"};
  std::vector<std::string> Notes;
  const CudaEnvironment Env{"/nonexistent/cuda", "/res"};
  const auto Out = adjustCommandLine(Nvcc, "/build", "a.cu", Env, Notes);
  // --expt-relaxed-constexpr is no longer dropped: it becomes the macro nvcc defines for it.
  // Device side: one parse serves the specs and the kernels' IR (traffic analysis).
  const std::vector<std::string> Expected{"clang++", "-resource-dir=/res", "--cuda-device-only",
                                          "--cuda-gpu-arch=sm_90", "-nocudalib", "-Xclang", "-target-sdk-version=12.4",
                                          "-Wno-unknown-cuda-version", "--cuda-path=/nonexistent/cuda", "-idirafter",
                                          "/rooflint-virtual/include", "-include",
                                          "/rooflint-virtual/include/rooflint_cuda_host_compat.h",
                                          "-D__CUDACC_RELAXED_CONSTEXPR__", "-fPIC", "-Wall", "-x", "cuda", "-std=c++20",
                                          "a.cu", "-o", "a.o"};  // no -c: clang warned it was unused
  EXPECT_EQ(Out, Expected);
  ASSERT_EQ(Notes.size(), 4u);
  EXPECT_EQ(Notes[0], "dropping nvcc-only flag '-gencode arch=compute_90,code=sm_90' (clang, which parses the "
                      "code for the analyzer, does not take it)");
}

TEST(AdjustCommandLine, DropsTheTemplateStubFlagThatTemplateKernelsAcrossFilesNeed) {
  // nvcc 13 makes a template kernel's host stub static; a template kernel launched from another .cu file
  // needs -static-global-template-stub=false (docs/troubleshooting.md), which clang does not know: it
  // stopped the analysis of every file of such a compilation database ("unknown argument").
  std::vector<std::string> Notes;
  const auto Out = adjustCommandLine({"nvcc", "-static-global-template-stub=false", "--static-global-template-stub",
                                      "false", "-std=c++20", "a.cpp"},
                                     "/build", "a.cpp", {"", "/res"}, Notes);
  const std::vector<std::string> Expected{"clang++", "-resource-dir=/res", "-std=c++20", "a.cpp"};
  EXPECT_EQ(Out, Expected);
  ASSERT_EQ(Notes.size(), 2u);
  EXPECT_EQ(Notes[0], "dropping nvcc-only flag '-static-global-template-stub=false' (clang, which parses the "
                      "code for the analyzer, does not take it)");
}

TEST(AdjustCommandLine, LeavesCppFilesHostOnlyFree) {
  std::vector<std::string> Notes;
  const auto Out = adjustCommandLine({"g++", "-std=c++20", "-c", "a.cpp"}, "/build", "a.cpp", {"", "/res"}, Notes);
  const std::vector<std::string> Expected{"g++", "-resource-dir=/res", "-std=c++20", "a.cpp"};  // -c: never an object
  EXPECT_EQ(Out, Expected);
  EXPECT_TRUE(Notes.empty());
}

TEST(VirtualFiles, SupplyAnEmptyTextureFetchFunctionsHeader) {
  // The texture header, the empty main file of the precompiled CUDA prefix
  // (PchCache.h), which a PCH's reader must find on every run, and the compat header.
  ASSERT_EQ(virtualFiles().size(), 3u);
  EXPECT_EQ(virtualFiles()[0].first, "/rooflint-virtual/include/texture_fetch_functions.h");
  EXPECT_EQ(virtualFiles()[1].first, "/rooflint-virtual/pch-prefix.cu");
  EXPECT_EQ(virtualFiles()[1].second, "");
}

// What nvcc supplies and clang 19 does not.
namespace {
std::string tempToolkit(const std::string &Name) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("rooflint-toolkit-" + Name, Dir)) return "";
  llvm::sys::fs::create_directories(Dir + "/include");
  return Dir.str().str();
}
void write(const std::string &Path, const std::string &Text) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  OS << Text;
}
}  // namespace

TEST(ToolkitVersion, ComesFromVersionJsonDistInfoOrCudaH) {
  // version.json as NVIDIA's installers write it: nvcc's own entry wins over the SDK's.
  const std::string A = tempToolkit("json");
  write(A + "/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"},
                                 "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}})");
  write(A + "/include/cuda.h", "#define CUDA_VERSION 12040\n");
  auto V = readToolkitVersion(A);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major, 12);
  EXPECT_EQ(V->Minor, 4);
  EXPECT_EQ(V->Build, 131);
  // A toolkit assembled from NVIDIA's wheels (this build machine's /usr/local/cuda-13.0).
  const std::string B = tempToolkit("wheels");
  llvm::sys::fs::create_directories(B + "/dist-info/nvidia_cuda_nvcc-13.0.88.dist-info");
  llvm::sys::fs::create_directories(B + "/dist-info/nvidia_cublas-13.1.0.3.dist-info");
  V = readToolkitVersion(B);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major * 10000 + V->Minor * 100 + V->Build, 130088);
  // Only cuda.h: CUDA_VERSION = 1000 * major + 10 * minor, no build number.
  const std::string C = tempToolkit("cudah");
  write(C + "/include/cuda.h", "#ifndef CUDA_H\n#define CUDA_VERSION 11080\n#endif\n");
  V = readToolkitVersion(C);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Major * 10000 + V->Minor * 100 + V->Build, 110800);
  EXPECT_FALSE(readToolkitVersion(tempToolkit("empty")));
  for (const std::string &D : {A, B, C}) llvm::sys::fs::remove_directories(D);
}

TEST(AdjustCommandLine, PredefinesNvccsVersionMacrosAndTranslatesLambdaFlags) {
  CudaEnvironment Env{"/nonexistent/cuda", "/res", CudaVersion{13, 0, 88, "test"}};
  std::vector<std::string> Notes;
  const auto Out = adjustCommandLine({"nvcc", "--extended-lambda", "-DFOO=1", "a.cu"}, "/b", "a.cu", Env, Notes);
  auto has = [&](const std::string &A) { return std::find(Out.begin(), Out.end(), A) != Out.end(); };
  EXPECT_TRUE(has("-D__CUDACC_VER_MAJOR__=13"));
  EXPECT_TRUE(has("-D__CUDACC_VER_MINOR__=0"));
  EXPECT_TRUE(has("-D__CUDACC_VER_BUILD__=88"));
  EXPECT_TRUE(has("-D__CUDACC_EXTENDED_LAMBDA__"));
  EXPECT_FALSE(has("--extended-lambda"));
  EXPECT_TRUE(Notes.empty());  // translated, not dropped
  // The user's own definition is kept, and not doubled (it would be a redefinition warning).
  const auto Own = adjustCommandLine({"nvcc", "-D__CUDACC_VER_MAJOR__=12", "a.cu"}, "/b", "a.cu", Env, Notes);
  EXPECT_EQ(std::count_if(Own.begin(), Own.end(), [](const std::string &A) { return A.starts_with("-D__CUDACC_VER_MAJOR__"); }), 1);
  EXPECT_EQ(std::find(Own.begin(), Own.end(), "-D__CUDACC_VER_MINOR__=0") != Own.end(), true);
  // Not for C++ files.
  const auto Cpp = adjustCommandLine({"g++", "a.cpp"}, "/b", "a.cpp", Env, Notes);
  EXPECT_EQ(std::find(Cpp.begin(), Cpp.end(), "-D__CUDACC_VER_MAJOR__=13"), Cpp.end());
}
