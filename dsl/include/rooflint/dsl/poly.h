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
#include <span>

#include "rooflint/dsl/detail/report.h"
#include "rooflint/dsl/name.h"

namespace rooflint::dsl {

/// Most distinct dimensions in one spec (conv3d needs 12).
inline constexpr std::size_t max_dims = 16;
/// Most terms in one polynomial after like terms are combined.
inline constexpr std::size_t max_terms = 24;

/// coefficient * product(dims[i] ^ exponents[i]).
struct monomial {
  double coefficient = 0;
  std::array<std::uint8_t, max_dims> exponents{};

  constexpr bool same_powers(const monomial& other) const { return exponents == other.exponents; }
  constexpr bool is_constant() const {
    for (auto e : exponents)
      if (e != 0) return false;
    return true;
  }
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
    m.exponents[p.index_of_or_add(dim_name)] = 1;
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
    for (int i = 0; i < term_count; ++i) {
      if (!terms[i].same_powers(m)) continue;
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
        if (j >= 0) m.exponents[j] = terms[t].exponents[d];
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
        m.coefficient *= ai.coefficient;
        for (std::size_t d = 0; d < max_dims; ++d) m.exponents[d] += ai.exponents[d];
        out.add_term(m);
      }
    }
    return out;
  }
  /// Division by a constant only: sizes are polynomials, ratios of them are printed, not stored.
  friend constexpr poly operator/(const poly& a, double divisor) { return a * poly(1.0 / divisor); }

 private:
  /// @return Term @p t of @p other with its exponents mapped onto this polynomial's dims (added as needed).
  constexpr monomial import_term(const poly& other, int t) {
    monomial m{other.terms[t].coefficient, {}};
    for (int d = 0; d < other.dim_count; ++d)
      if (other.terms[t].exponents[d] != 0) m.exponents[index_of_or_add(other.dims[d])] = other.terms[t].exponents[d];
    return m;
  }
};

}  // namespace rooflint::dsl
