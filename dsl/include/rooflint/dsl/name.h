#pragma once
/// @file name.h
/// Compile-time strings: fixed_string (a template argument, gives a dimension its identity) and
/// name_t (a value inside a spec, readable by the analyzer as a char array).

#include <cstddef>
#include <string_view>

namespace rooflint::dsl {

/// A string literal usable as a template argument: dim<"M">.
template <std::size_t N>
struct fixed_string {
  char chars[N]{};
  constexpr fixed_string(const char (&text)[N]) {
    for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  constexpr std::string_view view() const { return {chars, N - 1}; }
};

/// Capacity of a name inside a spec, terminating zero included.
inline constexpr std::size_t name_capacity = 32;

/// A short name stored by value (dimension, tensor, kernel). Longer names are cut; the DSL's
/// builders reject them at compile time instead, so the cut never happens in a valid spec.
struct name_t {
  char chars[name_capacity]{};

  constexpr name_t() = default;
  constexpr name_t(std::string_view text) {
    for (std::size_t i = 0; i < text.size() && i + 1 < name_capacity; ++i) chars[i] = text[i];
  }
  constexpr std::string_view view() const {
    std::size_t n = 0;
    while (n < name_capacity && chars[n] != '\0') ++n;
    return {chars, n};
  }
  constexpr bool empty() const { return chars[0] == '\0'; }
  friend constexpr bool operator==(const name_t& a, const name_t& b) { return a.view() == b.view(); }
};

}  // namespace rooflint::dsl
