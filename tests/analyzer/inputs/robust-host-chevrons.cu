// Host code that nvcc accepts and clang 19 does not: launches with spaces in their chevrons. The device
// side needs no host-only function's body, so rooflint skips the seven that clang cannot parse (a free
// function, an inline member, an out-of-line member declared in its class, four from macros), says so
// once each, and analyses the specs. The launchers clang does parse keep their bodies.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;

extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, unsigned long shared = 0, void* stream = nullptr);

__global__ void scale(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

// 1 FLOP per element over 8 bytes: memory-bound at any size.
inline constexpr auto scale_spec =
    kernel<scale>("scale", unary(1, in<0>("x", f32, N), out<1>("y", f32, N))).sizes(N(arg<2>)).at(N(1 << 24)).block(256);

void launch_spaced(const float* x, float* y, int n);  // declared first, as a header would

namespace host {
struct Runner {
  void twice(const float* x, float* y, int n) {
    auto go = [&] { scale << <(n + 255) / 256, 256 >> > (x, y, n); };
    go();
    go();
  }
  void later(const float* x, float* y, int n);
};
}  // namespace host

void launch_spaced(const float* x, float* y, int n) {
  scale << <(n + 255) / 256, 256 >> > (x, y, n);
}

void host::Runner::later(const float* x, float* y, int n) {
  scale << <(n + 255) / 256, 256 >> > (x, y, n);
}

void launch(const float* x, float* y, int n) {
  const dim3 grid{unsigned(n + 255) / 256, 1, 1}, block{256, 1, 1};
  scale<<<grid, block>>>(x, y, n);
}

// Functions one macro call defines: their names all expand at the call, so only their places in the
// macro's text (or the pasted names' scratch space) tell them apart.
#define TWO_LAUNCHERS                                                                            \
  void first(const float* x, float* y, int n) { scale << <(n + 255) / 256, 256 >> > (x, y, n); } \
  void second(const float* x, float* y, int n) { scale << <(n + 255) / 256, 256 >> > (x, y, n); }
TWO_LAUNCHERS
#define LAUNCHER(name) \
  void launch_##name(const float* x, float* y, int n) { scale << <(n + 255) / 256, 256 >> > (x, y, n); }
LAUNCHER(a)
LAUNCHER(b)
