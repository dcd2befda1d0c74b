#pragma once
/// @file kernel.h
/// Binding a spec to its __global__ function, checked against the function's signature:
///
///     __global__ void saxpy(int n, float a, const float* x, float* y);
///
///     inline constexpr auto saxpy_spec =
///         rooflint::dsl::kernel<saxpy>("saxpy",
///             elementwise(2, in<2>("x", f32, N),      // x: (N)
///                            inout<3>("y", f32, N)))  // y: (N)
///             .at(N(1 << 26))
///             .expect(memory_bound);
///
/// Compile-time checks: the argument index is a parameter of the kernel; that parameter is a pointer
/// whose element type can hold the tensor's dtype (the message says which dtypes it holds); a written
/// tensor is not bound to a pointer to const; no parameter is bound twice, except by parts of it
/// (tensor_ref::slice); names are short and distinct. Each check is a require() in a constexpr builder,
/// evaluated where the spec initialises its constexpr variable, so a misuse is reported at the spec, the
/// user's line. The builders are constexpr, not consteval: clang evaluates every consteval call of a
/// chain (`kernel<f>(...).at(...).block(...)`) as a constant expression of its own, the whole chain
/// before it again each time (six evaluations of a five-call spec, 5x the compile time, measured).
///
/// `.sizes(N(arg<0>))` states how each size is read from a launch (launch.h), or defined by others
/// (`HS(C / NH)`); the parameter must be an integer, and every dimension is bound exactly one way.
/// An overloaded kernel is named with its function type: `kernel<void(const float*, float*), f>`.

#include <array>
#include <limits>
#include <tuple>
#include <type_traits>

#include "rooflint/dsl/spec.h"

