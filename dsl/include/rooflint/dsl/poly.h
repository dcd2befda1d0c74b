#pragma once
/// @file poly.h
/// Symbolic sizes: polynomials over named dimensions, built at compile time, printable as formulas
/// ("2*M*N*K", "12*N^2") and evaluable with any binding of sizes.
///
/// Every count rooflint derives from a shape (elements, ideal FLOPs, compulsory bytes) is a
/// polynomial in the dimensions, so one representation serves the compiler, the analyzer (which
/// reads it from the spec's constant value) and the runtime (which evaluates it at launch sizes).
/// Sizes that are not polynomial (a convolution's output size) are dimensions of their own,
/// derived from others when sizes are bound (see spec.h).

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "rooflint/dsl/detail/report.h"
#include "rooflint/dsl/name.h"

namespace rooflint::dsl {

namespace detail {
// Overflow is checked before it happens: g++ rejects a constant expression whose arithmetic gives an
// infinity, clang one that gives a NaN, each with its own message and none of ours.
inline constexpr double max_double = std::numeric_limits<double>::max();
constexpr double magnitude(double x) { return x < 0 ? -x : x; }
/// std::isfinite is not constexpr before C++23; comparisons with an infinity or NaN are.
constexpr bool finite(double x) { return x >= -max_double && x <= max_double; }
/// @return Whether a * b is finite (both finite). |b| <= 1 cannot grow a; above 1, max / |b| is finite.
constexpr bool product_fits(double a, double b) { return magnitude(b) <= 1 || magnitude(a) <= max_double / magnitude(b); }
/// @return Whether a + b is finite (both finite).
constexpr bool sum_fits(double a, double b) {
  return (a < 0) != (b < 0) || magnitude(a) <= max_double - magnitude(b);
}
}  // namespace detail

/// Most distinct dimensions in one spec (conv3d needs 12).
inline constexpr std::size_t max_dims = 16;
/// Most terms in one polynomial after like terms are combined.
inline constexpr std::size_t max_terms = 24;

/// The powers of a monomial's dimensions, 0 to 15 each, four bits per dimension in one integer: a spec
/// holds dozens of polynomials, and the compilers' constant evaluators copy each of its values whole at
/// every builder call (a value per array element), so a spec's size is its compile time.
class exponent_list {
 public:
  static constexpr int max_power = 15;
  constexpr int operator[](std::size_t d) const { return static_cast<int>((packed >> (4 * d)) & 0xF); }
  constexpr void set(std::size_t d, int power) {
    detail::require(power >= 0 && power <= max_power, "rooflint: expression: a dimension's power must be 0 to 15");
    packed = (packed & ~(std::uint64_t{0xF} << (4 * d))) | (static_cast<std::uint64_t>(power & 0xF) << (4 * d));
  }
  /// @return The degree: the powers added.
  constexpr int total() const {
    int sum = 0;
    for (std::size_t d = 0; d < max_dims; ++d) sum += (*this)[d];
    return sum;
  }
  constexpr bool is_zero() const { return packed == 0; }
  friend constexpr bool operator==(const exponent_list&, const exponent_list&) = default;

  std::uint64_t packed = 0;  ///< the power of dimension d in bits 4d..4d+3
};
static_assert(max_dims * 4 <= 64, "rooflint: an exponent_list packs 4 bits per dimension into 64");

/// coefficient * product(dims[i] ^ exponents[i]).
struct monomial {
  double coefficient = 0;
  exponent_list exponents{};

  constexpr bool same_powers(const monomial& other) const { return exponents == other.exponents; }
  constexpr bool is_constant() const { return exponents.is_zero(); }
};

/// A polynomial over up to max_dims named dimensions with real coefficients.
struct poly {
  std::array<name_t, max_dims> dims{};  ///< names; dims[i] is the variable of exponents[i]
  std::uint8_t dim_count = 0;
  std::array<monomial, max_terms> terms{};
  std::uint8_t term_count = 0;

  constexpr poly() = default;
  constexpr poly(double constant) {
    if (constant != 0) add_term(monomial{constant, {}});
  }

  /// @return The polynomial that is the single dimension @p dim_name.
  static constexpr poly variable(name_t dim_name) {
    poly p;
    monomial m{1, {}};
    m.exponents.set(std::size_t(p.index_of_or_add(dim_name)), 1);
    p.add_term(m);
    return p;
  }

