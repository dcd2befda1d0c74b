#pragma once
/// @file formula.h
/// Printing polynomials and their ratios as formulas: "2*M*N*K", "12*N^2", arithmetic intensity "N/6";
/// and a spec's sizes ("M=4096, N=4096").
/// Host code (std::string); used by the analyzer's diagnostics and the runtime's reports.

#include <algorithm>
#include <charconv>
#include <system_error>
#include <utility>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <string_view>

#include "rooflint/dsl/poly.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::dsl {

namespace detail {

inline bool is_integral(double x) { return std::fabs(x - std::round(x)) < 1e-9 && std::fabs(x) < 9e15; }

/// @return x as an integer when it is one, else with 6 significant digits ("0.5", "0.333333", "1e-07").
/// (std::to_string's fixed 6 decimals printed 1e-7 as "0.".)
inline std::string number(double x) {
  if (is_integral(x)) return std::to_string(static_cast<long long>(std::llround(x)));
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 6);
  return ec == std::errc{} ? std::string(buf, end) : std::to_string(x);
}

inline std::string powers(const poly& p, const monomial& m) {
  std::string s;
  for (int d = 0; d < p.dim_count; ++d) {
    if (m.exponents[d] == 0) continue;
    if (!s.empty()) s += '*';
    s += p.dims[d].view();
    if (m.exponents[d] > 1) s += '^' + std::to_string(m.exponents[d]);
  }
  return s;
}

inline int term_degree(const monomial& m) {
  return m.exponents.total();
}

/// Greatest common monomial factor of all terms of a and b (both over the same dims).
inline monomial common_factor(const poly& a, const poly& b) {
  monomial g{1, {}};
  bool first = true;
  for (const poly* p : {&a, &b})
    for (int t = 0; t < p->term_count; ++t) {
      for (std::size_t d = 0; d < max_dims; ++d)
        g.exponents.set(d, first ? p->terms[t].exponents[d] : std::min(g.exponents[d], p->terms[t].exponents[d]));
      first = false;
    }
  return g;
}

inline poly divided(const poly& p, const monomial& g, double scale) {
  poly out = p;
  for (int t = 0; t < out.term_count; ++t) {
    out.terms[t].coefficient /= scale;
    for (std::size_t d = 0; d < max_dims; ++d) out.terms[t].exponents.set(d, out.terms[t].exponents[d] - g.exponents[d]);
  }
  return out;
}

/// Greatest common divisor of the integer coefficients of a and b; 1 if any is not an integer.
inline double common_integer_factor(const poly& a, const poly& b) {
  long long g = 0;
  for (const poly* p : {&a, &b})
    for (int t = 0; t < p->term_count; ++t) {
      if (!is_integral(p->terms[t].coefficient)) return 1;
      g = std::gcd(g, std::llabs(std::llround(p->terms[t].coefficient)));
    }
  return g > 0 ? static_cast<double>(g) : 1;
}

}  // namespace detail

/// @return The polynomial as a formula, highest degree first: "2*M*N*K", "4*M*K + 4*K*N + 4*M*N", "0".
inline std::string to_string(const poly& p) {
  if (p.is_zero()) return "0";
  std::array<int, max_terms> order{};
  for (int t = 0; t < p.term_count; ++t) order[t] = t;
  for (int i = 1; i < p.term_count; ++i)  // insertion sort: stable, highest degree first
    for (int j = i; j > 0 && detail::term_degree(p.terms[order[j]]) > detail::term_degree(p.terms[order[j - 1]]); --j)
      std::swap(order[j], order[j - 1]);
  std::string s;
  for (int k = 0; k < p.term_count; ++k) {
    const monomial& m = p.terms[order[k]];
    double c = m.coefficient;
    if (k > 0) { s += c < 0 ? " - " : " + "; c = std::fabs(c); }
    else if (c < 0) { s += '-'; c = -c; }
    const std::string vars = detail::powers(p, m);
    if (vars.empty()) s += detail::number(c);
    else s += (c == 1 ? "" : detail::number(c) + "*") + vars;
  }
  return s;
}

/// @return num / den as a formula with common factors cancelled: 2*N^3 / 12*N^2 is "N/6".
/// Both must be over the same dimension table (a spec's polynomials are).
inline std::string ratio_to_string(const poly& num, const poly& den) {
  if (den.is_zero()) return "undefined (no bytes)";
  if (num.is_zero()) return "0";
  const monomial g = detail::common_factor(num, den);
  const double c = detail::common_integer_factor(num, den);
  const poly n = detail::divided(num, g, c), d = detail::divided(den, g, c);
  const auto wrap = [](const poly& p) { return p.term_count > 1 ? "(" + to_string(p) + ")" : to_string(p); };
  const bool d_is_one = d.term_count == 1 && d.terms[0].is_constant() && d.terms[0].coefficient == 1;
  return d_is_one ? to_string(n) : wrap(n) + "/" + wrap(d);
}

/// @return The FLOP convention's name as reports print it.
inline std::string to_string(const flop_convention& c) {
  std::string s = "torch.utils.flop_counter";
  if (c.count_elementwise) s += " + elementwise counted";
  if (c.halve_causal) s += " + causal halved";
  return s;
}

/// @return Where @p s's ideal FLOPs come from, as reports print it beside them: the count the spec
/// types (elementwise, custom: under every convention), the convention's (contractions; reductions,
/// softmax and norms count 0 under torch.utils.flop_counter), or rooflint's per-element rule that
/// count_elementwise switches on.
inline std::string flop_basis(const spec& s) {
  const std::string op(s.op.name.view());
  if (s.op.kind == op_kind::elementwise || s.op.kind == op_kind::custom) return "as the spec states them";
  if (s.op.zero_under_torch)
    return s.convention.count_elementwise ? "rooflint's rule for " + op + ", count_elementwise"
                                          : "torch.utils.flop_counter, which counts " + op + " as 0";
  return s.op.causal && s.convention.halve_causal ? "torch.utils.flop_counter, causal halved" : "torch.utils.flop_counter";
}

/// @return Each dimension of @p s with its size in @p bound, in the spec's order: "M=4096, N=4096"
/// with @p equals "=" (reports, tables), "M = 4096, N = 4096" with " = " (diagnostics' prose). Sizes
/// print exactly (integers as integers).
inline std::string sizes_text(const spec& s, const sizes& bound, std::string_view equals = "=") {
  std::string out;
  for (int d = 0; d < s.dim_count; ++d)
    out += (d ? ", " : "") + std::string(s.dims[d].name.view()) + std::string(equals) + detail::number(bound[d]);
  return out;
}

/// @return @p bindings as given ("N=268435456, K=512"), before binding; the same form as above.
inline std::string sizes_text(std::span<const size_binding> bindings, std::string_view equals = "=") {
  std::string out;
  for (const size_binding& b : bindings)
    out += (out.empty() ? "" : ", ") + std::string(b.dim.view()) + std::string(equals) + std::to_string(b.size);
  return out;
}

}  // namespace rooflint::dsl