namespace rooflint::dsl {

inline constexpr expected_bound memory_bound = expected_bound::memory;

/// The argument index a region's tensor carries in its type (`in("x", f32, N)`, region.h): it names no
/// parameter, and kernel<f>(...) refuses it. The largest int, which no kernel's parameter index reaches
/// (CUDA passes at most 32764 bytes of parameters), so `in<127>` is an ordinary parameter.
inline constexpr int region_tensor_arg = std::numeric_limits<int>::max();
inline constexpr expected_bound compute_bound = expected_bound::compute;

namespace detail {

template <class F> struct kernel_params;
template <class... Ps> struct kernel_params<void (*)(Ps...)> { using type = std::tuple<Ps...>; };
template <class... Ps> struct kernel_params<void (*)(Ps...) noexcept> { using type = std::tuple<Ps...>; };

/// Stands in for a parameter that does not exist (an index out of range): not a pointer, so the
/// checks after the index check pass and the index error stays the only one.
struct no_parameter {};

/// The type of parameter I, or no_parameter.
template <int I, class Params, bool = (I < static_cast<int>(std::tuple_size_v<Params>))>
struct param_at { using type = no_parameter; };
template <int I, class Params>
struct param_at<I, Params, true> { using type = std::tuple_element_t<I, Params>; };

/// Checks that element type E (cv-unqualified) holds dtype D. The message says which dtypes E holds,
/// one literal per kind of storage type (each on the line of its require(): nvcc prints that line).
template <class E, dtype D>
constexpr void check_storage() {
  constexpr unsigned holds = storage_dtypes<E>::value;
  constexpr bool ok = (holds & dtype_bit(D)) != 0;
  if constexpr (holds == 0) require(ok, "rooflint: kernel: the element type of the tensor's pointer parameter holds no dtype (char, bool, short and types without a storage_dtypes specialisation hold none); see the dtypes each type holds in docs/dsl.md");
  else if constexpr (holds == (dtype_bit(dtype::f32) | dtype_bit(dtype::tf32))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds f32 or tf32 (float, float2, float3, float4)");
  else if constexpr (holds == (dtype_bit(dtype::f64))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds f64 (double, double2, double3)");
  else if constexpr (holds == (dtype_bit(dtype::f16))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds f16 (__half, __half2)");
  else if constexpr (holds == (dtype_bit(dtype::bf16))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds bf16 (__nv_bfloat16, __nv_bfloat162)");
  else if constexpr (holds == (dtype_bit(dtype::fp8_e4m3))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds fp8_e4m3 (__nv_fp8_e4m3, __nv_fp8x2_e4m3, __nv_fp8x4_e4m3)");
  else if constexpr (holds == (dtype_bit(dtype::fp8_e5m2))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds fp8_e5m2 (__nv_fp8_e5m2, __nv_fp8x2_e5m2, __nv_fp8x4_e5m2)");
  else if constexpr (holds == (dtype_bit(dtype::i8))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds i8 (std::int8_t, signed char, char2, char4)");
  else if constexpr (holds == (dtype_bit(dtype::u8))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u8 (std::uint8_t, unsigned char, uchar2, uchar4; fp8 data needs __nv_fp8_e4m3 or __nv_fp8_e5m2)");
  else if constexpr (holds == (dtype_bit(dtype::u16))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u16 (std::uint16_t, unsigned short)");
  else if constexpr (holds == (dtype_bit(dtype::i32))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds i32 (int, std::int32_t, int2, int3, int4)");
  else if constexpr (holds == (dtype_bit(dtype::u32))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u32 (unsigned int, std::uint32_t, uint2, uint3, uint4)");
  else if constexpr (holds == (dtype_bit(dtype::i64))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds i64 (std::int64_t, long long, longlong2)");
  else if constexpr (holds == (dtype_bit(dtype::u64))) require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u64 (std::uint64_t, unsigned long long, ulonglong2)");
  else require(ok, "rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter (not one of the dtypes its storage_dtypes specialisation lists)");
}

/// Checks one tensor (or uncounted pointer) B against kernel Kernel's parameter list: the index is a
/// parameter, the parameter a pointer whose element type holds the tensor's dtype, and a written tensor's
/// pointer not to const. A function template evaluated by kernel(), so the error is reported at the
/// spec (the user's line) and the compiler's notes name the kernel and the tensor (index, dtype, role,
/// shape): "in call to 'check_binding<&sgemm, tensor_ref<1, f16, read, K, N>>()'".
template <auto Kernel, class B, class Params = typename kernel_params<decltype(Kernel)>::type>
constexpr void check_binding() {
  require(B::arg == region_tensor_arg || B::arg < static_cast<int>(std::tuple_size_v<Params>), "rooflint: kernel: a tensor's argument index is past the kernel's last parameter");
  using parameter = typename param_at<(B::arg == region_tensor_arg ? 1 << 20 : B::arg), Params>::type;
  require(std::is_pointer_v<parameter> || std::is_same_v<parameter, no_parameter>, "rooflint: kernel: a tensor must be bound to a pointer parameter");
  if constexpr (std::is_pointer_v<parameter>) {
    using element = std::remove_pointer_t<parameter>;
    if constexpr (Tensor<B>) check_storage<std::remove_cv_t<element>, B::element>();
    require(!(Written<B> && std::is_const_v<element>), "rooflint: kernel: a written tensor is bound to a pointer to const");
  }
}

/// The shape of a tensor, or no dimensions for an uncounted pointer.
template <class B> struct shape_of { using type = type_list<>; };
template <Tensor T> struct shape_of<T> { using type = typename T::shape; };


/// Some dimension tag other than A has A's name.
template <class A, class... Ds>
constexpr bool name_taken_by_other() {
  return ((!std::is_same_v<A, Ds> && A::name.view() == Ds::name.view()) || ...);
}

/// No two different dimension tags of the list share a name. A spec identifies dimensions by name,
/// so two tags named "N" (from two headers, say) would silently become one dimension.
template <class... Ds>
constexpr bool dim_names_distinct(type_list<Ds...>) {
  return !(name_taken_by_other<Ds, Ds...>() || ...);
}

template <int... Args>
constexpr bool distinct() {
  constexpr int args[] = {Args...};
  for (std::size_t i = 0; i < sizeof...(Args); ++i)
    for (std::size_t j = i + 1; j < sizeof...(Args); ++j)
      if (args[i] == args[j]) return false;
  return true;
}

/// Tensors that share a kernel parameter are all slices of it (tensor_ref::slice): Q, K and V of one
/// packed buffer. An uncounted pointer shares its parameter with nothing.
template <class... Ts, class... Extra>
constexpr bool shared_parameters_sliced(const operation<Ts...>& op, const Extra&... extra) {
  constexpr int count = static_cast<int>(sizeof...(Ts) + sizeof...(Extra));
  std::array<int, count + 1> args{};
  std::array<bool, count + 1> sliced{};
  int n = 0;
  const auto add = [&]<class T>(const T& t) {
    args[n] = T::arg;
    if constexpr (Tensor<T>) sliced[n] = t.sliced;
    ++n;
  };
  std::apply([&](const auto&... t) { (add(t), ...); }, op.tensors);
  (add(extra), ...);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (args[i] == args[j] && !(sliced[i] && sliced[j])) return false;
  return true;
}

/// No two slices of one parameter start at the same element (the same offset polynomial).
template <class... Ts>
constexpr bool slice_offsets_distinct(const operation<Ts...>& op) {
  std::array<int, sizeof...(Ts) + 1> args{};
  std::array<bool, sizeof...(Ts) + 1> sliced{};
  std::array<poly, sizeof...(Ts) + 1> offsets{};
  int n = 0;
  const auto add = [&]<class T>(const T& t) {  // an uncounted parameter among them (a misuse said elsewhere) is no slice
    args[n] = T::arg;
    if constexpr (Tensor<T>) {
      sliced[n] = t.sliced;
      offsets[n] = t.offset;
    }
    ++n;
  };
  std::apply([&](const auto&... t) { (add(t), ...); }, op.tensors);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (sliced[i] && sliced[j] && args[i] == args[j] && (offsets[i] - offsets[j]).is_zero()) return false;
  return true;
}

template <Tensor T>
constexpr tensor_info tensor_info_of(const T& t) {
  tensor_info info;
  info.name = t.name;
  info.dtype = T::element;
  info.access = T::access;
  info.arg = T::arg;
  info.rank = static_cast<std::uint8_t>(T::rank);
  info.elements = t.touched;
  info.partial = t.partial;
  info.extra = t.extra;
  info.offset = t.offset;
  info.sliced = t.sliced;
  return info;
}

/// Never constexpr, like compile_time_error: calling it in a constant expression is the error, and the
/// compiler names the function with its template argument, the dimension left without a size
/// ("dimension_without_size<B>", "[with D = B]").
template <class D>
inline void dimension_without_size(const char* /*message*/) {}

/// Collects the dimension tags of T's shape into s.dims (in order of first appearance) and sets info.shape.
template <Tensor T>
constexpr void collect_dims(spec& s, tensor_info& info) {
  std::size_t i = 0;
  [&]<class... Ds>(type_list<Ds...>) {
    ([&] {
      const name_t n = dim_name<Ds>();
      int at = s.dim_index(n);
      if (at < 0) {
        require(s.dim_count < max_dims, "rooflint: kernel: a spec has at most 16 dimensions");
        at = s.dim_count++;
        s.dims[at].name = n;
      }
      // Also for a dimension first met in a polynomial (the FLOP count, a touched part), which has no static size.
      if (Ds::static_size > 0) s.dims[at].static_size = static_cast<double>(Ds::static_size);
#if !defined(__CUDA_ARCH__)  // a host function's address does not exist in device code (nvcc's device pass)
      s.dims[at].no_size = &dimension_without_size<Ds>;
#endif
      if (i < max_rank) info.shape[i++] = static_cast<std::int8_t>(at);  // past it: tensor_ref's static_assert says so
    }(), ...);
  }(typename T::shape{});
}

/// Adds dimensions that appear only in a polynomial (a custom FLOP count, a touched part).
constexpr void collect_dims(spec& s, const poly& p) {
  for (int d = 0; d < p.dim_count; ++d)
    if (s.dim_index(p.dims[d]) < 0) {
      require(s.dim_count < max_dims, "rooflint: kernel: a spec has at most 16 dimensions");
      s.dims[s.dim_count++].name = p.dims[d];
    }
}

constexpr std::array<name_t, max_dims> dim_names(const spec& s) {
  std::array<name_t, max_dims> names{};
  for (int i = 0; i < s.dim_count; ++i) names[i] = s.dims[i].name;
  return names;
}

/// Checks that a size read from a launch names an integer parameter of Kernel (arguments), or
/// nothing (grid and block dimensions). A function template evaluated by sizes(), so the error is
/// reported at the spec and the note names the kernel and the source.
template <auto Kernel, class Source, class Params = typename kernel_params<decltype(Kernel)>::type>
constexpr void check_size_source() {
  if constexpr (is_argument_source<Source>::value) {
    constexpr int I = Source::index;
    require(I >= 0, "rooflint: sizes: the argument index must not be negative");
    require(I < static_cast<int>(std::tuple_size_v<Params>), "rooflint: sizes: a size's argument index is past the kernel's last parameter");
    using parameter = std::remove_cv_t<typename param_at<(I < 0 ? 0 : I), Params>::type>;
    require(std::is_same_v<parameter, no_parameter> || (std::is_integral_v<parameter> && !std::is_same_v<parameter, bool>), "rooflint: sizes: a size must be read from an integer parameter (not a pointer, float or bool)");
  }
}

/// @return Whether @p p is the single variable @p n.
constexpr bool is_variable(const poly& p, name_t n) {
  return p.term_count == 1 && p.terms[0].coefficient == 1 && p.dim_count >= 1 && p.index_of(n) >= 0 &&
         p.terms[0].exponents[p.index_of(n)] == 1 && p.uses(p.index_of(n));
}

/// A dimension defined by an expression (`HS(C / NH)`, `N(B * T)`) as a size term named by the
/// dimension: an expression that is one min, max, ceil_div or div term is that term renamed; any other
/// (a polynomial: B * T) is div(expression, 1).
constexpr size_table defining_terms(name_t dim, const size_expr& e) {
  size_table out = e.sizes;
  const bool one_term = e.sizes.count > 0 && is_variable(e.value, e.sizes.terms[e.sizes.count - 1].name);
  if (one_term) {
    out.terms[out.count - 1].name = dim;
  } else {
    require(out.count < static_cast<int>(max_size_terms), "rooflint: sizes: a spec has at most 4 min, max, ceil_div and div terms, defined dimensions included");
    if (out.count < static_cast<int>(max_size_terms)) out.terms[out.count++] = size_term{dim, size_op::div, e.value, poly(1.0)};
  }
  return out;
}

/// No two entries of one sizes() call read the same dimension.
template <class... Ds>
constexpr bool dims_distinct() { return ((count_of<Ds, Ds...>() == 1) && ...); }

/// Recomputes the spec's FLOP and byte polynomials over its dimension table.
constexpr void refresh(spec& s) {
  const auto names = dim_names(s);
  s.flops = s.flops_by_convention().reindexed(names, s.dim_count);
  poly read, written;
  for (const auto& t : s.tensor_list()) {
    const poly bytes = t.elements * poly(static_cast<double>(model::size_bytes(t.dtype)));
    if (t.access == role::read || t.access == role::read_write) read = read + bytes;
    if (t.access == role::write || t.access == role::read_write) written = written + bytes;
  }
  s.read_bytes = read.reindexed(names, s.dim_count);
  s.written_bytes = written.reindexed(names, s.dim_count);
}

/// A dimension read from the launch and given a build-time size by .at(): the size must be one its
/// source can give (a power of two for pow2(), a whole multiple of a multiplier), else the analyzer
/// has no value of the parameter to evaluate the kernel with. Called by .at() and .sizes(), in either order.
constexpr void check_declared_sizes_readable(const spec& s) {
  for (int i = 0; i < s.launch.size_count; ++i) {
    const launch_size& l = s.launch.sizes[static_cast<std::size_t>(i)];
    const int d = s.dim_index(l.dim);
    if (d < 0 || s.dims[static_cast<std::size_t>(d)].declared_size <= 0) continue;
    const auto declared = static_cast<std::int64_t>(s.dims[static_cast<std::size_t>(d)].declared_size);
    require(l.source_value(declared) >= 0, "rooflint: sizes: a dimension's .at() size is not one its launch source can give (a power of two for pow2(arg<I>), a whole multiple of a multiplier)");
  }
}

/// The counts at the declared sizes @p at: finite (a FLOP count of 1e300*N*N overflows a double at
/// N = 2^30), not negative, and no touched part larger than its tensor.
constexpr void check_counts_at(const spec& s, const sizes& at) {
  require(s.flops.evaluates_finite(at.values), "rooflint: at: the FLOP count overflows a double at these sizes");
  require(s.read_bytes.evaluates_finite(at.values) && s.written_bytes.evaluates_finite(at.values), "rooflint: at: the compulsory bytes overflow a double at these sizes");
  if (!s.flops.evaluates_finite(at.values)) return;
  require(s.flops_at(at) >= 0, "rooflint: at: the FLOP count is negative at these sizes");
  for (const tensor_info& t : s.tensor_list()) {
    if (!t.partial) continue;
    double all = 1;
    for (int d = 0; d < t.rank; ++d) all *= at[static_cast<std::size_t>(t.shape[d])];
    const poly touched = t.elements.reindexed(dim_names(s), s.dim_count);
    if (!touched.evaluates_finite(at.values)) continue;  // the bytes check above said so
    const double part = touched.evaluate(at.values);
    require(part > 0, "rooflint: at: the touched part of a tensor is not positive at these sizes");
    require(part <= all, "rooflint: at: the touched part of a tensor is larger than the tensor at these sizes");
  }
}

/// What kernel() and region() take from an operation besides its tensors: its min/max/ceil_div terms,
/// the check that a matrix product mixing operand dtypes states its precision, and a stated precision's
/// roof (by its compute dtype). @return Whether the precision chose the math mode (else the first read
/// tensor's dtype does).
template <class... Ts>
constexpr bool take_operation(spec& s, const operation<Ts...>& op) {
  s.size_terms.merge(op.sizes);
  require(!op.mixed_operands || op.info.precision_stated || op.info.kind != op_kind::matmul, "rooflint: matmul: lhs and rhs have different dtypes (state the precision: matmul(...).precision(f16, f32))");
  require(!op.mixed_operands || op.info.precision_stated || op.info.kind != op_kind::bmm, "rooflint: bmm: lhs and rhs have different dtypes (state the precision: bmm(...).precision(f16, f32))");
  require(!op.mixed_operands || op.info.precision_stated || op.info.kind != op_kind::addmm, "rooflint: addmm: lhs and rhs have different dtypes (state the precision: addmm(...).precision(f16, f32))");
  require(!op.mixed_operands || op.info.precision_stated || op.info.kind != op_kind::linear, "rooflint: linear: X and W have different dtypes (state the precision: linear(...).precision(f16, f32))");
  if (op.info.precision_stated) s.mode = model::math_mode_by_operation(op.info.compute, is_contraction(op.info.kind));
  return op.info.precision_stated;
}

/// Each size term is a dimension of the spec, also one used only inside another term's operand.
constexpr void add_size_term_dims(spec& s) {
  for (int t = 0; t < s.size_terms.count; ++t) collect_dims(s, poly::variable(s.size_terms.terms[t].name));
}

/// @return Whether dimension @p d of @p s is in the shape of one of its tensors.
constexpr bool in_some_shape(const spec& s, int d) {
  for (const auto& t : s.tensor_list())
    for (int i = 0; i < t.rank; ++i)
      if (t.shape[i] == d) return true;
  return false;
}

/// Every dimension of the spec is a dimension of some tensor: one that only a touched part names is
/// a size nothing else fixes (the FLOP count of custom() is checked where it is given).
constexpr void check_dims_in_tensors(const spec& s) {
  for (int d = 0; d < s.dim_count; ++d) {
    if (s.size_terms.index_of(s.dims[d].name) >= 0) continue;  // a min/max/ceil_div term: its operands are checked below
    bool found = false;
    for (const tensor_info& t : s.tensor_list())
      for (int i = 0; i < t.rank; ++i) found = found || t.shape[i] == d;
    require(found, "rooflint: touches: the touched part uses a dimension that no tensor has");
  }
  for (int t = 0; t < s.size_terms.count; ++t)
    for (const poly* p : {&s.size_terms.terms[t].lhs, &s.size_terms.terms[t].rhs})
      for (int d = 0; d < p->dim_count; ++d)
        require(!p->uses(d) || s.dim_index(p->dims[d]) >= 0, "rooflint: touches: the touched part uses a dimension that no tensor has");
}

/// @return The constant value of @p p, or 0 when it is not a constant.
constexpr double constant_of(const poly& p) {
  if (p.term_count == 0) return 0;
  return p.term_count == 1 && p.terms[0].is_constant() ? p.terms[0].coefficient : 0;
}

/// A grid extent or a block's dynamic shared memory (@p shared): a polynomial of the spec's dimensions, or
/// ceil_div of one by a positive constant.
constexpr launch_extent extent_of(const spec& s, const size_expr& e, bool shared = false) {
  launch_extent out;
  poly numerator = e.value;
  if (e.sizes.count > 0) {
    const size_term& t = e.sizes.terms[e.sizes.count - 1];
    const double d = constant_of(t.rhs);
    const bool tiles = e.sizes.count == 1 && t.op == size_op::ceil_div && is_variable(e.value, t.name) && d >= 1 &&
                       d == static_cast<double>(static_cast<std::int64_t>(d));
    // Each message on its require's line: nvcc shows the failing line, not the message argument.
    if (shared) require(tiles, "rooflint: dynamic_shared: the bytes are a polynomial of dimensions (4 * C, 49152) or ceil_div(polynomial, constant)");
    else require(tiles, "rooflint: grid: an extent is a polynomial of dimensions (N, 2 * B) or ceil_div(polynomial, constant)");
    numerator = t.lhs;
    out.divisor = static_cast<std::int64_t>(d);
  }
  for (int d = 0; d < numerator.dim_count; ++d) {
    const bool known = !numerator.uses(d) || s.dim_index(numerator.dims[d]) >= 0;
    if (shared) require(known, "rooflint: dynamic_shared: the bytes use a dimension the spec does not have");
    else require(known, "rooflint: grid: an extent uses a dimension the spec does not have");
  }
  out.numerator = numerator.reindexed(dim_names(s), s.dim_count);
  return out;
}

}  // namespace detail

/// A spec bound to the __global__ function Kernel. The builder methods return modified copies.
template <auto Kernel>
struct kernel_spec : spec {
  decltype(Kernel) kernel = Kernel;  ///< the bound kernel (the analyzer reads its declaration from here)

  /// Declares the sizes the build-time verdict uses: `.at(M(4096), N(4096), K(4096))`.
  template <class... B>
  constexpr kernel_spec at(B... given) const {
    detail::require(detail::distinct_dimensions<B...>(), "rooflint: at: a dimension is given twice");
    kernel_spec s = *this;
    std::array<bool, max_dims> seen{};
    const std::array<size_binding, sizeof...(B)> list{given...};
    for (const size_binding& b : list) {
      const int i = s.dim_index(b.dim);
      detail::require(i >= 0, "rooflint: at: the spec has no dimension of that name");
      detail::require(b.size > 0, "rooflint: at: a size must be positive");
      detail::require(b.size <= max_size, "rooflint: at: a size must be at most 2^53 (sizes are exact in a double up to there)");
      if (i < 0) continue;
      detail::require(!seen[i], "rooflint: at: a dimension is given twice");
      seen[i] = true;
      detail::require(s.dims[i].static_size == 0 || s.dims[i].static_size == static_cast<double>(b.size), "rooflint: at: the size differs from the static size of the dimension");
      s.dims[i].declared_size = static_cast<double>(b.size);
    }
    const binding_result declared = s.declared();
    detail::require(declared.violated.empty(), "rooflint: at: a size contradicts the operation (a conv output size or C_in/groups)");
    detail::require(declared.too_large.empty(), "rooflint: at: the touched part of a tensor is larger than the tensor at these sizes");
    if (declared.ok()) detail::check_counts_at(s, declared.bound);
    detail::check_declared_sizes_readable(s);
    return s;
  }

  /// States how each dimension's size is read from a launch of the kernel (launch.h):
  /// `.sizes(N(arg<0>))`, `.sizes(N(4 * arg<2>))`, `.sizes(R(grid_dim.x), C(arg<2>))`, or defined by
  /// the sizes of others: `.sizes(C(arg<4>), NH(arg<5>), HS(C / NH))`, `.sizes(B(arg<3>), T(arg<4>),
  /// N(B * T))` (a dimension used only there becomes a dimension of the spec). A parameter (dim.h,
  /// param<"R">) is read here from its argument as it is and states its value, for a kernel whose
  /// addresses or loops depend on it: `.sizes(W(arg<2>), H(arg<3>), R(arg<4>)).at(W(2048), H(2048), R(14))`.
  /// Every dimension must be bound exactly one way: read here, defined here, a static size, derived by
  /// the operation, or given to a preceding `.at()`.
  template <class... B>
  constexpr kernel_spec sizes(const B&... given) const {
    constexpr bool entries = ((LaunchSize<B> || DefinedSize<B>) && ...);
    detail::require(entries, "rooflint: sizes: each entry must be a dimension read from the launch or defined by others: N(arg<0>), N(4 * arg<1>), R(grid_dim.x), HS(C / NH)");
    kernel_spec s = *this;
    if constexpr (entries) {
      ([] {
        if constexpr (LaunchSize<B>) detail::check_size_source<Kernel, typename B::source_type>();
      }(), ...);
      detail::require(detail::dims_distinct<typename B::dim_type...>(), "rooflint: sizes: a dimension is read from the launch twice");
      detail::require(((B::dim_type::static_size == dynamic_size) && ...), "rooflint: sizes: a dimension with a static size cannot also be read from the launch");
    }
    detail::require(s.launch.kind == binding_kind::none, "rooflint: sizes: the sizes are already read from the launch (call sizes() once)");
    s.launch.kind = binding_kind::kernel;
    if constexpr (entries) {
      // Defined dimensions first: their operands (B and T of N(B * T)) become dimensions of the spec,
      // which the entries read from the launch may then name.
      const auto define = [&]<class E>(const E& e) {
        if constexpr (DefinedSize<E>) {
          const name_t n = dim_name<typename E::dim_type>();
          detail::require(s.dim_index(n) >= 0, "rooflint: sizes: the spec has no dimension of that name");
          const size_table terms = detail::defining_terms(n, e.value);
          for (int t = 0; t < terms.count; ++t)
            for (const poly* p : {&terms.terms[t].lhs, &terms.terms[t].rhs}) detail::collect_dims(s, *p);
          s.size_terms.merge(terms);
        }
      };
      (define(given), ...);
      const auto add = [&]<class E>(const E& e) {
        if constexpr (LaunchSize<E>) {
          const launch_size& l = e.value;
          if constexpr (requires { E::dim_type::parameter; }) {
            // A parameter (dim.h, param): no tensor has it; it states its argument's value.
            const bool as_it_is = l.source == size_source::argument && l.multiplier == 1 && l.divisor == 1 && !l.power_of_two;
            detail::require(as_it_is, "rooflint: sizes: a parameter is read from its argument as it is: R(arg<4>)");  // one line: nvcc prints it
            if (s.dim_index(l.dim) < 0) detail::collect_dims(s, poly::variable(l.dim));
          }
          detail::require(s.dim_index(l.dim) >= 0, "rooflint: sizes: the spec has no dimension of that name");
          detail::require(l.multiplier > 0 && l.divisor > 0, "rooflint: sizes: a multiplier or divisor must be positive");
          if (s.launch.size_count < max_dims) s.launch.sizes[s.launch.size_count++] = l;
        }
      };
      (add(given), ...);
      detail::add_size_term_dims(s);
      detail::refresh(s);
      detail::check_declared_sizes_readable(s);
    }
    for (int i = 0; i < s.dim_count; ++i) {
      bool derived = s.size_terms.index_of(s.dims[i].name) >= 0;  // min/max/ceil_div/div, defined dimensions: from operands
      for (int d = 0; d < s.op.derived_count; ++d) derived = derived || s.op.derived[d].name == s.dims[i].name;
      const bool fixed = s.launch.find(s.dims[i].name) || s.dims[i].static_size > 0 || s.dims[i].declared_size > 0 || derived;
      if (!fixed && s.dims[i].no_size) s.dims[i].no_size("rooflint: sizes: a dimension is neither read from the launch nor fixed by a static size, the operation or a preceding .at()");  // names the dimension
      detail::require(fixed, "rooflint: sizes: a dimension is neither read from the launch nor fixed by a static size, the operation or a preceding .at()");  // one line: nvcc prints only the first
    }
    return s;
  }

  /// States the threads per block the kernel is written for: `.block(256)`, `.block(16, 16)`. The
  /// analyzer evaluates the kernel's addresses for this block (and the grid of `.grid()`).
  template <std::integral... T>
  constexpr kernel_spec block(T... threads) const {
    detail::require(sizeof...(T) >= 1 && sizeof...(T) <= 3, "rooflint: block: give 1 to 3 extents (x, y, z)");
    kernel_spec s = *this;
    const std::array<std::int64_t, sizeof...(T)> list{static_cast<std::int64_t>(threads)...};
    std::int64_t count = 1;
    for (std::size_t i = 0; i < list.size(); ++i) {
      detail::require(list[i] >= 1 && list[i] <= 1024, "rooflint: block: an extent must be 1 to 1024");
      s.shape.block[i] = {poly(static_cast<double>(list[i])), 1};
      count *= list[i];
    }
    detail::require(count <= 1024, "rooflint: block: a block has at most 1024 threads");
    s.shape.block_stated = true;
    return s;
  }

  /// States the grid the kernel is launched with, in the spec's dimensions: `.grid(ceil_div(N, 256))`,
  /// `.grid(ceil_div(N, 16), ceil_div(M, 16))`, `.grid(R)` (one block per row). Each extent is a
  /// polynomial of the spec's dimensions or ceil_div of one by a constant.
  template <SizeLike... E>
  constexpr kernel_spec grid(const E&... extents) const {
    detail::require(sizeof...(E) >= 1 && sizeof...(E) <= 3, "rooflint: grid: give 1 to 3 extents (x, y, z)");
    kernel_spec s = *this;
    const std::array<size_expr, sizeof...(E)> list{to_expr(extents)...};
    for (std::size_t i = 0; i < list.size(); ++i) s.shape.grid[i] = detail::extent_of(s, list[i]);
    s.shape.grid_stated = true;
    return s;
  }

  /// States the dynamic shared memory each block is launched with, in bytes (the launch's third
  /// argument, which sizes `extern __shared__` arrays): `.dynamic_shared(49152)`, `.dynamic_shared(4 * C)`.
  /// It decides how many blocks an SM holds and how much of its L1 is left to cache global memory: the
  /// analyzer predicts no L2 or DRAM traffic for a kernel that has dynamic shared memory without it.
  template <SizeLike E>
  constexpr kernel_spec dynamic_shared(const E& bytes) const {
    detail::require(!shape.shared_stated, "rooflint: dynamic_shared: the spec already states it");
    kernel_spec s = *this;
    s.shape.shared = detail::extent_of(s, to_expr(bytes), true);
    s.shape.shared_stated = true;
    return s;
  }

  /// States the registers a thread of the kernel uses, as ptxas allocates them (`nvcc -Xptxas -v`:
  /// "Used 96 registers"; ncu: launch__registers_per_thread): `.registers(96)`. With the threads and the
  /// shared memory of a block it decides how many blocks an SM holds, so how many run at once (a wave);
  /// without it the analyzer takes the most that threads and shared memory allow, and says so.
  constexpr kernel_spec registers(int per_thread) const {
    detail::require(shape.registers == 0, "rooflint: registers: the spec already states them");
    detail::require(per_thread >= 1 && per_thread <= 255, "rooflint: registers: a thread has 1 to 255 registers");
    kernel_spec s = *this;
    s.shape.registers = per_thread;
    return s;
  }

  /// States the verdict the kernel should get; the analyzer warns when it gets the other one.
  constexpr kernel_spec expect(expected_bound b) const {
    detail::require(expected.bound == expected_bound::any || expected.bound == b, "rooflint: expect: the spec already expects the other bound");
    kernel_spec s = *this;
    s.expected.bound = b;
    return s;
  }

  /// The largest acceptable ratio of measured DRAM bytes to compulsory bytes (>= 1).
  constexpr kernel_spec max_traffic_ratio(double ratio) const {
    detail::require(ratio >= 1, "rooflint: max_traffic_ratio: the ratio must be at least 1");
    kernel_spec s = *this;
    s.expected.max_traffic_ratio = ratio;
    return s;
  }

  /// The smallest acceptable roofline fraction t_min / t_measured, in (0, 1].
  constexpr kernel_spec min_roofline_fraction(double fraction) const {
    detail::require(fraction > 0 && fraction <= 1, "rooflint: min_roofline_fraction: the fraction must be in (0, 1]");
    kernel_spec s = *this;
    s.expected.min_roofline_fraction = fraction;
    return s;
  }

  /// Chooses the compute roof: `.math(model::math_mode::tf32_tensor)` for f32 data on TF32 tensor cores.
  constexpr kernel_spec math(model::math_mode mode) const {
    kernel_spec s = *this;
    s.mode = mode;
    s.mode_chosen = true;
    return s;
  }

  /// Counts elementwise, reduction, softmax and layernorm FLOPs (torch.utils.flop_counter counts 0).
  constexpr kernel_spec count_elementwise() const {
    kernel_spec s = *this;
    s.convention.count_elementwise = true;
    detail::refresh(s);
    return s;
  }

  /// Counts causal attention as half the dense FLOPs (torch.utils.flop_counter does not halve).
  constexpr kernel_spec halve_causal() const {
    kernel_spec s = *this;
    s.convention.halve_causal = true;
    detail::refresh(s);
    return s;
  }
};

/// Binds the operation @p op (and any @p extra tensors or uncounted pointers) to kernel Kernel.
/// The checks are require()s evaluated here, so a misuse is reported at the spec, the user's line.
template <auto Kernel, std::size_t N, class... Ts, Binding... Extra>
constexpr kernel_spec<Kernel> kernel(const char (&name)[N], const operation<Ts...>& op, const Extra&... extra) {
  constexpr bool is_function = std::is_pointer_v<decltype(Kernel)> && std::is_function_v<std::remove_pointer_t<decltype(Kernel)>>;
  detail::require(is_function, "rooflint: kernel: the template argument must be a __global__ function");
  detail::require(N > 1 && N <= name_capacity, "rooflint: kernel: a kernel name must have 1 to 31 characters");
  detail::require(((Ts::arg != region_tensor_arg) && ...), "rooflint: kernel: a tensor without a kernel parameter belongs to a region (region.h); bind it to a parameter: in<0>(\"x\", f32, N)");
  if constexpr (is_function) {
    (detail::check_binding<Kernel, Ts>(), ...);
    (detail::check_binding<Kernel, Extra>(), ...);
  }
  detail::require(detail::shared_parameters_sliced(op, extra...), "rooflint: kernel: two tensors are bound to the same kernel parameter (if each is a part of it, say where: .slice(offset))");
  detail::require(detail::slice_offsets_distinct(op), "rooflint: kernel: two slices of one parameter start at the same element");
  detail::require(detail::dim_names_distinct(typename detail::concat<typename detail::shape_of<Ts>::type..., typename detail::shape_of<Extra>::type...>::type{}), "rooflint: kernel: two different dimension tags have the same name");
  detail::require(sizeof...(Ts) + sizeof...(Extra) <= max_tensors, "rooflint: kernel: a spec has at most 8 tensors and uncounted pointers");

  using all_dims = detail::probe<typename detail::concat<typename detail::shape_of<Ts>::type...>::type>;
  kernel_spec<Kernel> s;
  s.kernel_name = name_t(name);
  s.op = op.info;
  // The FLOP count's dimensions first, so formulas print in the operation's order ("2*M*N*K").
  detail::collect_dims(s, op.info.flops);
  bool math_chosen = detail::take_operation(s, op);
  const auto add = [&]<class T>(const T& t) {
    if (s.tensor_count >= max_tensors) return;  // too many: the require() above is the one error
    if constexpr (Tensor<T>) {
      tensor_info info = detail::tensor_info_of(t);
      detail::collect_dims<T>(s, info);
      detail::collect_dims(s, t.touched);
      s.size_terms.merge(t.sizes);
      detail::require(all_dims::covers(t.offset, t.offset_sizes), "rooflint: slice: the offset uses a dimension that no tensor has");
      detail::collect_dims(s, t.offset);
      s.size_terms.merge(t.offset_sizes);
      if (t.values.distribution != index_distribution::unstated) {
        detail::collect_dims(s, poly::variable(t.values.below));
        info.indices = t.values.distribution;
        info.index_bound = static_cast<std::int8_t>(s.dim_index(t.values.below));
      }
      if (!math_chosen && Read<T>) {  // the math mode by operation and the first read tensor's dtype
        s.mode = model::math_mode_by_operation(T::element, is_contraction(s.op.kind));
        math_chosen = true;
      }
      for (const auto& other : s.tensor_list())
        detail::require(!(other.name == info.name), "rooflint: kernel: two tensors have the same name");
      s.tensors[s.tensor_count++] = info;
    } else {
      tensor_info info;
      info.name = t.name;
      for (const auto& other : s.tensor_list())
        detail::require(!(other.name == info.name), "rooflint: kernel: two tensors have the same name");
      info.access = role::not_counted;
      info.arg = T::arg;
      s.tensors[s.tensor_count++] = info;
    }
  };
  std::apply([&](const auto&... t) { (add(t), ...); }, op.tensors);
  (add(extra), ...);
  for (const auto& t : s.tensor_list())
    detail::require(t.index_bound < 0 || detail::in_some_shape(s, t.index_bound), "rooflint: indices: the bound of the values is a dimension no tensor has");
  detail::add_size_term_dims(s);
  detail::refresh(s);
  detail::check_dims_in_tensors(s);
  return s;
}

/// kernel() for an overloaded kernel: the function type picks the overload the spec is for,
/// `kernel<void(const float*, float*, int), scale>("scale", ...)` (no static_cast needed). A kernel
/// template is one function per instantiation: `kernel<scale_t<float>>`, one spec each (docs/dsl.md).
template <class Signature, Signature* Kernel, std::size_t N, class... Ts, Binding... Extra>
  requires std::is_function_v<Signature>
constexpr kernel_spec<Kernel> kernel(const char (&name)[N], const operation<Ts...>& op, const Extra&... extra) {
  return kernel<Kernel>(name, op, extra...);
}

}  // namespace rooflint::dsl
