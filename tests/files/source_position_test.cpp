// rooflint::files::is_toolchain_header: which files an access's position walks out of. The toolkit's
// include tree is made here (a folder holding cuda_runtime_api.h), so the test needs no CUDA install.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rooflint/files/source_position.h"
#include "io_limits.h"

namespace fs = std::filesystem;
using rooflint::files::is_toolchain_header;
using rooflint::test::scratch_dir;

namespace {

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "\n";
}

TEST(SourcePosition, TheToolkitsIncludeTreeIsToolchainCodeToFiveLevelsDown) {
  const fs::path root = scratch_dir("toolkit");
  touch(root / "cuda/include/cuda_runtime_api.h");
  touch(root / "cuda/include/sm_32_intrinsics.hpp");
  touch(root / "cuda/include/crt/sm_90_rt.hpp");
  touch(root / "cuda/include/cccl/cub/block/specializations/deep.cuh");  // four levels below
  EXPECT_TRUE(is_toolchain_header((root / "cuda/include/sm_32_intrinsics.hpp").string()));
  EXPECT_TRUE(is_toolchain_header((root / "cuda/include/crt/sm_90_rt.hpp").string()));
  EXPECT_TRUE(is_toolchain_header((root / "cuda/include/cccl/cub/block/specializations/deep.cuh").string()));
  // nvcc names headers through its bin folder: the path is normalized before the walk.
  EXPECT_TRUE(is_toolchain_header((root / "cuda/bin/../include/sm_32_intrinsics.hpp").string()));
}

TEST(SourcePosition, TheUsersFilesAndMissingPathsAreNot) {
  const fs::path root = scratch_dir("project");
  touch(root / "src/kernels.cu");
  touch(root / "include/helpers.cuh");
  EXPECT_FALSE(is_toolchain_header((root / "src/kernels.cu").string()));
  EXPECT_FALSE(is_toolchain_header((root / "include/helpers.cuh").string()));
  EXPECT_FALSE(is_toolchain_header("/nonexistent/cuda/include/sm_32_intrinsics.hpp"));
  EXPECT_FALSE(is_toolchain_header("kernels.cu"));
  EXPECT_FALSE(is_toolchain_header(""));
}

TEST(SourcePosition, ClangsCudaHeadersAreToolchainCodeByName) {
  EXPECT_TRUE(is_toolchain_header("/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_device_functions.h"));
  EXPECT_TRUE(is_toolchain_header("__clang_cuda_intrinsics.h"));
  EXPECT_FALSE(is_toolchain_header("/work/clang_cuda_helpers.h"));
}

}  // namespace
