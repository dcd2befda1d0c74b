#pragma once
/// @file operation.h
/// Operations and their FLOP rules. Each takes the spec's tensors, checks their shapes at compile
/// time and states the ideal FLOPs as a polynomial in the dimensions.
///
/// FLOP rules (ideal FLOPs; an FMA is 2 FLOP):
///  - matmul, bmm, addmm, linear: 2*M*N*K (times the batch for bmm); the bias of addmm/linear is not
///    counted. Source: torch.utils.flop_counter (mm_flop, bmm_flop, addmm_flop).
///  - conv1d/2d/3d: 2 * N * C_out * prod(out spatial) * (C_in / groups) * prod(kernel). Source:
///    torch.utils.flop_counter.conv_flop_count (transposed convolutions are not covered).
///  - scaled-dot-product attention, forward: 2*B*H*Sq*Sk*D (Q K^T) + 2*B*H*Sq*Sk*Dv (P V), which is
///    4*B*H*Sq*Sk*D when D == Dv; causal masking is not halved. Source: torch.utils.flop_counter
///    (sdpa_flop_count). Convention switch halve_causal gives half.
///  - elementwise, unary, binary: the FLOP count per element you give, times the elements of the shape
///    the tensors broadcast to; typed by you, so counted under every convention.
///  - reduction: 1 FLOP per input element (one add); softmax: 5 FLOP per element (max, subtract, exp,
///    sum, divide; exp counted as 1); layernorm: 6 FLOP per element (mean 1, variance 3, normalise 2),
///    + 1 with a scale, + 1 with a shift; rmsnorm: 3 (mean of squares 2, normalise 1), + 1 with a
///    scale. rooflint's own per-element rules; torch.utils.flop_counter counts all of these as 0,
///    which is the default convention (switch count_elementwise counts them).
///  - custom: the FLOP expression you give, under every convention.
///
/// Roofs: contractions (matmul, bmm, addmm, linear, conv, attention) meet the tensor roof of their
/// dtype; every other operation, custom included, the SIMT roof of its math (model::math_mode_by_operation).

#include <cstdint>
#include <tuple>
#include <utility>

#include "rooflint/dsl/detail/report.h"
#include "rooflint/dsl/tensor_concepts.h"

namespace rooflint::dsl {

enum class op_kind : std::uint8_t {
  matmul, bmm, addmm, linear, conv, attention, elementwise, reduction, softmax, layernorm, custom
};

/// @return Whether @p k is a contraction that tensor cores execute (matmul, bmm, addmm, linear, conv,
/// attention). A custom operation is not: most hand-written kernels outside those (epilogues, lookups,
/// histograms, scans) do their arithmetic on CUDA cores, so it meets the SIMT roof of its math; a custom
/// kernel that does use tensor cores says so with .math(math_mode::bf16_tensor).
constexpr bool is_contraction(op_kind k) {
  switch (k) {
    case op_kind::matmul: case op_kind::bmm: case op_kind::addmm: case op_kind::linear: case op_kind::conv: case op_kind::attention:
      return true;
    default: return false;
  }
}

/// A dimension whose size follows from others when sizes are bound: a convolution's output size
/// floor((source + 2*padding - dilation*(window - 1) - 1) / stride) + 1 (PyTorch's Conv docs).
struct derived_dim {
  name_t name;
  name_t source;
  name_t window;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t dilation = 1;
};

/// An equality the bound sizes must meet: size(lhs) * factor == size(rhs) (conv groups: C_in/groups * groups == C_in).
struct size_constraint {
  name_t lhs;
  std::int64_t factor = 1;
  name_t rhs;
};

/// What an operation contributes to a spec, besides its tensors.
struct op_info {
  op_kind kind = op_kind::custom;
  name_t name;                    ///< "matmul", "conv2d", ...
  poly flops;                     ///< ideal FLOPs by the op's rule (see the file comment)
  bool zero_under_torch = false;  ///< a count by rooflint's own rule (reduction, softmax, norms): torch.utils.flop_counter counts 0
  bool causal = false;            ///< causal attention (halved under halve_causal)
  std::array<derived_dim, 3> derived{};
  std::uint8_t derived_count = 0;
  std::array<size_constraint, 2> constraints{};
  std::uint8_t constraint_count = 0;
  // Precision, stated once by operation::precision(): the tensors' dtypes are the storage (and the
  // compulsory bytes); compute is the dtype the arithmetic is done in, which picks the roof;
  // accumulate the dtype sums are kept in. Not stated: the first read tensor's dtype is both.
  bool precision_stated = false;
  model::dtype compute = model::dtype::f32;
  model::dtype accumulate = model::dtype::f32;
};

/// Whether a dtype holds integers (i8, i32, i64, u8, u16, u32, u64): model::is_integer.
using model::is_integer;

namespace detail {
/// Every dimension of the tensors Es is a dimension of some tensor of Ts.
template <class... Ts, class... Es>
constexpr bool extra_dims_known(type_list<Ts...>, type_list<Es...>) {
  using all = typename concat<typename Ts::shape...>::type;
  return (all_dims_in<typename Es::shape, all>::value && ...);
}
}  // namespace detail

/// An operation over tensors Ts.
template <class... Ts>
struct operation {
  op_info info;
  std::tuple<Ts...> tensors;
  size_table sizes{};  ///< the min, max and ceil_div terms of a custom FLOP count
  bool mixed_operands = false;  ///< a matrix product whose lhs and rhs differ in dtype (kernel() checks it)

