// Kernels in the image of the CUDA samples: a tiled matrix multiply (16 and 32 tiles), the transpose
// family (copies, naive, coalesced through shared memory, without bank conflicts, diagonal block order),
// reductions (interleaved, first add during load, grid-stride, warp shuffles with an atomic), a 256-bin
// histogram privatised per block and its merge, a histogram by global atomics, a block scan and its
// uniform add, and a separable convolution's row and column passes.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// C = A B through 16 x 16 shared tiles (a block of 16 x 16 threads per tile of C), M = N = K = 1024 (4 MiB
// a matrix: 12 MiB, within L2). A warp is two rows of 16 threads: each tile load is two 64-byte runs, 4
// sectors for 4. Every block loads its row strip of A and column strip of B: A is read N / 16 = 64
// times, B M / 16 = 64 times: 64x at L1. At L2 each block's loads miss unless a block of the same block
// row (A) or column (B) ran on its SM just before; up to 8 blocks share an SM: 8x..64x. Within L2: A, B
// 1x at DRAM; C written once, coalesced: 1x at L1 and L2, 0x..1x at DRAM.
// truth: A l1 64x, A l2 8x..64x, A dram 1x, B l1 64x, B l2 8x..64x, B dram 1x, C l1 1x, C l2 1x, C dram 0x..1x
__global__ void matrix_mul_tiled16(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[16][16];  // C: (M,N)  A: (M,K)  B: (K,N)
  __shared__ float Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// The same with 32 x 32 tiles and blocks of 1024 threads, M = N = K = 1024: A and B read 32 times each,
// 32x at L1; two blocks share an SM: 16x..32x at L2; DRAM 1x; C 1x.
// truth: A l1 32x, A l2 16x..32x, A dram 1x, B l1 32x, B l2 16x..32x, B dram 1x, C l1 1x, C l2 1x, C dram 0x..1x
__global__ void matrix_mul_tiled32(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[32][32];  // C: (M,N)  A: (M,K)  B: (K,N)
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// The transposes: 32 x 32 tiles, blocks of 32 x 8 threads (each thread 4 rows of its tile), W = H =
// 8192 (256 MiB a matrix). A copy row by row: every access one aligned 128-byte run: 1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void transpose_copy_rows(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;  // out, in: (H,W)
  for (int i = 0; i < 32; i += 8) out[(y + i) * W + x] = in[(y + i) * W + x];
}

// The copy through a shared tile: the same global accesses, 1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void transpose_copy_shared(float* out, const float* in, int W, int H) {
  __shared__ float tile[32][32];  // out, in: (H,W)
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * W + x];
  __syncthreads();
  for (int i = 0; i < 32; i += 8) out[(y + i) * W + x] = tile[threadIdx.y + i][threadIdx.x];
}

// The naive transpose: the read is a row (1x); the write out[x * H + y + i] has lanes H floats apart:
// 32 sectors for 128 bytes, 8x at L1 and L2. Each sector of out (8 consecutive y) is written by the 8
// warps of one block: L2 merges them, less what stays in L2 at the end; partly written sectors may be
// read to merge (the H200 at 16384: DRAM 1.19x for the kernel, reads 1.21x and writes 1.17x of a
// matrix; at 8192 1.04x): from 1 - 60 MiB / 256 MiB = 0.766x (what L2 holds at the end) to 1.4x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 8x, out l2 8x, out dram 0.766x..1.4x
__global__ void transpose_naive_rows(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;  // out: (W,H)  in: (H,W)
  for (int i = 0; i < 32; i += 8) out[x * H + y + i] = in[(y + i) * W + x];
}

// Through a shared tile read back transposed: both global accesses are rows, 1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void transpose_coalesced(float* out, const float* in, int W, int H) {
  __shared__ float tile[32][32];  // out: (W,H)  in: (H,W)
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) out[(y + i) * H + x] = tile[threadIdx.x][threadIdx.y + i];
}

// The padded tile (33 columns: no bank conflicts): the global traffic of transpose_coalesced, 1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void transpose_no_bank_conflicts(float* out, const float* in, int W, int H) {
  __shared__ float tile[32][33];  // out: (W,H)  in: (H,W)
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) out[(y + i) * H + x] = tile[threadIdx.x][threadIdx.y + i];
}

