#pragma once
/// @file region.h
/// A spec not bound to one __global__ function: a region of several kernels that together compute
/// one operation (a three-pass softmax, a split attention), or a library call whose kernels are not
/// ours (a cuBLAS GEMM). The region's tensors name no kernel parameter; the region names its kernels
/// in launch order, each by its function or, for a library's kernels, by a pattern of its symbol:
///
///     __global__ void row_max(const float* x, float* m, int cols);
///     __global__ void row_sum(const float* x, const float* m, float* s, int cols);
///     __global__ void normalise(const float* x, const float* m, const float* s, float* y, int cols);
///
///     inline constexpr auto softmax_3pass =
///         region<row_max, row_sum, normalise>("softmax_3pass",
///             softmax(in("x", f32, R, C), out("y", f32, R, C)))   // the scratch m, s: not named
///             .at(R(65536), C(4096))
///             .sizes<0>(R(grid_dim.x), C(arg<2>))                 // read at the launch of row_max
///             .expect(memory_bound);
///
///     inline constexpr auto sgemm_cublas =
///         region<library_kernel<"gemm">>("sgemm_cublas",
///             matmul(in("A", f32, M, K), in("B", f32, K, N), out("C", f32, M, N)))
///             .at(M(4096), N(4096), K(4096));
///
/// Compulsory bytes and ideal FLOPs are the operation's, as for a kernel: the region's intermediate
/// tensors (the row max and sum above) are not compulsory traffic, and traffic to them is what a fused
/// kernel saves. The verifier sums the region's kernels (the harness: a case's `launch` makes them all;
/// rooflint-verify -- ./program: one instance is a run of consecutive launches of the region's kernels,
/// docs/verifier.md). `.sizes<I>(...)` reads sizes at the launch of the I-th kernel, which must be given
/// by its function (a library kernel's parameters are not ours); a region without `.sizes` is verified by
/// the harness only.
///
/// Compile-time checks (each a `rooflint: region: ...` message, tests/dsl/fail/region_*.cpp): at least
/// one and at most 8 kernels, each a function or a library_kernel pattern of 1 to 31 characters; tensors
/// without a kernel parameter; a region name of 1 to 31 characters; the site of `.sizes<I>` is one of
/// the region's kernels and a function; and the checks of `.sizes` and `.at` against that kernel.

#include <type_traits>

#include "rooflint/dsl/kernel.h"

