#pragma once
/// @file spec.h
/// The value a spec evaluates to: plain constexpr data (names, dimensions, tensors, polynomials),
/// which the compiler checks, the analyzer reads through Clang's constant evaluator, and the runtime
/// evaluates at the sizes of a launch. kernel.h builds it; nothing here knows the kernel's type.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "rooflint/dsl/launch.h"
#include "rooflint/dsl/operation.h"
#include "rooflint/model/roofline.h"

namespace rooflint::dsl {

inline constexpr std::size_t max_tensors = 8;

/// A dimension of a spec and the sizes known at compile time (0 = none).
struct dim_info {
  name_t name;
  double static_size = 0;    ///< from dim<"N", size>
  double declared_size = 0;  ///< from spec.at(N(size)): the size build-time verdicts use
  /// A compile-time error that names this dimension's tag in the compiler's message
  /// (detail::dimension_without_size<N>); null for a dimension read back from a manifest.
  void (*no_size)(const char*) = nullptr;
};

/// A tensor of a spec, with its shape as indices into spec::dims.
struct tensor_info {
  name_t name;
  model::dtype dtype = model::dtype::f32;
  role access = role::read;
  std::int32_t arg = -1;                       ///< kernel parameter index: any a kernel can have (-1: none)
  std::uint8_t rank = 0;
  std::array<std::int8_t, max_rank> shape{};   ///< dims[shape[i]] is the i-th dimension
  poly elements;                               ///< elements that count towards compulsory bytes
  bool partial = false;                        ///< elements is a part, stated by touches()
  bool extra = false;                          ///< an extra tensor of the operation (operation::with)
  /// Elements from the first element of parameter `arg` to this tensor's first element, a polynomial of
  /// the spec's dimensions: where a slice of a shared buffer starts (tensor_ref::slice; packed Q, K and V
  /// at 0, NH*HS and 2*NH*HS); 0 for a tensor that is its parameter's whole buffer.
  poly offset;
  bool sliced = false;                          ///< one of possibly several tensors in its parameter's buffer
  /// How its values are distributed, when it holds indices (tensor_ref::indices), and the dimension
  /// that bounds them (an index into dims; -1: none).
  index_distribution indices = index_distribution::unstated;
  std::int8_t index_bound = -1;
};

/// What the user expects of the kernel; checked by the analyzer (bound) and the verifier (all).
enum class expected_bound : std::uint8_t { any, memory, compute };

/// @return The verdict @p e asks for (memory_bound: model::bound::memory, compute_bound:
/// model::bound::compute), or nullopt for `any`: nothing to check.
constexpr std::optional<model::bound> expected_verdict(expected_bound e) {
  if (e == expected_bound::memory) return model::bound::memory;
  if (e == expected_bound::compute) return model::bound::compute;
  return std::nullopt;
}

struct expectations {
  expected_bound bound = expected_bound::any;
  double max_traffic_ratio = 0;      ///< largest acceptable observed / compulsory bytes; 0 = the verifier's default
  double min_roofline_fraction = 0;  ///< smallest acceptable t_min / t_measured, 0..1; 0 = none
};

/// How ideal FLOPs are counted. Default: torch.utils.flop_counter (elementwise-like work is 0 FLOP,
/// causal attention is not halved), so figures compare with KernelBench-style floors.
struct flop_convention {
  bool count_elementwise = false;  ///< count elementwise, reduction, softmax and layernorm FLOPs
  bool halve_causal = false;       ///< count causal attention as half the dense FLOPs
};

/// Sizes of a spec's dimensions, aligned with spec::dims; 0 means not bound.
struct sizes {
  std::array<double, max_dims> values{};
  constexpr double operator[](std::size_t i) const { return values[i]; }
};

/// The outcome of binding sizes: the sizes, or the first problem by dimension name.
struct binding_result {
  sizes bound;
  name_t missing;    ///< a dimension with no size
  name_t unknown;    ///< a binding that names no dimension of the spec
  name_t violated;   ///< a dimension whose size contradicts a derived size or a constraint
  name_t too_large;  ///< a tensor whose touched part (touches()) is larger than the tensor at these sizes
  constexpr bool ok() const { return missing.empty() && unknown.empty() && violated.empty() && too_large.empty(); }
};

/// Most kernels of one region (region.h).
inline constexpr std::size_t max_region_kernels = 8;

/// How a region names one of its kernels: by its function (the analyzer finds the declaration and
/// its symbol), or by a substring of a library kernel's symbol (library_kernel<"gemm">).
enum class kernel_match : std::uint8_t { function, library };

struct region_kernel {
  kernel_match match = kernel_match::function;
  name_t pattern;  ///< library: the substring of the symbol; function: empty
};

/// The kernels of a region, in launch order; kernel_count 0: the spec is bound to one kernel.
struct region_info {
  std::array<region_kernel, max_region_kernels> kernels{};
  std::uint8_t kernel_count = 0;
  constexpr bool is_region() const { return kernel_count > 0; }
};

/// A kernel's (or a region's) spec as data.
struct spec {
  name_t kernel_name;
  op_info op;
  std::array<dim_info, max_dims> dims{};
  std::uint8_t dim_count = 0;
  std::array<tensor_info, max_tensors> tensors{};
  std::uint8_t tensor_count = 0;
  flop_convention convention{};
  model::math_mode mode = model::math_mode::fp32_simt;  ///< the compute roof (model::math_mode_by_operation unless chosen)
  bool mode_chosen = false;  ///< the spec chose `mode` with .math(); otherwise the rule by operation set it
  expectations expected{};
  poly flops;          ///< ideal FLOPs under the convention (FLOP), over dims
  poly read_bytes;     ///< compulsory bytes read (bytes), over dims
  poly written_bytes;  ///< compulsory bytes written (bytes), over dims
  launch_binding launch{};  ///< how sizes are read from launches (kernel_spec::sizes); kind none: not read
  launch_shape shape{};     ///< the grid and block the kernel is written for (kernel_spec::launch)
  size_table size_terms{};  ///< min, max and ceil_div terms: dimensions of their own, derived when binding
  region_info region{};     ///< the kernels of a region (region.h); empty for a spec of one kernel