  /// @return Index of @p dim_name in dims, or -1.
  constexpr int index_of(name_t dim_name) const {
    for (int i = 0; i < dim_count; ++i)
      if (dims[i] == dim_name) return i;
    return -1;
  }

  constexpr int index_of_or_add(name_t dim_name) {
    if (int i = index_of(dim_name); i >= 0) return i;
    detail::require(dim_count < max_dims, "rooflint: expression: more than 16 dimensions in one spec");
    dims[dim_count] = dim_name;
    return dim_count++;
  }

  /// Adds @p m, combining it with a term of the same powers; terms that cancel are removed.
  constexpr void add_term(const monomial& m) {
    if (m.coefficient == 0) return;
    detail::require(detail::finite(m.coefficient), "rooflint: expression: a coefficient must be finite");
    for (int i = 0; i < term_count; ++i) {
      if (!terms[i].same_powers(m)) continue;
      detail::require(detail::sum_fits(terms[i].coefficient, m.coefficient), "rooflint: expression: a coefficient overflows a double");
      terms[i].coefficient += m.coefficient;
      if (terms[i].coefficient == 0) {
        for (int j = i; j + 1 < term_count; ++j) terms[j] = terms[j + 1];
        terms[--term_count] = monomial{};
      }
      return;
    }
    detail::require(term_count < max_terms, "rooflint: expression: more than 24 terms in one polynomial");
    if (term_count < max_terms) terms[term_count++] = m;
  }

  constexpr bool is_zero() const { return term_count == 0; }

  /// @return Whether dimension @p d (an index into dims) has a non-zero power in some term.
  constexpr bool uses(int d) const {
    for (int t = 0; t < term_count; ++t)
      if (terms[t].exponents[d] != 0) return true;
    return false;
  }

  /// @return The value with each dimension at size_of(its name): evaluation without a shared table.
  template <class SizeOf>
  constexpr double evaluate_by_name(const SizeOf& size_of) const {
    std::array<double, max_dims> values{};
    for (int d = 0; d < dim_count; ++d) values[d] = size_of(dims[d]);
    return evaluate(values);
  }

  /// @return The same polynomial over the dimension table @p table (every dim of this one must be there).
  constexpr poly reindexed(const std::array<name_t, max_dims>& table, std::uint8_t table_size) const {
    poly out;
    out.dims = table;
    out.dim_count = table_size;
    for (int t = 0; t < term_count; ++t) {
      monomial m{terms[t].coefficient, {}};
      for (int d = 0; d < dim_count; ++d) {
        const int j = out.index_of(dims[d]);
        detail::require(j >= 0, "rooflint: expression: a dimension is missing from the dimension table of the spec");
        if (j >= 0) m.exponents.set(std::size_t(j), terms[t].exponents[std::size_t(d)]);
      }
      out.add_term(m);
    }
    return out;
  }

  /// @return The value with dims[i] = values[i]. Unbound (0) dimensions give 0 for their terms.
  constexpr double evaluate(std::span<const double> values) const {
    double sum = 0;
    for (int t = 0; t < term_count; ++t) {
      double product = terms[t].coefficient;
      for (int d = 0; d < dim_count; ++d)
        for (int e = 0; e < terms[t].exponents[d]; ++e) product *= values[d];
      sum += product;
    }
    return sum;
  }

  /// @return Whether the value at @p values is finite, computed in evaluate()'s order without
  /// overflowing (so that a compile-time check can say so instead of the compiler rejecting an infinity).
  constexpr bool evaluates_finite(std::span<const double> values) const {
    double sum = 0;
    for (int t = 0; t < term_count; ++t) {
      double product = terms[t].coefficient;
      for (int d = 0; d < dim_count; ++d)
        for (int e = 0; e < terms[t].exponents[d]; ++e) {
          if (!detail::product_fits(product, values[d])) return false;
          product *= values[d];
        }
      if (!detail::sum_fits(sum, product)) return false;
      sum += product;
    }
    return true;
  }

