#pragma once
/// @file launch.h
/// How a spec's sizes are read from a launch, so that a verifier watching an unmodified program
/// (rooflint-verify -- ./program) can bind them from the launch's own arguments and grid:
///
///     __global__ void saxpy(int n, float a, const float* x, float* y);
///     __global__ void copy4(const float4* in, float4* out, int n4);
///     __global__ void row_softmax(const float* x, float* y, int cols);   // one block per row
///
///     kernel<saxpy>("saxpy", ...).sizes(N(arg<0>))             // N = n
///     kernel<copy4>("copy4", ...).sizes(N(4 * arg<2>))          // N = 4 * n4 (float4s)
///     kernel<row_softmax>("softmax", ...).sizes(R(grid_dim.x), C(arg<2>))
///     kernel<fwt>("fwt", ...).sizes(L(pow2(arg<2>)))          // L = 1 << log2N (a parameter log2N)
///
/// A source is a scalar parameter `arg<I>` (an integer parameter of the kernel, checked at compile
/// time), `grid_dim.{x,y,z}` or `block_dim.{x,y,z}`, times or divided by a positive constant
/// (`4 * arg<2>`, `arg<1> / 2`, `grid_dim.x * 8`); a parameter that holds the base-2 logarithm of a
/// size is `pow2(arg<I>)` (times or divided by a constant after the power). Every dimension of the spec is bound exactly one
/// way: read from the launch, a static size (dim<"K", 3>), derived by the operation (a convolution's
/// output size), or fixed by `.at()` (call `.at()` before `.sizes()`; a dimension that is both read and
/// given to `.at()` is read at launches, `.at()` is then the build-time size only).
///
/// The binding is data of its own (launch_binding), not a property of one __global__ function: a
/// binding has a kind and each size names the call site it is read from (`site`), so a spec of a
/// region of several kernels, or of a library call, reads its sizes the same way.

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "rooflint/dsl/name.h"
#include "rooflint/dsl/poly.h"

namespace rooflint::dsl {

/// Where a dimension's size is read at a launch.
enum class size_source : std::uint8_t {
  argument,   ///< a scalar (integer) parameter of the call, by index
  grid_dim,   ///< gridDim.{x,y,z} of the launch
  block_dim,  ///< blockDim.{x,y,z} of the launch
};

/// @return The manifest's spelling of @p s (launch_sizes[].source).
constexpr std::string_view name(size_source s) {
  switch (s) {
    case size_source::argument: return "argument";
    case size_source::grid_dim: return "grid_dim";
    case size_source::block_dim: return "block_dim";
  }
  return "unknown";
}

/// One dimension's size at a launch: value(source, index) * multiplier / divisor (exact), or with
/// power_of_two, 2^value * multiplier / divisor.
struct launch_size {
  name_t dim;
  size_source source = size_source::argument;
  std::int32_t index = -1;      ///< argument index (argument: any a kernel can have), or axis 0, 1, 2 = x, y, z (grid_dim, block_dim)
  std::int64_t multiplier = 1;  ///< > 0
  std::int64_t divisor = 1;     ///< > 0; the product must divide exactly
  std::int8_t site = 0;         ///< the call site (0: the bound kernel; a region's i-th kernel or call)
  bool power_of_two = false;    ///< the source holds the size's base-2 logarithm (pow2(arg<I>))

  /// Largest exponent pow2() reads: 2^62 still fits a size's integer.
  static constexpr std::int64_t max_exponent = 62;
  /// Products of a value and a multiplier (or divisor) past this give no size.
  static constexpr std::int64_t max_size_product = std::int64_t{1} << 62;

