/// @file samples_FDTD3d.cu
/// cuda-samples Samples/5_Domain_Specific/FDTD3d/inc/FDTD3dGPUKernel.cuh: FiniteDifferencesKernel, one time
/// step of a radius-4 3-D stencil (25 points) over a 376^3 f32 volume (k_dim_max, the sample's largest
/// default) padded by 4 on each side (384^3, 226 MB a buffer): 32 x 16 threads a block march along z,
/// each keeping its column's 8 z-neighbours in registers and staging the xy plane with its halos in
/// shared memory, ceil(376 / 32) x ceil(376 / 16) blocks as fdtdGPU() launches them. The sample passes
/// the buffers 28 floats past their start, so that the inner rows start on 128 bytes; here they are
/// passed at their start, as the analyzer assumes its pointers to be (each row then starts 16 bytes
/// past 128).
#include "public_kernels.h"

#include "5_Domain_Specific/FDTD3d/inc/FDTD3dGPUKernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct X final : dim<"X"> {} X;      // inner volume: dimx
inline constexpr struct Y final : dim<"Y"> {} Y;      // dimy
inline constexpr struct Z final : dim<"Z"> {} Z;      // dimz
inline constexpr struct Xp final : dim<"Xp"> {} Xp;   // padded: X + 2 * RADIUS
inline constexpr struct Yp final : dim<"Yp"> {} Yp;
inline constexpr struct Zp final : dim<"Zp"> {} Zp;

// The output is written at the inner points only (rows Xp apart in the padded buffer): X * Y * Z
// elements. 25 points: 5 multiplies and 24 additions, about 2 FLOP a point. The registers are ptxas's
// (`nvcc -arch=sm_90 -Xptxas -v`, nvcc 13.0: "Used 80 registers"): one block of 512 threads an SM.
inline constexpr auto FiniteDifferencesKernel_spec =
    kernel<FiniteDifferencesKernel>("FiniteDifferencesKernel",
                                    custom(50 * X * Y * Z, out<0>("output", f32, Z, Y, X),
                                           in<1>("input", f32, Zp, Yp, Xp)))
        .sizes(X(arg<2>), Y(arg<3>), Z(arg<4>), Xp(X + 8), Yp(Y + 8), Zp(Z + 8)).at(X(376), Y(376), Z(376))
        .block(32, 16).grid(ceil_div(X, 32), ceil_div(Y, 16)).registers(80);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int dim = 376, padded = dim + 2 * RADIUS;
  if (!corpus::wanted("FiniteDifferencesKernel")) return;
  corpus::Case c("FiniteDifferencesKernel");
  float *out = c.zeros<float>(Z(padded) * padded * padded), *in = c.zeros<float>(Z(padded) * padded * padded);
  if (c.ready())
    FiniteDifferencesKernel<<<dim3((dim + k_blockDimX - 1) / k_blockDimX, (dim + k_blockDimMaxY - 1) / k_blockDimMaxY),
                              dim3(k_blockDimX, k_blockDimMaxY)>>>(out, in, dim, dim, dim);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
