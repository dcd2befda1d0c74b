#pragma once
/// @file program.h
/// Host helpers of rooflint-traffic-corpus (program.cu): each corpus file's cases allocate their
/// buffers in a Case, fill indices on the host so that every gather stays in range, launch the kernel
/// once at its spec's sizes and report. Every CUDA call is checked; a case whose allocation fails is
/// reported and skipped, and the program exits non-zero when any case failed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace corpus {

inline std::string filter;  ///< which cases run ("" = all): see wanted()
inline int failures = 0;

/// Whether the case (or kernel) @p name runs under the filter: alternatives separated by '|', each a
/// substring of the name, or, written "=name", the whole name (a run of exactly one kernel's cases, as
/// scripts/gpu-job.sh corpus-lines reruns them one kernel at a time).
inline bool wanted(const char* name) {
  if (filter.empty()) return true;
  for (std::size_t begin = 0; begin <= filter.size();) {
    const std::size_t end = std::min(filter.find('|', begin), filter.size());
    const std::string alternative = filter.substr(begin, end - begin);
    const bool exact = !alternative.empty() && alternative[0] == '=';
    if (exact ? alternative.compare(1, std::string::npos, name) == 0
              : !alternative.empty() && std::strstr(name, alternative.c_str()) != nullptr)
      return true;
    begin = end + 1;
  }
  return false;
}

/// Blocks of @p threads covering @p n items.
inline unsigned blocks(long long n, int threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

/// The buffers of one case, freed when it ends.
class Case {
public:
  explicit Case(const char* name) : name_(name) {}
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;
  ~Case() {
    for (void* p : buffers_) cudaFree(p);
    cudaGetLastError();
  }

  /// @p count zeroed elements of T in device memory, or nullptr (the case then reports the failure).
  template <class T>
  T* zeros(std::size_t count) {
    void* p = nullptr;
    if (!check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc")) return nullptr;
    buffers_.push_back(p);
    if (!check(cudaMemset(p, 0, count * sizeof(T)), "cudaMemset")) return nullptr;
    return static_cast<T*>(p);
  }

  /// A copy of @p host in device memory, or nullptr.
  template <class T>
  T* upload(const std::vector<T>& host) {
    T* p = zeros<T>(host.size());
    if (p && !check(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy")) return nullptr;
    return p;
  }

  /// Every allocation so far succeeded: the kernel may be launched.
  bool ready() const { return ok_; }

  /// Checks the launch and waits for the kernel; prints the case's outcome.
  void done() {
    if (ok_) {
      check(cudaGetLastError(), "launch");
      check(cudaDeviceSynchronize(), "kernel");
    }
    std::printf("%-36s %s\n", name_, ok_ ? "ran" : "failed");
    if (!ok_) ++failures;
  }

private:
  bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "rooflint-traffic-corpus: %s: %s: %s\n", name_, what, cudaGetErrorString(e));
    cudaGetLastError();
    ok_ = false;
    return false;
  }

  const char* name_;
  bool ok_ = true;
  std::vector<void*> buffers_;
};

/// Indices 0..n-1 in a fixed scattered order (i * step mod n; step coprime to n): a permutation.
inline std::vector<int> scattered(int n, long long step) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<int>(i * step % n);
  return v;
}

/// @p count indices below @p bound, distinct while count <= bound (i * step mod bound, step coprime).
inline std::vector<int> indices_below(std::size_t count, int bound, long long step) {
  std::vector<int> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<int>(static_cast<long long>(i) * step % bound);
  return v;
}

/// @p count indices drawn independently and uniformly from [0, @p bound) (a fixed seed: the same data
/// every run), as a spec's `.indices(uniform(bound))` states them.
inline std::vector<int> uniform_below(std::size_t count, int bound, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> draw(0, bound - 1);
  std::vector<int> v(count);
  for (int& x : v) x = draw(engine);
  return v;
}

}  // namespace corpus
