#pragma once
/// @file verify_case.h
/// Registering kernels for verification, the way a benchmark library registers benchmarks:
///
///     ROOFLINT_VERIFY_CASE(saxpy_at_64M, saxpy_spec, N(1 << 26)) {
///       const auto n = ctx.size(N);                    // sizes bound from the spec
///       float* x = ctx.random<float>(n);               // device buffers, random (never zeros), freed by ctx
///       float* y = ctx.random<float>(n);
///       return rooflint::runtime::launcher{
///           .launch = [=](cudaStream_t s) { saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, 2.0f, x, y); },
///       };
///     }
///
/// The verifier calls the body once to prepare data, then `launch` as many times as it measures
/// (counting and timing), flushing L2 before each launch outside the measured window. A case whose
/// kernel writes its own inputs (y above is read and written) may set `restore` to put the inputs
/// back between runs; `launches` says how many kernel launches one call of `launch` makes (a region of
/// several kernels that together implement the spec: their counters are summed). Left at 0 it is the
/// spec's: 1 for a kernel's spec, the number of kernels for a region's (dsl/region.h).

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "rooflint/dsl.h"
#include "rooflint/runtime/device_buffer.h"

namespace rooflint::runtime {

/// How the verifier runs a prepared case.
struct launcher {
  std::function<void(cudaStream_t)> launch;         ///< enqueue one run of the kernel(s) on the stream
  std::function<void(cudaStream_t)> restore = {};   ///< optional: restore in-place inputs (not measured)
  /// Kernel launches per call of `launch`; 0: as the spec says (1 for a kernel, a region's kernels).
  int launches = 0;
};

/// What a case_context throws when it cannot give a case body what it asked for (a device buffer, the
/// size of a dimension the spec does not have). The verifier catches it and reports the case, with
/// this message, as faulted (a CUDA call failed) or as a bad case; the process goes on, so that
/// in-process runs (verify_in_process, a project's GoogleTest helpers) are not ended by a case.
class case_error : public std::runtime_error {
 public:
  case_error(const std::string& message, bool cuda_failed) : std::runtime_error(message), cuda_failed_(cuda_failed) {}
  /// @return Whether a CUDA call failed (else the case asked for something its spec does not have).
  bool cuda_failed() const { return cuda_failed_; }

 private:
  bool cuda_failed_;
};

/// Device memory and sizes for a case body. Every buffer it hands out is freed when the case ends.
class case_context {
 public:
  explicit case_context(const dsl::spec& spec, dsl::sizes sizes, std::uint64_t seed = 42);
  ~case_context();
  case_context(const case_context&) = delete;
  case_context& operator=(const case_context&) = delete;

  /// @return The bound size of dimension @p d (elements).
  template <dsl::Dim D>
  std::int64_t size(const D&) const { return size_of(dsl::dim_name<D>()); }
  std::int64_t size_of(dsl::name_t dim) const;

  /// @return A device buffer of @p count elements of T filled with uniform random values in [-1, 1)
  /// (integers: [-64, 64)); T is float, double, __half, __nv_bfloat16, std::int8_t, std::int32_t or std::uint8_t.
  template <class T>
  T* random(std::size_t count) { return static_cast<T*>(random_bytes(count * sizeof(T), element_kind<T>())); }

  /// @return A device buffer of @p count elements of T filled with the byte pattern 0xFF (NaN for floats),
  /// so that outputs the kernel does not write are visible.
  template <class T>
  T* poisoned(std::size_t count) { return static_cast<T*>(poisoned_bytes(count * sizeof(T))); }

  /// @return A device buffer of @p count integers of T, uniform in [@p lo, @p hi) (token ids below V:
  /// `ctx.random_integers<std::int32_t>(b * t, 0, v)`); T is std::int8_t, std::uint8_t, std::int32_t,
  /// std::uint32_t or std::int64_t. Throws case_error (not a CUDA failure) unless lo < hi and both fit in T.
  template <class T>
  T* random_integers(std::size_t count, std::int64_t lo, std::int64_t hi) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) != 2 && (sizeof(T) <= 4 || std::is_signed_v<T>),
                  "rooflint: case_context: random_integers<T> supports int8_t, uint8_t, int32_t, uint32_t and int64_t");
    check_integer_range(lo, hi, static_cast<std::int64_t>(std::numeric_limits<T>::min()),
                        std::is_same_v<T, std::int64_t> ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(std::numeric_limits<T>::max()));
    return static_cast<T*>(integer_bytes(count * sizeof(T), sizeof(T), std::is_signed_v<T>, lo, hi));
  }

  /// @return A device buffer of @p count elements of T, all bytes 0 (accumulators, counts, masks).
  template <class T>
  T* zeros(std::size_t count) { return static_cast<T*>(zero_bytes(count * sizeof(T))); }

  /// @return A device buffer of @p count elements of T with nothing written to it: for data that a
  /// kernel of the case's own fills. Launch that kernel in the case body, before returning the
  /// launcher: the verifier synchronises the device after the body, before it measures anything, so
  /// the fill is neither measured nor raced (see docs/verifier.md).
  template <class T>
  T* uninitialized(std::size_t count) { return static_cast<T*>(allocate_bytes(count * sizeof(T))); }

  /// @return A device buffer of @p count elements of T holding @p values copied from the host.
  template <class T>
  T* copy_of(const std::vector<T>& values) { return static_cast<T*>(copy_bytes(values.data(), values.size() * sizeof(T))); }

  const dsl::spec& spec() const { return spec_; }
  const dsl::sizes& sizes() const { return sizes_; }

 private:
  enum class kind { f32, f64, f16, bf16, i8, i32, u8 };
  template <class T> static constexpr kind element_kind();
  void* random_bytes(std::size_t bytes, kind k);
  void* poisoned_bytes(std::size_t bytes);
  void* zero_bytes(std::size_t bytes);
  void* allocate_bytes(std::size_t bytes);
  void* integer_bytes(std::size_t bytes, std::size_t element_size, bool is_signed, std::int64_t lo, std::int64_t hi);
  void check_integer_range(std::int64_t lo, std::int64_t hi, std::int64_t type_min, std::int64_t type_max) const;
  void* copy_bytes(const void* host, std::size_t bytes);

  const dsl::spec& spec_;
  dsl::sizes sizes_;
  std::uint64_t seed_;
  std::vector<device_ptr<>> buffers_;
};

