// Tiled matrix products as CUTLASS-style and tutorial SGEMMs write them: a 1-D block mapped onto a 32 x 32
// tile, 64 x 64 tiles with 4 x 4 outputs a thread, 128 x 128 tiles with 8 x 8 (row-major and grouped
// block order), split-K with atomics, a batched GEMM, GEMV three ways, and attention's Q K^T.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line. A GEMM operand's L2 traffic
// depends on which blocks share an SM (blocks of one block row share A's tiles, of one block column B's):
// between the whole L1 figure and that over the blocks an SM holds; that range is the truth.
#include "corpus.h"

// One thread per output, a 1-D block of 1024 threads laid over a 32 x 32 tile of C with the column
// fastest (row = tid / 32, col = tid % 32). M = N = K = 1024 (12 MiB, within L2). A[row, k]: one address
// a warp, a sector for 4 bytes: N / 4 = 256x at L1; each warp's sector serves its next 7 k, so each
// block reads its 32 rows of A once from L2: 32 blocks a block row, 32x, down to 16x when the two
// blocks of an SM share rows. B[k, col]: 32 consecutive floats, read by all 32 warps of the block at
// the same k: M = 1024x at L1, a block's 32 columns once: 16x..32x at L2. C: 1x.
// truth: A l1 256x, A l2 16x..32x, A dram 1x, B l1 1024x, B l2 16x..32x, B dram 1x, C l1 1x, C l2 1x, C dram 0x..1x
__global__ void sgemm_coalesced_1d(float* C, const float* A, const float* B, int M, int N, int K) {
  const int row = blockIdx.y * 32 + threadIdx.x / 32, col = blockIdx.x * 32 + threadIdx.x % 32;  // C: (M,N)  A: (M,K)  B: (K,N)
  if (row >= M || col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// 64 x 64 tiles, BK = 8, 256 threads, 4 x 4 outputs a thread (tx = tid % 16 columns of 4, ty = tid / 16
// rows of 4), a float4 store per output row. M = N = K = 1024. A's tile (64 x 8) is loaded by tid / 8,
// tid % 8 and tid / 8 + 32: a warp reads 4 rows of 8 floats, four aligned 32-byte runs, 1x; B's tile (8 x
// 64) by tid / 64, tid % 64 (and + 4 rows): 32 consecutive floats, 1x. A is read N / 64 = 16 times,
// B M / 64 = 16 times: 16x at L1; 8 blocks an SM: 2x..16x at L2. C: each lane writes 16 contiguous
// bytes of a 256-byte row segment, two rows a warp request: 1x. DRAM (12 MiB): 1x.
// truth: A l1 16x, A l2 2x..16x, A dram 1x, B l1 16x, B l2 2x..16x, B dram 1x, C l1 1x, C l2 1x, C dram 0x..1x
__global__ void sgemm_tile64_reg4x4(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[8][64];  // C: (M,N)  A: (M,K)  B: (K,N)
  __shared__ float Bs[8][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
    As[tid % 8][tid / 8] = A[(row0 + tid / 8) * K + k0 + tid % 8];
    As[tid % 8][tid / 8 + 32] = A[(row0 + tid / 8 + 32) * K + k0 + tid % 8];
    Bs[tid / 64][tid % 64] = B[(k0 + tid / 64) * N + col0 + tid % 64];
    Bs[tid / 64 + 4][tid % 64] = B[(k0 + tid / 64 + 4) * N + col0 + tid % 64];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[k][ty * 4 + i] * Bs[k][tx * 4 + j];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    *reinterpret_cast<float4*>(&C[(row0 + ty * 4 + i) * N + col0 + tx * 4]) = {acc[i][0], acc[i][1], acc[i][2], acc[i][3]};
}

// 128 x 128 tiles, BK = 8, 256 threads, 8 x 8 outputs a thread, float4 loads of both tiles. M = N = K =
// 1024: an 8 x 8 grid, 64 blocks on 132 SMs, one an SM: no sharing. A's tile: thread reads a float4 of
// row tid / 2 at k0 + 4 (tid % 2): a warp 16 rows of 32 contiguous bytes, 1x; read N / 128 = 8 times: 8x
// at L1 and L2. B's tile: row tid / 32, a float4 at column 4 (tid % 32): 512 contiguous bytes, 1x; 8x at
// L1 and L2. C: each thread's two float4 of a row are 32 bytes apart from its neighbours': a request is
// 16 sectors half written, 2x at L1 and L2; the second float4 fills the other halves in L2: DRAM 0x..1x.
// truth: A l1 8x, A l2 8x, A dram 1x, B l1 8x, B l2 8x, B dram 1x, C l1 2x, C l2 2x, C dram 0x..1x
__global__ void sgemm_tile128_reg8x8(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[8][128];  // C: (M,N)  A: (M,K)  B: (K,N)
  __shared__ float Bs[8][128];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
    const float4 a = *reinterpret_cast<const float4*>(&A[(row0 + tid / 2) * K + k0 + (tid % 2) * 4]);
    As[(tid % 2) * 4 + 0][tid / 2] = a.x;
    As[(tid % 2) * 4 + 1][tid / 2] = a.y;
    As[(tid % 2) * 4 + 2][tid / 2] = a.z;
    As[(tid % 2) * 4 + 3][tid / 2] = a.w;
    *reinterpret_cast<float4*>(&Bs[tid / 32][(tid % 32) * 4]) = *reinterpret_cast<const float4*>(&B[(k0 + tid / 32) * N + col0 + (tid % 32) * 4]);
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) acc[i][j] += As[k][ty * 8 + i] * Bs[k][tx * 8 + j];
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i) {
    float* c = &C[(row0 + ty * 8 + i) * N + col0 + tx * 8];
    *reinterpret_cast<float4*>(c) = {acc[i][0], acc[i][1], acc[i][2], acc[i][3]};
    *reinterpret_cast<float4*>(c + 4) = {acc[i][4], acc[i][5], acc[i][6], acc[i][7]};
  }
}

// The 128 x 128 kernel with grouped block order (a 1-D grid; groups of 4 block rows walked column by
// column, as CUTLASS's swizzle and Triton's grouped ordering do) at M = N = K = 2048: 256 blocks, 16 KiB
// of shared memory and 64 accumulators a thread, two blocks an SM. A and B read 2048 / 128 = 16 times:
// 16x at L1; 8x..16x at L2. 48 MiB in all, over 0.4 of L2; the grid is one wave and a group's blocks
// run together: each granule from DRAM once to twice. C: 2x at L1 and L2 (as above).
// truth: A l1 16x, A l2 8x..16x, A dram 1x..2x, B l1 16x, B l2 8x..16x, B dram 1x..2x, C l1 2x, C l2 2x
__global__ void sgemm_tile128_grouped(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[8][128];  // C: (M,N)  A: (M,K)  B: (K,N)
  __shared__ float Bs[8][128];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int tilesN = N / 128, group = 4 * tilesN;
  const int first = blockIdx.x / group * 4;
  const int by = first + blockIdx.x % group % 4, bx = blockIdx.x % group / 4;
  const int row0 = by * 128, col0 = bx * 128;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
    const float4 a = *reinterpret_cast<const float4*>(&A[(row0 + tid / 2) * K + k0 + (tid % 2) * 4]);
    As[(tid % 2) * 4 + 0][tid / 2] = a.x;
    As[(tid % 2) * 4 + 1][tid / 2] = a.y;
    As[(tid % 2) * 4 + 2][tid / 2] = a.z;
    As[(tid % 2) * 4 + 3][tid / 2] = a.w;
    *reinterpret_cast<float4*>(&Bs[tid / 32][(tid % 32) * 4]) = *reinterpret_cast<const float4*>(&B[(k0 + tid / 32) * N + col0 + (tid % 32) * 4]);
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) acc[i][j] += As[k][ty * 8 + i] * Bs[k][tx * 8 + j];
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i) {
    float* c = &C[(row0 + ty * 8 + i) * N + col0 + tx * 8];
    *reinterpret_cast<float4*>(c) = {acc[i][0], acc[i][1], acc[i][2], acc[i][3]};
    *reinterpret_cast<float4*>(c + 4) = {acc[i][4], acc[i][5], acc[i][6], acc[i][7]};
  }
}

