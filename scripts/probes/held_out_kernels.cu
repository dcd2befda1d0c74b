// held_out_kernels.cu: twelve everyday CUDA kernels, written for this check (not tuned against rooflint), each with
// a spec and, above it, a hand analysis of its traffic per tensor and level at the spec's sizes, as a
// ratio to the tensor's compulsory bytes. main() launches each kernel once, at its spec's sizes and launch.
//
// Geometry the hand figures use (H200; the H100 differs only in its L2, 50 MiB):
//   132 SMs, 32-byte sectors, 64-byte DRAM granules, L2 60 MiB (the fraction kept whole: 0.4 = 24 MiB),
//   L1 + shared 256 KiB an SM. Blocks are handed out round robin: block k and k + 132 share an SM.
//   "L1" = sectors the warps request; "L2" = sectors that miss L1 plus every store; "DRAM" = bytes read
//   (64 B granules) and written. An output that fits in L2 may stay there past the kernel's end, so a
//   write's DRAM figure is a range from (1 - L2 / size) to 1x.
//
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -I<rooflint>/dsl/include -I<rooflint>/model/include held_out_kernels.cu -o held_out_kernels
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include <rooflint/dsl.h>

#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif

// ---------------------------------------------------------------------------------------------------
// 1. RMSNorm, one block of 512 threads per row, two passes over the row in global memory (sum of
// squares, then normalise and scale), the block's partial sums reduced through shared memory.
// x, y: (R,C) = (16384, 4096) f32, 256 MiB each; w: (C) 16 KiB; rstd: (R) 64 KiB.
// x: every warp request is 32 consecutive floats (128 B aligned): 1x a request, two passes: L1 2x.
//    L2: a row is 16 KiB; 4 blocks an SM (2048 threads) = 64 KiB of rows between a block's two passes,
//    above the part of L1 the H200 keeps whole (~1/8 of ~230 KiB = ~28 KiB) but well under L1 itself:
//    1x..2x, I expect most of the second pass to miss: ~1.7x. DRAM: an SM's 64 KiB of rows is far below
//    its share of L2 (24 MiB kept / 132 = 186 KiB): the second pass is served by L2: 1x.
// w: read by every row: L1 R = 16384x. L2: each block reads all 16 KiB; an SM's next block finds it in
//    L1 only if the 64 KiB of x streaming past does not evict it: 132x (once per SM) .. 16384x; guess
//    near the top (w competes with x): ~8000x. DRAM 1x.
// y: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
// rstd: thread 0 writes 4 bytes a block: one sector for 4 bytes: L1 8x, L2 8x; the 8 rows of a sector
//    merge in L2 (64 KiB stays in L2): DRAM 0x..1x.
__global__ void rmsnorm_rows_twopass(float* y, float* rstd, const float* x, const float* w, int C) {
  __shared__ float partial[32];
  const float* xr = x + static_cast<size_t>(blockIdx.x) * C;
  float* yr = y + static_cast<size_t>(blockIdx.x) * C;
  float ss = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    const float v = xr[c];
    ss += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = ss;
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = threadIdx.x < (blockDim.x >> 5) ? partial[threadIdx.x] : 0.f;
    for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
    if (threadIdx.x == 0) partial[0] = t;
  }
  __syncthreads();
  const float r = rsqrtf(partial[0] / static_cast<float>(C) + 1e-6f);
  if (threadIdx.x == 0) rstd[blockIdx.x] = r;
  for (int c = threadIdx.x; c < C; c += blockDim.x) yr[c] = xr[c] * r * w[c];
}

// ---------------------------------------------------------------------------------------------------
// 2. Bias + ReLU over (B,T,C), grid (C/256, T, B), the bias re-read by every (b, t).
// x, y: (B,T,C) = (32, 1024, 1024) f32, 128 MiB each; bias: (C) 4 KiB.
// x: 1x, 1x, 1x.
// bias: every (b, t) reads all of it: L1 B*T = 32768x. L2: a block reads a 1 KiB chunk (blockIdx.x of 4);
//    132 is a multiple of 4, so an SM's blocks k, k+132, ... all want the same chunk, which L1 keeps while
//    x streams past (8 blocks an SM, 8 KiB of x in flight): 132 SMs x 1 KiB / 4 KiB = 33x .. 32768x;
//    I expect near the bottom: ~33x..100x. DRAM 1x.
// y: 1x, 1x; 128 MiB: DRAM 0.53x..1x.
__global__ void bias_relu_btc(float* y, const float* x, const float* bias, int T, int C) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (static_cast<size_t>(blockIdx.z) * T + blockIdx.y) * C + c;
  if (c < C) y[i] = fmaxf(x[i] + bias[c], 0.f);
}

