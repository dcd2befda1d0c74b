#pragma once
/// @file AtOnce.h
/// Work side by side: a file's kernels on threads of their own, a kernel's runs of blocks on a pool.
/// Kernels go on plain threads, not the pool: a pool's worker that waits for its group runs other
/// groups' tasks meanwhile, which would start every kernel (and hold its blocks) at once.

#include <cstddef>
#include <functional>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"

namespace rooflint::analyzer {

/// Runs @p Work(0 .. Count - 1), up to @p Threads at a time (this thread one of them), and waits.
void runAtOnce(std::size_t Count, unsigned Threads, const std::function<void(std::size_t)> &Work);

/// Runs @p Work(0 .. Count - 1) on @p Pool's threads and waits for them, or one after another here
/// without a pool.
void forEachAtOnce(llvm::ThreadPoolInterface *Pool, std::size_t Count, llvm::function_ref<void(std::size_t)> Work);

}  // namespace rooflint::analyzer
