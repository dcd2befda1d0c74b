#include <gtest/gtest.h>

#include "rooflint/analyzer/CudaSetup.h"

using namespace rooflint::analyzer;

TEST(AdjustCommandLine, DropsNvccOnlyFlagsWithANoteAndTranslatesTheRest) {
  const std::vector<std::string> Nvcc{"/usr/local/cuda/bin/nvcc", "-gencode", "arch=compute_90,code=sm_90",
                                      "--expt-relaxed-constexpr", "-Xcompiler", "-fPIC,-Wall", "-x", "cu",
                                      "-rdc=true", "--use_fast_math", "-arch=sm_90", "-std=c++20", "-c", "a.cu",
                                      "-o", "a.o"};
  std::vector<std::string> Notes;
  const CudaEnvironment Env{"/nonexistent/cuda", "/res"};
  const auto Out = adjustCommandLine(Nvcc, "/build", "a.cu", Env, Notes);
  const std::vector<std::string> Expected{"clang++", "-resource-dir=/res", "--cuda-host-only",
                                          "-Wno-unknown-cuda-version", "--cuda-path=/nonexistent/cuda", "-idirafter",
                                          "/rooflint-virtual/include", "-include",
                                          "/rooflint-virtual/include/rooflint_cuda_host_compat.h", "-fPIC", "-Wall", "-x", "cuda", "-std=c++20",
                                          "-c", "a.cu", "-o", "a.o"};
  EXPECT_EQ(Out, Expected);
  ASSERT_EQ(Notes.size(), 5u);
  EXPECT_EQ(Notes[0], "dropping nvcc-only flag '-gencode arch=compute_90,code=sm_90' (the analyzer parses host code "
                      "with clang)");
}

TEST(AdjustCommandLine, LeavesCppFilesHostOnlyFree) {
  std::vector<std::string> Notes;
  const auto Out = adjustCommandLine({"g++", "-std=c++20", "-c", "a.cpp"}, "/build", "a.cpp", {"", "/res"}, Notes);
  const std::vector<std::string> Expected{"g++", "-resource-dir=/res", "-std=c++20", "-c", "a.cpp"};
  EXPECT_EQ(Out, Expected);
  EXPECT_TRUE(Notes.empty());
}

TEST(VirtualFiles, SupplyAnEmptyTextureFetchFunctionsHeader) {
  ASSERT_EQ(virtualFiles().size(), 2u);
  EXPECT_EQ(virtualFiles()[0].first, "/rooflint-virtual/include/texture_fetch_functions.h");
}