namespace rooflint::dsl {

// ---------------------------------------------------------------------------------------------------
// Tensors of a region: no kernel parameter

/// A tensor the region reads: `in("x", f32, R, C)`.
template <dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<region_tensor_arg, D, role::read, std::remove_cvref_t<Ds>...> in(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the region writes: `out("y", f32, R, C)`.
template <dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<region_tensor_arg, D, role::write, std::remove_cvref_t<Ds>...> out(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

/// A tensor the region reads and writes in place (counted twice): `inout("y", f32, N)`.
template <dtype D, std::size_t N, Dim... Ds>
constexpr tensor_ref<region_tensor_arg, D, role::read_write, std::remove_cvref_t<Ds>...> inout(const char (&name)[N], dtype_tag<D>, Ds...) {
  detail::check_tensor_name<N>();
  return {name_t(name)};
}

// ---------------------------------------------------------------------------------------------------
// A library's kernel, matched by its symbol

/// A kernel of a library (cuBLAS, cuDNN), matched at run time by a substring of its symbol (the mangled
/// name CUPTI reports, such as "sm90_xmma_gemm_f32f32_..." or "_Z...gemmSN_NN_kernel..."):
/// `region<library_kernel<"gemm">>(...)`. Its parameters are not ours, so no size is read from it.
template <fixed_string Pattern>
struct library_kernel_t {
  static_assert(Pattern.view().size() > 0 && Pattern.view().size() < name_capacity,
                "rooflint: region: a library kernel's pattern must have 1 to 31 characters");
  static constexpr fixed_string pattern = Pattern;
  static constexpr bool rooflint_library_kernel = true;  ///< what is_library_kernel looks for
};

template <fixed_string Pattern>
inline constexpr library_kernel_t<Pattern> library_kernel{};

namespace detail {

// A member test, not a partial specialisation on library_kernel_t<P>: nvcc 13 does not deduce a class-type
// template argument there.
template <class T> struct is_library_kernel : std::false_type {};
template <class T>
  requires requires { T::rooflint_library_kernel; }
struct is_library_kernel<T> : std::true_type {};

template <auto K>
constexpr bool is_function_kernel() {
  return std::is_pointer_v<decltype(K)> && std::is_function_v<std::remove_pointer_t<decltype(K)>>;
}
template <auto K>
constexpr bool is_region_kernel() {
  return is_function_kernel<K>() || is_library_kernel<std::remove_cvref_t<decltype(K)>>::value;
}

/// The region's I-th kernel.
template <int I, auto K0, auto... Ks>
constexpr auto region_kernel_at() {
  if constexpr (I <= 0) return K0; else return region_kernel_at<I - 1, Ks...>();
}

/// A function that kernel_spec's builders can be borrowed through: the region's .at(), .expect(), ...
/// run kernel_spec's own code on the region's spec value, so their checks and messages are the same.
inline void region_placeholder() {}

template <class T> struct region_tensor_ok : std::true_type {};
template <Tensor T> struct region_tensor_ok<T> : std::bool_constant<T::arg == region_tensor_arg> {};

template <auto K>
constexpr region_kernel region_kernel_of() {
  region_kernel r;
  if constexpr (is_library_kernel<std::remove_cvref_t<decltype(K)>>::value) {
    r.match = kernel_match::library;
    r.pattern = name_t(std::remove_cvref_t<decltype(K)>::pattern.view());
  }
  return r;
}

}  // namespace detail

/// A spec bound to a region of kernels Kernels (functions or library_kernel patterns), in launch order.
template <auto... Kernels>
struct region_spec : spec {
  /// Declares the sizes the build-time verdict uses: `.at(R(65536), C(4096))` (as kernel_spec::at).
  template <class... B>
  constexpr region_spec at(B... given) const { return with(borrowed().at(given...)); }

  /// States how sizes are read at the launch of the region's Site-th kernel (0 = the first), which must
  /// be given by its function: `.sizes<0>(R(grid_dim.x), C(arg<2>))`. The checks are kernel_spec::sizes'
  /// against that kernel's parameters.
  template <int Site, class... B>
  constexpr region_spec sizes(const B&... given) const {
    detail::require(Site >= 0 && Site < static_cast<int>(sizeof...(Kernels)), "rooflint: region: sizes<I>: I must be the index of one of the region's kernels");
    if constexpr (Site >= 0 && Site < static_cast<int>(sizeof...(Kernels))) {
      constexpr auto site = detail::region_kernel_at<Site, Kernels...>();
      detail::require(detail::is_function_kernel<site>(), "rooflint: region: sizes<I>: the I-th kernel is a library kernel, whose parameters are not ours");
      if constexpr (detail::is_function_kernel<site>()) {
        detail::require(launch.kind == binding_kind::none, "rooflint: sizes: the sizes are already read from the launch (call sizes() once)");
        kernel_spec<site> k;
        static_cast<spec&>(k) = *this;
        k = k.sizes(given...);
        region_spec r = *this;
        static_cast<spec&>(r) = static_cast<const spec&>(k);  // the launch, and the dimensions and terms a definition adds
        r.launch.kind = binding_kind::region;
        for (int i = 0; i < r.launch.size_count; ++i) r.launch.sizes[i].site = static_cast<std::int8_t>(Site);
        return r;
      }
    }
    return *this;
  }

  constexpr region_spec expect(expected_bound b) const { return with(borrowed().expect(b)); }
  constexpr region_spec max_traffic_ratio(double r) const { return with(borrowed().max_traffic_ratio(r)); }
  constexpr region_spec min_roofline_fraction(double f) const { return with(borrowed().min_roofline_fraction(f)); }
  constexpr region_spec math(model::math_mode m) const { return with(borrowed().math(m)); }
  constexpr region_spec count_elementwise() const { return with(borrowed().count_elementwise()); }
  constexpr region_spec halve_causal() const { return with(borrowed().halve_causal()); }

 private:
  /// This region's spec value in a kernel_spec, whose builders then run unchanged.
  constexpr kernel_spec<&detail::region_placeholder> borrowed() const {
    kernel_spec<&detail::region_placeholder> k;
    static_cast<spec&>(k) = *this;
    return k;
  }
  /// The region with the spec value a borrowed builder returned.
  constexpr region_spec with(const spec& built) const {
    region_spec r = *this;
    static_cast<spec&>(r) = built;
    return r;
  }
};

/// Binds the operation @p op to a region of the kernels Kernels (functions, or library_kernel<"pattern">
/// for a library's kernels), launched in this order. The tensors name no parameter: `in("x", f32, R, C)`.
template <auto... Kernels, std::size_t N, class... Ts>
constexpr region_spec<Kernels...> region(const char (&name)[N], const operation<Ts...>& op) {
  detail::require(sizeof...(Kernels) >= 1, "rooflint: region: a region names at least one kernel: region<k1, k2>(...)");
  detail::require(sizeof...(Kernels) <= max_region_kernels, "rooflint: region: a region has at most 8 kernels");
  detail::require((detail::is_region_kernel<Kernels>() && ...), "rooflint: region: each kernel is a __global__ function or a library_kernel<\"pattern\">");
  detail::require(N > 1 && N <= name_capacity, "rooflint: region: a region name must have 1 to 31 characters");
  detail::require((detail::region_tensor_ok<Ts>::value && ...), "rooflint: region: a region's tensors name no kernel parameter: in(\"x\", f32, N), not in<0>(\"x\", f32, N)");
  detail::require(detail::dim_names_distinct(typename detail::concat<typename detail::shape_of<Ts>::type...>::type{}), "rooflint: kernel: two different dimension tags have the same name");
  detail::require(sizeof...(Ts) <= max_tensors, "rooflint: kernel: a spec has at most 8 tensors and uncounted pointers");

  region_spec<Kernels...> s;
  s.kernel_name = name_t(name);
  s.op = op.info;
  detail::collect_dims(s, op.info.flops);  // the FLOP count's dimensions first, as kernel() does
  bool math_chosen = detail::take_operation(s, op);  // size terms, precision (kernel.h)
  const auto add = [&]<class T>(const T& t) {
    if (s.tensor_count >= max_tensors) return;
    tensor_info info = detail::tensor_info_of(t);
    info.arg = -1;  // no parameter: the region's kernels are not one signature
    detail::collect_dims<T>(s, info);
    detail::collect_dims(s, t.touched);
    s.size_terms.merge(t.sizes);
    if (!math_chosen && Read<T>) {
      s.mode = model::math_mode_by_operation(T::element, is_contraction(s.op.kind));
      math_chosen = true;
    }
    for (const auto& other : s.tensor_list())
      detail::require(!(other.name == info.name), "rooflint: kernel: two tensors have the same name");
    s.tensors[s.tensor_count++] = info;
  };
  std::apply([&](const auto&... t) { (add(t), ...); }, op.tensors);
  if constexpr ((detail::is_region_kernel<Kernels>() && ...) && sizeof...(Kernels) <= max_region_kernels)
    ((s.region.kernels[s.region.kernel_count++] = detail::region_kernel_of<Kernels>()), ...);
  detail::add_size_term_dims(s);
  detail::refresh(s);
  detail::check_dims_in_tensors(s);
  return s;
}

}  // namespace rooflint::dsl
