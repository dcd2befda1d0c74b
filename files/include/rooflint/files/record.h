#pragma once
/// @file record.h
/// One table of fields per record, walked by the writer, the reader and the tests: each field is its key
/// in the file, the way to its member (the same for a const and a mutable record) and what the file may
/// say about it. A new field is one line in its record's table; nothing written goes unread.
///
/// std only: the JSON codec that walks the tables is private to the library (files/src/json_codec.h).

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace rooflint::files {

/// What a file may say about a field besides its type.
struct field_rules {
  /// The first version of the file that has the field. Read from an older file, the field keeps its
  /// default; a newer file must have it.
  int since = 1;
  /// The field may be absent (or null) in a file of any version: it keeps its default.
  bool optional = false;
  /// The range of a number, inclusive; a value outside is refused by name.
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  /// The largest number of entries of an array (a bound on what a hostile file can make the reader hold).
  std::size_t most = 1u << 20;
  /// For an optional: the name it is written as when empty (an expectation's bound is "any"), instead of null.
  std::string_view empty_name{};
};

/// A field: its key, and @p Get, either a pointer to a data member or a callable that returns the member
/// (or a proxy for it, counted()) of a const or a mutable record.
template <class Get>
struct field {
  std::string_view key;
  Get get;
  field_rules rules{};
};
template <class Get>
field(std::string_view, Get) -> field<Get>;
template <class Get>
field(std::string_view, Get, field_rules) -> field<Get>;

/// @return The member @p f reaches in @p record (const when @p record is).
template <class Get, class Record>
constexpr decltype(auto) member_of(const field<Get>& f, Record& record) {
  if constexpr (std::is_member_object_pointer_v<Get>) return (record.*(f.get));
  else return f.get(record);
}

/// A fixed-capacity array and its count of used entries, as the spec language stores its lists
/// (dsl::spec::dims and dim_count): read and written as a JSON array of `count` entries.
template <class Array, class Count>
struct counted_ref {
  Array& items;
  Count& count;
};
template <class Array, class Count>
counted_ref(Array&, Count&) -> counted_ref<Array, Count>;

/// The table of a record: specialise with `static constexpr auto fields = std::tuple{field{...}, ...};`.
template <class Record>
struct table;

template <class T>
concept Tabled = requires { table<T>::fields; };

/// Calls @p visit(field) for every field of @p Record's table, in the table's order.
template <Tabled Record, class Visit>
constexpr void for_each_field(Visit&& visit) {
  std::apply([&](const auto&... f) { (visit(f), ...); }, table<Record>::fields);
}

/// The names of an enum as written in files: specialise with
/// `static constexpr std::array<std::pair<E, std::string_view>, N> names{...};`. Every enum of every
/// record has one; the codec's single parser reads them all.
template <class Enum>
struct enum_names;

template <class T>
concept Named = std::is_enum_v<T> && requires { enum_names<T>::names; };

/// @return The name of @p value in files ("dram", "f32"), or "" for a value without one.
template <Named Enum>
constexpr std::string_view name_in_files(Enum value) {
  for (const auto& [v, n] : enum_names<Enum>::names)
    if (v == value) return n;
  return {};
}

/// @return The value named @p text, or false when no value has that name.
template <Named Enum>
constexpr bool parse_name(std::string_view text, Enum& out) {
  for (const auto& [v, n] : enum_names<Enum>::names)
    if (n == text) {
      out = v;
      return true;
    }
  return false;
}

}  // namespace rooflint::files
