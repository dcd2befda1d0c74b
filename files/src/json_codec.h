#pragma once
// The JSON codec that walks the field tables (rooflint/files/record.h): one writer, one reader and one
// comparison for every record, so they cannot disagree about a key, a type or a range. Private to the
// library: nlohmann-json does not appear in any public header.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "rooflint/dsl/name.h"
#include "rooflint/dsl/poly.h"
#include "rooflint/files/record.h"
#include "rooflint/model/dtype.h"

namespace rooflint::files {

template <class Enum>
struct enum_ordinal;

namespace json_codec {

using json = nlohmann::ordered_json;  // keys in the table's order

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_counted : std::false_type {};
template <class A, class C>
struct is_counted<counted_ref<A, C>> : std::true_type {};
template <class T>
concept Ordinal = std::is_enum_v<T> && requires { enum_ordinal<T>::count; };
template <class T>
concept Nullable = Tabled<T> && requires(const T& v) { table<T>::is_null(v); };

/// @return The shortest text that reads back as @p v ("1e-300", "4294967298").
inline std::string number_text(double v) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

/// @return "a string", "an array", ... for messages.
inline std::string type_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "true or false";
    case json::value_t::number_float: return "a number with a fraction";
    case json::value_t::number_integer: case json::value_t::number_unsigned: return "an integer";
    default: return "binary data";
  }
}

// ---------------------------------------------------------------------------------------------------
// Writing

template <class T>
json write(const T& v, const field_rules& rules = {});

template <Tabled T>
json write_record(const T& r) {
  if constexpr (Nullable<T>)
    if (table<T>::is_null(r)) return json(nullptr);
  json out = json::object();
  for_each_field<T>([&](const auto& f) { out[std::string(f.key)] = write(member_of(f, r), f.rules); });
  return out;
}

inline json write_poly(const dsl::poly& p) {
  json dims = json::array(), terms = json::array();
  for (int d = 0; d < p.dim_count; ++d) dims.push_back(std::string(p.dims[d].view()));
  for (int t = 0; t < p.term_count; ++t) {
    json exponents = json::array();
    for (int d = 0; d < p.dim_count; ++d) exponents.push_back(int(p.terms[t].exponents[d]));
    terms.push_back(json{{"coefficient", p.terms[t].coefficient}, {"exponents", exponents}});
  }
  return json{{"dims", dims}, {"terms", terms}};
}

template <class T>
json write(const T& v, const field_rules& rules) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
    return json(v);
  } else if constexpr (std::is_same_v<T, dsl::name_t>) {
    return json(std::string(v.view()));
  } else if constexpr (std::is_same_v<T, dsl::poly>) {
    return write_poly(v);
  } else if constexpr (std::is_same_v<T, model::per_math_mode<double>>) {
    json out = json::object();
    for (std::size_t i = 0; i < model::math_mode_count; ++i)
      if (const auto m = static_cast<model::math_mode>(i); v[m] > 0) out[std::string(model::name(m))] = v[m];
    return out;
  } else if constexpr (Named<T>) {
    return json(std::string(name_in_files(v)));
  } else if constexpr (Ordinal<T>) {
    return json(static_cast<int>(v));
  } else if constexpr (std::is_integral_v<T>) {
    return json(static_cast<std::int64_t>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return json(static_cast<double>(v));
  } else if constexpr (is_optional<T>::value) {
    if (!v) return rules.empty_name.empty() ? json(nullptr) : json(std::string(rules.empty_name));
    return write(*v, rules);
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    json out = json::array();
    for (const auto& e : v) out.push_back(write(e, rules));
    return out;
  } else if constexpr (is_counted<T>::value) {
    json out = json::array();
    for (std::size_t i = 0; i < static_cast<std::size_t>(v.count); ++i) out.push_back(write(v.items[i], rules));
    return out;
  } else {
    static_assert(Tabled<T>, "a field of a type the codec does not know");
    return write_record(v);
  }
}