/// A registered verification case.
struct case_definition {
  std::string name;                              ///< unique, used by --filter and in reports
  const dsl::spec* spec = nullptr;               ///< the same constexpr object the analyzer reads
  std::vector<dsl::size_binding> sizes;          ///< sizes of this launch (validated with spec->bind)
  std::function<launcher(case_context&)> body;   ///< prepares data, returns how to launch
  std::string file;                              ///< where the case is defined
  int line = 0;
};

/// Registers @p c; returns its index. Called at static-initialisation time by ROOFLINT_VERIFY_CASE.
int register_case(case_definition c);

template <class T>
constexpr case_context::kind case_context::element_kind() {
  if constexpr (std::is_same_v<T, float>) return kind::f32;
  else if constexpr (std::is_same_v<T, double>) return kind::f64;
  else if constexpr (std::is_same_v<T, __half>) return kind::f16;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return kind::bf16;
  else if constexpr (std::is_same_v<T, std::int8_t>) return kind::i8;
  else if constexpr (std::is_same_v<T, std::int32_t>) return kind::i32;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return kind::u8;
  else static_assert(sizeof(T) == 0, "rooflint: case_context: random<T> supports float, double, __half, __nv_bfloat16, int8_t, int32_t and uint8_t");
}

/// @return Every registered case, in registration order.
const std::vector<case_definition>& registered_cases();

/// A case and the case of its reference implementation (a library call such as cuBLAS, a region, another
/// kernel) of the same work: the report sets both side by side ("the reference reaches 76% of the floor,
/// this kernel 11%").
struct reference_pair {
  std::string candidate, reference;
};
/// Registers @p pair; returns its index. Called at static-initialisation time by ROOFLINT_VERIFY_REFERENCE.
int register_reference(reference_pair pair);
const std::vector<reference_pair>& registered_references();

}  // namespace rooflint::runtime

#define ROOFLINT_DETAIL_CAT2(a, b) a##b
#define ROOFLINT_DETAIL_CAT(a, b) ROOFLINT_DETAIL_CAT2(a, b)

/// Names the case @p reference_case as the reference implementation of @p candidate_case (the same work:
/// ideal FLOPs and compulsory bytes), e.g. ROOFLINT_VERIFY_REFERENCE(sgemm_tiled_n4096, sgemm_cublas_n4096).
#define ROOFLINT_VERIFY_REFERENCE(candidate_case, reference_case)                                          \
  [[maybe_unused]] static const int ROOFLINT_DETAIL_CAT(rooflint_reference_, candidate_case) =            \
      ::rooflint::runtime::register_reference({#candidate_case, #reference_case})

/// Defines and registers a verification case: ROOFLINT_VERIFY_CASE(name, spec, sizes...) { body }.
/// The body sees `rooflint::runtime::case_context& ctx` and returns a rooflint::runtime::launcher.
#define ROOFLINT_VERIFY_CASE(case_name, spec_object, ...)                                                  \
  static ::rooflint::runtime::launcher ROOFLINT_DETAIL_CAT(rooflint_case_body_, case_name)(              \
      ::rooflint::runtime::case_context & ctx);                                                          \
  [[maybe_unused]] static const int ROOFLINT_DETAIL_CAT(rooflint_case_index_, case_name) =              \
      ::rooflint::runtime::register_case({#case_name, &(spec_object), {__VA_ARGS__},                    \
                                          &ROOFLINT_DETAIL_CAT(rooflint_case_body_, case_name), __FILE__, __LINE__}); \
  static ::rooflint::runtime::launcher ROOFLINT_DETAIL_CAT(rooflint_case_body_, case_name)(              \
      [[maybe_unused]] ::rooflint::runtime::case_context & ctx)
