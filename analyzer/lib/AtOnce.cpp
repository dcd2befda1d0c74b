#include "rooflint/analyzer/AtOnce.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace rooflint::analyzer {

void runAtOnce(std::size_t Count, unsigned Threads, const std::function<void(std::size_t)> &Work) {
  std::atomic<std::size_t> Next{0};
  const auto drain = [&] {
    for (std::size_t I = Next++; I < Count; I = Next++) Work(I);
  };
  std::vector<std::thread> Helpers;
  for (unsigned H = 1; H < std::min<std::size_t>(std::max(1u, Threads), Count); ++H) Helpers.emplace_back(drain);
  drain();
  for (std::thread &H : Helpers) H.join();
}

void forEachAtOnce(llvm::ThreadPoolInterface *Pool, std::size_t Count, llvm::function_ref<void(std::size_t)> Work) {
  if (!Pool || Count < 2) {
    for (std::size_t I = 0; I < Count; ++I) Work(I);
    return;
  }
  llvm::ThreadPoolTaskGroup Group(*Pool);
  for (std::size_t I = 0; I < Count; ++I) Group.async([Work, I] { Work(I); });
  Group.wait();
}

}  // namespace rooflint::analyzer
