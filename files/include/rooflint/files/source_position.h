#pragma once
/// @file source_position.h
/// How the manifest and the verifier's per-line report name the line of an access: the innermost source
/// location that is not in the toolchain's own headers. A load that `__ldg`, `atomicAdd` or a CUB helper
/// makes is inlined from a header of the CUDA toolkit (or of clang's CUDA support); its innermost
/// location is that header's line, shared by every call, where the user wrote one call. Both sides walk
/// out of such headers to the line that called them: the analyzer through the IR's inlined-at chain,
/// the verifier through the inlined-call contexts of the cubin's line table. A helper the user wrote
/// keeps its own line (it is the user's code).

#include <string_view>

namespace rooflint::files {

/// @return Whether @p path is a header of the CUDA toolkit or of clang's CUDA support: a file under a
/// directory (or up to five levels below one) that holds `cuda_runtime_api.h` (the toolkit's include
/// tree, its `crt/`, `cuda/std/` and CCCL folders included), or clang's `__clang_cuda_*.h`. Decided from
/// the file system: a path that does not exist on this machine is not a toolchain header.
bool is_toolchain_header(std::string_view path);

}  // namespace rooflint::files