// Diagonal block order (a square matrix: block (bx, by) works on tile ((bx + by) mod gridDim.x, bx)):
// the tiles are visited in another order, each once; the accesses are those of the padded transpose, 1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void transpose_diagonal(float* out, const float* in, int W, int H) {
  __shared__ float tile[32][33];  // out: (W,H)  in: (H,W)
  const int by = blockIdx.x, bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) tile[threadIdx.y + i][threadIdx.x] = in[(y + i) * W + x];
  __syncthreads();
  x = by * 32 + threadIdx.x;
  y = bx * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8) out[(y + i) * H + x] = tile[threadIdx.x][threadIdx.y + i];
}

// Reduction with interleaved addressing (a modulo test in shared memory): n = 2^24 (64 MiB), a block of
// 256 per 256 elements. x: coalesced, 1x at every level. out: one partial sum a block, written by thread
// 0: a sector for 4 bytes, 8x at L1 and L2 (256 KiB: 0x..1x at DRAM).
// truth: x l1 1x, x l2 1x, x dram 1x, out l1 8x, out l2 8x, out dram 0x..1x
__global__ void reduce_interleaved(float* out, const float* x, int n) {
  __shared__ float s[256];  // out: (N/256)  x: (N)
  const int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (int k = 1; k < blockDim.x; k *= 2) {
    if (tid % (2 * k) == 0) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// The first add during the load: a block of 256 reads 512 elements, x[i] and x[i + 256], both coalesced:
// 1x. n = 2^24; out (n / 512): 8x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, out l1 8x, out l2 8x, out dram 0x..1x
__global__ void reduce_first_add(float* out, const float* x, int n) {
  __shared__ float s[256];  // out: (N/512)  x: (N)
  const int tid = threadIdx.x, i = blockIdx.x * 512 + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  if (i + 256 < n) v += x[i + 256];
  s[tid] = v;
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// A grid-stride reduction (264 blocks of 256, two loads an iteration 256 apart): x 1x; out: 264 partial
// sums by thread 0, 8x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, out l1 8x, out l2 8x
__global__ void reduce_grid_stride(float* out, const float* x, int n) {
  __shared__ float s[256];  // out: (G)  x: (N)
  const int tid = threadIdx.x;
  float v = 0.f;
  for (int i = blockIdx.x * 512 + tid; i < n; i += 512 * gridDim.x) {
    v += x[i];
    if (i + 256 < n) v += x[i + 256];
  }
  s[tid] = v;
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Warp shuffles and one atomicAdd a warp into a single total (528 blocks of 256, grid-stride), n = 2^24:
// x 1x; out only by atomics: 0x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, out l1 0x, out l2 0x
__global__ void reduce_shuffle_atomic(float* out, const float* x, int n) {
  float v = 0.f;  // out: (1), accumulated  x: (N)
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

// A 256-bin histogram of bytes, privatised per warp in shared memory: 240 blocks of 192 threads walk the
// data as 32-bit words (grid-stride, coalesced: 1x; n = 2^26 bytes, 64 MiB), then each block writes its
// 256 bins to partial[block]: 192 then 64 threads, whole warps, 1x at L1 and L2 (240 KiB).
// truth: data l1 1x, data l2 1x, data dram 1x, partial l1 1x, partial l2 1x, partial dram 0x..1x
__global__ void histogram256_per_block(int* partial, const int* data, int words) {
  __shared__ unsigned hist[6 * 256];  // partial: (P,256)  data: (N) bytes, as words
  unsigned* mine = hist + (threadIdx.x / 32) * 256;
  for (int b = threadIdx.x; b < 6 * 256; b += blockDim.x) hist[b] = 0;
  __syncthreads();
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < words; pos += blockDim.x * gridDim.x) {
    const unsigned w = static_cast<unsigned>(data[pos]);
    atomicAdd(&mine[w & 255u], 1u);
    atomicAdd(&mine[(w >> 8) & 255u], 1u);
    atomicAdd(&mine[(w >> 16) & 255u], 1u);
    atomicAdd(&mine[w >> 24], 1u);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < 256; bin += blockDim.x) {
    unsigned sum = 0;
    for (int k = 0; k < 6; ++k) sum += hist[k * 256 + bin];
    partial[blockIdx.x * 256 + bin] = static_cast<int>(sum);
  }
}

// The merge: a block of 256 per bin sums that bin over the P = 240 partial histograms: thread i reads
// partial[i * 256 + bin], lanes 1 KiB apart: a sector each for 4 bytes, 8x at L1; the other 7 floats of
// each sector are 7 other bins' blocks, on other SMs: 8x at L2; all 256 blocks run at once: DRAM 1x.
// hist[bin] by thread 0: 8x.
// truth: partial l1 8x, partial l2 8x, partial dram 1x, hist l1 8x, hist l2 8x
__global__ void histogram256_merge(int* hist, const int* partial, int P) {
  __shared__ int s[256];  // hist: (256)  partial: (P,256)
  int sum = 0;
  for (int i = threadIdx.x; i < P; i += blockDim.x) sum += partial[i * 256 + blockIdx.x];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int k = 128; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) hist[blockIdx.x] = s[0];
}

// A histogram straight into global memory: four atomicAdds a word (n = 2^26 bytes). data: 1x; hist:
// atomics only, 0x at L1 and L2.
// truth: data l1 1x, data l2 1x, data dram 1x, hist l1 0x, hist l2 0x
__global__ void histogram_global_atomics(int* hist, const int* data, int words) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;  // hist: (256), accumulated  data: (N) bytes, as words
  if (pos >= words) return;
  const unsigned w = static_cast<unsigned>(data[pos]);
  atomicAdd(&hist[w & 255u], 1);
  atomicAdd(&hist[(w >> 8) & 255u], 1);
  atomicAdd(&hist[(w >> 16) & 255u], 1);
  atomicAdd(&hist[w >> 24], 1);
}

// An exclusive scan of 1024 elements a block (256 threads, an int4 each) through shared memory; the last
// thread writes the block's total. n = 2^24 ints (64 MiB). src, dst: 512 contiguous bytes a warp
// request, 1x. sums (n / 1024): one int a block, 8x at L1 and L2.
// truth: src l1 1x, src l2 1x, src dram 1x, dst l1 1x, dst l2 1x, dst dram 0.06x..1x, sums l1 8x, sums l2 8x
__global__ void scan_block_shared(int* dst_, int* sums, const int* src_, int n4) {
  __shared__ int s[256];  // dst, src: (N), read and written as int4  sums: (N/1024)
  int4* dst = reinterpret_cast<int4*>(dst_);
  const int4* src = reinterpret_cast<const int4*>(src_);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int4 v = src[i];
  const int total = v.x + v.y + v.z + v.w;
  s[threadIdx.x] = total;
  __syncthreads();
  for (int k = 1; k < 256; k *= 2) {
    const int t = threadIdx.x >= k ? s[threadIdx.x - k] : 0;
    __syncthreads();
    s[threadIdx.x] += t;
    __syncthreads();
  }
  const int before = s[threadIdx.x] - total;
  dst[i] = {before, before + v.x, before + v.x + v.y, before + v.x + v.y + v.z};
  if (threadIdx.x == 255) sums[blockIdx.x] = s[255];
}

// The scan's uniform add: thread 0 reads the block's offset into shared memory, every thread adds it to
// its int4 (read and written): data 1x; offsets: one int a block by one thread, 8x at L1 and L2.
// truth: data l1 1x, data l2 1x, offsets l1 8x, offsets l2 8x
__global__ void scan_uniform_add(int* data_, const int* offsets, int n4) {
  __shared__ int add;  // data: (N), read and written as int4  offsets: (N/1024)
  int4* data = reinterpret_cast<int4*>(data_);
  if (threadIdx.x == 0) add = offsets[blockIdx.x];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 v = data[i];
  v.x += add;
  v.y += add;
  v.z += add;
  v.w += add;
  data[i] = v;
}

__constant__ float conv_kernel[17];  // the filter taps, radius 8

// Separable convolution, the row pass: blocks of 16 x 4, each row of a block loads 8 result steps of 16
// and a 16-wide halo step on each side into shared memory (the halos guarded at the image's edges),
// then writes 8 steps. W = H = 4096 (64 MiB). A warp is 2 rows of 16: each load two aligned 64-byte runs,
// 1x a request; per block row 32 blocks load 32 * 10 - 2 = 318 steps of 16 for 256: 1.2422x at L1, and
// the halo steps are the neighbours' (other SMs): 1.2422x at L2; the neighbours run together: DRAM 1x.
// dst: 8 steps, 1x.
// truth: src l1 1.2422x, src l2 1.2422x, src dram 1x, dst l1 1x, dst l2 1x, dst dram 0.06x..1x
__global__ void convolution_rows(float* dst, const float* src, int W, int H) {
  __shared__ float s[4][10 * 16];  // dst, src: (H,W)
  const int baseX = (blockIdx.x * 8 - 1) * 16 + threadIdx.x, baseY = blockIdx.y * 4 + threadIdx.y;
  const float* in = src + baseY * W + baseX;
  float* out = dst + baseY * W + baseX;
  for (int i = 1; i < 9; ++i) s[threadIdx.y][threadIdx.x + i * 16] = in[i * 16];
  s[threadIdx.y][threadIdx.x] = baseX >= 0 ? in[0] : 0.f;
  s[threadIdx.y][threadIdx.x + 9 * 16] = W - baseX > 9 * 16 ? in[9 * 16] : 0.f;
  __syncthreads();
  for (int i = 1; i < 9; ++i) {
    float sum = 0.f;
    for (int j = -8; j <= 8; ++j) sum += conv_kernel[8 - j] * s[threadIdx.y][threadIdx.x + i * 16 + j];
    out[i * 16] = sum;
  }
}

// The column pass: blocks of 16 x 8, each column of a block loads 8 result steps of 8 rows and a halo
// step of 8 rows above and below (guarded at the edges). A warp is 2 rows of 16: 1x a request; per block
// column 64 blocks load 64 * 10 - 2 = 638 steps for 512: 1.2461x at L1 and L2 (the halo rows are the
// blocks above and below, 256 blocks apart in launch order, on other SMs); DRAM 1x. dst: 1x.
// truth: src l1 1.2461x, src l2 1.2461x, src dram 1x, dst l1 1x, dst l2 1x, dst dram 0.06x..1x
__global__ void convolution_columns(float* dst, const float* src, int W, int H) {
  __shared__ float s[16][10 * 8 + 1];  // dst, src: (H,W)
  const int baseX = blockIdx.x * 16 + threadIdx.x, baseY = (blockIdx.y * 8 - 1) * 8 + threadIdx.y;
  const float* in = src + baseY * W + baseX;
  float* out = dst + baseY * W + baseX;
  for (int i = 1; i < 9; ++i) s[threadIdx.x][threadIdx.y + i * 8] = in[i * 8 * W];
  s[threadIdx.x][threadIdx.y] = baseY >= 0 ? in[0] : 0.f;
  s[threadIdx.x][threadIdx.y + 9 * 8] = H - baseY > 9 * 8 ? in[9 * 8 * W] : 0.f;
  __syncthreads();
  for (int i = 1; i < 9; ++i) {
    float sum = 0.f;
    for (int j = -8; j <= 8; ++j) sum += conv_kernel[8 - j] * s[threadIdx.x][threadIdx.y + i * 8 + j];
    out[i * 8 * W] = sum;
  }
}

#include "rooflint/dsl.h"
namespace samples_specs {
using namespace rooflint::dsl;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct G final : dim<"G"> {} G;
inline constexpr struct P final : dim<"P"> {} P;
inline constexpr struct Bins final : dim<"Bins", 256> {} Bins;
inline constexpr struct One final : dim<"One", 1> {} One;
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr struct Four final : dim<"Four", 4> {} Four;

inline constexpr auto matrix_mul_tiled16_spec =
    kernel<matrix_mul_tiled16>("matrix_mul_tiled16", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(16, 16).grid(ceil_div(N, 16), ceil_div(M, 16));
inline constexpr auto matrix_mul_tiled32_spec =
    kernel<matrix_mul_tiled32>("matrix_mul_tiled32", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<3>), N(arg<4>), K(arg<5>)).block(32, 32).grid(ceil_div(N, 32), ceil_div(M, 32));
inline constexpr auto transpose_copy_rows_spec =
    kernel<transpose_copy_rows>("transpose_copy_rows", custom(0, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_copy_shared_spec =
    kernel<transpose_copy_shared>("transpose_copy_shared", custom(0, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_naive_rows_spec =
    kernel<transpose_naive_rows>("transpose_naive_rows", custom(0, out<0>("out", f32, W, H), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_coalesced_spec =
    kernel<transpose_coalesced>("transpose_coalesced", custom(0, out<0>("out", f32, W, H), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_no_bank_conflicts_spec =
    kernel<transpose_no_bank_conflicts>("transpose_no_bank_conflicts", custom(0, out<0>("out", f32, W, H), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_diagonal_spec =
    kernel<transpose_diagonal>("transpose_diagonal", custom(0, out<0>("out", f32, W, H), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto reduce_interleaved_spec =
    kernel<reduce_interleaved>("reduce_interleaved", custom(0, out<0>("out", f32, G), in<1>("x", f32, G, Bins)))
        .at(G(65536)).sizes(G(arg<2> / 256)).block(256).grid(G);
inline constexpr auto reduce_first_add_spec =
    kernel<reduce_first_add>("reduce_first_add", custom(0, out<0>("out", f32, G), in<1>("x", f32, G, Two, Bins)))
        .at(G(32768)).sizes(G(arg<2> / 512)).block(256).grid(G);
inline constexpr auto reduce_grid_stride_spec =
    kernel<reduce_grid_stride>("reduce_grid_stride", custom(0, out<0>("out", f32, G), in<1>("x", f32, N)))
        .at(G(264), N(1 << 24)).sizes(G(grid_dim.x), N(arg<2>)).block(256).grid(G);
inline constexpr auto reduce_shuffle_atomic_spec =
    kernel<reduce_shuffle_atomic>("reduce_shuffle_atomic", custom(0, inout<0>("out", f32, One), in<1>("x", f32, N)))
        .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(528);
inline constexpr auto histogram256_per_block_spec =
    kernel<histogram256_per_block>("histogram256_per_block", custom(0, out<0>("partial", i32, P, Bins), in<1>("data", i32, N)))
        .at(P(240), N(1 << 24)).sizes(P(grid_dim.x), N(arg<2>)).block(192).grid(P);
inline constexpr auto histogram256_merge_spec =
    kernel<histogram256_merge>("histogram256_merge", custom(0, out<0>("hist", i32, Bins), in<1>("partial", i32, P, Bins)))
        .at(P(240)).sizes(P(arg<2>)).block(256).grid(256);
inline constexpr auto histogram_global_atomics_spec =
    kernel<histogram_global_atomics>("histogram_global_atomics", custom(0, inout<0>("hist", i32, Bins), in<1>("data", i32, N)))
        .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto scan_block_shared_spec =
    kernel<scan_block_shared>("scan_block_shared",
                              custom(0, out<0>("dst", i32, G, Bins, Four), out<1>("sums", i32, G), in<2>("src", i32, G, Bins, Four)))
        .at(G(16384)).sizes(G(arg<3> / 256)).block(256).grid(G);
inline constexpr auto scan_uniform_add_spec =
    kernel<scan_uniform_add>("scan_uniform_add", custom(0, inout<0>("data", i32, G, Bins, Four), in<1>("offsets", i32, G)))
        .at(G(16384)).sizes(G(arg<2> / 256)).block(256).grid(G);
inline constexpr auto convolution_rows_spec =
    kernel<convolution_rows>("convolution_rows", custom(0, out<0>("dst", f32, H, W), in<1>("src", f32, H, W)))
        .at(W(4096), H(4096)).sizes(W(arg<2>), H(arg<3>)).block(16, 4).grid(ceil_div(W, 128), ceil_div(H, 4));
inline constexpr auto convolution_columns_spec =
    kernel<convolution_columns>("convolution_columns", custom(0, out<0>("dst", f32, H, W), in<1>("src", f32, H, W)))
        .at(W(4096), H(4096)).sizes(W(arg<2>), H(arg<3>)).block(16, 8).grid(ceil_div(W, 16), ceil_div(H, 64));
}  // namespace samples_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_samples_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  for (const int tile : {16, 32}) {
    const char* name = tile == 16 ? "matrix_mul_tiled16" : "matrix_mul_tiled32";
    if (!wanted(name)) continue;
    Case c(name);
    const int M = 1024, N = 1024, K = 1024;
    float *C = c.zeros<float>(Z(M) * N), *A = c.zeros<float>(Z(M) * K), *B = c.zeros<float>(Z(K) * N);
    if (c.ready() && tile == 16) matrix_mul_tiled16<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(C, A, B, M, N, K);
    if (c.ready() && tile == 32) matrix_mul_tiled32<<<dim3(N / 32, M / 32), dim3(32, 32)>>>(C, A, B, M, N, K);
    c.done();
  }
  using Transpose = void (*)(float*, const float*, int, int);
  const std::pair<const char*, Transpose> transposes[] = {
      {"transpose_copy_rows", transpose_copy_rows},       {"transpose_copy_shared", transpose_copy_shared},
      {"transpose_naive_rows", transpose_naive_rows},     {"transpose_coalesced", transpose_coalesced},
      {"transpose_no_bank_conflicts", transpose_no_bank_conflicts}, {"transpose_diagonal", transpose_diagonal}};
  for (const auto& [name, kernel] : transposes) {
    if (!wanted(name)) continue;
    Case c(name);
    const int W = 8192, H = 8192;
    float *out = c.zeros<float>(Z(W) * H), *in = c.zeros<float>(Z(W) * H);
    if (c.ready()) kernel<<<dim3(W / 32, H / 32), dim3(32, 8)>>>(out, in, W, H);
    c.done();
  }
  const int n = 1 << 24;
  if (wanted("reduce_interleaved")) {
    Case c("reduce_interleaved");
    float *out = c.zeros<float>(n / 256), *x = c.zeros<float>(n);
    if (c.ready()) reduce_interleaved<<<n / 256, 256>>>(out, x, n);
    c.done();
  }
  if (wanted("reduce_first_add")) {
    Case c("reduce_first_add");
    float *out = c.zeros<float>(n / 512), *x = c.zeros<float>(n);
    if (c.ready()) reduce_first_add<<<n / 512, 256>>>(out, x, n);
    c.done();
  }
  if (wanted("reduce_grid_stride")) {
    Case c("reduce_grid_stride");
    float *out = c.zeros<float>(264), *x = c.zeros<float>(n);
    if (c.ready()) reduce_grid_stride<<<264, 256>>>(out, x, n);
    c.done();
  }
  if (wanted("reduce_shuffle_atomic")) {
    Case c("reduce_shuffle_atomic");
    float *out = c.zeros<float>(1), *x = c.zeros<float>(n);
    if (c.ready()) reduce_shuffle_atomic<<<528, 256>>>(out, x, n);
    c.done();
  }
  // Bytes spread over the 256 bins (a zeroed buffer would send every atomic to bin 0).
  std::vector<int> words(Z(1) << 24);
  for (Z i = 0; i < words.size(); ++i) words[i] = static_cast<int>(static_cast<unsigned>(i * 2654435761u));
  const int P = 240;
  if (wanted("histogram256_per_block")) {
    Case c("histogram256_per_block");
    int *partial = c.zeros<int>(Z(P) * 256), *data = c.upload(words);
    if (c.ready()) histogram256_per_block<<<P, 192>>>(partial, data, static_cast<int>(words.size()));
    c.done();
  }
  if (wanted("histogram256_merge")) {
    Case c("histogram256_merge");
    int *hist = c.zeros<int>(256), *partial = c.zeros<int>(Z(P) * 256);
    if (c.ready()) histogram256_merge<<<256, 256>>>(hist, partial, P);
    c.done();
  }
  if (wanted("histogram_global_atomics")) {
    Case c("histogram_global_atomics");
    int *hist = c.zeros<int>(256), *data = c.upload(words);
    if (c.ready()) histogram_global_atomics<<<blocks(1ll * words.size(), 256), 256>>>(hist, data, static_cast<int>(words.size()));
    c.done();
  }
  if (wanted("scan_block_shared")) {
    Case c("scan_block_shared");
    int *dst = c.zeros<int>(n), *sums = c.zeros<int>(n / 1024), *src = c.zeros<int>(n);
    if (c.ready()) scan_block_shared<<<n / 1024, 256>>>(dst, sums, src, n / 4);
    c.done();
  }
  if (wanted("scan_uniform_add")) {
    Case c("scan_uniform_add");
    int *data = c.zeros<int>(n), *offsets = c.zeros<int>(n / 1024);
    if (c.ready()) scan_uniform_add<<<n / 1024, 256>>>(data, offsets, n / 4);
    c.done();
  }
  const int W = 4096, H = 4096;
  if (wanted("convolution_rows")) {
    Case c("convolution_rows");
    float *dst = c.zeros<float>(Z(W) * H), *src = c.zeros<float>(Z(W) * H);
    if (c.ready()) convolution_rows<<<dim3(W / 128, H / 4), dim3(16, 4)>>>(dst, src, W, H);
    c.done();
  }
  if (wanted("convolution_columns")) {
    Case c("convolution_columns");
    float *dst = c.zeros<float>(Z(W) * H), *src = c.zeros<float>(Z(W) * H);
    if (c.ready()) convolution_columns<<<dim3(W / 16, H / 64), dim3(16, 8)>>>(dst, src, W, H);
    c.done();
  }
}
#endif
