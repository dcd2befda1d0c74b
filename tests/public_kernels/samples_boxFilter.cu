/// @file samples_boxFilter.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/boxFilter/boxFilter_kernel.cu: the box filter's passes
/// over global memory, as the sample launches them (64 threads a block, radius 14), on a 2048 x 2048
/// image: d_boxfilter_x_global (a thread a row, walking it: each lane in a row of its own),
/// d_boxfilter_y_global and d_boxfilter_rgba_y (a thread a column, the lanes side by side). Each pass keeps
/// a running sum: every element is read twice, 2r + 1 elements (or rows) apart.
#include "public_kernels.h"

#include "samples_helper_math.h"

#include "2_Concepts_and_Techniques/boxFilter/boxFilter_kernel.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct W final : dim<"W"> {} W;   // width
inline constexpr struct H final : dim<"H"> {} H;   // height
inline constexpr struct R final : param<"R"> {} R; // the filter's radius: a parameter no tensor's size holds

// Per element: one add and one subtract of the running sum, one multiply by the scale.
inline constexpr auto box_f32 = custom(3 * W * H, in<0>("id", f32, H, W), out<1>("od", f32, H, W));
inline constexpr auto box_rgba = custom(12 * W * H, in<0>("id", u32, H, W), out<1>("od", u32, H, W));

inline constexpr auto d_boxfilter_x_global_spec =
    kernel<d_boxfilter_x_global>("d_boxfilter_x_global", box_f32)
        .sizes(W(arg<2>), H(arg<3>), R(arg<4>)).at(W(2048), H(2048), R(14)).block(64).grid(H / 64);
inline constexpr auto d_boxfilter_y_global_spec =
    kernel<d_boxfilter_y_global>("d_boxfilter_y_global", box_f32)
        .sizes(W(arg<2>), H(arg<3>), R(arg<4>)).at(W(2048), H(2048), R(14)).block(64).grid(W / 64);
inline constexpr auto d_boxfilter_rgba_y_spec =
    kernel<d_boxfilter_rgba_y>("d_boxfilter_rgba_y", box_rgba)
        .sizes(W(arg<2>), H(arg<3>), R(arg<4>)).at(W(2048), H(2048), R(14)).block(64).grid(W / 64);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int w = 2048, h = 2048, r = 14, nthreads = 64;  // the sample's radius and nthreads
  if (corpus::wanted("d_boxfilter_x_global")) {
    corpus::Case c("d_boxfilter_x_global");
    float *id = c.zeros<float>(Z(w) * h), *od = c.zeros<float>(Z(w) * h);
    if (c.ready()) d_boxfilter_x_global<<<h / nthreads, nthreads>>>(id, od, w, h, r);
    c.done();
  }
  if (corpus::wanted("d_boxfilter_y_global")) {
    corpus::Case c("d_boxfilter_y_global");
    float *id = c.zeros<float>(Z(w) * h), *od = c.zeros<float>(Z(w) * h);
    if (c.ready()) d_boxfilter_y_global<<<w / nthreads, nthreads>>>(id, od, w, h, r);
    c.done();
  }
  if (corpus::wanted("d_boxfilter_rgba_y")) {
    corpus::Case c("d_boxfilter_rgba_y");
    unsigned *id = c.zeros<unsigned>(Z(w) * h), *od = c.zeros<unsigned>(Z(w) * h);
    if (c.ready()) d_boxfilter_rgba_y<<<w / nthreads, nthreads>>>(id, od, w, h, r);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
