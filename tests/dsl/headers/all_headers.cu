// The spec language and the model compile cleanly under nvcc 13 (-Wall -Wextra -Werror on the host
// compiler, all-warnings as errors in nvcc), in host and device code: a __global__ kernel annotated
// by a spec, and device code that uses the spec's compile-time values and its constexpr functions.
#include "rooflint/dsl.h"

namespace {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct NH final : dim<"NH"> {} NH;
inline constexpr struct HS final : dim<"HS"> {} HS;
}  // namespace

// y = a*x + y
__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = a * x[i] + y[i];
}

inline constexpr auto saxpy_spec = kernel<saxpy>("saxpy", elementwise(2, in<2>("x", f32, N),      // x: (N)
                                                                         inout<3>("y", f32, N)))  // y: (N)
                                       .at(N(1 << 26))
                                       .expect(memory_bound)
                                       .max_traffic_ratio(1.1)
                                       .min_roofline_fraction(0.8);

__global__ void sgemm(const float* a, const float* b, float* c, int n) {
  const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

inline constexpr auto sgemm_spec = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, M, K),    // A: (M,K)
                                                                 in<1>("B", f32, K, N),    // B: (K,N)
                                                                 out<2>("C", f32, M, N)))  // C: (M,N)
                                       .at(M(4096), N(4096), K(4096))
                                       .expect(compute_bound);

// A byte histogram into unsigned bins (u8, u32), and a kernel over Q and K packed in one buffer with the
// head size defined by the launch's C and NH.
__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}
inline constexpr auto histogram_spec = kernel<histogram>("histogram", custom(N, in<0>("data", u8, N),
                                                                               inout<1>("bins", u32, K)))
                                           .at(K(256))
                                           .sizes(N(arg<2>));

__global__ void query_key(float* scores, const float* qkv, int t, int c, int nh) {
  scores[threadIdx.x] = qkv[threadIdx.x] * static_cast<float>(t + c + nh);
}
inline constexpr auto query_key_spec =
    kernel<query_key>("query_key", custom(2 * NH * M * M * HS, in<1>("q", f32, M, NH, HS).slice(0),
                                          in<1>("k", f32, M, NH, HS).slice(NH * HS), out<0>("scores", f32, NH, M, M)))
        .sizes(M(arg<2>), C(arg<3>), NH(arg<4>), HS(C / NH));

// Compile-time values, usable in device code as constants: 12 bytes per element of N.
inline constexpr double saxpy_bytes_per_element = saxpy_spec.bytes_at(saxpy_spec.bind(N(1)).bound);
static_assert(saxpy_bytes_per_element == 12);
static_assert(sgemm_spec.flops_at(sgemm_spec.declared().bound) == 137438953472.0);  // 2 * 4096^3

__global__ void record_traffic(double* bytes, int n) {
  // Device code evaluating the spec at the launch size. A namespace-scope constexpr object is a host
  // variable to nvcc, so device code takes a constexpr copy of it; calling the DSL's constexpr
  // functions from device code needs --expt-relaxed-constexpr.
  constexpr auto spec = saxpy_spec;
  constexpr auto dim_n = N;
  const auto r = spec.bind(dim_n(n));
  *bytes = r.ok() ? spec.bytes_at(r.bound) : 0;
}

int main() {
  static_cast<void>(rooflint::model::find_peaks("NVIDIA H200"));
  return saxpy_spec.bind(N(1024)).ok() ? 0 : 1;
}
