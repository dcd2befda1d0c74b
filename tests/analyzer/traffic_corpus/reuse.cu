// Re-reads across the grid (the manifest's predicted_traffic per tensor and level): a load whose address
// does not depend on a grid index the kernel's stores depend on is read again by every thread (block)
// along it. Every access here is coalesced (1x per warp request); what differs is reuse.
#include "corpus.h"

// C = A B, one thread per output, row from threadIdx.y, col from threadIdx.x. A[row * N + k] misses
// threadIdx.x and blockIdx.x (every thread of a row of C reads the row of A: N times in all); B[k * N +
// col] misses threadIdx.y and blockIdx.y. At N = 512 A, B and C are 3 MiB, A and B 2 MiB: within L2
// (60 MiB), DRAM 1x for all three; at N = 4096 A and B are 128 MiB, over L2: their DRAM traffic is not
// predicted (it depends on the order the blocks run), C's (written once, coalesced) is 1x. L1 and L2
// of A and B: not predicted (they count the grid and which threads share an SM); C 1x.
__global__ void reuse_gemm_naive(const float* A, const float* B, float* C, int N) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];  // truth: load 1x, load 1x
  C[row * N + col] = acc;  // truth: store 1x
}

// Tiled through shared memory (32 x 32): A[row * N + t * 32 + tx] misses blockIdx.x (each block column
// reads the tile row again: N / 32 times), B misses blockIdx.y. The same predictions as the naive one.
__global__ void reuse_gemm_tiled(const float* A, const float* B, float* C, int N) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < N / 32; ++t) {
    As[ty][tx] = A[row * N + t * 32 + tx];  // truth: load 1x
    Bs[ty][tx] = B[(t * 32 + ty) * N + col];  // truth: load 1x
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;  // truth: store 1x
}

// A row scale, one block per row: g[c] misses blockIdx.x (every row reads g again). g is 16 KiB at
// C = 4096: within L2, DRAM 1x; its L1 and L2 not predicted. x and y are streamed once, coalesced: 1x at
// every level (2 GiB at R = 65536: over L2, so their DRAM 1x comes from the access pattern).
__global__ void reuse_row_scale(const float* x, const float* g, float* y, int C) {
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    y[blockIdx.x * C + c] = x[blockIdx.x * C + c] * g[c];  // truth: load 1x, load 1x, store 1x
}

#include "rooflint/dsl.h"
namespace reuse_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr auto naive_spec =
    kernel<reuse_gemm_naive>("reuse_gemm_naive", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(512))
        .sizes(N(arg<3>))  // at a launch (program.cu)
        .block(32, 8)
        .grid(ceil_div(N, 32), ceil_div(N, 8));
inline constexpr auto tiled_spec =
    kernel<reuse_gemm_tiled>("reuse_gemm_tiled", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(512))
        .sizes(N(arg<3>))
        .block(32, 32)
        .grid(ceil_div(N, 32), ceil_div(N, 32));
inline constexpr auto row_scale_spec =
    kernel<reuse_row_scale>("reuse_row_scale", custom(0, in<0>("x", f32, R, C), in<1>("g", f32, C), out<2>("y", f32, R, C)))
        .at(R(65536), C(4096))
        .sizes(R(grid_dim.x), C(arg<3>))
        .block(256);
}  // namespace reuse_specs