// ---------------------------------------------------------------------------------------------------
// Reading: every value checked for its type and range; the first failure is kept, with its JSON pointer

struct reader {
  int version = 0;     ///< of the file being read: a field newer than it may be absent
  std::string error;   ///< the first failure, "'/kernels/0/name' must be a string, not an integer"

  bool ok() const { return error.empty(); }
  void fail(const std::string& where, const std::string& what) {
    if (ok()) error = "'" + (where.empty() ? std::string("/") : where) + "' " + what;
  }
};

template <class T>
void read(const json& j, T&& out, reader& r, const std::string& where, const field_rules& rules);

template <Tabled T>
void read_record(const json& j, T& out, reader& r, const std::string& where) {
  if constexpr (Nullable<T>)
    if (j.is_null()) return;  // out keeps its default, which is_null
  if (!j.is_object()) return r.fail(where, "must be an object, not " + type_of(j));
  for_each_field<T>([&](const auto& f) {
    if (!r.ok()) return;
    const std::string at = where + "/" + std::string(f.key);
    const auto it = j.find(std::string(f.key));
    const bool absent = it == j.end();
    using M = std::remove_cvref_t<decltype(member_of(f, out))>;
    // A null optional, or a null record that may be null, is a value; any other null is an absence.
    const bool null_allowed = is_optional<M>::value || Nullable<M>;
    if (absent || (it->is_null() && !null_allowed)) {
      if (f.rules.optional || r.version < f.rules.since || (absent && null_allowed)) return;
      return r.fail(at, "is missing");
    }
    read(*it, member_of(f, out), r, at, f.rules);
  });
}

inline void read_poly(const json& j, dsl::poly& p, reader& r, const std::string& where) {
  if (!j.is_object()) return r.fail(where, "must be an object, not " + type_of(j));
  const auto dims = j.find("dims"), terms = j.find("terms");
  if (dims == j.end() || !dims->is_array()) return r.fail(where + "/dims", "must be an array of dimension names");
  if (terms == j.end() || !terms->is_array()) return r.fail(where + "/terms", "must be an array of terms");
  if (dims->size() > dsl::max_dims)
    return r.fail(where + "/dims", "has " + std::to_string(dims->size()) + " entries, more than " +
                                       std::to_string(dsl::max_dims));
  if (terms->size() > dsl::max_terms)
    return r.fail(where + "/terms", "has " + std::to_string(terms->size()) + " entries, more than " +
                                        std::to_string(dsl::max_terms));
  p = {};
  for (std::size_t d = 0; d < dims->size() && r.ok(); ++d)
    read((*dims)[d], p.dims[d], r, where + "/dims/" + std::to_string(d), {});
  p.dim_count = static_cast<std::uint8_t>(dims->size());
  for (std::size_t t = 0; t < terms->size() && r.ok(); ++t) {
    const std::string at = where + "/terms/" + std::to_string(t);
    const json& term = (*terms)[t];
    if (!term.is_object()) return r.fail(at, "must be an object, not " + type_of(term));
    const auto c = term.find("coefficient"), e = term.find("exponents");
    if (c == term.end()) return r.fail(at + "/coefficient", "is missing");
    read(*c, p.terms[t].coefficient, r, at + "/coefficient", {});
    if (e == term.end() || !e->is_array()) return r.fail(at + "/exponents", "must be an array of integers");
    if (e->size() != dims->size())
      return r.fail(at + "/exponents", "has " + std::to_string(e->size()) + " entries for " +
                                           std::to_string(dims->size()) + " dimensions");
    for (std::size_t d = 0; d < e->size() && r.ok(); ++d) {
      int power = 0;
      read((*e)[d], power, r, at + "/exponents/" + std::to_string(d),
           field_rules{.min = 0, .max = dsl::exponent_list::max_power});
      if (r.ok()) p.terms[t].exponents.set(d, power);
    }
  }
  p.term_count = static_cast<std::uint8_t>(terms->size());
}

