#pragma once
/// @file dims.h
/// Dimension tags shared by the DSL's value tests.

#include "rooflint/dsl.h"

namespace rooflint::dsl::testing {
// clang-format off
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
// Convolution: batch, channels, spatial sizes, kernel sizes.
inline constexpr struct Nb final : dim<"Nb"> {} Nb;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct Cg final : dim<"Cg"> {} Cg;
inline constexpr struct Co final : dim<"Co"> {} Co;
inline constexpr struct L final : dim<"L"> {} L;
inline constexpr struct Lo final : dim<"Lo"> {} Lo;
inline constexpr struct Kl final : dim<"Kl"> {} Kl;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct Do final : dim<"Do"> {} Do;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct Kd final : dim<"Kd"> {} Kd;
inline constexpr struct Kh final : dim<"Kh"> {} Kh;
inline constexpr struct Kw final : dim<"Kw"> {} Kw;
inline constexpr struct K3 final : dim<"K3", 3> {} K3;   // a static kernel size
// Attention: batch, heads, sequence lengths, head dimensions.
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct Nh final : dim<"Nh"> {} Nh;
inline constexpr struct S final : dim<"S"> {} S;
inline constexpr struct Sq final : dim<"Sq"> {} Sq;
inline constexpr struct Sk final : dim<"Sk"> {} Sk;
inline constexpr struct Dh final : dim<"Dh"> {} Dh;
inline constexpr struct Dv final : dim<"Dv"> {} Dv;
// Embedding lookup: vocabulary, tokens.
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct Rd final : param<"Rd"> {} Rd;   // a parameter no tensor has (a filter's radius)
// clang-format on
}  // namespace rooflint::dsl::testing