  /// @return Kernel launches one run of the spec makes: the region's kernels, or 1.
  constexpr int launches() const { return region.is_region() ? region.kernel_count : 1; }

  constexpr std::span<const dim_info> dim_list() const { return {dims.data(), dim_count}; }
  constexpr std::span<const tensor_info> tensor_list() const { return {tensors.data(), tensor_count}; }

  /// @return Index of the dimension named @p n, or -1.
  constexpr int dim_index(name_t n) const {
    for (int i = 0; i < dim_count; ++i)
      if (dims[i].name == n) return i;
    return -1;
  }

  /// @return Compulsory bytes, read + written (bytes), over dims.
  constexpr poly bytes() const { return read_bytes + written_bytes; }

  /// @return Ideal FLOPs under the convention.
  constexpr poly flops_by_convention() const {
    if (op.zero_under_torch && !convention.count_elementwise) return poly{};
    if (op.causal && convention.halve_causal) return op.flops * poly(0.5);
    return op.flops;
  }

  /// Binds sizes: static sizes, then @p given, then derived sizes, then the constraints. A size that is
  /// not in 1..max_size, or a dimension given twice, is `violated`.
  constexpr binding_result bind(std::span<const size_binding> given) const {
    binding_result r;
    for (int i = 0; i < dim_count; ++i) r.bound.values[i] = dims[i].static_size;
    std::array<bool, max_dims> seen{};
    for (const auto& b : given) {
      const int i = dim_index(b.dim);
      if (i < 0) { if (r.unknown.empty()) r.unknown = b.dim; continue; }
      const bool twice = seen[i];
      seen[i] = true;
      if (twice || b.size <= 0 || b.size > max_size ||
          (dims[i].static_size > 0 && dims[i].static_size != static_cast<double>(b.size))) {
        if (r.violated.empty()) r.violated = b.dim;
        continue;
      }
      r.bound.values[i] = static_cast<double>(b.size);
    }
    derive(r);
    // A dimension given a size first: a min/max/ceil_div term has none only because an operand has none.
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < dim_count; ++i)
        if (r.bound.values[i] <= 0 && r.missing.empty() && (size_terms.index_of(dims[i].name) >= 0) == (pass == 1))
          r.missing = dims[i].name;
    if (r.ok()) check_touched(r);
    return r;
  }