// ---------------------------------------------------------------------------------------------------
// 3. 5x5 box filter (25-point stencil), clamped at the border, straight from global memory.
// in, out: (H,W) = (4096, 4096) f32, 64 MiB each; block 32 x 8, one output a thread.
// in: a warp is 32 consecutive x of one row. Per dy: dx = 0 touches 4 sectors, dx = +-1, +-2 five each
//    (4 at the left/right image edge, clamped): 24 per 4 useful; 5 dy: 120 / 4 = 30x at L1 (29.96x with
//    the edges). L2: a block needs rows y0-2..y0+9 (12) x sectors x0-8..x0+39 (6): 72 sectors for 32
//    useful: 2.25x (the x-neighbours are consecutive ids, other SMs; y-neighbours 128 ids apart, other
//    SMs): ~2.24x with the edges. DRAM: each halo row is read again by the block 128 ids later, within
//    the same wave, from L2: 1x.
// out: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
__global__ void box5x5_clamped(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  float s = 0.f;
  for (int dy = -2; dy <= 2; ++dy) {
    const int yy = min(max(y + dy, 0), H - 1);
    for (int dx = -2; dx <= 2; ++dx) {
      const int xx = min(max(x + dx, 0), W - 1);
      s += in[static_cast<size_t>(yy) * W + xx];
    }
  }
  out[static_cast<size_t>(y) * W + x] = s * (1.f / 25.f);
}

// ---------------------------------------------------------------------------------------------------
// 4. Byte histogram of 256 bins, privatised in shared memory, merged with one global atomicAdd per bin
// per block. data: N = 2^28 bytes (256 MiB) read as uchar4, grid-stride, 1056 blocks of 256.
// data: a warp reads 32 x 4 = 128 consecutive bytes: 1x, 1x, 1x.
// bins: (256) u32, updated only by atomics (1056 x 256 of them): 0x at L1 and L2 (atomics are neither
//    load nor store sectors). DRAM: L2 reads the 1 KiB once and writes it back, or keeps it past the
//    end: read 1 KiB + written 0..1 KiB over compulsory 2 KiB (read + written): 0.5x..1x.
__global__ void hist256_shared_atomics(unsigned int* bins, const uchar4* data, int n4) {
  __shared__ unsigned int h[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0u;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    const uchar4 v = data[i];
    atomicAdd(&h[v.x], 1u);
    atomicAdd(&h[v.y], 1u);
    atomicAdd(&h[v.z], 1u);
    atomicAdd(&h[v.w], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], h[i]);
}

// ---------------------------------------------------------------------------------------------------
// 5. Per-column mean of a wide matrix, one thread per column walking down all rows.
// x: (R,C) = (4096, 16384) f32, 256 MiB; mean: (C) 64 KiB. Block 64, grid 256 (two warps a block).
// x: every request is 32 consecutive floats of one row (128 B aligned): 1x, each element once: 1x, 1x.
// mean: 1x, 1x; 64 KiB stays in L2: DRAM 0x..1x.
__global__ void column_mean(float* mean, const float* x, int R, int C) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= C) return;
  float s = 0.f;
  for (int r = 0; r < R; ++r) s += x[static_cast<size_t>(r) * C + c];
  mean[c] = s / static_cast<float>(R);
}

// ---------------------------------------------------------------------------------------------------
// 6. NHWC -> NCHW, naive: one thread per output element (coalesced stores, loads C floats apart).
// x: (N,H,W,C) = (32, 128, 128, 64) f32, 128 MiB; y: (N,C,H,W), 128 MiB.
// x: lanes are consecutive w, 256 B apart: 32 sectors for 128 B: L1 8x. L2: a block (256) is 2 rows h of
//    one (n, c): 256 distinct sectors, each holding channels c&~7 .. +7 of one pixel; the other 7 users
//    of each sector are the blocks of c+1.., 64 ids apart (64..448: never a multiple of 132, other SMs):
//    L2 8x. DRAM: a granule (16 channels) is used by 16 blocks within 960 ids, one wave (1056 blocks),
//    whose 8 MiB of x sectors stay in L2: 1x.
// y: 1x, 1x; 128 MiB: DRAM 0.53x..1x.
__global__ void nhwc_to_nchw(float* y, const float* x, int N, int H, int W, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  const int w = i % W;
  const int h = (i / W) % H;
  const int c = (i / (W * H)) % C;
  const int n = i / (W * H * C);
  y[i] = x[((static_cast<size_t>(n) * H + h) * W + w) * C + c];
}

