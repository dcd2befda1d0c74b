#pragma once
/// @file report.h
/// Compile-time error reporting for checks on values (sizes, counts) inside constexpr builders,
/// where a static_assert cannot see the arguments. fmt's technique: a call to this deliberately
/// non-constexpr function stops constant evaluation, and the compiler prints the calling line,
/// which carries the literal message ("rooflint: at: a size must be positive").

namespace rooflint::dsl::detail {

/// Never constexpr: reaching it during constant evaluation is the error. Does nothing at run time.
inline void compile_time_error(const char* /*message*/) {}

/// Stops constant evaluation with @p message when @p condition is false.
constexpr void require(bool condition, const char* message) {
  if (!condition) compile_time_error(message);
}

}  // namespace rooflint::dsl::detail