  friend constexpr poly operator+(const poly& a, const poly& b) {
    poly out = a;
    for (int t = 0; t < b.term_count; ++t) out.add_term(out.import_term(b, t));
    return out;
  }
  friend constexpr poly operator-(const poly& a) { return a * poly(-1.0); }
  friend constexpr poly operator-(const poly& a, const poly& b) { return a + (-b); }
  friend constexpr poly operator*(const poly& a, const poly& b) {
    poly out;
    for (int d = 0; d < a.dim_count; ++d) out.index_of_or_add(a.dims[d]);
    for (int d = 0; d < b.dim_count; ++d) out.index_of_or_add(b.dims[d]);
    for (int i = 0; i < a.term_count; ++i) {
      const monomial ai = out.import_term(a, i);
      for (int j = 0; j < b.term_count; ++j) {
        monomial m = out.import_term(b, j);
        detail::require(detail::product_fits(m.coefficient, ai.coefficient), "rooflint: expression: a coefficient overflows a double");
        m.coefficient *= ai.coefficient;
        for (std::size_t d = 0; d < max_dims; ++d) m.exponents.set(d, m.exponents[d] + ai.exponents[d]);
        out.add_term(m);
      }
    }
    return out;
  }
  /// Division by a constant only: sizes are polynomials, ratios of them are printed, not stored.
  friend constexpr poly operator/(const poly& a, double divisor) {
    detail::require(divisor != 0, "rooflint: expression: division by zero");
    return a * poly(divisor != 0 ? 1.0 / divisor : 1.0);
  }

 private:
  /// @return Term @p t of @p other with its exponents mapped onto this polynomial's dims (added as needed).
  constexpr monomial import_term(const poly& other, int t) {
    monomial m{other.terms[t].coefficient, {}};
    for (int d = 0; d < other.dim_count; ++d)
      if (other.terms[t].exponents[std::size_t(d)] != 0) m.exponents.set(std::size_t(index_of_or_add(other.dims[d])), other.terms[t].exponents[std::size_t(d)]);
    return m;
  }
};

// ---------------------------------------------------------------------------------------------
// Sizes that are not polynomials: min, max and ceil-division of polynomials

/// The operation of a size term.
enum class size_op : std::uint8_t {
  min,       ///< the smaller of lhs and rhs (an embedding lookup touches min(B*T, V) rows)
  max,       ///< the larger of lhs and rhs
  ceil_div,  ///< ceil(lhs / rhs), rhs > 0 (tiles: ceil_div(N, 128))
  div,       ///< lhs / rhs exactly, rhs > 0 (a head size C / NH); no size when rhs does not divide lhs
};

/// @return The operation's name as printed and written in manifests: "min", "max", "ceil_div".
constexpr std::string_view name(size_op op) {
  switch (op) {
    case size_op::min: return "min";
    case size_op::max: return "max";
    case size_op::ceil_div: return "ceil_div";
    case size_op::div: return "div";
  }
  return "unknown";
}

/// Most size terms in one spec (each is a dimension of the spec too, derived when sizes are bound).
inline constexpr std::size_t max_size_terms = 4;

/// A size that is min, max, ceil-division or exact division of two polynomials. Polynomials use it as a
/// variable named by its own text ("min(B*T, V)"), so formulas print it and sizes evaluate it like a
/// dimension: binding computes it from its operands (spec.h). An operand may use an earlier term. A
/// dimension defined by an expression (`.sizes(HS(C / NH))`, kernel.h) is such a term named by the
/// dimension ("HS").
struct size_term {
  name_t name;  ///< the term as text, "min(B*T, V)": its variable name in polynomials
  size_op op = size_op::min;
  poly lhs;
  poly rhs;

  /// @return The term's value for operand values @p a and @p b (sizes >= 1); 0 when it has none
  /// (ceil_div or div by a size that is not positive; div of or by a size that is not whole, or by one
  /// that does not divide).
  constexpr double apply(double a, double b) const {
    switch (op) {
      case size_op::min: return a < b ? a : b;
      case size_op::max: return a < b ? b : a;
      case size_op::ceil_div: {
        if (!(b > 0) || !(a >= 0) || a > 9.0e15 || b > 9.0e15) return 0;
        const auto n = static_cast<std::int64_t>(a), d = static_cast<std::int64_t>(b);
        return static_cast<double>((n + d - 1) / d);
      }
      case size_op::div: {
        if (!(b > 0) || !(a >= 0) || a > 9.0e15 || b > 9.0e15) return 0;
        const auto n = static_cast<std::int64_t>(a), d = static_cast<std::int64_t>(b);
        const bool whole = static_cast<double>(n) == a && static_cast<double>(d) == b;
        return whole && n % d == 0 ? static_cast<double>(n / d) : 0;
      }
    }
    return 0;
  }
};

/// The size terms an expression uses, in the order they are defined (operands before the terms that use them).
struct size_table {
  std::array<size_term, max_size_terms> terms{};
  std::uint8_t count = 0;