// Split-K: grid (N / 32, M / 32, 4), each block multiplies a quarter of K through 32 x 32 shared tiles
// and adds its partial tile into C with atomics. M = N = 1024, K = 2048 (A, B 8 MiB, C 4 MiB: 20 MiB,
// within 0.4 of L2). A read N / 32 = 32 times, B M / 32 = 32 times: 32x at L1, 16x..32x at L2 (two
// 1024-thread blocks an SM); DRAM 1x. C: atomics only, 0x at L1 and L2; its lines come from DRAM once
// (half its compulsory bytes, read and written) and may stay in L2: 0.5x..1x.
// truth: A l1 32x, A l2 16x..32x, A dram 1x, B l1 32x, B l2 16x..32x, B dram 1x, C l1 0x, C l2 0x, C dram 0.5x..1x
__global__ void sgemm_splitk_atomic(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[32][32];  // C: (M,N), accumulated  A: (M,K)  B: (K,N)
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  const int chunk = K / gridDim.z, kBegin = blockIdx.z * chunk;
  float acc = 0.f;
  for (int k0 = kBegin; k0 < kBegin + chunk; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  atomicAdd(&C[row * N + col], acc);
}

// A batched GEMM, blockIdx.z the batch: 16 products of 256 x 256 x 256 (A, B, C 4 MiB each), 32 x 32
// tiles of 1024 threads, 64 blocks a product. A and B read 256 / 32 = 8 times: 8x at L1; the two blocks of
// an SM are neighbours in one product: 4x..8x at L2; 12 MiB: DRAM 1x. C: 1x.
// truth: A l1 8x, A l2 4x..8x, A dram 1x, B l1 8x, B l2 4x..8x, B dram 1x, C l1 1x, C l2 1x, C dram 0x..1x
__global__ void sgemm_batched(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[32][32];  // C: (Bt,M,N)  A: (Bt,M,K)  B: (Bt,K,N)
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* a = A + blockIdx.z * M * K;
  const float* b = B + blockIdx.z * K * N;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = a[row * K + k0 + tx];
    Bs[ty][tx] = b[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[blockIdx.z * M * N + row * N + col] = acc;
}

// GEMV, one warp per row: y = A x, M = N = 4096 (A 64 MiB). A: the lanes stride the row, 1x at every
// level. x (16 KiB) is read whole by every row: M = 4096x at L1, from DRAM once. y: lane 0 writes, a
// sector for 4 bytes: 8x at L1 and L2.
// truth: A l1 1x, A l2 1x, A dram 1x, x l1 4096x, x dram 1x, y l1 8x, y l2 8x
__global__ void sgemv_warp_per_row(float* y, const float* A, const float* x, int M, int N) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;  // y: (M)  A: (M,N)  x: (N)
  if (row >= M) return;
  float s = 0.f;
  for (int c = lane; c < N; c += 32) s += A[row * N + c] * x[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// GEMV, one thread per row (128 threads a block, 32 blocks): A's lanes are rows 16 KiB apart, a sector
// each: 8x at L1; each lane's sector serves its next 7 columns (4 warps an SM): 1x at L2 and DRAM.
// x[c]: one address a warp, a sector for 4 bytes: M / 4 = 1024x at L1. y: 1x.
// truth: A l1 8x, A l2 1x, A dram 1x, x l1 1024x, x dram 1x, y l1 1x, y l2 1x
__global__ void sgemv_thread_per_row(float* y, const float* A, const float* x, int M, int N) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // y: (M)  A: (M,N)  x: (N)
  if (row >= M) return;
  float s = 0.f;
  for (int c = 0; c < N; ++c) s += A[row * N + c] * x[c];
  y[row] = s;
}

// The transposed GEMV, y = A^T x, one thread per column: A[r, col] is 32 consecutive floats a warp, 1x;
// x[r]: one address a warp, N / 4 = 1024x at L1. M = N = 4096. y: 1x.
// truth: A l1 1x, A l2 1x, A dram 1x, x l1 1024x, x dram 1x, y l1 1x, y l2 1x
__global__ void sgemv_transposed(float* y, const float* A, const float* x, int M, int N) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // y: (N)  A: (M,N)  x: (M)
  if (col >= N) return;
  float s = 0.f;
  for (int r = 0; r < M; ++r) s += A[r * N + col] * x[r];
  y[col] = s;
}

// Attention scores S = Q K^T per (batch, head), 32 x 32 tiles of 1024 threads, K's tile read as rows of
// K: BH = 48 heads, T = 256, d = 64 (Q, K 3 MiB, S 12 MiB: within L2). Q and K read T / 32 = 8 times: 8x at
// L1, 4x..8x at L2; DRAM 1x. S written once: 1x.
// truth: Q l1 8x, Q l2 4x..8x, Q dram 1x, K l1 8x, K l2 4x..8x, K dram 1x, S l1 1x, S l2 1x, S dram 0x..1x
__global__ void attention_qk_tiled(float* S, const float* Q, const float* K, int T, int d) {
  __shared__ float Qs[32][32];  // S: (BH,T,T)  Q, K: (BH,T,d)
  __shared__ float Ks[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* q = Q + blockIdx.z * T * d;
  const float* k = K + blockIdx.z * T * d;
  const int i = blockIdx.y * 32 + ty, j = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < d; k0 += 32) {
    Qs[ty][tx] = q[i * d + k0 + tx];
    Ks[ty][tx] = k[(blockIdx.x * 32 + ty) * d + k0 + tx];
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk) acc += Qs[ty][kk] * Ks[tx][kk];
    __syncthreads();
  }
  S[blockIdx.z * T * T + i * T + j] = acc;
}

