// Compile-time tests of the roofline model: every function is constexpr, so the analyzer, the DSL's
// checks and the runtime compute with the same code. Values by hand in the comments.
#include "rooflint/model.h"

namespace model = rooflint::model;

namespace {
constexpr auto h200 = *model::find_peaks("NVIDIA H200");

// 66.9e12 / 4.8e12 = 13.9375; 494.7 / 4.8 = 103.0625; 989.4 / 4.8 = 206.125.
constexpr bool near(double a, double b) { return (a > b ? a - b : b - a) < 1e-9; }
static_assert(near(model::ridge(h200, model::math_mode::fp32_simt), 13.9375));
static_assert(near(model::ridge(h200, model::math_mode::tf32_tensor), 103.0625));
static_assert(near(model::ridge(h200, model::math_mode::bf16_tensor), 206.125));

// Name matching, longest key first.
static_assert(model::find_peaks("NVIDIA L40S")->device == "L40S");
static_assert(model::find_peaks("NVIDIA L4")->device == "L4");
static_assert(model::find_peaks("NVIDIA H100 PCIe")->device == "H100 PCIe");
static_assert(model::find_peaks("NVIDIA H100 80GB HBM3")->device == "H100 SXM");
static_assert(!model::find_peaks("Tesla K80").has_value());

// At the ridge compute time equals memory time, and the tie is compute-bound.
constexpr model::workload at_ridge{13.9375e9, 1e9, model::math_mode::fp32_simt};
static_assert(near(model::compute_time_s(at_ridge, h200), model::memory_time_s(at_ridge, h200)));
static_assert(model::classify(at_ridge, h200).verdict == model::bound::compute);
// t_min is the larger of the two: 1e9 bytes / 4.8e12 = 208.3 us > 1e9 FLOP / 66.9e12 = 14.9 us.
constexpr model::workload low{1e9, 1e9, model::math_mode::fp32_simt};
static_assert(model::t_min_s(low, h200) == model::memory_time_s(low, h200));
static_assert(model::classify(low, h200).verdict == model::bound::memory);

// dtype sizes.
static_assert(model::size_bytes(model::dtype::f64) == 8 && model::size_bytes(model::dtype::tf32) == 4 &&
              model::size_bytes(model::dtype::bf16) == 2 && model::size_bytes(model::dtype::fp8_e5m2) == 1);
static_assert(model::default_math_mode(model::dtype::f32) == model::math_mode::fp32_simt);
static_assert(model::default_math_mode(model::dtype::bf16) == model::math_mode::bf16_tensor);
static_assert(model::parse_dtype("fp8_e4m3") == model::dtype::fp8_e4m3 && !model::parse_dtype("f31"));
static_assert(model::roofline_fraction(1e-3, 4e-3) == 0.25);
}  // namespace
