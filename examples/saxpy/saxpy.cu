/// @file saxpy.cu
/// y = a*x + y over f32 vectors of N = 2^28 elements (1 GiB each, far beyond the H200's 60 MiB L2):
/// memory-bound; y is read and written in place, so compulsory traffic is 4N (x) + 4N (y read) + 4N
/// (y written) = 12N bytes, and a good kernel moves exactly that.

#include <cuda_runtime.h>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

/// y[i] = a * x[i] + y[i]. One float4 per thread, 16-byte coalesced loads and stores; a scalar tail
/// covers N not divisible by 4. N/1024 blocks of 256 threads (262144 at N = 2^28).
__global__ void saxpy(int n, float a, const float* x, float* y) {
  // x: (N)  y: (N)
  const int i4 = blockIdx.x * blockDim.x + threadIdx.x;  // index of a float4
  const int i = 4 * i4;
  if (i + 3 < n) {
    const float4 xv = reinterpret_cast<const float4*>(x)[i4];
    float4 yv = reinterpret_cast<float4*>(y)[i4];
    yv.x = fmaf(a, xv.x, yv.x);
    yv.y = fmaf(a, xv.y, yv.y);
    yv.z = fmaf(a, xv.z, yv.z);
    yv.w = fmaf(a, xv.w, yv.w);
    reinterpret_cast<float4*>(y)[i4] = yv;
  } else {
    for (int j = i; j < n; ++j) y[j] = fmaf(a, x[j], y[j]);
  }
}

namespace saxpy_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// 2 FLOP per element (an FMA), counted as typed; 12 bytes per element: 1/6 FLOP/byte.
inline constexpr auto saxpy_spec =
    kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N),      // x: (N)
                                          inout<3>("y", f32, N)))  // y: (N)
        .at(N(1 << 28))
        .sizes(N(arg<0>))  // at a launch: N = n
        .block(256)
        .grid(ceil_div(N, 1024))  // one float4 a thread
        .expect(memory_bound);

static_assert(saxpy_spec.read_bytes_at(saxpy_spec.declared().bound) == 8.0 * (1 << 28));
static_assert(saxpy_spec.written_bytes_at(saxpy_spec.declared().bound) == 4.0 * (1 << 28));

/// @return Blocks of 256 threads for one float4 (or the scalar tail) per thread.
inline unsigned blocks_for(int n) { return static_cast<unsigned>(((n + 3) / 4 + 255) / 256); }

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(saxpy_spec, "H200"));

}  // namespace saxpy_example

ROOFLINT_EXAMPLE_CHECK(saxpy) {
  using namespace rooflint::examples;
  const int n = (1 << 20) + 5;
  const float a = 1.75f;
  const auto x = random_floats(n, 3), y = random_floats(n, 4);
  device_buffer<float> dx(x), dy(y);
  saxpy<<<saxpy_example::blocks_for(n), 256>>>(n, a, dx, dy);
  if (!cuda_ok("saxpy")) return false;
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = std::fma(a, x[i], y[i]);
  return close("y", dy.to_host(), want, 0, 0);
}

namespace saxpy_example {

// y is updated in place; the verifier's repeated launches keep growing it, which does not change the
// traffic or the time (no restore needed: the values stay finite for the few hundred runs measured,
// |y| <= 1 + runs * 2).
ROOFLINT_VERIFY_CASE(saxpy_n256M, saxpy_spec, N(1 << 28)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* x = ctx.random<float>(n);  // (N)
  float* y = ctx.random<float>(n);        // (N)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { saxpy<<<blocks_for(n), 256, 0, s>>>(n, 2.0f, x, y); },
  };
}

}  // namespace saxpy_example