  constexpr int index_of(name_t n) const {
    for (int i = 0; i < count; ++i)
      if (terms[i].name == n) return i;
    return -1;
  }
  /// Adds @p t unless a term of the same name (the same text, so the same definition) is there.
  constexpr void add(const size_term& t) {
    if (index_of(t.name) >= 0) return;
    detail::require(count < max_size_terms, "rooflint: expression: more than 4 min, max, ceil_div or div terms in one spec");
    if (count < max_size_terms) terms[count++] = t;
  }
  constexpr void merge(const size_table& other) {
    for (int i = 0; i < other.count; ++i) add(other.terms[i]);
  }

  /// @return @p p evaluated with each dimension at base(name) and each term of this table computed
  /// from its operands first (in the table's order).
  template <class SizeOf>
  constexpr double evaluate(const poly& p, const SizeOf& base) const {
    std::array<double, max_size_terms> values{};
    const auto size_of = [&](name_t n) {
      for (int i = 0; i < count; ++i)
        if (terms[i].name == n) return values[i];
      return base(n);
    };
    for (int i = 0; i < count; ++i)
      values[i] = terms[i].apply(terms[i].lhs.evaluate_by_name(size_of), terms[i].rhs.evaluate_by_name(size_of));
    return p.evaluate_by_name(size_of);
  }
};

namespace detail {
/// Writes text into a name_t, remembering whether it fit.
struct name_writer {
  name_t out;
  std::size_t length = 0;
  bool fits = true;

  constexpr void put(char c) {
    if (length + 1 < name_capacity) out.chars[length++] = c;
    else fits = false;
  }
  constexpr void put(std::string_view text) {
    for (char c : text) put(c);
  }
  constexpr void put_integer(std::int64_t v) {
    if (v < 0) { put('-'); v = -v; }
    char digits[20]{};
    int n = 0;
    do { digits[n++] = static_cast<char>('0' + v % 10); v /= 10; } while (v > 0 && n < 20);
    while (n > 0) put(digits[--n]);
  }
};

constexpr int degree(const monomial& m) {
  return m.exponents.total();
}

/// Writes @p p as formula.h's to_string() prints it ("B*T", "2*N + 1"), highest degree first.
/// Coefficients must be integers (the operands of min, max and ceil_div are sizes).
constexpr void write_poly(name_writer& w, const poly& p, bool& integral) {
  if (p.is_zero()) { w.put('0'); return; }
  std::array<int, max_terms> order{};
  for (int t = 0; t < p.term_count; ++t) order[t] = t;
  for (int i = 1; i < p.term_count; ++i)
    for (int j = i; j > 0 && degree(p.terms[order[j]]) > degree(p.terms[order[j - 1]]); --j) {
      const int k = order[j]; order[j] = order[j - 1]; order[j - 1] = k;
    }
  for (int k = 0; k < p.term_count; ++k) {
    const monomial& m = p.terms[order[k]];
    double c = m.coefficient;
    if (k > 0) { w.put(c < 0 ? " - " : " + "); c = magnitude(c); }
    else if (c < 0) { w.put('-'); c = -c; }
    const auto whole = static_cast<std::int64_t>(c < 9.0e15 ? c : 0);
    integral = integral && static_cast<double>(whole) == c;
    bool first = true;
    if (whole != 1 || m.is_constant()) { w.put_integer(whole); first = false; }
    for (int d = 0; d < p.dim_count; ++d) {
      if (m.exponents[d] == 0) continue;
      if (!first) w.put('*');
      first = false;
      w.put(p.dims[d].view());
      if (m.exponents[d] > 1) { w.put('^'); w.put_integer(m.exponents[d]); }
    }
  }
}

/// @return The term op(lhs, rhs), named by its text: "min(B*T, V)", "ceil_div(N, 128)".
constexpr size_term make_size_term(size_op op, const poly& lhs, const poly& rhs) {
  name_writer w;
  bool integral = true;
  w.put(name(op));
  w.put('(');
  write_poly(w, lhs, integral);
  w.put(", ");
  write_poly(w, rhs, integral);
  w.put(')');
  require(integral, "rooflint: expression: the operands of min, max and ceil_div must have integer coefficients");
  require(w.fits, "rooflint: expression: a min, max or ceil_div term is longer than 31 characters as text");
  return {w.out, op, lhs, rhs};
}
}  // namespace detail

}  // namespace rooflint::dsl
