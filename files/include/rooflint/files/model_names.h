#pragma once
/// @file model_names.h
/// The names of the model's enums in files (memory level, dtype, math mode, peak source, bound): every
/// file of the tools spells them so, and reads them with files::parse_name (record.h).

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "rooflint/files/record.h"
#include "rooflint/model/dtype.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/roofline.h"

namespace rooflint::files {

namespace detail {
/// The names of an enum with @p Count values 0..Count-1 and a name() function (the model's and the
/// spec language's enums): their own spelling, never a second one.
template <class Enum, std::size_t Count>
constexpr std::array<std::pair<Enum, std::string_view>, Count> names_by_value() {
  std::array<std::pair<Enum, std::string_view>, Count> out{};
  for (std::size_t i = 0; i < Count; ++i) out[i] = {static_cast<Enum>(i), name(static_cast<Enum>(i))};
  return out;
}
}  // namespace detail

// clang-format off
template <> struct enum_names<model::dtype> {
  static constexpr auto names = detail::names_by_value<model::dtype, model::dtype_count>();
};
template <> struct enum_names<model::math_mode> {
  static constexpr auto names = detail::names_by_value<model::math_mode, model::math_mode_count>();
};
template <> struct enum_names<model::memory_level> {
  static constexpr auto names = detail::names_by_value<model::memory_level, model::memory_level_count>();
};
template <> struct enum_names<model::peak_source> {
  static constexpr auto names = detail::names_by_value<model::peak_source, 3>();
};
template <> struct enum_names<model::bound> {
  static constexpr auto names = detail::names_by_value<model::bound, 2>();
};
// clang-format on

}  // namespace rooflint::files