// ---------------------------------------------------------------------------------------------------
// 7. Embedding lookup through token ids (Llama-sized vocabulary), one block per token, float4 a thread.
// ids: (BT) = 8192 i32, uniform over [0, V); table: (V,D) = (32000, 1024) f32, 125 MiB, of which
// min(BT, V) rows are the compulsory part (32 MiB); out: (BT,D) 32 MiB.
// ids: all 8 warps of a block load ids[blockIdx.x]: one sector per request for 4 B: L1 8 x 8 = 64x.
//    L2: the block's first warp brings the sector, the others hit L1 (or are merged): 8x (8 tokens share a
//    sector; consecutive blocks are on other SMs). DRAM 1x.
// table: a warp reads 512 contiguous, aligned bytes of one row: L1 1x, L2 1x. DRAM: 8192 draws from 32000
//    rows give 32000 (1 - e^(-8192/32000)) = 7229 distinct rows, 0.88 of the 8192 the spec counts; the
//    repeats are found in L2 (32 MiB of rows, within reach): 0.88x..1x.
// out: 1x, 1x; 32 MiB fits in L2: DRAM 0x..1x.
__global__ void embedding_lookup(float4* out, const int* ids, const float4* table, int D4) {
  const int tok = blockIdx.x;
  const int id = ids[tok];
  for (int d = threadIdx.x; d < D4; d += blockDim.x)
    out[static_cast<size_t>(tok) * D4 + d] = table[static_cast<size_t>(id) * D4 + d];
}

// ---------------------------------------------------------------------------------------------------
// 8. Dot product: grid-stride partial sums, a shared-memory tree per block, one atomicAdd per block.
// a, b: (N) = 2^25 f32, 128 MiB each; result: one float (inout). 1056 blocks of 256.
// a, b: 1x, 1x, 1x.
// result: atomics only: 0x at L1 and L2. DRAM: L2 reads the granule once (64 B) and writes the sector
//    back (32 B) or keeps it past the end, over compulsory 8 B (4 read + 4 written): 8x..12x.
__global__ void dot_block_atomic(float* result, const float* a, const float* b, int n) {
  __shared__ float s[256];
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += a[i] * b[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

// ---------------------------------------------------------------------------------------------------
// 9. SGEMM with 64 x 64 shared tiles, BK = 16, block 16 x 16, each thread a 4 x 4 micro-tile at rows
// ty + 16i and columns tx + 16j; float4 tile loads, A stored transposed in shared memory.
// M = N = K = 4096: A, B, C 64 MiB each. Grid 64 x 64 = 4096 blocks.
// A: a warp loads 8 rows x 64 B (16 sectors for 512 B): 1x a request; each A tile is read by the 64
//    blocks of its row: L1 64x. L2: those 64 blocks are consecutive ids, other SMs (an SM's blocks k,
//    k+132, ... are in other tile rows): 64x, less what the SMs' simultaneous requests merge on the way
//    (~0.85 at ~5 waves): 54x..64x. DRAM: the 64 sharers run in one wave, in step: each row of A once
//    per wave, ~1x (rows split across a wave boundary: up to ~1.2x).
// B: a warp loads 2 rows x 256 B: 1x; read by the 64 blocks of its column: L1 64x; sharers 64 ids apart
//    (never on one SM with fewer than 17 blocks an SM): L2 54x..64x. DRAM: every wave (~6 blocks an SM,
//    792 blocks = ~12 tile rows) reads all of B; its blocks keep roughly in step, so B comes from DRAM
//    about once a wave: ~5.2x; if they drift apart, up to 64x. Range 5x..64x, guess ~6x.
// C: a warp stores 2 rows x 16 consecutive floats (2 x 64 B): 1x, 1x; 64 MiB: DRAM 0.06x..1x.
__global__ void __launch_bounds__(256) sgemm_tile64_strided(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][64];  // As[k][m]
  __shared__ float Bs[16][64];  // Bs[k][n]
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  const int ar = tid >> 2, ac = (tid & 3) * 4;    // A tile: 64 rows x 16 columns, a float4 a thread
  const int br = tid >> 4, bc = (tid & 15) * 4;   // B tile: 16 rows x 64 columns, a float4 a thread
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    const float4 a = *reinterpret_cast<const float4*>(A + static_cast<size_t>(m0 + ar) * K + k0 + ac);
    As[ac + 0][ar] = a.x;
    As[ac + 1][ar] = a.y;
    As[ac + 2][ar] = a.z;
    As[ac + 3][ar] = a.w;
    *reinterpret_cast<float4*>(&Bs[br][bc]) = *reinterpret_cast<const float4*>(B + static_cast<size_t>(k0 + br) * N + n0 + bc);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) {
      float ra[4], rb[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) ra[i] = As[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) rb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) C[static_cast<size_t>(m0 + ty + 16 * i) * N + n0 + tx + 16 * j] = acc[i][j];
}

