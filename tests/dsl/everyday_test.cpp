// Everyday kernels: a bias added by broadcasting, RMSNorm and norms over other dimensions, byte and
// unsigned data, elementwise-like work on the SIMT roof, Q, K and V packed in one buffer, sizes defined by
// other sizes, an overloaded kernel and the instantiations of a kernel template. Every expected count is
// derived in the comment above it, from the shapes and dtype sizes (f32 4 bytes, bf16 2, u8 1, u32 4).
#include <gtest/gtest.h>

#include "dims.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;
namespace model = rooflint::model;

namespace {
// clang-format off
inline constexpr struct R final : dim<"R"> {} R;          // rows (B*T tokens)
inline constexpr struct One final : dim<"One", 1> {} One;  // a broadcast dimension of size 1
inline constexpr struct G final : dim<"G"> {} G;          // groups of a group norm
inline constexpr struct Bins final : dim<"Bins", 256> {} Bins;
inline constexpr struct NH final : dim<"NH"> {} NH;
inline constexpr struct HS final : dim<"HS"> {} HS;
// clang-format on

void bias_gelu(const float*, const float*, float*, int, int) {}
void row_scale(const float*, const float*, float*) {}
void rmsnorm_bf16(__nv_bfloat16*, float*, const __nv_bfloat16*, const __nv_bfloat16*, int, int) {}
void group_norm(const float*, const float*, const float*, float*, float*, float*) {}
void channel_norm(const float*, float*) {}
void byte_histogram(const std::uint8_t*, unsigned int*, int) {}
void bf16_residual(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*) {}
void attention_packed(float*, const float*, int, int, int, int) {}
void rows_of(const float*, float*, int, int, int) {}

// bias + GELU (tanh form): 1 add + 9 FLOP of GELU per element of the (R,C) output.
inline constexpr auto bias_gelu_spec =
    kernel<bias_gelu>("bias_gelu", binary(10, in<0>("x", f32, R, C),      // x: (R,C)
                                              in<1>("bias", f32, C),      // bias: (C), broadcast over R
                                              out<2>("y", f32, R, C)))    // y: (R,C)
        .sizes(R(arg<3>), C(arg<4>));

// y = x * s with one scale per row: s is (R,1).
inline constexpr auto row_scale_spec =
    kernel<row_scale>("row_scale", binary(1, in<0>("x", f32, R, C),       // x: (R,C)
                                             in<1>("s", f32, R, One),     // s: (R,1)
                                             out<2>("y", f32, R, C)));    // y: (R,C)

// llm.c-style RMSNorm in bf16 with its f32 rstd: rmsnorm_forward(out, rstd, inp, weight, N, C).
inline constexpr auto rmsnorm_spec =
    kernel<rmsnorm_bf16>("rmsnorm", rmsnorm(in<2>("inp", bf16, R, C),     // inp: (R,C)
                                            in<3>("weight", bf16, C),     // weight: (C)
                                            out<0>("out", bf16, R, C))    // out: (R,C)
                                        .with(out<1>("rstd", f32, R)))    // rstd: (R)
        .sizes(R(arg<4>), C(arg<5>))
        .count_elementwise();

// torch.nn.GroupNorm over (N,C,H,W) with C = G*Cg, written (N,G,Cg,H,W): statistics per (N,G), the
// scale and shift per channel (G,Cg).
inline constexpr auto group_norm_spec =
    kernel<group_norm>("group_norm", layernorm(in<0>("x", f32, Nb, G, Cg, H, W),       // x: (N,G,Cg,H,W)
                                               in<1>("gamma", f32, G, Cg),             // gamma: (G,Cg)
                                               in<2>("beta", f32, G, Cg),              // beta: (G,Cg)
                                               out<3>("y", f32, Nb, G, Cg, H, W),      // y: (N,G,Cg,H,W)
                                               over(Cg, H, W))
                                         .with(out<4>("mean", f32, Nb, G), out<5>("rstd", f32, Nb, G)))
        .count_elementwise();

// A LayerNorm over the channels of NCHW (ConvNeXt's LayerNorm2d without affine): not the last dimension.
inline constexpr auto channel_norm_spec =
    kernel<channel_norm>("channel_norm", layernorm(in<0>("x", f32, Nb, C, H, W),    // x: (N,C,H,W)
                                                   out<1>("y", f32, Nb, C, H, W),   // y: (N,C,H,W)
                                                   over(C)))
        .count_elementwise();

// A byte histogram: one increment per byte into 256 unsigned bins, read and written.
inline constexpr auto histogram_spec =
    kernel<byte_histogram>("histogram", custom(N, in<0>("bytes", u8, N),          // bytes: (N)
                                                  inout<1>("bins", u32, Bins)))  // bins: (256)
        .sizes(N(arg<2>));

// A bf16 residual add written as custom(): y = x + r, 1 FLOP per element, math in f32.
inline constexpr auto residual_spec =
    kernel<bf16_residual>("residual", custom(M * N, in<0>("x", bf16, M, N),    // x: (M,N)
                                                    in<1>("r", bf16, M, N),    // r: (M,N)
                                                    out<2>("y", bf16, M, N)));  // y: (M,N)

// llm.c's attention_forward reads Q, K and V from one (B,T,3,NH,HS) buffer: three slices of
// parameter 1 at 0, NH*HS and 2*NH*HS elements; HS = C / NH from the launch's C and NH.
inline constexpr auto attention_spec =
    kernel<attention_packed>("attention", attention(in<1>("q", f32, B, NH, T, HS).slice(0),              // q: (B,NH,T,HS)
                                                    in<1>("k", f32, B, NH, T, HS).slice(NH * HS),        // k: (B,NH,T,HS)
                                                    in<1>("v", f32, B, NH, T, HS).slice(2 * NH * HS),    // v: (B,NH,T,HS)
                                                    out<0>("out", f32, B, NH, T, HS)))                   // out: (B,NH,T,HS)
        .sizes(B(arg<2>), T(arg<3>), C(arg<4>), NH(arg<5>), HS(C / NH));

// A row-wise kernel over N = B*T rows, launched with B and T.
inline constexpr auto rows_spec =
    kernel<rows_of>("rows", rmsnorm(in<0>("x", f32, N, C), out<1>("y", f32, N, C)))
        .sizes(B(arg<2>), T(arg<3>), N(B * T), C(arg<4>));

launch_values args(std::initializer_list<std::pair<int, std::int64_t>> values) {
  launch_values v;
  for (const auto& [i, value] : values) {
    v.args[static_cast<std::size_t>(i)] = value;
    v.has_arg[static_cast<std::size_t>(i)] = true;
  }
  return v;
}
}  // namespace