  /// Why a value the source holds gives no size.
  enum class refusal : std::uint8_t {
    none,
    exponent_out_of_range,  ///< pow2(): not 0 to max_exponent
    not_positive,
    past_limit,             ///< the product is past max_size_product
    not_whole,              ///< the divisor does not divide the product
  };
  struct reading {
    std::int64_t size = 0;  ///< > 0 where refused is none
    refusal refused = refusal::none;
  };
  /// @return The size a launch whose source holds @p raw gives, or why it gives none.
  constexpr reading read(std::int64_t raw) const {
    if (power_of_two) {
      if (raw < 0 || raw > max_exponent) return {0, refusal::exponent_out_of_range};
      raw = std::int64_t{1} << raw;
    }
    if (raw <= 0 || multiplier <= 0 || divisor <= 0) return {0, refusal::not_positive};
    if (raw > max_size_product / multiplier) return {0, refusal::past_limit};
    const std::int64_t scaled = raw * multiplier;
    if (scaled % divisor != 0) return {0, refusal::not_whole};
    return {scaled / divisor, refusal::none};
  }
  /// @return The size a launch whose source holds @p raw gives, or 0 where it gives none (read() says why).
  constexpr std::int64_t size_from(std::int64_t raw) const { return read(raw).size; }
  /// @return The value the source holds at a launch of size @p size: size_from's inverse, or -1 where
  /// no value gives @p size (the analyzer evaluates a kernel at the spec's sizes with it).
  constexpr std::int64_t source_value(std::int64_t size) const {
    if (size <= 0 || multiplier <= 0 || divisor <= 0 || size > max_size_product / divisor) return -1;
    if ((size * divisor) % multiplier != 0) return -1;
    const std::int64_t raw = size * divisor / multiplier;
    if (!power_of_two) return raw;
    std::int64_t exponent = 0;
    while ((std::int64_t{1} << exponent) < raw && exponent < max_exponent) ++exponent;
    return (std::int64_t{1} << exponent) == raw ? exponent : -1;
  }
};

/// What a spec is bound to at run time.
enum class binding_kind : std::uint8_t {
  none,    ///< sizes are not read from launches (harness cases bind them)
  kernel,  ///< one __global__ function: kernel<f>(...).sizes(...)
  region,  ///< a region of kernels (region.h): region<k1, k2>(...).sizes<I>(...), read at the I-th kernel (site)
};

/// @return The manifest's spelling of @p k (launch.kind).
constexpr std::string_view name(binding_kind k) {
  switch (k) {
    case binding_kind::none: return "none";
    case binding_kind::kernel: return "kernel";
    case binding_kind::region: return "region";
  }
  return "unknown";
}

/// One extent of a launch shape: ceil(numerator / divisor), the numerator a polynomial of the
/// spec's dimensions (`N`, `2 * N`) and the divisor a positive constant (`ceil_div(N, 256)`).
struct launch_extent {
  poly numerator = poly(1.0);
  std::int64_t divisor = 1;
};

/// The grid and block a kernel is written for: `.block(256).grid(ceil_div(N, 256))`. The analyzer
/// evaluates the kernel's addresses for this launch at the spec's sizes (its traffic prediction);
/// what the spec does not state, the analyzer assumes and says so.
struct launch_shape {
  std::array<launch_extent, 3> grid{};
  std::array<launch_extent, 3> block{};
  launch_extent shared{poly(0.0), 1};  ///< dynamic shared memory per block, in bytes
  int registers = 0;                   ///< registers a thread as ptxas allocates them; 0: not stated
  bool grid_stated = false;
  bool block_stated = false;
  bool shared_stated = false;
};

/// How a spec's sizes are read from what runs. Plain data: the analyzer writes it into the manifest.
struct launch_binding {
  binding_kind kind = binding_kind::none;
  std::array<launch_size, max_dims> sizes{};
  std::uint8_t size_count = 0;