  /// States the precision once: the arithmetic is done in @p compute and sums are accumulated in
  /// @p accumulate (default: @p compute); the tensors' own dtypes stay the storage, so the compulsory
  /// bytes follow them and the compute roof follows @p compute (model::math_mode_by_operation):
  ///
  ///     elementwise(1, in<0>("x", bf16, N), out<1>("y", bf16, N)).precision(f32)   // bf16 in/out, f32 math: FP32 SIMT roof
  ///     matmul(in<0>("A", fp8_e4m3, M, K), in<1>("B", fp8_e5m2, K, N), out<2>("C", bf16, M, N))
  ///         .precision(fp8_e4m3, f32)                                              // FP8 tensor roof, f32 accumulate
  ///
  /// A matrix product whose lhs and rhs have different dtypes must state it.
  template <dtype Compute, dtype Accumulate = Compute>
  constexpr operation precision(dtype_tag<Compute>, dtype_tag<Accumulate> = {}) const {
    detail::require(is_integer(Compute) == is_integer(Accumulate), "rooflint: precision: integer math accumulates in an integer dtype, floating-point math in a floating-point one");
    detail::require(model::size_bytes(Accumulate) >= model::size_bytes(Compute), "rooflint: precision: the accumulate dtype must be at least as wide as the compute dtype");
    detail::require(!info.precision_stated, "rooflint: precision: the operation already states its precision");
    operation op = *this;
    op.info.precision_stated = true;
    op.info.compute = Compute;
    op.info.accumulate = Accumulate;
    return op;
  }