/// "outside the range 1 to 10000", "less than 0" (no upper bound), "more than 1" (no lower bound).
inline std::string range_text(double lo, double hi) {
  if (std::isinf(hi)) return "less than " + number_text(lo);
  if (std::isinf(lo)) return "more than " + number_text(hi);
  return "outside the range " + number_text(lo) + " to " + number_text(hi);
}

/// An integer at full width: 4294967298 is not 2, 1.5 is not 1.
template <class T>
void read_integer(const json& j, T& out, reader& r, const std::string& where, const field_rules& rules) {
  if (!j.is_number_integer()) return r.fail(where, "must be an integer, not " + type_of(j));
  const double lo = std::max<double>(rules.min, double(std::numeric_limits<T>::min()));
  const double hi = std::min<double>(rules.max, double(std::numeric_limits<T>::max()));
  const bool negative = j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0;
  const long double x = negative ? (long double)j.get<std::int64_t>() : (long double)j.get<std::uint64_t>();
  if (x < lo || x > hi) return r.fail(where, "is " + j.dump() + ", " + range_text(lo, hi));
  out = static_cast<T>(negative ? j.get<std::int64_t>() : static_cast<std::int64_t>(j.get<std::uint64_t>()));
}

template <class T>
void read(const json& j, T&& out_ref, reader& r, const std::string& where, const field_rules& rules) {
  using U = std::remove_cvref_t<T>;
  U& out = out_ref;
  if (!r.ok()) return;
  if constexpr (std::is_same_v<U, std::string>) {
    if (!j.is_string()) return r.fail(where, "must be a string, not " + type_of(j));
    out = j.get<std::string>();
  } else if constexpr (std::is_same_v<U, bool>) {
    if (!j.is_boolean()) return r.fail(where, "must be true or false, not " + type_of(j));
    out = j.get<bool>();
  } else if constexpr (std::is_same_v<U, dsl::name_t>) {
    if (!j.is_string()) return r.fail(where, "must be a string, not " + type_of(j));
    const std::string s = j.get<std::string>();
    if (s.size() >= dsl::name_capacity)
      return r.fail(where, "is \"" + s + "\", longer than a name of the spec language (" +
                               std::to_string(dsl::name_capacity - 1) + " characters)");
    out = dsl::name_t(s);
  } else if constexpr (std::is_same_v<U, dsl::poly>) {
    read_poly(j, out, r, where);
  } else if constexpr (std::is_same_v<U, model::per_math_mode<double>>) {
    if (!j.is_object()) return r.fail(where, "must be an object, not " + type_of(j));
    out = {};
    for (const auto& [key, value] : j.items()) {
      const std::optional<model::math_mode> m = model::parse_math_mode(key);
      if (!m) return r.fail(where + "/" + key, "is not a math mode");
      read(value, out[*m], r, where + "/" + key, field_rules{.min = 0});
    }
  } else if constexpr (Named<U>) {
    if (!j.is_string()) return r.fail(where, "must be a string, not " + type_of(j));
    if (!parse_name(j.get<std::string>(), out)) {
      std::string known;
      for (const auto& [v, n] : enum_names<U>::names) known += std::string(known.empty() ? "'" : ", '") + std::string(n) + "'";
      return r.fail(where, "is \"" + j.get<std::string>() + "\", not one of " + known);
    }
  } else if constexpr (Ordinal<U>) {
    int index = 0;
    read_integer(j, index, r, where, field_rules{.min = 0, .max = enum_ordinal<U>::count - 1});
    out = static_cast<U>(index);
  } else if constexpr (std::is_integral_v<U>) {
    read_integer(j, out, r, where, rules);
  } else if constexpr (std::is_floating_point_v<U>) {
    if (!j.is_number()) return r.fail(where, "must be a number, not " + type_of(j));
    const double x = j.get<double>();
    if (!(x >= rules.min && x <= rules.max))
      return r.fail(where, "is " + number_text(x) + ", " + range_text(rules.min, rules.max));
    out = x;
  } else if constexpr (is_optional<U>::value) {
    if (j.is_null() || (!rules.empty_name.empty() && j.is_string() && j.get<std::string>() == rules.empty_name)) {
      out.reset();
      return;
    }
    typename U::value_type v{};
    read(j, v, r, where, rules);
    out = std::move(v);
  } else if constexpr (is_vector<U>::value) {
    if (!j.is_array()) return r.fail(where, "must be an array, not " + type_of(j));
    if (j.size() > rules.most)
      return r.fail(where, "has " + std::to_string(j.size()) + " entries, more than " + std::to_string(rules.most));
    out.assign(j.size(), typename U::value_type{});
    for (std::size_t i = 0; i < j.size() && r.ok(); ++i) read(j[i], out[i], r, where + "/" + std::to_string(i), rules);
  } else if constexpr (is_std_array<U>::value) {
    if (!j.is_array() || j.size() != out.size())
      return r.fail(where, "must be an array of " + std::to_string(out.size()) + " entries");
    for (std::size_t i = 0; i < out.size() && r.ok(); ++i) read(j[i], out[i], r, where + "/" + std::to_string(i), rules);
  } else if constexpr (is_counted<U>::value) {
    if (!j.is_array()) return r.fail(where, "must be an array, not " + type_of(j));
    const std::size_t capacity = out.items.size();
    if (j.size() > capacity)
      return r.fail(where, "has " + std::to_string(j.size()) + " entries, more than the spec language holds (" +
                               std::to_string(capacity) + ")");
    for (std::size_t i = 0; i < j.size() && r.ok(); ++i) read(j[i], out.items[i], r, where + "/" + std::to_string(i), rules);
    out.count = static_cast<std::remove_cvref_t<decltype(out.count)>>(j.size());
  } else {
    static_assert(Tabled<U>, "a field of a type the codec does not know");
    read_record(j, out, r, where);
  }
}

