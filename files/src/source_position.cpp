// Toolchain headers: the files whose lines an access's position walks out of (rooflint/files/source_position.h).

#include "rooflint/files/source_position.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace rooflint::files {

namespace {

namespace fs = std::filesystem;

/// Whether @p dir or one of its five nearest ancestors holds the toolkit's cuda_runtime_api.h, asked of the
/// file system once per directory.
bool in_toolkit_include_tree(const fs::path& dir) {
  static std::mutex guard;
  static std::map<fs::path, bool> known;
  const std::lock_guard lock(guard);
  if (const auto it = known.find(dir); it != known.end()) return it->second;
  bool found = false;
  fs::path at = dir;
  for (int up = 0; up <= 5 && !found && !at.empty(); ++up, at = at.parent_path()) {
    std::error_code ignored;
    found = fs::exists(at / "cuda_runtime_api.h", ignored);
    if (at == at.root_path()) break;
  }
  return known[dir] = found;
}

}  // namespace

bool is_toolchain_header(std::string_view path) {
  const fs::path file = fs::path(path).lexically_normal();
  if (file.filename().string().starts_with("__clang_cuda_")) return true;
  return !file.parent_path().empty() && in_toolkit_include_tree(file.parent_path());
}

}  // namespace rooflint::files