  /// The operation also writes (or reads) the tensors @p extra, counted in the compulsory bytes like
  /// its own: a layernorm's mean and rstd (B,T), a softmax's row max and sum (R), a reduction's index
  /// (R). Their dimensions must be dimensions of the operation's tensors; they add no FLOPs.
  ///
  ///     layernorm(in<0>("x", f32, B, T, C), out<1>("y", f32, B, T, C))
  ///         .with(out<2>("mean", f32, B, T), out<3>("rstd", f32, B, T))
  template <class... Es>
  constexpr operation<Ts..., Es...> with(Es... extra) const {
    static_assert(sizeof...(Es) > 0, "rooflint: with: name the extra tensors (out<3>(\"mean\", f32, B, T))");
    detail::require((Tensor<Es> && ...), "rooflint: with: an extra tensor must be in, out or inout (an uncounted pointer goes to kernel())");
    if constexpr ((Tensor<Es> && ...)) {
      detail::require(detail::extra_dims_known(type_list<Ts...>{}, type_list<Es...>{}), "rooflint: with: every dimension of an extra tensor must be a dimension of the operation's tensors");
      const auto mark = [](auto t) { t.extra = true; return t; };
      return {info, std::tuple_cat(tensors, std::tuple<Es...>{mark(extra)...}), sizes, mixed_operands};
    } else {
      return {info, {}};
    }
  }
};

namespace detail {
/// The polynomial of dimension tag D; 0 for void (a dimension past a tensor's rank, after a rank check
/// has failed: the check's require() is then the one error).
template <class D>
constexpr poly dim_poly() {
  if constexpr (std::is_void_v<D>) return poly{}; else return to_poly(D{});
}

template <class... Ts>
constexpr operation<Ts...> make_op(op_kind kind, const char* name, poly flops, Ts... ts) {
  operation<Ts...> op{{kind, name_t(name), flops}, {ts...}};
  return op;
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Matrix products
//
// lhs and rhs have one dtype unless the operation states its precision (`.precision(...)`): an f32
// times an f16 is almost always a typo. The check is made where the spec is bound (kernel()), after
// `.precision()` had its chance.

namespace detail {
template <Tensor A, Tensor B, Tensor... Ts>
constexpr operation<Ts...> with_operands(operation<Ts...> op) {
  op.mixed_operands = A::element != B::element;
  return op;
}
}  // namespace detail

/// C (M,N) = A (M,K) @ B (K,N). Ideal FLOPs 2*M*N*K.
template <Tensor A, Tensor B, Tensor C>
constexpr operation<A, B, C> matmul(const A& a, const B& b, const C& c) {
  detail::require(HasRank<A, 2>, "rooflint: matmul: lhs must have rank 2, shape (M,K)");
  detail::require(HasRank<B, 2>, "rooflint: matmul: rhs must have rank 2, shape (K,N)");
  detail::require(HasRank<C, 2>, "rooflint: matmul: output must have rank 2, shape (M,N)");
  detail::require(SameDimAt<A, 1, B, 0>, "rooflint: matmul: lhs (M,K) and rhs (K,N) must contract the same dimension K");
  detail::require(SameDimAt<C, 0, A, 0> && SameDimAt<C, 1, B, 1>, "rooflint: matmul: output must have shape (M,N) for lhs (M,K) and rhs (K,N)");
  detail::require(Read<A> && Read<B>, "rooflint: matmul: lhs and rhs must be read (in or inout)");
  detail::require(Written<C>, "rooflint: matmul: output must be written (out or inout)");
  return detail::with_operands<A, B>(detail::make_op(op_kind::matmul, "matmul", 2 * C::elements() * detail::dim_poly<dim_at<A, 1>>(), a, b, c));  // 2*M*N*K
}

/// C (Bt,M,N) = A (Bt,M,K) @ B (Bt,K,N), batched. Ideal FLOPs 2*Bt*M*N*K.
template <Tensor A, Tensor B, Tensor C>
constexpr operation<A, B, C> bmm(const A& a, const B& b, const C& c) {
  detail::require(HasRank<A, 3> && HasRank<B, 3> && HasRank<C, 3>, "rooflint: bmm: operands must have rank 3: (Bt,M,K), (Bt,K,N), (Bt,M,N)");
  detail::require(SameDimAt<A, 0, B, 0> && SameDimAt<A, 0, C, 0>, "rooflint: bmm: operands must share the batch dimension");
  detail::require(SameDimAt<A, 2, B, 1>, "rooflint: bmm: lhs (Bt,M,K) and rhs (Bt,K,N) must contract the same dimension K");
  detail::require(SameDimAt<C, 1, A, 1> && SameDimAt<C, 2, B, 2>, "rooflint: bmm: output must have shape (Bt,M,N)");
  detail::require(Read<A> && Read<B> && Written<C>, "rooflint: bmm: lhs and rhs must be read and the output written");
  return detail::with_operands<A, B>(detail::make_op(op_kind::bmm, "bmm", 2 * C::elements() * detail::dim_poly<dim_at<A, 2>>(), a, b, c));  // 2*Bt*M*N*K
}

/// C (M,N) = bias + A (M,K) @ B (K,N); bias (N) or (M,N). Ideal FLOPs 2*M*N*K (bias not counted, as torch).
template <Tensor Bias, Tensor A, Tensor B, Tensor C>
constexpr operation<A, B, Bias, C> addmm(const Bias& bias, const A& a, const B& b, const C& c) {
  detail::require((HasRank<Bias, 1> && SameDimAt<Bias, 0, C, 1>) || SameShape<Bias, C>, "rooflint: addmm: bias must have shape (N) or (M,N)");
  detail::require(Read<Bias>, "rooflint: addmm: bias must be read");
  const auto product = matmul(a, b, c);
  // A and B first: the spec's math mode comes from its first read tensor, and an f16 GEMM with an
  // f32 bias runs on the FP16 tensor roof, not the FP32 one.
  auto op = detail::make_op(op_kind::addmm, "addmm", product.info.flops, a, b, bias, c);
  op.mixed_operands = product.mixed_operands;
  return op;
}

/// Y (M,N) = X (M,K) @ W^T, W (N,K) as torch.nn.Linear stores it. Ideal FLOPs 2*M*N*K.
template <Tensor X, Tensor W, Tensor Y>
constexpr operation<X, W, Y> linear(const X& x, const W& w, const Y& y) {
  detail::require(HasRank<X, 2> && HasRank<W, 2> && HasRank<Y, 2>, "rooflint: linear: operands must have rank 2: X (M,K), W (N,K), Y (M,N)");
  detail::require(SameDimAt<X, 1, W, 1>, "rooflint: linear: X (M,K) and W (N,K) must share the dimension K");
  detail::require(SameDimAt<Y, 0, X, 0> && SameDimAt<Y, 1, W, 0>, "rooflint: linear: output must have shape (M,N)");
  detail::require(Read<X> && Read<W> && Written<Y>, "rooflint: linear: X and W must be read and Y written");
  return detail::with_operands<X, W>(detail::make_op(op_kind::linear, "linear", 2 * Y::elements() * detail::dim_poly<dim_at<X, 1>>(), x, w, y));
}

/// linear with a bias b (N), not counted in FLOPs.
template <Tensor X, Tensor W, Tensor Bias, Tensor Y>
constexpr operation<X, W, Bias, Y> linear(const X& x, const W& w, const Bias& b, const Y& y) {
  detail::require(HasRank<Bias, 1> && SameDimAt<Bias, 0, W, 0>, "rooflint: linear: bias must have shape (N)");
  const auto product = linear(x, w, y);
  return detail::with_operands<X, W>(detail::make_op(op_kind::linear, "linear", product.info.flops, x, w, b, y));
}

// ---------------------------------------------------------------------------------------------
// Convolution

/// Stride, padding and dilation (the same in every spatial dimension) and groups.
struct conv_options {
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t dilation = 1;
  std::int64_t groups = 1;
};

namespace detail {
// Plain function templates rather than lambdas expanded over a pack: clang 19 crashes
// (Stmt::getSourceRange during template instantiation) on a lambda with local type aliases
// expanded inside a generic lambda over an index pack.

/// Adds the rule that derives spatial dimension I of the output from the input and the window.
template <std::size_t I, Tensor X, Tensor W, Tensor Y>
constexpr void add_conv_output_dim(op_info& info, const conv_options& o) {
  using in_dim = dim_at<X, 2 + I>;
  using out_dim = dim_at<Y, 2 + I>;
  using window_dim = dim_at<W, 2 + I>;
  // Also when the output reuses the input's dimension (a 'same' convolution): binding then
  // checks that stride, padding and dilation really keep the size.
  info.derived[info.derived_count++] = derived_dim{dim_name<out_dim>(), dim_name<in_dim>(),
                                                   dim_name<window_dim>(), o.stride, o.padding, o.dilation};
}

template <std::size_t S, Tensor X, Tensor W, Tensor Y>
constexpr void add_conv_output_dims(op_info& info, const conv_options& o) {
  add_conv_output_dim<0, X, W, Y>(info, o);
  if constexpr (S >= 2) add_conv_output_dim<1, X, W, Y>(info, o);
  if constexpr (S >= 3) add_conv_output_dim<2, X, W, Y>(info, o);
}

/// @return The product of the weight's S kernel sizes (its dimensions 2 .. S+1).
template <Tensor W, std::size_t... I>
constexpr poly kernel_elements(std::index_sequence<I...>) {
  return (poly(1.0) * ... * to_poly(dim_at<W, 2 + I>{}));
}
}  // namespace detail

/// Convolution over S spatial dimensions: X (N,C,spatial...), W (C_out, C/groups, kernel...),
/// Y (N,C_out,out spatial...). Output sizes are derived from input sizes and the options unless the
/// output uses the input's own spatial dimension (a 'same' convolution), whose size binding then checks. Ideal FLOPs
/// 2 * N * C_out * prod(out spatial) * C/groups * prod(kernel).
template <std::size_t S, Tensor X, Tensor W, Tensor Y>
constexpr operation<X, W, Y> conv(const X& x, const W& w, const Y& y, conv_options o = {}) {
  static_assert(S >= 1 && S <= 3, "rooflint: conv: 1 to 3 spatial dimensions");
  detail::require(HasRank<X, S + 2> && HasRank<W, S + 2> && HasRank<Y, S + 2>, "rooflint: conv: input (N,C,spatial...), weight (C_out,C/groups,kernel...) and output (N,C_out,out...) must have rank spatial + 2");
  detail::require(SameDimAt<X, 0, Y, 0>, "rooflint: conv: input and output must share the batch dimension N");
  detail::require(SameDimAt<W, 0, Y, 1>, "rooflint: conv: weight (C_out,...) and output (N,C_out,...) must share C_out");
  detail::require(Read<X> && Read<W> && Written<Y>, "rooflint: conv: input and weight must be read and the output written");
  // Each message on the line of its require(): nvcc prints only the first line of the failing call.
  const bool options_valid = o.stride > 0 && o.dilation > 0 && o.padding >= 0 && o.groups > 0;
  const bool shares_channels = std::is_same_v<dim_at<X, 1>, dim_at<W, 1>>;
  detail::require(options_valid, "rooflint: conv: stride, dilation and groups must be positive and padding not negative");
  detail::require(o.groups != 1 || shares_channels, "rooflint: conv: with groups == 1 the weight (C_out,C,kernel...) must take the input channel dimension C");
  detail::require(o.groups == 1 || !shares_channels, "rooflint: conv: with groups > 1 the weight (C_out,C/groups,kernel...) needs a channel dimension of its own");
  // Sizes are exact in a double up to 2^53 (dim.h); padding and stride far below that keep the
  // output-size formula (spec.h) inside std::int64_t.
  detail::require(o.stride <= max_size && o.dilation <= max_size && o.padding <= max_size, "rooflint: conv: stride, padding and dilation must be at most 2^53");
  constexpr const char* names[] = {"", "conv1d", "conv2d", "conv3d"};
  if constexpr (HasRank<X, S + 2> && HasRank<W, S + 2> && HasRank<Y, S + 2>) {  // else the rank require() is the error
    const poly flops = 2 * Y::elements() * to_poly(dim_at<W, 1>{}) * detail::kernel_elements<W>(std::make_index_sequence<S>{});
    auto op = detail::make_op(op_kind::conv, names[S], flops, x, w, y);
    detail::add_conv_output_dims<S, X, W, Y>(op.info, o);
    if (!std::is_same_v<dim_at<X, 1>, dim_at<W, 1>>)
      op.info.constraints[op.info.constraint_count++] = size_constraint{dim_name<dim_at<W, 1>>(), o.groups, dim_name<dim_at<X, 1>>()};
    return op;
  } else {
    return detail::make_op(op_kind::conv, names[S], poly{}, x, w, y);
  }
}

template <Tensor X, Tensor W, Tensor Y>
constexpr operation<X, W, Y> conv1d(const X& x, const W& w, const Y& y, conv_options o = {}) { return conv<1>(x, w, y, o); }
template <Tensor X, Tensor W, Tensor Y>
constexpr operation<X, W, Y> conv2d(const X& x, const W& w, const Y& y, conv_options o = {}) { return conv<2>(x, w, y, o); }
template <Tensor X, Tensor W, Tensor Y>
constexpr operation<X, W, Y> conv3d(const X& x, const W& w, const Y& y, conv_options o = {}) { return conv<3>(x, w, y, o); }

// ---------------------------------------------------------------------------------------------
// Attention

enum class masking : std::uint8_t { none, causal };

/// Scaled-dot-product attention forward: O (B,H,Sq,Dv) = softmax(Q (B,H,Sq,D) K^T (B,H,Sk,D)) V (B,H,Sk,Dv).
/// Ideal FLOPs 2*B*H*Sq*Sk*D + 2*B*H*Sq*Sk*Dv (torch's sdpa rule).
template <Tensor Q, Tensor K, Tensor V, Tensor O>
constexpr operation<Q, K, V, O> attention(const Q& q, const K& k, const V& v, const O& o, masking mask = masking::none) {
  constexpr bool batch_heads = SameDimAt<Q, 0, K, 0> && SameDimAt<Q, 1, K, 1> && SameDimAt<Q, 0, V, 0> && SameDimAt<Q, 1, V, 1> &&
                              SameDimAt<Q, 0, O, 0> && SameDimAt<Q, 1, O, 1>;
  detail::require(HasRank<Q, 4> && HasRank<K, 4> && HasRank<V, 4> && HasRank<O, 4>, "rooflint: attention: Q, K, V and O must have rank 4: (B,H,S,D)");
  detail::require(batch_heads, "rooflint: attention: Q, K, V and O must share batch B and heads H");
  detail::require(SameDimAt<Q, 3, K, 3>, "rooflint: attention: Q (B,H,Sq,D) and K (B,H,Sk,D) must share the head dimension D");
  detail::require(SameDimAt<K, 2, V, 2>, "rooflint: attention: K (B,H,Sk,D) and V (B,H,Sk,Dv) must share the key length Sk");
  detail::require(SameDimAt<O, 2, Q, 2> && SameDimAt<O, 3, V, 3>, "rooflint: attention: output must have shape (B,H,Sq,Dv)");
  detail::require(Read<Q> && Read<K> && Read<V> && Written<O>, "rooflint: attention: Q, K and V must be read and O written");
  const poly bhsqsk = detail::dim_poly<dim_at<Q, 0>>() * detail::dim_poly<dim_at<Q, 1>>() * detail::dim_poly<dim_at<Q, 2>>() * detail::dim_poly<dim_at<K, 2>>();
  const poly scores = 2 * bhsqsk * detail::dim_poly<dim_at<Q, 3>>();    // 2*B*H*Sq*Sk*D
  const poly weighted = 2 * bhsqsk * detail::dim_poly<dim_at<V, 3>>();  // 2*B*H*Sq*Sk*Dv
  auto op = detail::make_op(op_kind::attention, "attention", scores + weighted, q, k, v, o);
  op.info.causal = mask == masking::causal;
  return op;
}

// ---------------------------------------------------------------------------------------------
// Elementwise, reductions, normalisation

// Elementwise operations broadcast by PyTorch's rules (tensor_concepts.h): a bias (C) beside an input
// (R,C), a per-row scale (R,1) with dim<"One", 1>. Every tensor counts its own elements in the
// compulsory bytes; the FLOP count is per element of the shape they broadcast to (the output's).
// The FLOP count is typed by the spec's author, so it counts under every convention, as custom()'s.
// Each check is a require() on a named predicate, so the error is reported where the spec calls the
// operation (the user's line) and the message names the operation that was written.

namespace detail {
/// Every written tensor among Ts has the shape all of Ts broadcast to.
template <class... Ts>
constexpr bool written_have_broadcast_shape() { return ((!Written<Ts> || HasBroadcastShape<Ts, Ts...>) && ...); }

template <Tensor... Ts>
constexpr operation<Ts...> make_elementwise(const char* name, double flops_per_element, Ts... ts) {
  return make_op(op_kind::elementwise, name, flops_per_element * shape_elements<broadcast_shape<Ts...>>::value(), ts...);
}
}  // namespace detail

/// Tensors that broadcast together, @p flops_per_element FLOP per element of the shape they broadcast
/// to; every written tensor has that shape.
template <Tensor First, Tensor... Rest>
constexpr operation<First, Rest...> elementwise(double flops_per_element, const First& first, const Rest&... rest) {
  detail::require(Broadcastable<First, Rest...>, "rooflint: elementwise: the shapes do not broadcast (aligned from the last dimension, two dimensions must be the same, or one missing or of static size 1)");
  detail::require(Written<First> || (Written<Rest> || ...), "rooflint: elementwise: at least one tensor must be written");
  detail::require(detail::written_have_broadcast_shape<First, Rest...>(), "rooflint: elementwise: every written tensor must have the shape all the tensors broadcast to");
  detail::require(flops_per_element >= 0, "rooflint: elementwise: the FLOP count per element must not be negative");
  return detail::make_elementwise("elementwise", flops_per_element, first, rest...);
}

/// out = f(in), elementwise, @p flops_per_element FLOP per element of out; in broadcasts to out's shape.
template <Tensor In, Tensor Out>
constexpr operation<In, Out> unary(double flops_per_element, const In& in, const Out& out) {
  detail::require(HasBroadcastShape<Out, In, Out>, "rooflint: unary: the input must broadcast to the output's shape (aligned from the last dimension, each dimension the output's, missing, or of static size 1)");
  detail::require(Read<In> && Written<Out>, "rooflint: unary: the input must be read and the output written");
  detail::require(flops_per_element >= 0, "rooflint: unary: the FLOP count per element must not be negative");
  return detail::make_elementwise("unary", flops_per_element, in, out);
}

/// out = f(a, b), elementwise, @p flops_per_element FLOP per element of out; a and b broadcast to
/// out's shape: `binary(1, in<0>("x", f32, R, C), in<1>("bias", f32, C), out<2>("y", f32, R, C))`.
template <Tensor A, Tensor B, Tensor Out>
constexpr operation<A, B, Out> binary(double flops_per_element, const A& a, const B& b, const Out& out) {
  detail::require(HasBroadcastShape<Out, A, B, Out>, "rooflint: binary: both inputs must broadcast to the output's shape (aligned from the last dimension, each dimension the output's, missing, or of static size 1)");
  detail::require(Read<A> && Read<B> && Written<Out>, "rooflint: binary: both inputs must be read and the output written");
  detail::require(flops_per_element >= 0, "rooflint: binary: the FLOP count per element must not be negative");
  return detail::make_elementwise("binary", flops_per_element, a, b, out);
}

/// Sum (or max, ...) of in over the dimensions that out lacks; 1 FLOP per input element.
template <Tensor In, Tensor Out>
constexpr operation<In, Out> reduction(const In& in, const Out& out) {
  detail::require(DimsSubsetOf<Out, In>, "rooflint: reduction: every dimension of the output must be a dimension of the input");
  detail::require(Out::rank < In::rank, "rooflint: reduction: the output must have fewer dimensions than the input");
  detail::require(Read<In> && Written<Out>, "rooflint: reduction: input must be read and output written");
  auto op = detail::make_op(op_kind::reduction, "reduction", In::elements(), in, out);
  op.info.zero_under_torch = true;
  return op;
}

// ---------------------------------------------------------------------------------------------
// Softmax and normalisation, over the last dimension or the dimensions over(...) names

/// The dimensions a softmax or normalisation works over, when not the input's last one: `over(C)`
/// for a norm over the channels of (N,C,H,W), `over(H, W)` for one over each plane.
template <class... Ds>
struct over_dims {};

template <Dim... Ds>
constexpr over_dims<std::remove_cvref_t<Ds>...> over(Ds...) {
  static_assert(sizeof...(Ds) > 0, "rooflint: over: name the dimensions the operation works over: over(C), over(H, W)");
  return {};
}

namespace detail {
template <class T> struct is_over_dims : std::false_type {};
template <class... Ds> struct is_over_dims<over_dims<Ds...>> : std::true_type {};
}  // namespace detail

/// What over(...) returns: the dimensions a softmax or normalisation works over.
template <class T>
concept OverDims = detail::is_over_dims<std::remove_cvref_t<T>>::value;

namespace detail {
/// Every dimension of Over is a dimension of In, none twice.
template <class In, class Over> struct over_valid : std::false_type {};
template <Tensor In, class... Ds>
struct over_valid<In, over_dims<Ds...>>
    : std::bool_constant<(contains_dim<Ds, typename In::shape>::value && ...) && ((count_of<Ds, Ds...>() == 1) && ...)> {};

/// No over(...): the last dimension.
template <Tensor In, class... Over>
constexpr bool over_ok() {
  if constexpr (sizeof...(Over) == 0) return In::rank > 0;
  else return (over_valid<In, std::remove_cvref_t<Over>>::value && ...);
}

/// A scale or shift P of a normalisation over the last dimension has that dimension's shape (C);
/// with over(...), its dimensions are dimensions of the input (it is broadcast over the rest: a
/// group norm's (C) scale beside an (N,G,Cg,H,W) input over (Cg,H,W) is written (G,Cg)).
template <class P, class In, std::size_t OverCount>
constexpr bool affine_shape_ok() {
  if constexpr (std::is_void_v<P>) return true;
  else if constexpr (OverCount == 0) return HasRank<P, 1> && SameDimAt<P, 0, In, In::rank - 1>;
  else return DimsSubsetOf<P, In>;
}

template <class P> constexpr bool read_or_absent() {
  if constexpr (std::is_void_v<P>) return true; else return Read<P>;
}

/// The checks of layernorm (Rms false) and rmsnorm, each message on the line of its require().
template <bool Rms, class In, class Out, class Gamma, class Beta, class... Over>
constexpr void check_norm() {
  constexpr bool shapes = SameShape<In, Out>, roles = Read<In> && Written<Out> && read_or_absent<Gamma>() && read_or_absent<Beta>();
  constexpr bool dims = over_ok<In, Over...>();
  constexpr bool affine = affine_shape_ok<Gamma, In, sizeof...(Over)>() && affine_shape_ok<Beta, In, sizeof...(Over)>();
  constexpr bool pair = std::is_void_v<Gamma> || std::is_void_v<Beta> || SameShape<Gamma, Beta>;
  if constexpr (Rms) {
    require(shapes, "rooflint: rmsnorm: input and output must have the same shape");
    require(roles, "rooflint: rmsnorm: input and gamma must be read and output written");
    require(dims, "rooflint: rmsnorm: over(...) must name dimensions of the input, each once");
    if constexpr (sizeof...(Over) == 0) require(affine, "rooflint: rmsnorm: gamma must have shape (C), the input's last dimension (or name the normalised dimensions: over(...))");
    else require(affine, "rooflint: rmsnorm: every dimension of gamma must be a dimension of the input");
  } else {
    require(shapes, "rooflint: layernorm: input and output must have the same shape");
    require(roles, "rooflint: layernorm: input, gamma and beta must be read and output written");
    require(dims, "rooflint: layernorm: over(...) must name dimensions of the input, each once");
    require(pair, "rooflint: layernorm: gamma and beta must have the same shape");
    if constexpr (sizeof...(Over) == 0) require(affine, "rooflint: layernorm: gamma and beta must have shape (C), the input's last dimension");
    else require(affine, "rooflint: layernorm: every dimension of gamma and beta must be a dimension of the input");
  }
}

template <Tensor... Ts>
constexpr operation<Ts...> make_norm(const char* name, double flops_per_element, poly elements, Ts... ts) {
  auto op = make_op(op_kind::layernorm, name, flops_per_element * elements, ts...);
  op.info.zero_under_torch = true;
  return op;
}
}  // namespace detail

/// Softmax along the last dimension, or the dimension over(...) names; 5 FLOP per element.
template <Tensor In, Tensor Out, OverDims... Over>
constexpr operation<In, Out> softmax(const In& in, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: softmax: give over(...) once");
  detail::require(SameShape<In, Out>, "rooflint: softmax: input and output must have the same shape");
  detail::require(Read<In> && Written<Out>, "rooflint: softmax: input must be read and output written");
  detail::require(detail::over_ok<In, Over...>(), "rooflint: softmax: over(...) must name dimensions of the input, each once");
  auto op = detail::make_op(op_kind::softmax, "softmax", 5 * In::elements(), in, out);
  op.info.zero_under_torch = true;
  return op;
}

// Normalisations. FLOP rules per element of the input (rooflint's own; 0 under torch.utils.flop_counter):
//  - layernorm: mean 1, variance 3 (subtract, square, add), normalise 2 (subtract, multiply by rstd): 6;
//    + 1 for a scale gamma, + 1 for a shift beta (8 with both).
//  - rmsnorm: mean of squares 2 (multiply, add), normalise 1 (multiply by rstd): 3; + 1 for gamma.
// Over the last dimension unless over(...) names others: a norm over the channels of (N,C,H,W)
// (over(C)), an instance norm (over(H, W)), a group norm of (N,G,Cg,H,W) (over(Cg, H, W)). The
// statistics a kernel also writes (mean, rstd) are extra outputs: .with(out<...>("rstd", f32, N, G)).

/// Layer normalisation without scale or shift; 6 FLOP per element.
template <Tensor In, Tensor Out, OverDims... Over>
constexpr operation<In, Out> layernorm(const In& in, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: layernorm: give over(...) once");
  detail::check_norm<false, In, Out, void, void, Over...>();
  return detail::make_norm("layernorm", 6, In::elements(), in, out);
}

/// Layer normalisation with a scale gamma only (torch's LayerNorm(bias=False)); 7 FLOP per element.
template <Tensor In, Tensor Gamma, Tensor Out, OverDims... Over>
constexpr operation<In, Gamma, Out> layernorm(const In& in, const Gamma& gamma, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: layernorm: give over(...) once");
  detail::check_norm<false, In, Out, Gamma, void, Over...>();
  return detail::make_norm("layernorm", 7, In::elements(), in, gamma, out);
}

/// Layer normalisation with scale gamma and shift beta, both (C) for input (..., C); 8 FLOP per element.
template <Tensor In, Tensor Gamma, Tensor Beta, Tensor Out, OverDims... Over>
constexpr operation<In, Gamma, Beta, Out> layernorm(const In& in, const Gamma& gamma, const Beta& beta, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: layernorm: give over(...) once");
  detail::check_norm<false, In, Out, Gamma, Beta, Over...>();
  return detail::make_norm("layernorm", 8, In::elements(), in, gamma, beta, out);
}

/// RMS normalisation without scale; 3 FLOP per element.
template <Tensor In, Tensor Out, OverDims... Over>
constexpr operation<In, Out> rmsnorm(const In& in, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: rmsnorm: give over(...) once");
  detail::check_norm<true, In, Out, void, void, Over...>();
  return detail::make_norm("rmsnorm", 3, In::elements(), in, out);
}

/// RMS normalisation with a scale gamma (C) for input (..., C); 4 FLOP per element.
template <Tensor In, Tensor Gamma, Tensor Out, OverDims... Over>
constexpr operation<In, Gamma, Out> rmsnorm(const In& in, const Gamma& gamma, const Out& out, Over...) {
  static_assert(sizeof...(Over) <= 1, "rooflint: rmsnorm: give over(...) once");
  detail::check_norm<true, In, Out, Gamma, void, Over...>();
  return detail::make_norm("rmsnorm", 4, In::elements(), in, gamma, out);
}

/// Anything else: you state the ideal FLOPs (`2 * N * N`, `2 * ceil_div(N, 128) * 128 * K`), counted
/// under every convention. The FLOP count may use only dimensions of these tensors and must not be
/// negative at any sizes.
template <SizeLike F, Tensor... Ts>
constexpr operation<Ts...> custom(const F& flops, const Ts&... ts) {
  static_assert(sizeof...(Ts) > 0, "rooflint: custom: name the tensors the operation reads and writes");
  const size_expr f = to_expr(flops);
  using dims = detail::probe<typename detail::concat<typename Ts::shape...>::type>;
  detail::require(dims::covers(f), "rooflint: custom: the FLOP count uses a dimension that none of its tensors has");
  detail::require(!dims::negative_somewhere(f.value, f.sizes), "rooflint: custom: the FLOP count must not be negative");
  auto op = detail::make_op(op_kind::custom, "custom", f.value, ts...);
  op.sizes = f.sizes;
  return op;
}

}  // namespace rooflint::dsl