// ---------------------------------------------------------------------------------------------------
// Comparing: the same walk over two records; leaves compared as written

template <class T>
void compare(const T& a, const T& b, const std::string& where, const field_rules& rules, std::vector<std::string>& out) {
  if constexpr (is_vector<T>::value) {
    if (a.size() != b.size()) {
      out.push_back(where + ": " + std::to_string(a.size()) + " entries vs " + std::to_string(b.size()));
      return;
    }
    for (std::size_t i = 0; i < a.size(); ++i) compare(a[i], b[i], where + "/" + std::to_string(i), rules, out);
  } else if constexpr (is_optional<T>::value) {
    if (a.has_value() != b.has_value()) {
      out.push_back(where + ": " + write(a, rules).dump() + " vs " + write(b, rules).dump());
    } else if (a) {
      compare(*a, *b, where, rules, out);
    }
  } else if constexpr (is_counted<T>::value) {
    if (a.count != b.count) {
      out.push_back(where + ": " + std::to_string(int(a.count)) + " entries vs " + std::to_string(int(b.count)));
      return;
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(a.count); ++i)
      compare(a.items[i], b.items[i], where + "/" + std::to_string(i), rules, out);
  } else if constexpr (Tabled<T>) {
    if constexpr (Nullable<T>)
      if (table<T>::is_null(a) != table<T>::is_null(b)) {
        out.push_back(where + ": " + write(a).dump() + " vs " + write(b).dump());
        return;
      }
    for_each_field<T>([&](const auto& f) {
      const auto& ma = member_of(f, a);
      const auto& mb = member_of(f, b);
      compare(ma, mb, where + "/" + std::string(f.key), f.rules, out);
    });
  } else {
    const json ja = write(a, rules), jb = write(b, rules);
    if (ja != jb) out.push_back(where + ": " + ja.dump() + " vs " + jb.dump());
  }
}

}  // namespace json_codec
}  // namespace rooflint::files