  /// Binds sizes given as M(4096), N(512), ...; the same dimension twice does not compile.
  template <class... B>
  constexpr binding_result bind(B... given) const {
    static_assert(detail::distinct_dimensions<B...>(), "rooflint: bind: a dimension is given twice");
    const std::array<size_binding, sizeof...(B)> list{given...};
    return bind(std::span<const size_binding>(list.data(), list.size()));
  }

  /// @return The sizes declared for build-time verdicts (spec.at(...)) and the static ones.
  constexpr binding_result declared() const {
    std::array<size_binding, max_dims> list{};
    std::size_t n = 0;
    for (int i = 0; i < dim_count; ++i)
      if (dims[i].declared_size > 0) list[n++] = {dims[i].name, static_cast<std::int64_t>(dims[i].declared_size)};
    return bind(std::span<const size_binding>(list.data(), n));
  }

  /// Binds sizes from one launch: each launch size read from @p v (launch_size::size_from: times its
  /// multiplier, divided exactly by its divisor), the other dimensions from their .at() sizes, then as
  /// bind() does.
  /// A launch size that cannot be read, is not positive or does not divide exactly is `violated`
  /// (or `missing` when the launch lacks the value); launch_size_for() says where it was read.
  constexpr binding_result bind_launch(const launch_values& v) const {
    std::array<size_binding, max_dims> list{};
    std::size_t n = 0;
    binding_result failed;
    for (int i = 0; i < dim_count; ++i) {
      if (const launch_size* l = launch.find(dims[i].name)) {
        std::int64_t raw = 0;
        if (!read_source(*l, v, raw)) {
          if (failed.missing.empty()) failed.missing = dims[i].name;
          continue;
        }
        const std::int64_t size = l->size_from(raw);
        if (size <= 0) {
          if (failed.violated.empty()) failed.violated = dims[i].name;
          continue;
        }
        list[n++] = {dims[i].name, size};
      } else if (dims[i].declared_size > 0) {
        list[n++] = {dims[i].name, static_cast<std::int64_t>(dims[i].declared_size)};
      }
    }
    binding_result r = bind(std::span<const size_binding>(list.data(), n));
    if (!failed.missing.empty()) r.missing = failed.missing;
    if (!failed.violated.empty()) {
      r.violated = failed.violated;
      if (r.missing == failed.violated) r.missing = name_t{};  // it has no size because it did not bind
    }
    return r;
  }

  constexpr double flops_at(const sizes& s) const { return flops.evaluate(s.values); }
  constexpr double read_bytes_at(const sizes& s) const { return read_bytes.evaluate(s.values); }
  constexpr double written_bytes_at(const sizes& s) const { return written_bytes.evaluate(s.values); }
  constexpr double bytes_at(const sizes& s) const { return read_bytes_at(s) + written_bytes_at(s); }
  /// @p p, a polynomial over dimensions by name (a tensor's, in its own order), at @p s; a dimension
  /// the spec lacks is 0.
  constexpr double value_at(const poly& p, const sizes& s) const {
    return p.evaluate_by_name([&](name_t n) { const int i = dim_index(n); return i >= 0 ? s.values[static_cast<std::size_t>(i)] : 0.0; });
  }
  /// One tensor's compulsory bytes at @p s: its elements times its dtype's size, twice for a tensor
  /// read and written.
  constexpr double tensor_bytes_at(const tensor_info& t, const sizes& s) const {
    return value_at(t.elements, s) * static_cast<double>(model::size_bytes(t.dtype)) * (t.access == role::read_write ? 2 : 1);
  }
  constexpr model::workload workload_at(const sizes& s) const { return {flops_at(s), bytes_at(s), mode}; }

