#pragma once
/// @file example_check.h
/// Correctness self-checks for the examples, independent of the verifier: each example registers a
/// function that runs its kernels at a small size on random (never zero) data and compares the output
/// with a simple host reference. `rooflint-examples --self-check` runs them all (CTest label `gpu`).
///
///     ROOFLINT_EXAMPLE_CHECK(saxpy) {
///       ...
///       return check.close("y", y_host, y_reference, 1e-6);
///     }
///
/// Host code only; nvcc compiles it inside the examples' .cu files.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "rooflint/runtime/device_buffer.h"

namespace rooflint::examples {

/// A registered self-check: returns true when every compared output matched.
struct self_check {
  std::string name;
  std::function<bool()> run;
};

inline std::vector<self_check>& self_checks() {
  static std::vector<self_check> checks;
  return checks;
}

inline int register_self_check(std::string name, std::function<bool()> run) {
  self_checks().push_back({std::move(name), std::move(run)});
  return static_cast<int>(self_checks().size());
}

/// @return @p count uniform random values in [lo, hi) from a fixed seed (never all zero).
inline std::vector<float> random_floats(std::size_t count, std::uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(count);
  for (auto& x : v) x = dist(gen);
  return v;
}

/// A device buffer of T for a self-check: allocated (nullptr on failure), optionally filled from the host.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t count) : count_(count) {
    T* p = nullptr;
    if (cudaMalloc(&p, count * sizeof(T)) == cudaSuccess) ptr_.reset(p);
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    if (ptr_) cudaMemcpy(ptr_.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  T* get() const { return ptr_.get(); }
  operator T*() const { return ptr_.get(); }

  /// @return The buffer's contents, copied to the host (after the device finished).
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    cudaDeviceSynchronize();
    if (ptr_) cudaMemcpy(host.data(), ptr_.get(), count_ * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  rooflint::runtime::device_ptr<T> ptr_;  // the runtime's owner of device memory
  std::size_t count_ = 0;
};

/// @return Whether the last launch and the device are fine; prints the error otherwise.
inline bool cuda_ok(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::fprintf(stderr, "  %s: CUDA error: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

/// Compares @p got with @p want elementwise: |got - want| <= atol + rtol * |want|. Prints the first
/// mismatch and the largest error.
inline bool close(const char* what, const std::vector<float>& got, const std::vector<float>& want,
                  double rtol = 1e-5, double atol = 1e-6) {
  if (got.size() != want.size()) {
    std::fprintf(stderr, "  %s: size %zu, expected %zu\n", what, got.size(), want.size());
    return false;
  }
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(err <= atol + rtol * std::fabs(want[i]))) {  // also catches NaN
      std::fprintf(stderr, "  %s: element %zu is %.9g, expected %.9g\n", what, i, got[i], want[i]);
      return false;
    }
    worst = std::max(worst, err);
  }
  std::printf("  %s: %zu elements match (largest error %.3g)\n", what, got.size(), worst);
  return true;
}

}  // namespace rooflint::examples

#define ROOFLINT_EXAMPLE_CAT2(a, b) a##b
#define ROOFLINT_EXAMPLE_CAT(a, b) ROOFLINT_EXAMPLE_CAT2(a, b)

/// Defines and registers a self-check: ROOFLINT_EXAMPLE_CHECK(name) { ...; return ok; }
#define ROOFLINT_EXAMPLE_CHECK(check_name)                                                          \
  static bool ROOFLINT_EXAMPLE_CAT(rooflint_example_check_, check_name)();                          \
  [[maybe_unused]] static const int ROOFLINT_EXAMPLE_CAT(rooflint_example_check_index_, check_name) = \
      ::rooflint::examples::register_self_check(#check_name, &ROOFLINT_EXAMPLE_CAT(rooflint_example_check_, check_name)); \
  static bool ROOFLINT_EXAMPLE_CAT(rooflint_example_check_, check_name)()