// ---------------------------------------------------------------------------------------------------
// 10. Softmax over rows of 1024, one warp per row, three passes over the row in global memory (max, sum
// of exponentials, write). x, y: (R,C) = (65536, 1024) f32, 256 MiB each. Block 256 (8 rows).
// x: 32 consecutive floats a request: 1x; three passes: L1 3x. L2: a row is 4 KiB; 8 blocks an SM = 64
//    warps, 256 KiB of rows between a warp's passes, about all of L1 and 8x what it keeps whole: the
//    second and third passes mostly miss: 2.5x..3x. DRAM: 256 KiB an SM is over its share of L2's kept
//    part (186 KiB) but under its share of the whole (465 KiB): 1x..2x, guess ~1.2x.
// y: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void softmax_warp_3pass(float* y, const float* x, int R, int C) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= R) return;
  const float* xr = x + static_cast<size_t>(row) * C;
  float* yr = y + static_cast<size_t>(row) * C;
  float m = -INFINITY;
  for (int c = lane; c < C; c += 32) m = fmaxf(m, xr[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.f;
  for (int c = lane; c < C; c += 32) s += __expf(xr[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  const float inv = 1.f / s;
  for (int c = lane; c < C; c += 32) yr[c] = __expf(xr[c] - m) * inv;
}

// ---------------------------------------------------------------------------------------------------
// 11. Vector add through float4, one float4 a thread. a, b, c: (N) = 2^26 f32, 256 MiB each.
// a, b: 512 aligned bytes a request: 1x, 1x, 1x. c: 1x, 1x; 256 MiB: DRAM 0.77x..1x (~0.93x).
__global__ void vadd_float4(float4* c, const float4* a, const float4* b, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

// ---------------------------------------------------------------------------------------------------
// 12. Strided batch copy: Bt matrices of M x N taken from a source whose rows are LD floats apart (LD =
// N + 28, a pitch that is not a multiple of 8 floats), packed into a dense (Bt,M,N). Grid (M*N/256, Bt).
// src: (Bt,M,LD) = (32, 1024, 1028) f32, 128.5 MiB, of which Bt*M*N (125 MiB) read; dst (Bt,M,N) 125 MiB.
// src: row r starts at r * 4112 B: 32-B aligned for even r, 16 B off for odd r. Warp boundaries fall on
//    multiples of 8 columns. Even rows: 125 sectors for 125 useful. Odd rows: 126 sectors, plus one for
//    each warp boundary inside the row (~31): ~157. L1 (125 + 157) / 250 = 1.13x. L2: a sector split
//    between two warps of one block is fetched once; only block boundaries (~4 a row) fetch it twice:
//    (125 + 130) / 250 = 1.02x. DRAM: 63 or 64 granules of 64 B a row (rows 112 B apart share none):
//    63.25 * 64 / 4000 = 1.01x.
// dst: 1x, 1x; 125 MiB: DRAM 0.52x..1x.
__global__ void batch_copy_pitched(float* dst, const float* src, int M, int N, int ld) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  const int r = i / N, c = i % N;
  const size_t b = blockIdx.y;
  dst[b * M * N + i] = src[(b * M + r) * ld + c];
}

// ---------------------------------------------------------------------------------------------------
// Specs. .registers(n): what ptxas allocated (nvcc 13.0, -O3 -arch=sm_90, -Xptxas -v).
namespace held_out_specs {
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct BT final : dim<"BT"> {} BT;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct LD final : dim<"LD"> {} LD;
inline constexpr struct Bins final : dim<"Bins", 256> {} Bins;
inline constexpr struct One final : dim<"One", 1> {} One;

inline constexpr auto rmsnorm_rows_twopass_spec =
    kernel<rmsnorm_rows_twopass>("rmsnorm_rows_twopass",
                                 rmsnorm(in<2>("x", f32, R, C), in<3>("w", f32, C), out<0>("y", f32, R, C))
                                     .with(out<1>("rstd", f32, R)))
        .at(R(16384), C(4096)).sizes(R(grid_dim.x), C(arg<4>))
        .block(512).grid(R)
        .registers(20);

inline constexpr auto bias_relu_btc_spec =
    kernel<bias_relu_btc>("bias_relu_btc", binary(2, in<1>("x", f32, B, T, C), in<2>("bias", f32, C), out<0>("y", f32, B, T, C)))
        .at(B(32), T(1024), C(1024)).sizes(B(grid_dim.z), T(arg<3>), C(arg<4>))
        .block(256).grid(ceil_div(C, 256), T, B)
        .registers(14);

inline constexpr auto box5x5_clamped_spec =
    kernel<box5x5_clamped>("box5x5_clamped", custom(25 * H * W, in<1>("in", f32, H, W), out<0>("out", f32, H, W)))
        .at(H(4096), W(4096)).sizes(W(arg<2>), H(arg<3>))
        .block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8))
        .registers(32);

inline constexpr auto hist256_shared_atomics_spec =
    kernel<hist256_shared_atomics>("hist256_shared_atomics", custom(N, in<1>("data", u8, N), inout<0>("bins", u32, Bins)))
        .at(N(1 << 28)).sizes(N(4 * arg<2>))
        .block(256).grid(1056)
        .registers(15);

inline constexpr auto column_mean_spec =
    kernel<column_mean>("column_mean", reduction(in<1>("x", f32, R, C), out<0>("mean", f32, C)))
        .at(R(4096), C(16384)).sizes(R(arg<2>), C(arg<3>))
        .block(64).grid(ceil_div(C, 64))
        .registers(32);

inline constexpr auto nhwc_to_nchw_spec =
    kernel<nhwc_to_nchw>("nhwc_to_nchw", custom(0, in<1>("x", f32, N, H, W, C), out<0>("y", f32, N, C, H, W)))
        .at(N(32), H(128), W(128), C(64)).sizes(N(arg<2>), H(arg<3>), W(arg<4>), C(arg<5>))
        .block(256).grid(ceil_div(N * C * H * W, 256))
        .registers(24);

inline constexpr auto embedding_lookup_spec =
    kernel<embedding_lookup>("embedding_lookup",
                             custom(0, in<1>("ids", i32, BT).indices(uniform(V)),
                                    in<2>("table", f32, V, D).touches(min(BT, V) * D),
                                    out<0>("out", f32, BT, D)))
        .at(BT(8192), V(32000), D(1024)).sizes(BT(grid_dim.x), D(4 * arg<3>))
        .block(256).grid(BT)
        .registers(18);

inline constexpr auto dot_block_atomic_spec =
    kernel<dot_block_atomic>("dot_block_atomic", custom(2 * N, in<1>("a", f32, N), in<2>("b", f32, N), inout<0>("result", f32, One)))
        .at(N(1 << 25)).sizes(N(arg<3>))
        .block(256).grid(1056)
        .registers(16);

inline constexpr auto sgemm_tile64_strided_spec =
    kernel<sgemm_tile64_strided>("sgemm_tile64_strided", matmul(in<0>("A", f32, M, K), in<1>("B", f32, K, N), out<2>("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096)).sizes(M(arg<3>), N(arg<4>), K(arg<5>))
        .block(16, 16).grid(ceil_div(N, 64), ceil_div(M, 64))
        .registers(40);

inline constexpr auto softmax_warp_3pass_spec =
    kernel<softmax_warp_3pass>("softmax_warp_3pass", softmax(in<1>("x", f32, R, C), out<0>("y", f32, R, C)))
        .at(R(65536), C(1024)).sizes(R(arg<2>), C(arg<3>))
        .block(256).grid(ceil_div(R, 8))
        .registers(31);

inline constexpr auto vadd_float4_spec =
    kernel<vadd_float4>("vadd_float4", binary(1, in<1>("a", f32, N), in<2>("b", f32, N), out<0>("c", f32, N)))
        .at(N(1 << 26)).sizes(N(4 * arg<3>))
        .block(256).grid(ceil_div(N, 1024))
        .registers(22);

inline constexpr auto batch_copy_pitched_spec =
    kernel<batch_copy_pitched>("batch_copy_pitched",
                               custom(0, in<1>("src", f32, Bt, M, LD).touches(Bt * M * N), out<0>("dst", f32, Bt, M, N)))
        .at(Bt(32), M(1024), N(1000), LD(1028)).sizes(Bt(grid_dim.y), M(arg<2>), N(arg<3>), LD(arg<4>))
        .block(256).grid(ceil_div(M * N, 256), Bt)
        .registers(14);
}  // namespace held_out_specs

// ---------------------------------------------------------------------------------------------------
// The program: each kernel once, at its spec's sizes and launch.
#include "held_out_setup.h"

using namespace held_out;

int main() {
  using Z = size_t;
  {  // 1
    const int R = 16384, C = 4096;
    float *y = alloc<float>(Z(R) * C, "y"), *rstd = alloc<float>(R, "rstd"), *x = alloc<float>(Z(R) * C, "x"), *w = alloc<float>(C, "w");
    fill_f32(x, Z(R) * C, 1);
    fill_f32(w, C, 2);
    check(cudaDeviceSynchronize(), "init");
    rmsnorm_rows_twopass<<<R, 512>>>(y, rstd, x, w, C);
    done("rmsnorm_rows_twopass");
    cudaFree(y), cudaFree(rstd), cudaFree(x), cudaFree(w);
  }
  {  // 2
    const int B = 32, T = 1024, C = 1024;
    float *y = alloc<float>(Z(B) * T * C, "y"), *x = alloc<float>(Z(B) * T * C, "x"), *bias = alloc<float>(C, "bias");
    fill_f32(x, Z(B) * T * C, 3);
    fill_f32(bias, C, 4);
    check(cudaDeviceSynchronize(), "init");
    bias_relu_btc<<<dim3((C + 255) / 256, T, B), 256>>>(y, x, bias, T, C);
    done("bias_relu_btc");
    cudaFree(y), cudaFree(x), cudaFree(bias);
  }
  {  // 3
    const int H = 4096, W = 4096;
    float *out = alloc<float>(Z(H) * W, "out"), *in = alloc<float>(Z(H) * W, "in");
    fill_f32(in, Z(H) * W, 5);
    check(cudaDeviceSynchronize(), "init");
    box5x5_clamped<<<dim3((W + 31) / 32, (H + 7) / 8), dim3(32, 8)>>>(out, in, W, H);
    done("box5x5_clamped");
    cudaFree(out), cudaFree(in);
  }
  {  // 4
    const int N = 1 << 28, n4 = N / 4;
    unsigned int* bins = alloc<unsigned int>(256, "bins");
    uchar4* data = alloc<uchar4>(n4, "data");
    init_hash_u32<<<2048, 256>>>(reinterpret_cast<std::uint32_t*>(data), Z(n4), 0u, 6);
    check(cudaMemset(bins, 0, 256 * sizeof(unsigned int)), "memset bins");
    check(cudaDeviceSynchronize(), "init");
    hist256_shared_atomics<<<1056, 256>>>(bins, data, n4);
    done("hist256_shared_atomics");
    unsigned int h[256];
    check(cudaMemcpy(h, bins, sizeof h, cudaMemcpyDeviceToHost), "copy bins");
    unsigned long long total = 0;
    for (unsigned v : h) total += v;
    if (total != static_cast<unsigned long long>(N)) std::fprintf(stderr, "held-out: histogram counted %llu of %d\n", total, N), ++failures;
    cudaFree(bins), cudaFree(data);
  }
  {  // 5
    const int R = 4096, C = 16384;
    float *mean = alloc<float>(C, "mean"), *x = alloc<float>(Z(R) * C, "x");
    fill_f32(x, Z(R) * C, 7);
    check(cudaDeviceSynchronize(), "init");
    column_mean<<<(C + 63) / 64, 64>>>(mean, x, R, C);
    done("column_mean");
    cudaFree(mean), cudaFree(x);
  }
  {  // 6
    const int N = 32, H = 128, W = 128, C = 64;
    const Z n = Z(N) * H * W * C;
    float *y = alloc<float>(n, "y"), *x = alloc<float>(n, "x");
    fill_f32(x, n, 8);
    check(cudaDeviceSynchronize(), "init");
    nhwc_to_nchw<<<static_cast<unsigned>((n + 255) / 256), 256>>>(y, x, N, H, W, C);
    done("nhwc_to_nchw");
    cudaFree(y), cudaFree(x);
  }
  {  // 7
    const int BT = 8192, V = 32000, D = 1024, D4 = D / 4;
    float4* out = alloc<float4>(Z(BT) * D4, "out");
    int* ids = alloc<int>(BT, "ids");
    float4* table = alloc<float4>(Z(V) * D4, "table");
    init_hash_u32<<<32, 256>>>(reinterpret_cast<std::uint32_t*>(ids), Z(BT), static_cast<std::uint32_t>(V), 9);
    fill_f32(reinterpret_cast<float*>(table), Z(V) * D, 10);
    check(cudaDeviceSynchronize(), "init");
    embedding_lookup<<<BT, 256>>>(out, ids, table, D4);
    done("embedding_lookup");
    cudaFree(out), cudaFree(ids), cudaFree(table);
  }
  {  // 8
    const int N = 1 << 25;
    float *result = alloc<float>(1, "result"), *a = alloc<float>(N, "a"), *b = alloc<float>(N, "b");
    fill_f32(a, N, 11);
    fill_f32(b, N, 12);
    check(cudaMemset(result, 0, sizeof(float)), "memset result");
    check(cudaDeviceSynchronize(), "init");
    dot_block_atomic<<<1056, 256>>>(result, a, b, N);
    done("dot_block_atomic");
    cudaFree(result), cudaFree(a), cudaFree(b);
  }
  {  // 9
    const int M = 4096, N = 4096, K = 4096;
    float *A = alloc<float>(Z(M) * K, "A"), *B = alloc<float>(Z(K) * N, "B"), *C = alloc<float>(Z(M) * N, "C");
    fill_f32(A, Z(M) * K, 13);
    fill_f32(B, Z(K) * N, 14);
    check(cudaDeviceSynchronize(), "init");
    sgemm_tile64_strided<<<dim3(N / 64, M / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
    done("sgemm_tile64_strided");
    cudaFree(A), cudaFree(B), cudaFree(C);
  }
  {  // 10
    const int R = 65536, C = 1024;
    float *y = alloc<float>(Z(R) * C, "y"), *x = alloc<float>(Z(R) * C, "x");
    fill_f32(x, Z(R) * C, 15);
    check(cudaDeviceSynchronize(), "init");
    softmax_warp_3pass<<<(R + 7) / 8, 256>>>(y, x, R, C);
    done("softmax_warp_3pass");
    cudaFree(y), cudaFree(x);
  }
  {  // 11
    const int N = 1 << 26, n4 = N / 4;
    float4 *c = alloc<float4>(n4, "c"), *a = alloc<float4>(n4, "a"), *b = alloc<float4>(n4, "b");
    fill_f32(reinterpret_cast<float*>(a), N, 16);
    fill_f32(reinterpret_cast<float*>(b), N, 17);
    check(cudaDeviceSynchronize(), "init");
    vadd_float4<<<(n4 + 255) / 256, 256>>>(c, a, b, n4);
    done("vadd_float4");
    cudaFree(c), cudaFree(a), cudaFree(b);
  }
  {  // 12
    const int Bt = 32, M = 1024, N = 1000, LD = 1028;
    float *dst = alloc<float>(Z(Bt) * M * N, "dst"), *src = alloc<float>(Z(Bt) * M * LD, "src");
    fill_f32(src, Z(Bt) * M * LD, 18);
    check(cudaDeviceSynchronize(), "init");
    batch_copy_pitched<<<dim3((M * N + 255) / 256, Bt), 256>>>(dst, src, M, N, LD);
    done("batch_copy_pitched");
    cudaFree(dst), cudaFree(src);
  }
  std::printf("held-out: %s\n", failures ? "FAILED" : "all kernels ran");
  return failures ? 1 : 0;
}
