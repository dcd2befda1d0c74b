#pragma once
/// @file result.h
/// rooflint::result<T>: a value or an error{code, message}. C++20 has no std::expected, and missing
/// counters or devices are expected outcomes in the runtime, not exceptional ones.

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rooflint {

/// A small set of Abseil-like codes; pick the most specific one that fits.
enum class error_code {
  invalid_argument,     ///< the caller gave something wrong (a bad option, a size that does not bind)
  failed_precondition,  ///< the system is not in a state to do it (ceilings from another GPU)
  permission_denied,    ///< not allowed (GPU performance counters restricted to admin)
  unavailable,          ///< not there (no GPU, no driver, no NVML, metric not on this chip)
  internal,             ///< a CUDA/CUPTI/cuBLAS call failed unexpectedly, a kernel faulted
};

constexpr std::string_view name(error_code c) {
  switch (c) {
    case error_code::invalid_argument: return "invalid argument";
    case error_code::failed_precondition: return "failed precondition";
    case error_code::permission_denied: return "permission denied";
    case error_code::unavailable: return "unavailable";
    case error_code::internal: return "internal";
  }
  return "unknown";
}

struct error {
  error_code code = error_code::internal;
  std::string message;  ///< what went wrong and what to do, lowercase, no final period
};

/// A value of type T, or an error.
template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : state_(std::move(value)) {}
  result(error e) : state_(std::move(e)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const error& err() const { return std::get<error>(state_); }

 private:
  std::variant<T, error> state_;
};

/// result<void>: success, or an error.
template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(error e) : error_(std::move(e)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const error& err() const { return error_; }

 private:
  error error_;
  bool ok_ = true;
};

inline result<void> success() { return {}; }

}  // namespace rooflint

/// Returns the error of a result expression from the enclosing function (which returns any result<U>).
#define ROOFLINT_TRY(expr)                         \
  do {                                             \
    if (auto rooflint_try_ = (expr); !rooflint_try_) \
      return rooflint_try_.err();                  \
  } while (0)