#include "rooflint/dsl.h"
namespace gemm_tiles_specs {
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct BH final : dim<"BH"> {} BH;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct D final : dim<"D"> {} D;

inline constexpr auto sgemm_coalesced_1d_spec =
    kernel<sgemm_coalesced_1d>("sgemm_coalesced_1d", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(1024).grid(ceil_div(N, 32), ceil_div(M, 32));
inline constexpr auto sgemm_tile64_reg4x4_spec =
    kernel<sgemm_tile64_reg4x4>("sgemm_tile64_reg4x4", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(256).grid(ceil_div(N, 64), ceil_div(M, 64));
inline constexpr auto sgemm_tile128_reg8x8_spec =
    kernel<sgemm_tile128_reg8x8>("sgemm_tile128_reg8x8", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(256).grid(ceil_div(N, 128), ceil_div(M, 128));
inline constexpr auto sgemm_tile128_grouped_spec =
    kernel<sgemm_tile128_grouped>("sgemm_tile128_grouped", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(2048), N(2048), K(2048)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(256).grid(ceil_div(M * N, 16384));
inline constexpr auto sgemm_splitk_atomic_spec =
    kernel<sgemm_splitk_atomic>("sgemm_splitk_atomic", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), inout<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(2048)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(32, 32).grid(ceil_div(N, 32), ceil_div(M, 32), 4);
inline constexpr auto sgemm_batched_spec =
    kernel<sgemm_batched>("sgemm_batched", bmm(in<1>("A", f32, Bt, M, K), in<2>("B", f32, Bt, K, N), out<0>("C", f32, Bt, M, N)))
        .at(Bt(16), M(256), N(256), K(256)).sizes(Bt(grid_dim.z), M(arg<3>), N(arg<4>), K(arg<5>)).block(32, 32)
        .grid(ceil_div(N, 32), ceil_div(M, 32), Bt);
inline constexpr auto sgemv_warp_per_row_spec =
    kernel<sgemv_warp_per_row>("sgemv_warp_per_row", custom(2 * M * N, out<0>("y", f32, M), in<1>("A", f32, M, N), in<2>("x", f32, N)))
        .at(M(4096), N(4096)).sizes(M(arg<3>), N(arg<4>)).block(256).grid(ceil_div(M, 8));
inline constexpr auto sgemv_thread_per_row_spec =
    kernel<sgemv_thread_per_row>("sgemv_thread_per_row", custom(2 * M * N, out<0>("y", f32, M), in<1>("A", f32, M, N), in<2>("x", f32, N)))
        .at(M(4096), N(4096)).sizes(M(arg<3>), N(arg<4>)).block(128).grid(ceil_div(M, 128));
inline constexpr auto sgemv_transposed_spec =
    kernel<sgemv_transposed>("sgemv_transposed", custom(2 * M * N, out<0>("y", f32, N), in<1>("A", f32, M, N), in<2>("x", f32, M)))
        .at(M(4096), N(4096)).sizes(M(arg<3>), N(arg<4>)).block(128).grid(ceil_div(N, 128));
inline constexpr auto attention_qk_tiled_spec =
    kernel<attention_qk_tiled>("attention_qk_tiled", custom(2 * BH * T * T * D, out<0>("S", f32, BH, T, T), in<1>("Q", f32, BH, T, D), in<2>("K", f32, BH, T, D)))
        .at(BH(48), T(256), D(64)).sizes(BH(grid_dim.z), T(arg<3>), D(arg<4>)).block(32, 32).grid(ceil_div(T, 32), ceil_div(T, 32), BH);
}  // namespace gemm_tiles_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_gemm_tiles_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  using Gemm = void (*)(float*, const float*, const float*, int, int, int);
  struct Shape {
    const char* name;
    Gemm kernel;
    int M, N, K;
    dim3 grid, block;
  };
  const Shape shapes[] = {
      {"sgemm_coalesced_1d", sgemm_coalesced_1d, 1024, 1024, 1024, dim3(32, 32), dim3(1024)},
      {"sgemm_tile64_reg4x4", sgemm_tile64_reg4x4, 1024, 1024, 1024, dim3(16, 16), dim3(256)},
      {"sgemm_tile128_reg8x8", sgemm_tile128_reg8x8, 1024, 1024, 1024, dim3(8, 8), dim3(256)},
      {"sgemm_tile128_grouped", sgemm_tile128_grouped, 2048, 2048, 2048, dim3(256), dim3(256)},
      {"sgemm_splitk_atomic", sgemm_splitk_atomic, 1024, 1024, 2048, dim3(32, 32, 4), dim3(32, 32)},
  };
  for (const Shape& s : shapes) {
    if (!wanted(s.name)) continue;
    Case c(s.name);
    float *C = c.zeros<float>(Z(s.M) * s.N), *A = c.zeros<float>(Z(s.M) * s.K), *B = c.zeros<float>(Z(s.K) * s.N);
    if (c.ready()) s.kernel<<<s.grid, s.block>>>(C, A, B, s.M, s.N, s.K);
    c.done();
  }
  if (wanted("sgemm_batched")) {
    Case c("sgemm_batched");
    const int Bt = 16, M = 256, N = 256, K = 256;
    float *C = c.zeros<float>(Z(Bt) * M * N), *A = c.zeros<float>(Z(Bt) * M * K), *B = c.zeros<float>(Z(Bt) * K * N);
    if (c.ready()) sgemm_batched<<<dim3(N / 32, M / 32, Bt), dim3(32, 32)>>>(C, A, B, M, N, K);
    c.done();
  }
  using Gemv = void (*)(float*, const float*, const float*, int, int);
  const std::pair<const char*, Gemv> gemvs[] = {
      {"sgemv_warp_per_row", sgemv_warp_per_row}, {"sgemv_thread_per_row", sgemv_thread_per_row}, {"sgemv_transposed", sgemv_transposed}};
  for (const auto& [name, kernel] : gemvs) {
    if (!wanted(name)) continue;
    Case c(name);
    const int M = 4096, N = 4096;
    float *y = c.zeros<float>(M), *A = c.zeros<float>(Z(M) * N), *x = c.zeros<float>(N);
    const bool warp = kernel == sgemv_warp_per_row;
    if (c.ready()) kernel<<<warp ? M / 8 : M / 128, warp ? 256 : 128>>>(y, A, x, M, N);
    c.done();
  }
  if (wanted("attention_qk_tiled")) {
    Case c("attention_qk_tiled");
    const int BH = 48, T = 256, d = 64;
    float *S = c.zeros<float>(Z(BH) * T * T), *Q = c.zeros<float>(Z(BH) * T * d), *K = c.zeros<float>(Z(BH) * T * d);
    if (c.ready()) attention_qk_tiled<<<dim3(T / 32, T / 32, BH), dim3(32, 32)>>>(S, Q, K, T, d);
    c.done();
  }
}
#endif
