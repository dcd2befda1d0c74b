/// @file vector_add.cu
/// c = a + b over f32 vectors of N = 2^28 elements (1 GiB each, far beyond the H200's 60 MiB L2):
/// memory-bound, and a good kernel moves exactly its compulsory bytes (read a and b once, write c once).

#include <cuda_runtime.h>

#include <cstdint>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

/// c[i] = a[i] + b[i]. One float4 per thread (16-byte loads and stores, coalesced across the warp);
/// a scalar tail covers N not divisible by 4. The grid has N/1024 blocks of 256 threads: at
/// N = 2^28 that is 262144 blocks, many waves on 132 SMs.
__global__ void vector_add(int n, const float* a, const float* b, float* c) {
  // a: (N)  b: (N)  c: (N)
  const int i4 = blockIdx.x * blockDim.x + threadIdx.x;  // index of a float4
  const int i = 4 * i4;
  if (i + 3 < n) {
    const float4 x = reinterpret_cast<const float4*>(a)[i4];
    const float4 y = reinterpret_cast<const float4*>(b)[i4];
    reinterpret_cast<float4*>(c)[i4] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  } else {
    for (int j = i; j < n; ++j) c[j] = a[j] + b[j];
  }
}

namespace vector_add_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// 1 FLOP per element, counted as typed, 12 bytes per element: intensity 1/12 FLOP/byte, far below any
/// ridge.
inline constexpr auto vector_add_spec =
    kernel<vector_add>("vector_add", binary(1, in<1>("a", f32, N),    // a: (N)
                                               in<2>("b", f32, N),    // b: (N)
                                               out<3>("c", f32, N)))  // c: (N)
        .at(N(1 << 28))
        .sizes(N(arg<0>))  // at a launch: N = n
        .block(256)
        .grid(ceil_div(N, 1024))  // one float4 a thread
        .expect(memory_bound);

static_assert(vector_add_spec.bytes_at(vector_add_spec.declared().bound) == 12.0 * (1 << 28));
static_assert(vector_add_spec.flops_at(vector_add_spec.declared().bound) == 1.0 * (1 << 28));

/// @return Blocks of 256 threads for one float4 (or the scalar tail) per thread.
inline unsigned blocks_for(int n) { return static_cast<unsigned>(((n + 3) / 4 + 255) / 256); }

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(vector_add_spec, "H200"));

}  // namespace vector_add_example

ROOFLINT_EXAMPLE_CHECK(vector_add) {
  using namespace rooflint::examples;
  const int n = (1 << 20) + 3;  // a tail that is not a multiple of 4
  const auto a = random_floats(n, 1), b = random_floats(n, 2);
  device_buffer<float> da(a), db(b), dc(n);
  vector_add<<<vector_add_example::blocks_for(n), 256>>>(n, da, db, dc);
  if (!cuda_ok("vector_add")) return false;
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
  return close("c", dc.to_host(), want, 0, 0);
}

namespace vector_add_example {

ROOFLINT_VERIFY_CASE(vector_add_n256M, vector_add_spec, N(1 << 28)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* a = ctx.random<float>(n);  // (N)
  const float* b = ctx.random<float>(n);  // (N)
  float* c = ctx.poisoned<float>(n);      // (N)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { vector_add<<<blocks_for(n), 256, 0, s>>>(n, a, b, c); },
  };
}

}  // namespace vector_add_example
