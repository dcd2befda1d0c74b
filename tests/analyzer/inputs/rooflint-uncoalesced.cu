// rooflint-uncoalesced: global-memory accesses that are not unit-stride in threadIdx.x.
#include "cuda_mock.h"

__global__ void transpose(const float* in, float* out, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n)
    out[col * n + row] = in[row * n + col];  // the read is unit-stride: silent; expected-warning@:5 {{store through 'out' is not unit-stride in 'threadIdx.x'; stride 'n' elements of 4 bytes: a warp moves up to 8x the traffic it uses (32 sectors instead of 4 when 'n' >= 8; 1x when 'n' == 1) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is 'n'; consecutive lanes should touch consecutive elements}}
}

__global__ void gather(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i * 33];  // expected-warning@:21 {{load through 'x' is not unit-stride in 'threadIdx.x'; stride 33 elements of 4 bytes: a warp moves 1024 bytes in 32 sectors for 128 bytes used (8x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '33'; consecutive lanes should touch consecutive elements}}
}

__global__ void pairs(const double* x, double* y, int n) {
  const int i = threadIdx.x;
  y[i] = x[2 * i];  // expected-warning@:10 {{load through 'x' is not unit-stride in 'threadIdx.x'; stride 2 elements of 8 bytes: a warp moves 512 bytes in 16 sectors for 256 bytes used (2x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '2'; consecutive lanes should touch consecutive elements}}
}

// No diagnostic: unit stride, reversed unit stride, a broadcast, a gather through idx[] (unknown); but
// x[(i * i) % n] is scattered (line 27, column 26: not affine, counted at sampled sizes).
__global__ void silent(const float* x, float* y, const int* idx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = x[0] + x[blockIdx.x] + x[n - 1 - i];
  for (int k = 0; k < n; ++k) s += x[k];
  y[i] = s + x[idx[i]] + x[(i * i) % n];  // expected-warning@:26 {{load through 'x' is not affine in 'threadIdx.x' (a '/', '%' or product in its index); sampled with each runtime size 4096, blockDim.x 256 and block 0, a warp moves 960 bytes in 30 sectors for 128 bytes used (7.5x the traffic) [rooflint-uncoalesced]}}
}

// Regression (the naive transpose of examples/): a loop counter advanced by += stays uniform
// across the warp, so the write below is still recognised as stride 'rows'.
__global__ void strided_loop(const float* in, float* out, int rows) {
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8)
    out[x * rows + j] = in[j * rows + x];  // the read is unit-stride; expected-warning@:5 {{store through 'out' is not unit-stride in 'threadIdx.x'; stride 'rows' elements of 4 bytes: a warp moves up to 8x the traffic it uses (32 sectors instead of 4 when 'rows' >= 8; 1x when 'rows' == 1) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is 'rows'; consecutive lanes should touch consecutive elements}}
}

// A grid-stride loop keeps the index's coefficient (i += blockDim.x * gridDim.x is uniform): the strided
// read is reported (line 42, column 12), the unit-stride write is not.
__global__ void grid_stride(const float* x, float* y, int n, int stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i * stride];  // expected-warning@:12 {{load through 'x' is not unit-stride in 'threadIdx.x'; stride 'stride' elements of 4 bytes: a warp moves up to 8x the traffic it uses (32 sectors instead of 4 when 'stride' >= 8; 1x when 'stride' == 1) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is 'stride'; consecutive lanes should touch consecutive elements}}
}

// A scalar tail, each lane walking its own 4 elements: the load is silent (the warp's next iterations use
// the sectors it fetched, in L1), the store is not (line 49, column 44: 4x the sectors).
__global__ void tail(const float* x, float* y, int n) {
  const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  for (int j = i; j < i + 4 && j < n; ++j) y[j] = 2 * x[j];  // expected-warning@:44 {{store through 'y' is not unit-stride in 'threadIdx.x'; stride 4 elements of 4 bytes: a warp moves 512 bytes in 16 sectors for 128 bytes used (4x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '4'; consecutive lanes should touch consecutive elements}}
}