  /// @return The launch size of dimension @p dim, or nullptr.
  constexpr const launch_size* find(name_t dim) const {
    for (int i = 0; i < size_count; ++i)
      if (sizes[i].dim == dim) return &sizes[i];
    return nullptr;
  }
};

/// Most parameters of a call whose values a launch provides (kernel parameters beyond are not read).
inline constexpr std::size_t max_launch_args = 64;

/// What one launch provides: its integer arguments (those that were readable) and its grid and block.
struct launch_values {
  std::array<std::int64_t, max_launch_args> args{};
  std::array<bool, max_launch_args> has_arg{};
  std::array<std::int64_t, 3> grid{1, 1, 1};
  std::array<std::int64_t, 3> block{1, 1, 1};
};

/// The raw value a launch_size reads (before multiplier and divisor); false when the launch lacks it.
constexpr bool read_source(const launch_size& s, const launch_values& v, std::int64_t& out) {
  if (s.index < 0) return false;
  const auto i = static_cast<std::size_t>(s.index);
  switch (s.source) {
    case size_source::argument:
      if (i >= max_launch_args || !v.has_arg[i]) return false;
      out = v.args[i];
      return true;
    case size_source::grid_dim:
      if (i > 2) return false;
      out = v.grid[i];
      return true;
    case size_source::block_dim:
      if (i > 2) return false;
      out = v.block[i];
      return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// The sources as they are written in a spec

/// Scalar parameter I of the kernel, optionally scaled: `arg<1>`, `4 * arg<1>`, `arg<1> / 2`, and
/// `pow2(arg<1>)` for a parameter that holds a size's base-2 logarithm.
template <int I>
struct argument_source {
  static constexpr int index = I;
  std::int64_t multiplier = 1;
  std::int64_t divisor = 1;
  bool power_of_two = false;

  constexpr launch_size size_of(name_t dim) const {
    return {dim, size_source::argument, I, multiplier, divisor, 0, power_of_two};
  }
  friend constexpr argument_source operator*(argument_source a, std::int64_t k) { return {a.multiplier * k, a.divisor, a.power_of_two}; }
  friend constexpr argument_source operator*(std::int64_t k, argument_source a) { return a * k; }
  friend constexpr argument_source operator/(argument_source a, std::int64_t k) { return {a.multiplier, a.divisor * k, a.power_of_two}; }
};

/// A size whose base-2 logarithm parameter I holds: `L(pow2(arg<2>))` for a kernel launched with
/// log2N = 11 for rows of 2048. Scaling comes after the power: `4 * pow2(arg<2>)`.
template <int I>
constexpr argument_source<I> pow2(argument_source<I> a) {
  // One line: nvcc prints the failing call's first line only.
  detail::require(!a.power_of_two && a.multiplier == 1 && a.divisor == 1, "rooflint: sizes: pow2() takes a parameter as it is: pow2(arg<2>), scaled after (4 * pow2(arg<2>))");
  a.power_of_two = true;
  return a;
}

/// One axis of gridDim or blockDim, optionally scaled: `grid_dim.x`, `block_dim.x * 4`.
struct launch_dim_source {
  size_source source = size_source::grid_dim;
  std::int8_t axis = 0;
  std::int64_t multiplier = 1;
  std::int64_t divisor = 1;

  constexpr launch_size size_of(name_t dim) const { return {dim, source, axis, multiplier, divisor, 0}; }
  friend constexpr launch_dim_source operator*(launch_dim_source a, std::int64_t k) {
    a.multiplier *= k;
    return a;
  }
  friend constexpr launch_dim_source operator*(std::int64_t k, launch_dim_source a) { return a * k; }
  friend constexpr launch_dim_source operator/(launch_dim_source a, std::int64_t k) {
    a.divisor *= k;
    return a;
  }
};

/// gridDim or blockDim of a launch, by axis.
struct launch_dim3_source {
  launch_dim_source x, y, z;
};

template <int I>
inline constexpr argument_source<I> arg{};
inline constexpr launch_dim3_source grid_dim{{size_source::grid_dim, 0}, {size_source::grid_dim, 1}, {size_source::grid_dim, 2}};
inline constexpr launch_dim3_source block_dim{{size_source::block_dim, 0}, {size_source::block_dim, 1}, {size_source::block_dim, 2}};

namespace detail {
template <class T> struct is_argument_source : std::false_type {};
template <int I> struct is_argument_source<argument_source<I>> : std::true_type {};
}  // namespace detail

/// Something a dimension's size can be read from at a launch.
template <class T>
concept LaunchSource = detail::is_argument_source<T>::value || std::is_same_v<T, launch_dim_source>;

/// A dimension (DimType: its dim<Name, Size> base) read from Source at a launch: what `N(arg<0>)` returns.
template <class DimType, class Source>
struct launch_size_of {
  using dim_type = DimType;
  using source_type = Source;
  launch_size value;
};

template <class T> struct is_launch_size_of : std::false_type {};
template <class D, class S> struct is_launch_size_of<launch_size_of<D, S>> : std::true_type {};

/// An entry of spec.sizes(...): N(arg<0>), R(grid_dim.x).
template <class T>
concept LaunchSize = is_launch_size_of<T>::value;

}  // namespace rooflint::dsl
