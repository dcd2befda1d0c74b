#pragma once
/// @file common.h
/// Dimensions and kernels shared by the compile-fail cases. Each case is one .cpp that must fail to
/// compile with the message in its `expected-message:` line, and must compile with -DROOFLINT_FIXED
/// (the nearest valid spec).

#include <cstdint>

#include "rooflint/dsl.h"

using namespace rooflint::dsl;

// clang-format off
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct J final : dim<"J"> {} J;
inline constexpr struct Rd final : param<"Rd"> {} Rd;   // a parameter no tensor has (a radius)
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct Bu final : dim<"Bu"> {} Bu;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct Cg final : dim<"Cg"> {} Cg;
inline constexpr struct Co final : dim<"Co"> {} Co;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct K3 final : dim<"K3", 3> {} K3;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct Nh final : dim<"Nh"> {} Nh;
inline constexpr struct S final : dim<"S"> {} S;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct E final : dim<"E"> {} E;
inline constexpr struct T final : dim<"T"> {} T;
// clang-format on

void sgemm(const float*, const float*, float*, int) {}
void hbmm(const __half*, const __half*, __half*) {}
void conv_f32(const float*, const float*, float*) {}
void flash(const __half*, const __half*, const __half*, __half*) {}
void vadd(const float*, const float*, float*, int) {}
void rowwise(const float*, float*) {}
void gather_rows(const int*, float*) {}
void scatter_rows(int*, const float*) {}
void norm_affine(const float*, const float*, const float*, float*) {}
void mm4(const float*, const float*, const float*, float*) {}
void nine(const float*, const float*, const float*, const float*, const float*, const float*, const float*,
          const float*, float*) {}