 private:
  /// A touched part larger than its tensor at the bound sizes is `too_large` (by tensor name).
  constexpr void check_touched(binding_result& r) const {
    const auto size_of = [&](name_t n) { const int i = dim_index(n); return i >= 0 ? r.bound.values[i] : 0.0; };
    for (const tensor_info& t : tensor_list()) {
      if (!t.partial) continue;
      double all = 1;
      for (int d = 0; d < t.rank; ++d) all *= r.bound.values[static_cast<std::size_t>(t.shape[d])];
      if (t.elements.evaluate_by_name(size_of) > all && r.too_large.empty()) r.too_large = t.name;
    }
  }

  /// Fills the min, max and ceil_div terms (in their table's order: operands first) from their operands.
  constexpr void derive_terms(binding_result& r) const {
    const auto size_of = [&](name_t n) { const int i = dim_index(n); return i >= 0 ? r.bound.values[i] : 0.0; };
    for (int t = 0; t < size_terms.count; ++t) {
      const size_term& term = size_terms.terms[t];
      const int out = dim_index(term.name);
      if (out < 0) continue;
      const double a = term.lhs.evaluate_by_name(size_of), b = term.rhs.evaluate_by_name(size_of);
      bool bound = true;  // an operand with an unbound (0) dimension gives the term no size
      for (const poly* p : {&term.lhs, &term.rhs})
        for (int d = 0; d < p->dim_count; ++d)
          bound = bound && (!p->uses(d) || size_of(p->dims[d]) > 0);
      if (!bound) continue;  // no size from its operands (a size given to it stays; the operands are missing)
      const double size = term.apply(a, b);
      if (size <= 0 || size > static_cast<double>(max_size) || (r.bound.values[out] > 0 && r.bound.values[out] != size)) {
        if (r.violated.empty()) r.violated = term.name;
        continue;
      }
      r.bound.values[out] = size;
    }
  }

  /// Fills derived dimensions (convolution output sizes, min/max/ceil_div terms) and checks given
  /// ones and the constraints.
  constexpr void derive(binding_result& r) const {
    for (int d = 0; d < op.derived_count; ++d) {
      const derived_dim& rule = op.derived[d];
      const int out = dim_index(rule.name), src = dim_index(rule.source), win = dim_index(rule.window);
      if (out < 0 || src < 0 || win < 0 || r.bound.values[src] <= 0 || r.bound.values[win] <= 0) continue;
      // In doubles: sizes and options are at most 2^53 (max_size), so nothing overflows, and a span
      // past max_size gives no valid size anyway.
      const double span = r.bound.values[src] + 2 * static_cast<double>(rule.padding) -
                          static_cast<double>(rule.dilation) * (r.bound.values[win] - 1) - 1;
      const double size = span < 0 || span > static_cast<double>(max_size)
                              ? 0 : static_cast<double>(static_cast<std::int64_t>(span) / rule.stride + 1);
      if (size <= 0 || (r.bound.values[out] > 0 && r.bound.values[out] != size)) {
        if (r.violated.empty()) r.violated = rule.name;
        continue;
      }
      r.bound.values[out] = size;
    }
    derive_terms(r);
    for (int c = 0; c < op.constraint_count; ++c) {
      const size_constraint& k = op.constraints[c];
      const int l = dim_index(k.lhs), h = dim_index(k.rhs);
      if (l < 0 || h < 0 || r.bound.values[l] <= 0 || r.bound.values[h] <= 0) continue;
      if (r.bound.values[l] * static_cast<double>(k.factor) != r.bound.values[h] && r.violated.empty())
        r.violated = k.rhs;
    }
  }
};

}  // namespace rooflint::dsl