TEST(FlopBasis, SaysWhereTheIdealFlopsComeFrom) {
  // A binary op's FLOPs per element are typed in the spec: counted as stated under every convention.
  EXPECT_EQ(flop_basis(row_scale_spec), "as the spec states them");
  // A norm's count is rooflint's own rule, which count_elementwise switches on; torch counts it 0.
  EXPECT_EQ(flop_basis(rmsnorm_spec), "rooflint's rule for rmsnorm, count_elementwise");
  constexpr auto by_torch = kernel<channel_norm>("channel_norm", layernorm(in<0>("x", f32, Nb, C, H, W),   // x: (N,C,H,W)
                                                                          out<1>("y", f32, Nb, C, H, W),  // y: (N,C,H,W)
                                                                          over(C)));
  EXPECT_EQ(flop_basis(by_torch), "torch.utils.flop_counter, which counts layernorm as 0");
  EXPECT_EQ(to_string(by_torch.flops), "0");
}

TEST(Broadcast, ABiasCountsItsOwnElementsOnce) {
  // R = 8192 rows (B*T at GPT-2's B = 8, T = 1024), C = 3072 (the MLP width): R*C = 25,165,824.
  //   read:    x 4*R*C = 100,663,296; bias 4*C = 12,288 -> 100,675,584
  //   written: y 4*R*C = 100,663,296
  //   FLOPs:   10 per element of the (R,C) output = 251,658,240
  EXPECT_EQ(to_string(bias_gelu_spec.read_bytes), "4*R*C + 4*C");
  const auto r = bias_gelu_spec.bind_launch(args({{3, 8192}, {4, 3072}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(bias_gelu_spec.read_bytes_at(r.bound), 100675584.0);
  EXPECT_DOUBLE_EQ(bias_gelu_spec.written_bytes_at(r.bound), 100663296.0);
  EXPECT_DOUBLE_EQ(bias_gelu_spec.flops_at(r.bound), 251658240.0);
  EXPECT_EQ(bias_gelu_spec.op.name.view(), "binary");
}

TEST(Broadcast, AStaticSizeOneDimensionBroadcastsAPerRowScale) {
  // s is (R,1): 4*R bytes; x and y 4*R*C each. R = 1000, C = 512: 2,048,000 + 4,000 read, 1 FLOP per
  // element of (R,C) = 512,000.
  const auto r = row_scale_spec.bind(R(1000), C(512));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(row_scale_spec.read_bytes_at(r.bound), 2052000.0);
  EXPECT_DOUBLE_EQ(row_scale_spec.flops_at(r.bound), 512000.0);
}

TEST(Broadcast, BroadcastShapesFollowPyTorchsRules) {
  using X = decltype(in<0>("x", f32, R, C));
  using Bias = decltype(in<1>("b", f32, C));
  using Col = decltype(in<1>("s", f32, R, One));
  using Wrong = decltype(in<1>("w", f32, R));
  static_assert(std::is_same_v<broadcast_shape<X, Bias>, type_list<std::remove_cvref_t<decltype(R)>, std::remove_cvref_t<decltype(C)>>>);
  static_assert(std::is_same_v<broadcast_shape<Col, Bias>, X::shape>);  // (R,1) with (C): (R,C)
  static_assert(Broadcastable<X, Bias> && Broadcastable<X, Col> && Broadcastable<Bias>);
  static_assert(!Broadcastable<X, Wrong>);  // (R,C) with (R): R meets C, aligned from the last dimension
  SUCCEED();
}

TEST(Normalisation, RmsnormCountsFourFlopsPerElementWithAScale) {
  // R = 8192, C = 4096: R*C = 33,554,432 elements.
  //   read:    inp 2*R*C = 67,108,864; weight 2*C = 8,192 -> 67,117,056
  //   written: out 2*R*C = 67,108,864; rstd 4*R = 32,768 -> 67,141,632
  //   FLOPs (elementwise counted): mean of squares 2, normalise 1, scale 1 = 4 per element = 134,217,728
  const auto r = rmsnorm_spec.bind_launch(args({{4, 8192}, {5, 4096}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(rmsnorm_spec.read_bytes_at(r.bound), 67117056.0);
  EXPECT_DOUBLE_EQ(rmsnorm_spec.written_bytes_at(r.bound), 67141632.0);
  EXPECT_DOUBLE_EQ(rmsnorm_spec.flops_at(r.bound), 134217728.0);
  EXPECT_EQ(rmsnorm_spec.op.name.view(), "rmsnorm");
  // Normalisation on bf16 storage is FP32 SIMT work (no tensor-core path).
  EXPECT_EQ(rmsnorm_spec.mode, model::math_mode::fp32_simt);
}

TEST(Normalisation, ScaleAndShiftAreOptionalAndCountedOnePerElementEach) {
  // layernorm 6 per element, 7 with a scale, 8 with scale and shift; rmsnorm 3, 4 with a scale.
  constexpr auto plain = layernorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N));
  constexpr auto scaled = layernorm(in<0>("x", f32, M, N), in<1>("g", f32, N), out<2>("y", f32, M, N));
  constexpr auto affine = layernorm(in<0>("x", f32, M, N), in<1>("g", f32, N), in<2>("b", f32, N), out<3>("y", f32, M, N));
  constexpr auto rms = rmsnorm(in<0>("x", f32, M, N), out<1>("y", f32, M, N));
  EXPECT_EQ(to_string(plain.info.flops), "6*M*N");
  EXPECT_EQ(to_string(scaled.info.flops), "7*M*N");
  EXPECT_EQ(to_string(affine.info.flops), "8*M*N");
  EXPECT_EQ(to_string(rms.info.flops), "3*M*N");
  EXPECT_TRUE(rms.info.zero_under_torch);  // rooflint's own rule: 0 under torch.utils.flop_counter
}

TEST(Normalisation, AGroupNormOverItsGroupsCountsPerChannelParameters) {
  // N = 8, G = 32, Cg = 8 (C = 256), H = W = 56: 8*256*3136 = 6,422,528 elements.
  //   read:    x 4*6,422,528 = 25,690,112; gamma and beta 4*256 = 1,024 each -> 25,692,160
  //   written: y 25,690,112; mean and rstd 4*8*32 = 1,024 each -> 25,692,160
  //   FLOPs:   8 per element (scale and shift) = 51,380,224
  const auto r = group_norm_spec.bind(Nb(8), G(32), Cg(8), H(56), W(56));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(group_norm_spec.read_bytes_at(r.bound), 25692160.0);
  EXPECT_DOUBLE_EQ(group_norm_spec.written_bytes_at(r.bound), 25692160.0);
  EXPECT_DOUBLE_EQ(group_norm_spec.flops_at(r.bound), 51380224.0);
}

TEST(Normalisation, ANormOverTheChannelsOfNchw) {
  // Without scale or shift: 6 per element, over C, which is not the last dimension.
  EXPECT_EQ(to_string(channel_norm_spec.flops), "6*Nb*C*H*W");
  EXPECT_EQ(to_string(channel_norm_spec.bytes()), "8*Nb*C*H*W");
}

TEST(Unsigned, AByteHistogramReadsBytesAndCountsIntoUnsignedBins) {
  // N = 2^30 bytes: 1 byte each read; 256 u32 bins read and written: 2 * 4 * 256 = 2,048 bytes.
  // 1 FLOP (an increment) per byte. Integer work meets the FP32 SIMT roof, not a tensor roof.
  EXPECT_EQ(histogram_spec.tensors[0].dtype, model::dtype::u8);
  EXPECT_EQ(histogram_spec.tensors[1].dtype, model::dtype::u32);
  const auto r = histogram_spec.bind_launch(args({{2, std::int64_t{1} << 30}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(histogram_spec.bytes_at(r.bound), 1073741824.0 + 2048.0);
  EXPECT_DOUBLE_EQ(histogram_spec.flops_at(r.bound), 1073741824.0);
  EXPECT_EQ(histogram_spec.mode, model::math_mode::fp32_simt);
}

TEST(Unsigned, DtypesHaveTheirWidthsAndNames) {
  EXPECT_EQ(model::size_bytes(model::dtype::u8), 1u);
  EXPECT_EQ(model::size_bytes(model::dtype::u16), 2u);
  EXPECT_EQ(model::size_bytes(model::dtype::u32), 4u);
  EXPECT_EQ(model::size_bytes(model::dtype::u64), 8u);
  // Every dtype's name reads back as that dtype: the manifest writes names and reads them back.
  for (std::size_t i = 0; i < model::dtype_count; ++i) {
    const auto d = static_cast<model::dtype>(i);
    EXPECT_EQ(model::parse_dtype(model::name(d)), d) << model::name(d);
  }
  EXPECT_TRUE(is_integer(model::dtype::u64) && !is_integer(model::dtype::fp8_e4m3));
}

TEST(Roofs, CustomWorkOnBf16MeetsTheFp32SimtRoof) {
  // A bf16 residual add does its arithmetic on CUDA cores (in f32): the FP32 SIMT roof, as elementwise()
  // would; on H200 its ridge is 67 TFLOP/s / 4.8 TB/s = 13.9 FLOP/byte, not the BF16 tensor ridge.
  EXPECT_EQ(residual_spec.mode, model::math_mode::fp32_simt);
  // A custom kernel that does use tensor cores says so.
  EXPECT_EQ(residual_spec.math(model::math_mode::bf16_tensor).mode, model::math_mode::bf16_tensor);
  // Contractions keep the tensor roof of their dtype.
  EXPECT_TRUE(is_contraction(op_kind::matmul) && !is_contraction(op_kind::custom));
}

TEST(Roofs, ATypedElementwiseCountIsNeverDropped) {
  // unary(10, ...) under the default (torch) convention: 10 FLOP per element, as typed; 8 bytes each.
  constexpr auto gelu = unary(10, in<0>("x", f32, N), out<1>("y", f32, N));
  EXPECT_FALSE(gelu.info.zero_under_torch);
  EXPECT_EQ(to_string(gelu.info.flops), "10*N");
}

TEST(Slices, PackedQkvAreThreePartsOfOneParameter) {
  // B = 8, T = 1024, C = 768, NH = 12: HS = 64; each of q, k, v is B*NH*T*HS = 6,291,456 floats.
  //   read:    q, k, v 3 * 4 * 6,291,456 = 75,497,472 (the whole (B,T,3,C) buffer, once)
  //   written: out 4 * 6,291,456 = 25,165,824
  const auto r = attention_spec.bind_launch(args({{2, 8}, {3, 1024}, {4, 768}, {5, 12}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r.bound[static_cast<std::size_t>(attention_spec.dim_index(name_t("HS")))], 64.0);
  EXPECT_DOUBLE_EQ(attention_spec.read_bytes_at(r.bound), 75497472.0);
  EXPECT_DOUBLE_EQ(attention_spec.written_bytes_at(r.bound), 25165824.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(attention_spec.tensors[i].arg, 1);
    EXPECT_TRUE(attention_spec.tensors[i].sliced);
  }
  EXPECT_FALSE(attention_spec.tensors[3].sliced);
  EXPECT_EQ(to_string(attention_spec.tensors[0].offset), "0");
  EXPECT_EQ(to_string(attention_spec.tensors[1].offset), "NH*HS");
  EXPECT_EQ(to_string(attention_spec.tensors[2].offset), "2*NH*HS");
}

TEST(DefinedSizes, AHeadSizeIsTheQuotientOfTwoArguments) {
  // C = 768 over NH = 11 heads does not divide: the launch does not bind, and HS is named.
  const auto r = attention_spec.bind_launch(args({{2, 8}, {3, 1024}, {4, 768}, {5, 11}}));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.violated.view(), "HS");
}

TEST(DefinedSizes, DivisionByADimensionIsExactAndByANumberScales) {
  // C / NH is a size term (exact division, no size where NH does not divide C); N * N / 16384 and N / 2
  // scale a polynomial, as 0.5 * N does.
  static_assert(std::is_same_v<decltype(C / NH), size_expr>);
  static_assert((C / NH).sizes.terms[0].op == size_op::div);
  static_assert(std::is_same_v<decltype(N * N / (128 * 128)), poly> && std::is_same_v<decltype(N / 2), poly>);
  static_assert((N / 2).terms[0].coefficient == 0.5);
  const size_term t = (C / NH).sizes.terms[0];
  EXPECT_EQ(t.apply(768, 12), 64);
  EXPECT_EQ(t.apply(768, 11), 0);   // 11 does not divide 768
  EXPECT_EQ(t.apply(76.5, 1), 0);   // nor is 76.5 a size
}

TEST(DefinedSizes, RowsAreTheProductOfTwoArguments) {
  // N = B * T = 4 * 256 = 1024 rows of C = 512: x and y 4 * 1024 * 512 = 2,097,152 bytes each.
  const auto r = rows_spec.bind_launch(args({{2, 4}, {3, 256}, {4, 512}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r.bound[static_cast<std::size_t>(rows_spec.dim_index(name_t("N")))], 1024.0);
  EXPECT_DOUBLE_EQ(rows_spec.read_bytes_at(r.bound), 2097152.0);
  // B and T are dimensions of the spec now (they are read), named in sizes_text.
  EXPECT_EQ(sizes_text(rows_spec, r.bound), "N=1024, C=512, B=4, T=256");
}

namespace {
void qk_partial(const float*, float*, int, int, int) {}
void qk_combine(const float*, float*, int) {}

// A region reads its sizes at one kernel the same way, definitions included.
inline constexpr auto region_spec_of =
    region<qk_partial, qk_combine>("qk", custom(2 * NH * T * T * HS, in("q", f32, T, NH, HS), in("k", f32, T, NH, HS),
                                                out("s", f32, NH, T, T)))
        .sizes<0>(T(arg<2>), C(arg<3>), NH(arg<4>), HS(C / NH));
}  // namespace

TEST(DefinedSizes, ARegionDefinesThemAtItsSiteKernel) {
  // T = 256, C = 512, NH = 8 read at qk_partial: HS = 64; q and k 4 * 256 * 512 = 524,288 bytes each.
  const auto r = region_spec_of.bind_launch(args({{2, 256}, {3, 512}, {4, 8}}));
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r.bound[static_cast<std::size_t>(region_spec_of.dim_index(name_t("HS")))], 64.0);
  EXPECT_DOUBLE_EQ(region_spec_of.read_bytes_at(r.bound), 1048576.0);
  EXPECT_EQ(region_spec_of.launch.kind, binding_kind::region);
  EXPECT_EQ(region_spec_of.size_terms.count, 1);
}

namespace {
void scale(const float*, float*, int) {}
void scale(const double*, double*, int) {}

template <class T>
void scale_t(const T*, T*, int) {}

/// One spec for every instantiation of scale_t; each instantiation a spec is wanted for is named.
template <class T>
inline constexpr auto scale_t_spec =
    kernel<scale_t<T>>("scale_t", unary(1, in<0>("x", dtype_of<T>, N), out<1>("y", dtype_of<T>, N))).sizes(N(arg<2>));
inline constexpr auto scale_f32 = scale_t_spec<float>;
inline constexpr auto scale_f16 = scale_t_spec<__half>;
}  // namespace

TEST(OverloadedKernels, TheFunctionTypePicksTheOverload) {
  constexpr auto spec = kernel<void(const double*, double*, int), scale>("scale", unary(1, in<0>("x", f64, N), out<1>("y", f64, N)));
  void (*const picked)(const double*, double*, int) = scale;
  EXPECT_EQ(spec.kernel, picked);
  EXPECT_EQ(spec.mode, model::math_mode::fp64);
}

TEST(KernelTemplates, EachInstantiationHasItsSpecAndDtypes) {
  // f32: 4 + 4 bytes per element; f16: 2 + 2.
  EXPECT_DOUBLE_EQ(scale_f32.bytes_at(scale_f32.bind(N(1000)).bound), 8000.0);
  EXPECT_DOUBLE_EQ(scale_f16.bytes_at(scale_f16.bind(N(1000)).bound), 4000.0);
  EXPECT_EQ(scale_f16.tensors[0].dtype, model::dtype::f16);
  void (*const f16_kernel)(const __half*, __half*, int) = scale_t<__half>;
  EXPECT_EQ(scale_f16.kernel, f16_kernel);
}
