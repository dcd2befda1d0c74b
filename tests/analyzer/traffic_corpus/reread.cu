// Row kernels, one block per row of C floats, the block's threads across the row: every access is
// unit-stride (1x per request); the multi-pass ones read the row again in each pass (`passes: k` on the
// kernel's line: loops over the same addresses of x, none inside another).
#include "corpus.h"

// Three passes (max, sum of exponentials, normalise): x is read 3 times.
__global__ void softmax_three_pass(const float* x, float* y, int C) {  // passes: 3
  __shared__ float red[2];
  const float* row = x + blockIdx.x * C;
  float m = -1e30f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) m = m > row[c] ? m : row[c];  // truth: load 1x
  if (threadIdx.x == 0) red[0] = m;
  __syncthreads();
  m = red[0];
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) s += row[c] - m;  // truth: load 1x
  if (threadIdx.x == 0) red[1] = s;
  __syncthreads();
  s = red[1];
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = (row[c] - m) / s;  // truth: load 1x, store 1x
}

// Two passes (mean, then normalise with it): x read twice.
__global__ void center_two_pass(const float* x, float* y, int C) {  // passes: 2
  __shared__ float mean;
  const float* row = x + blockIdx.x * C;
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) s += row[c];  // truth: load 1x
  if (threadIdx.x == 0) mean = s / C;
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = row[c] - mean;  // truth: load 1x, store 1x
}

// One pass (online): x read once.
__global__ void scale_single_pass(const float* x, float* y, int C, float a) {  // passes: 1
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = a * x[blockIdx.x * C + c];  // truth: load 1x, store 1x
}

// One pass over x, then one over y: no tensor read twice.
__global__ void read_then_write(const float* x, float* y, int C) {  // passes: 1
  __shared__ float total;
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) s += x[blockIdx.x * C + c];  // truth: load 1x
  if (threadIdx.x == 0) total = s;
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = total;  // truth: store 1x
}

// The three-pass kernel's spec (rooflint-reread's layer condition, CacheLevels in Traffic.h): x and y
// are R x C floats, 8 blocks of 256 threads per SM (8 bytes of shared memory each: the driver's 32 KiB
// configuration, L1 224 KiB). At C = 512 a row is 2 KiB: 16 KiB per SM, within 1/8 of L1 (28 KiB): 1x.
// At C = 4096 (the test's middle size) 16 KiB a row, 128 KiB per SM: part within L1 (the H200 read 2.22x
// at L2 on this kernel), L2 not predicted; 132 * 128 KiB = 16.5 MiB within 0.4 of L2 (24 MiB): 1x at
// DRAM. At C = 50257 (the other size) 196 KiB a row, 1.53 MiB per SM: over L1, and 132 SMs * 1.53 MiB =
// 202 MiB over L2 (60 MiB): 3x at DRAM.
#include "rooflint/dsl.h"
namespace reread_specs {
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr auto softmax_three_pass_spec =
    kernel<softmax_three_pass>("softmax_three_pass", softmax(in<0>("x", f32, R, C), out<1>("y", f32, R, C)))
        .at(R(65536), C(512))
        .sizes(R(grid_dim.x), C(arg<2>))  // at a launch (program.cu): one block per row, C = C
        .block(256);
}  // namespace reread_specs
