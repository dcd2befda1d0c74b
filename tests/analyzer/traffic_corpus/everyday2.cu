// Everyday kernels, second set: RoPE, layout changes (NCHW to NHWC, naive and through a shared tile),
// im2col, convolutions (a direct 3x3, a 1-D one with a shared halo, a depthwise 3x3 in NHWC), a strided
// slice, concatenation and stack along the last dimension, a bf16 bias and GELU, grouped-query attention
// scores, a batched GEMV, a float4 grid-stride scale with a scalar tail, bilinear upsampling, max
// pooling, an argmax over vocabulary rows, Sobel on 8-bit pixels, a mixed-precision SGD update with
// momentum, a causal mask.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line. On the H200's geometry: 132 SMs,
// 32-byte sectors, L2 60 MiB (0.4 of it kept whole: 24 MiB), L1 and shared memory 256 KiB an SM. "Other
// SMs": the block scheduler hands consecutive block ids to different SMs; blocks k and k + 132 are the
// ones that share an SM in the first wave (round robin; the real order is near it, not exact).
#include "corpus.h"

#ifdef ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_bf16.h>
#else
// What the kernels below use beyond corpus.h's mock: bf16 as the toolkit's cuda_bf16.h declares it (2
// bytes; a pair 4, aligned to 4), and the integer functions and INFINITY of the math headers.
struct __nv_bfloat16 { unsigned short x; };
struct __attribute__((aligned(4))) __nv_bfloat162 { __nv_bfloat16 x, y; };
__device__ float2 __bfloat1622float2(__nv_bfloat162 v);
__device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__device__ float __bfloat162float(__nv_bfloat16 v);
__device__ __nv_bfloat16 __float2bfloat16(float v);
__device__ int __shfl_xor_sync(unsigned mask, int value, int lane_mask, int width = 32);
__device__ int min(int a, int b);
__device__ int abs(int v);
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#endif

// 1. RoPE (rotary position embedding), llm.c-style, fp32, one thread per (x[2i], x[2i+1]) pair.
// x, y: (B,T,H,D) = (8,1024,32,128), 128 MiB each. cos, sin: (T, D/2) = 256 KiB each.
// x: two scalar loads x[2i], x[2i+1] (no 8-byte alignment the compiler can prove: not merged): each warp
//   request spans 256 aligned bytes = 8 sectors for 128 useful bytes; 16 sectors for the warp's 256 bytes:
//   2x at L1; the second load finds the first's sectors in L1: 1x at L2, 1x at DRAM.
// y: two stores of 8 sectors each: 2x at L1. At L2 the H200 counted the kernel at 1.12x of its
//   compulsory bytes (2026-12-03), which leaves y about 1x: the SM joined the pair's two stores of the
//   halves of each sector on their way to L2 (1.62x if they went apart): 1x..2x. L2 merges them: DRAM
//   (1 - 60/128 = 0.53)..1x.
// cos, sin: p = i % 64: a warp reads 32 consecutive floats of row t (128 aligned bytes, 4 sectors): 1x a
//   request, every element read by each of the B*H = 256 (b,h): 256x at L1. A block (256 pairs) is 4 heads
//   of one (b,t): it fetches row t (256 B) once: 8 blocks per (b,t) = B*H/4 = 64x at L2 (the 8 blocks of
//   one t are consecutive ids, other SMs; the same t in the next batch is 8192 blocks later). 512 KiB in
//   all: DRAM 1x.
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 2x, y l2 1x..2x, y dram 0.53x..1x, cos l1 256x, cos l2 56x..64x, cos dram 1x, sin l1 256x, sin l2 56x..64x, sin dram 1x
__global__ void rope_forward(float* y, const float* x, const float* cos, const float* sin, int B, int T, int H, int D) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // pair index over B*T*H*D/2
  const int half = D / 2;
  if (i >= B * T * H * half) return;
  const int p = i % half;
  const int t = (i / half / H) % T;
  const float x0 = x[2 * i], x1 = x[2 * i + 1];
  const float c = cos[t * half + p], s = sin[t * half + p];
  y[2 * i] = x0 * c - x1 * s;
  y[2 * i + 1] = x0 * s + x1 * c;
}

// 2. NCHW -> NHWC, naive: one thread per output element (coalesced writes, strided reads).
// x: (N,C,H,W) = (32,64,128,128), 128 MiB; y: (N,H,W,C).
// x: lanes are 32 consecutive c, H*W*4 = 64 KiB apart: 32 sectors a request for 128 bytes: 8x at L1.
//   A block (256 outputs) is 4 consecutive w (w0 multiple of 4: 16 bytes inside one sector) x 64 c: 64
//   distinct sectors for 256 requested (its warps 0,2,4,6 and 1,3,5,7 ask the same ones): 64 sectors for
//   1 KiB = 32 sectors used: 2x at L2 (the block with the other half of each sector is the next id, on
//   another SM). A 64-byte granule is 4 consecutive blocks, running together: DRAM 1x.
// y: 1x, 1x, DRAM 0.53x..1x.
// truth: x l1 8x, x l2 2x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void nchw_to_nhwc_naive(float* y, const float* x, int N, int C, int H, int W) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  const int c = i % C;
  const int w = (i / C) % W;
  const int h = (i / (C * W)) % H;
  const int n = i / (C * W * H);
  y[i] = x[((n * C + c) * H + h) * W + w];
}

// 3. NCHW -> NHWC through a shared 32 x 33 tile (per image, the (C, HW) matrix transposed), block 32 x 8,
// 4 rows a thread, grid (HW/32, C/32, N). Same sizes as 2.
// x: a warp reads 32 consecutive hw of one channel: 128 aligned bytes, 1x; each element once: 1x, 1x, 1x.
// y: a warp writes 32 consecutive c of one pixel (C = 64: 128-byte aligned halves): 1x, 1x, 0.53x..1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void nchw_to_nhwc_tiled(float* y, const float* x, int C, int HW) {
  __shared__ float tile[32][33];
  const int n = blockIdx.z, hw0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const float* xn = x + (size_t)n * C * HW;
  float* yn = y + (size_t)n * C * HW;
  for (int k = 0; k < 32; k += 8) tile[ty + k][tx] = xn[(size_t)(c0 + ty + k) * HW + hw0 + tx];
  __syncthreads();
  for (int k = 0; k < 32; k += 8) yn[(size_t)(hw0 + ty + k) * C + c0 + tx] = tile[tx][ty + k];
}

// 4. im2col for a 3x3 convolution, padding 1, stride 1: col (C*9, H*W) from x (C,H,W), one thread per
// element of col. C = 64, H = W = 256: x 16 MiB, col 144 MiB. A block (256) is one row w = 0..255 of one
// (c, kh, kw, h).
// x: row hi = h + kh - 1 (a whole warp skips it when out of range), columns w + kw - 1:
//   kw = 1: 4 sectors a warp; kw = 0: w0-1..w0+30, 5 sectors (4 for w0 = 0, lane 0 masked);
//   kw = 2: 5 sectors (4 for the last warp, lane 31 masked). Per (c, kh, h) with the row in range:
//   8*4 + (4 + 7*5) * 2 = 110 sectors; in range: 3H - 2 = 766 of the 3H (kh, h). Per c: 110 * 766 =
//   84260 sectors for 8192 sectors of x: 10.286x at L1.
//   L2: a block's warps fetch the row's 32 sectors once (neighbouring warps share an edge sector in L1):
//   3 kw * 766 * 32 / 8192 = 8.977x. The 9 blocks that read one x row are 256 and 767 ids apart (never a
//   multiple of 132: other SMs). DRAM: x's plane (256 KiB) is read by 2304 consecutive blocks: 1x.
// col: 1x, 1x; 144 MiB: DRAM (1 - 60/144 = 0.58)..1x.
// truth: x l1 10.286x, x l2 8.977x, x dram 1x, col l1 1x, col l2 1x, col dram 0.58x..1x
__global__ void im2col_3x3(float* col, const float* x, int C, int H, int W) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= C * 9 * H * W) return;
  const int w = i % W;
  const int h = (i / W) % H;
  const int r = i / (H * W);
  const int kw = r % 3, kh = (r / 3) % 3, c = r / 9;
  const int hi = h + kh - 1, wi = w + kw - 1;
  float v = 0.f;
  if (hi >= 0 && hi < H && wi >= 0 && wi < W) v = x[(c * H + hi) * W + wi];
  col[i] = v;
}

// 5. Direct 3x3 convolution, NCHW, no shared memory (one thread per output, loops over ci, kh, kw).
// N = 8, Cin = Cout = 32, H = W = 128: x, y 16 MiB; wt (Cout, Cin, 3, 3) 36 KiB. A block (256) is two
// output rows h, h+1 (h even) of one (n, co); a warp is 32 consecutive w of one row.
// x: per (n, co, ci) and output row, each in-range kh: kw = 1 4 sectors x 4 warps, kw = 0 and 2:
//   4 + 3*5 = 19 sectors: 54 sectors; in-range (h, kh): 3*128 - 2 = 382: 20628 sectors per plane of 2048:
//   10.072x, times Cout = 32: 322.3x at L1.
//   L2: per ci a block fetches rows h-1..h+2 (3 at the edges), 16 sectors each: (62*4 + 2*3) * 16 = 4064
//   sectors per (n, co, ci) for 2048: 1.984x, times Cout: 63.5x (the blocks of the same (n, h) and
//   another co are 64 ids apart: other SMs). 16 MiB: DRAM 1x.
// wt: the 32 lanes read one address (1 sector for 4 bytes) Cin * 3 * (3 or 2 rows in range) times a
//   warp: 4 warps * 32 * 3 * 382 = 146688 requests per (n, co), 256 (n, co): 37552128 * 32 B / 36864 B =
//   32597x at L1. L2: a block fetches its co's 1152 bytes (36 sectors, aligned) once: 16384 blocks * 1152
//   / 36864 = 512x (blocks of the same co on one SM are rare: same co is 64 consecutive ids). DRAM 1x.
// y: 1x, 1x, DRAM 0x..1x.
// truth: x l1 322.3x, x l2 60x..63.5x, x dram 1x, wt l1 32597x, wt l2 480x..512x, wt dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void conv3x3_direct_nchw(float* y, const float* x, const float* wt, int N, int Cin, int Cout, int H, int W) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * Cout * H * W) return;
  const int w = i % W;
  const int h = (i / W) % H;
  const int co = (i / (W * H)) % Cout;
  const int n = i / (W * H * Cout);
  float acc = 0.f;
  for (int ci = 0; ci < Cin; ++ci) {
    const float* xp = x + (size_t)(n * Cin + ci) * H * W;
    const float* wp = wt + (co * Cin + ci) * 9;
#pragma unroll
    for (int kh = 0; kh < 3; ++kh) {
      const int hi = h + kh - 1;
      if (hi < 0 || hi >= H) continue;
#pragma unroll
      for (int kw = 0; kw < 3; ++kw) {
        const int wi = w + kw - 1;
        const float v = (wi >= 0 && wi < W) ? xp[hi * W + wi] : 0.f;
        acc += v * wp[kh * 3 + kw];
      }
    }
  }
  y[i] = acc;
}

// 6. A strided slice y = x[::2, 1::3]: x (2R, 3C) = (8192, 6144), 192 MiB, of which R*C = 32 MiB used
// (the compulsory bytes); y (R, C) = (4096, 2048), 32 MiB. Grid (C/256, R).
// x: lanes 12 bytes apart from an aligned warp start + 4: 12 sectors for 128 bytes: 3x at L1 and L2 (no
//   two requests share a sector); DRAM: 6 granules of 64 for 128 bytes: 3x.
// y: 1x, 1x, DRAM 0x..1x.
// truth: x l1 3x, x l2 3x, x dram 3x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void slice_step2_step3(float* y, const float* x, int R, int C) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < C && r < R) y[r * C + c] = x[(2 * r) * (3 * C) + 3 * c + 1];
}

// 7. Concatenation along the last dim: y (R, 256) = [a (R, 100) | b (R, 156)], one thread per element of
// y, R = 65536: y 64 MiB, a 25 MiB, b 39 MiB. A block is one row of y.
// a: row r starts at 400r bytes: 0 or 16 mod 32. Warps 0-2 read 32 floats (4 sectors aligned, 5 at +16),
//   warp 3 lanes 0-3 read 16 bytes (1 sector): 13 or 16 sectors a row, mean 14.5, for 12.5: 1.16x at L1.
//   A row's 400 bytes touch 13 sectors either way: 13/12.5 = 1.04x at L2 (the sector shared with the next
//   row belongs to another block, another SM). DRAM 1x.
// b: row r starts at 624r bytes: 0 or 16 mod 32. Warps 3-7 read 28, 32, 32, 32, 32 floats: 4+5+5+5+5 = 24
//   sectors (offset 0) or 4*5 = 20 (offset 16), mean 22, for 19.5: 1.128x at L1; 20 distinct sectors a
//   row: 1.026x at L2; DRAM 1x.
// y: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
// truth: a l1 1.16x, a l2 1.04x, a dram 1x, b l1 1.128x, b l2 1.026x, b dram 1x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void concat_lastdim(float* y, const float* a, const float* b, int R, int Ca, int Cb) {
  const int Cy = Ca + Cb;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R * Cy) return;
  const int r = i / Cy, c = i % Cy;
  y[i] = c < Ca ? a[r * Ca + c] : b[r * Cb + c - Ca];
}

// 8. Bias + GELU in bf16 through __nv_bfloat162 pairs (a GEMM epilogue over a batch): x, y (M, C) =
// (8192, 3072) bf16, 48 MiB each; bias (C) bf16, 6 KiB. One thread per pair; a block is 512 of a row's
// 3072 elements (6 blocks a row).
// x: 32 lanes x 4 bytes = 128 aligned bytes: 1x, 1x, DRAM 1x.
// bias: a warp reads 128 consecutive bytes (1x a request); every row reads all of it: M = 8192x at L1.
//   A block reads its 1 KiB once (no reuse inside a block). Across blocks: an SM's blocks (k, k+132, ...;
//   132 = 22 * 6) all want the same 1 KiB chunk of bias, which L1 may keep while x streams past it: L2
//   from 132 SMs x 1 KiB over 6 KiB = 22x up to each block fetching its chunk = 8192x. DRAM 1x.
// y: 1x, 1x; 48 MiB: DRAM 0x..1x.
// truth: x l1 1x, x l2 1x, x dram 1x, bias l1 8192x, bias l2 22x..8192x, bias dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void bias_gelu_bf16x2(__nv_bfloat162* y, const __nv_bfloat162* x, const __nv_bfloat162* bias, int M, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // pair index over M*C/2
  const int half = C / 2;
  if (i >= M * half) return;
  const float2 v = __bfloat1622float2(x[i]);
  const float2 bb = __bfloat1622float2(bias[i % half]);
  float u0 = v.x + bb.x, u1 = v.y + bb.y;
  u0 = 0.5f * u0 * (1.f + tanhf(0.7978845608f * (u0 + 0.044715f * u0 * u0 * u0)));
  u1 = 0.5f * u1 * (1.f + tanhf(0.7978845608f * (u1 + 0.044715f * u1 * u1 * u1)));
  y[i] = __floats2bfloat162_rn(u0, u1);
}

// 9. Grouped-query attention scores S = Q K^T, 4 query heads per K head, through shared 32 x 64 tiles.
// B = 2, Hq = 32, Hkv = 8, T = 512, D = 64: Q (B,Hq,T,D) 8 MiB, K (B,Hkv,T,D) 2 MiB, S (B,Hq,T,T) 64 MiB.
// Block 32 x 8, grid (T/32, T/32, B*Hq): block (jx, iy, bh) loads Q rows i0..i0+31 and K rows j0..j0+31
// (each 8 KiB contiguous: 1x a request) and writes a 32 x 32 tile of S.
// Q: its tile is read by the T/32 = 16 blocks along x: 16x at L1; those are consecutive ids (other SMs):
//   16x at L2 (a little less if the scheduler puts two on one SM); 8 MiB: DRAM 1x.
// K: its tile is read by the 16 blocks along y of each of the 4 heads of the group: 64x at L1; ids 16 and
//   256 apart: other SMs but for a few (16 + 512 = 4 * 132): 48x..64x at L2; 2 MiB: DRAM 1x.
// S: 128 aligned bytes a warp: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
// truth: Q l1 16x, Q l2 12x..16x, Q dram 1x, K l1 64x, K l2 48x..64x, K dram 1x, S l1 1x, S l2 1x, S dram 0.06x..1x
__global__ void gqa_scores_tiled(float* S, const float* Q, const float* K, int B, int Hq, int Hkv, int T, int D) {
  __shared__ float Qs[32][65];
  __shared__ float Ks[32][65];
  const int bh = blockIdx.z, b = bh / Hq, h = bh % Hq, kvh = h / (Hq / Hkv);
  const float* q = Q + (size_t)bh * T * D;
  const float* k = K + ((size_t)b * Hkv + kvh) * T * D;
  const int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32;
  const int tid = threadIdx.y * 32 + threadIdx.x;
  for (int e = tid; e < 32 * D; e += 256) {
    const int r = e / D, d = e % D;
    Qs[r][d] = q[(i0 + r) * D + d];
    Ks[r][d] = k[(j0 + r) * D + d];
  }
  __syncthreads();
  for (int rr = 0; rr < 32; rr += 8) {
    const int i = threadIdx.y + rr;
    float acc = 0.f;
    for (int d = 0; d < D; ++d) acc += Qs[i][d] * Ks[threadIdx.x][d];
    S[((size_t)bh * T + i0 + i) * T + j0 + threadIdx.x] = acc;
  }
}

// 10. Batched GEMV, a warp per row: y[b, m] = sum_k A[b, m, k] x[b, k]. Bt = 32, M = 512, K = 4096:
// A 256 MiB, x 512 KiB, y 64 KiB. 128 threads (4 rows) a block: 128 blocks per batch.
// A: 1x, 1x, 1x.
// x: every row reads x[b] whole, 1x a request: M = 512x at L1. A block's 4 warps share it in L1: each
//   block fetches x[b] (16 KiB) once: 128x at L2; the 128 blocks of one batch are consecutive ids (fewer
//   than 132: other SMs, unless the scheduler doubles up): 96x..128x. DRAM 1x.
// y: lane 0 writes 4 bytes, a sector: 8x at L1 and L2; 64 KiB: DRAM 0x..1x.
// truth: A l1 1x, A l2 1x, A dram 1x, x l1 512x, x l2 96x..128x, x dram 1x, y l1 8x, y l2 8x, y dram 0x..1x
__global__ void batched_gemv_warp(float* y, const float* A, const float* x, int Bt, int M, int K) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= Bt * M) return;
  const int b = row / M;
  const float* a = A + (size_t)row * K;
  const float* xb = x + (size_t)b * K;
  float s = 0.f;
  for (int k = lane; k < K; k += 32) s += a[k] * xb[k];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// 11. 1-D convolution with a shared-memory halo: y[i] = sum_{k=0..2R} w[k] x[i + k - R], R = 64 (129
// taps), tile 128 outputs, 128 threads, the tile and its halo (256 floats) loaded as two coalesced rows.
// n = 2^24: x, y 64 MiB; w 516 bytes.
// x: block b loads x[128b - 64 .. 128b + 191]: 8 requests of 4 aligned sectors (the first block's first
//   half and the last block's second half masked): 256 floats for 128: 2x at L1 and at L2 (the
//   neighbours' halves are on other SMs); DRAM 1x.
// w: the lanes read one address, 129 requests of a sector a warp: (n/32) * 129 * 32 / 516 = n/4 =
//   4194304x at L1. L2: between each block fetching its 17 sectors (138189x) and each SM keeping w in L1
//   (~139x): not bounded here. DRAM: 516 bytes in 9 granules: 576/516 = 1.116x.
// y: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
// truth: x l1 2x, x l2 2x, x dram 1x, w l1 4194304x, w dram 1.116x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void conv1d_halo(float* y, const float* x, const float* w, int n) {
  constexpr int R = 64, TILE = 128;
  __shared__ float s[TILE + 2 * R];
  const int i0 = blockIdx.x * TILE, t = threadIdx.x;
  for (int j = t; j < TILE + 2 * R; j += TILE) {
    const int g = i0 - R + j;
    s[j] = (g >= 0 && g < n) ? x[g] : 0.f;
  }
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k <= 2 * R; ++k) acc += w[k] * s[t + k];
  if (i0 + t < n) y[i0 + t] = acc;
}

// 12. Scale, float4 grid-stride loop over a fixed grid (8 blocks of 256 an SM: 1056) with a scalar tail
// of n % 4 elements: n = 2^25 + 3 (x, y 128 MiB).
// x: 512 aligned bytes a warp, 16 sectors: 1x; the tail's 3 lanes read 12 bytes in one sector (noise):
//   1x, 1x, 1x. y: 1x, 1x; 128 MiB: DRAM 0.53x..1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void scale_float4_gridstride(float* y, const float* x, float a, int n) {
  const int n4 = n / 4;
  const int stride = gridDim.x * blockDim.x, tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  for (int i = tid; i < n4; i += stride) {
    float4 v = x4[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    y4[i] = v;
  }
  if (tid < n - 4 * n4) y[4 * n4 + tid] = a * x[4 * n4 + tid];
}

// 13. Bilinear 2x upsampling, align_corners = false (PyTorch's index arithmetic, in float). NC = 64
// planes of 256 x 256 -> 512 x 512: x 16 MiB, y 64 MiB. A block is half an output row.
// x: the source column floor(max((wo + 0.5)/2 - 0.5, 0)) is wo/2 - 1 (wo even) or (wo-1)/2: lanes
//   32j..32j+31 read w0 = 16j-1..16j+15 (3 sectors; 2 for j = 0) and w1 = w0+1 (3; 2 for the last warp),
//   in rows h0 and h1: 2 * (47 + 47) = 188 sectors an output row, 512 rows: 96256 for a plane's 8192:
//   11.75x at L1. A block touches 17 sectors of each of its 2 rows: 34 * 1024 blocks / 8192 = 4.25x at L2
//   (the 8 blocks reading an input row are ids 2 apart: other SMs). 16 MiB, read within a few blocks: 1x.
//   The addresses come from float arithmetic: an analyzer that does not evaluate floats cannot see them.
// y: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
// truth: x l1 11.75x, x l2 4.25x, x dram 1x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void upsample_bilinear2x(float* y, const float* x, int NC, int H, int W) {
  const int Ho = 2 * H, Wo = 2 * W;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NC * Ho * Wo) return;
  const int wo = i % Wo, ho = (i / Wo) % Ho, nc = i / (Wo * Ho);
  const float sh = fmaxf((ho + 0.5f) * 0.5f - 0.5f, 0.f), sw = fmaxf((wo + 0.5f) * 0.5f - 0.5f, 0.f);
  const int h0 = (int)sh, w0 = (int)sw;
  const int h1 = min(h0 + 1, H - 1), w1 = min(w0 + 1, W - 1);
  const float lh = sh - h0, lw = sw - w0;
  const float* p = x + (size_t)nc * H * W;
  const float top = (1.f - lw) * p[h0 * W + w0] + lw * p[h0 * W + w1];
  const float bot = (1.f - lw) * p[h1 * W + w0] + lw * p[h1 * W + w1];
  y[i] = (1.f - lh) * top + lh * bot;
}

// 14. 2x2 max pooling, stride 2, NCHW: x (NC, H, W) = (128, 512, 512) 128 MiB, y (128, 256, 256) 32 MiB.
// x: p[0], p[1], p[W], p[W+1] with p = x + (2ho) W + 2wo: each request lanes 8 bytes apart, 256 aligned
//   bytes = 8 sectors (the pairs are not merged: no provable 8-byte alignment): 32 sectors for the warp's
//   512 bytes (16 sectors): 2x at L1; p[1] and p[W+1] hit L1: 1x at L2; DRAM 1x.
// y: 1x, 1x; 32 MiB: DRAM 0x..1x.
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void maxpool2x2_nchw(float* y, const float* x, int NC, int H, int W) {
  const int Ho = H / 2, Wo = W / 2;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NC * Ho * Wo) return;
  const int wo = i % Wo, ho = (i / Wo) % Ho, nc = i / (Wo * Ho);
  const float* p = x + ((size_t)nc * H + 2 * ho) * W + 2 * wo;
  y[i] = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[W], p[W + 1]));
}

// 15. Argmax over vocabulary rows, a warp per row (greedy decoding): logits (R, V) = (1024, 50257), 196
// MiB; out (R) int32. 256 threads (8 rows) a block: 128 blocks.
// logits: row r starts at 201028 r bytes = 4 (r mod 8) mod 32. 1570 full requests (4 sectors when the
//   row is aligned, 5 otherwise) and one of 17 lanes (68 bytes: 3 sectors): 6283 or 7853 sectors a row,
//   mean 7656.75, for 6282.125: 1.219x at L1. A row touches 6283 sectors: 1.0001x at L2; DRAM 1x.
// out: lane 0 writes 4 bytes: a sector each: 8x at L1 and L2; 4 KiB: DRAM 0x..1x.
// truth: logits l1 1.219x, logits l2 1x, logits dram 1x, out l1 8x, out l2 8x, out dram 0x..1x
__global__ void argmax_rows(int* out, const float* logits, int R, int V) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= R) return;
  const float* p = logits + (size_t)row * V;
  float best = -3.0e38f;
  int bi = 0;
  for (int c = lane; c < V; c += 32) {
    const float v = p[c];
    if (v > best) { best = v; bi = c; }
  }
  for (int o = 16; o > 0; o /= 2) {
    const float ob = __shfl_xor_sync(0xffffffffu, best, o);
    const int oi = __shfl_xor_sync(0xffffffffu, bi, o);
    if (ob > best || (ob == best && oi < bi)) { best = ob; bi = oi; }
  }
  if (lane == 0) out[row] = bi;
}

// 16. Sobel edge magnitude on an 8-bit image: img, out (H, W) = (8192, 8192) u8, 64 MiB each. Block
// 32 x 8 (a warp is 32 bytes of one row), grid (W/32, H/8); the border pixels get 0.
// img: 8 taps, separate byte loads (the compiler can prove no alignment to merge them). A warp's
//   32 bytes are one aligned sector; a tap at dx = -1 or +1 spans 2 sectors, dx = 0 one: rows -1 and +1
//   5 sectors each (3 taps), row 0 4 (2 taps): 14 a warp; the two edge warps of a row (a lane masked)
//   11. Rows 1..H-2 load: 8190 * (254*14 + 2*11) / (8192*256) = 13.973x at L1.
//   L2: a block fetches 3 sectors (2 at the left/right edge) of each of 10 rows (9 at the top/bottom):
//   (254*3 + 2*2) * (1022*10 + 2*9) / (256 * 8192) = 3.740x (its neighbours along x are the next ids,
//   along y 256 ids away: other SMs). 64 MiB, but each granule's readers run within ~256 blocks: DRAM 1x.
// out: 1 sector a warp; the edge warps store twice (the 0 branch and the other): 1 + 2/256 = 1.008x at
//   L1 and L2; 64 MiB: DRAM 0.06x..1x.
// truth: img l1 13.973x, img l2 3.74x, img dram 1x, out l1 1.008x, out l2 1.008x, out dram 0.06x..1x
__global__ void sobel_u8(unsigned char* out, const unsigned char* img, int H, int W) {
  const int xq = blockIdx.x * 32 + threadIdx.x, yq = blockIdx.y * 8 + threadIdx.y;
  if (xq >= W || yq >= H) return;
  if (xq < 1 || yq < 1 || xq >= W - 1 || yq >= H - 1) {
    out[yq * W + xq] = 0;
    return;
  }
  const unsigned char* p = img + yq * W + xq;
  const int gx = -p[-W - 1] + p[-W + 1] - 2 * p[-1] + 2 * p[1] - p[W - 1] + p[W + 1];
  const int gy = -p[-W - 1] - 2 * p[-W] - p[-W + 1] + p[W - 1] + 2 * p[W] + p[W + 1];
  const int m = abs(gx) + abs(gy);
  out[yq * W + xq] = (unsigned char)(m > 255 ? 255 : m);
}

// 17. SGD with momentum, mixed precision: fp32 master params and momentum (read and written), bf16
// gradients in, a bf16 copy of the params out. n = 2^25: params, mom 128 MiB, grads, params_bf16 64 MiB.
// Every access is 32 consecutive elements of one warp (128 or 64 aligned bytes): 1x at L1 and L2.
// DRAM: grads 1x; params, mom read once and written once, the writes (1 - 60/128)..1x: (1 + 0.53)/2 =
//   0.77x..1x of read + written; params_bf16 64 MiB: 0.06x..1x.
// truth: params l1 1x, params l2 1x, params dram 0.77x..1x, mom l1 1x, mom l2 1x, mom dram 0.77x..1x, grads l1 1x, grads l2 1x, grads dram 1x, params_bf16 l1 1x, params_bf16 l2 1x, params_bf16 dram 0.06x..1x
__global__ void sgd_momentum_mixed(float* params, float* mom, const __nv_bfloat16* grads, __nv_bfloat16* params_bf16, float lr, float mu, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = __bfloat162float(grads[i]);
  const float m = mu * mom[i] + g;
  mom[i] = m;
  const float p = params[i] - lr * m;
  params[i] = p;
  params_bf16[i] = __float2bfloat16(p);
}

// 18. Depthwise 3x3 convolution, NHWC, padding 1, one thread per output, taps skipped at the border:
// N = 16, H = W = 64, C = 64: x, y 16 MiB; wd (3, 3, C) 2304 bytes. A block (256) is 4 pixels x 64 c; a
// warp is 32 channels of one pixel (128 aligned bytes: 1x a request).
// x: in-range taps per pixel, summed over a plane: 190 * 190 / 4096 = 8.8135x at L1. L2: a block fetches
//   the in-range pixels of rows h-1..h+1 and columns w0-1..w0+4 (6; 5 at the edges), 8 sectors each:
//   sum over blocks 190 * (14*6 + 2*5) = 17860 pixels per image of 4096: 4.360x (its neighbours are the
//   next ids and 16 ids away: other SMs). 16 MiB: DRAM 1x.
// wd: a warp reads the tap's 32 channels (1x a request) at every in-range tap: 16 * 36100 * 2 * 128 /
//   2304 = 64178x at L1. L2: whether an SM's L1 keeps 2.3 KiB of weights across its blocks: not bounded
//   here. DRAM 1x.
// y: 1x, 1x, DRAM 0x..1x.
// truth: x l1 8.8135x, x l2 4.36x, x dram 1x, wd l1 64178x, wd dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void depthwise3x3_nhwc(float* y, const float* x, const float* wd, int N, int H, int W, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * H * W * C) return;
  const int c = i % C, wq = (i / C) % W, hq = (i / (C * W)) % H, n = i / (C * W * H);
  float acc = 0.f;
#pragma unroll
  for (int kh = 0; kh < 3; ++kh) {
    const int hi = hq + kh - 1;
    if (hi < 0 || hi >= H) continue;
#pragma unroll
    for (int kw = 0; kw < 3; ++kw) {
      const int wi = wq + kw - 1;
      if (wi < 0 || wi >= W) continue;
      acc += x[((n * H + hi) * W + wi) * C + c] * wd[(kh * 3 + kw) * C + c];
    }
  }
  y[i] = acc;
}

// 19. A causal mask with scaling, one thread per score: y[i, j] = j <= i ? s[i, j] * scale : -inf,
// s read only on and below the diagonal. BH = 16, T = 2048: s, y 256 MiB; s's compulsory bytes are the
// lower triangle with the diagonal, BH * T (T + 1) / 2 elements.
// s: a row i reads i + 1 floats from an aligned start: ceil((i+1)/8) sectors, on average 0.4375 sector
//   more than (i+1)/8: 263168 / 262272 = 1.0034x at L1 and L2 (a block is 256 columns of one row); DRAM
//   1x (granules: 64 bytes, at most one partly used a row: 1.0x).
// y: every element written: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
// truth: s l1 1.003x, s l2 1.003x, s dram 1x, y l1 1x, y l2 1x, y dram 0.77x..1x
__global__ void causal_mask_scale(float* y, const float* s, float scale, int BH, int T) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y, bh = blockIdx.z;
  if (j >= T) return;
  const size_t e = ((size_t)bh * T + i) * T + j;
  y[e] = j <= i ? s[e] * scale : -INFINITY;
}

// 20. Stack along a new last dim (torch.stack([a, b], -1), real and imaginary parts into complex):
// y[2i] = a[i], y[2i+1] = b[i], one thread per element of y, the source picked per lane (nvcc loads once
// through the selected pointer: every warp request mixes a and b). n = 2^24: a, b 64 MiB, y 128 MiB.
// a: a warp's 16 a-lanes read a[16j..16j+15], 64 aligned bytes: 2 sectors for 2: 1x at L1, L2, DRAM.
// b: the same: 1x, 1x, 1x.  y: 1x, 1x; 128 MiB: DRAM 0.53x..1x.
// truth: a l1 1x, a l2 1x, a dram 1x, b l1 1x, b l2 1x, b dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void stack_lastdim(float* y, const float* a, const float* b, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= 2 * n) return;
  y[j] = (j & 1) ? b[j >> 1] : a[j >> 1];
}

// 21-22. Centring rows (y = x - a neighbour's partial sum / n, as a normalisation's two passes do), a
// block of 1024 threads a row, the partial sums in dynamic shared memory (extern __shared__): each pass
// reads the row once, coalesced, so x is 2x at L1. What L1 keeps between the passes depends on the
// shared memory the launch gives each block (CacheLevels: an SM's 256 KiB less the carve-out, and a
// working set kept whole up to 1/8 of what is left).
__device__ __forceinline__ void centre_row(float* y, const float* x, int n) {
  extern __shared__ float partial[];
  const float* row = x + (size_t)blockIdx.x * n;
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += row[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  const float shift = partial[(threadIdx.x + 1) % blockDim.x] / n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)blockIdx.x * n + i] = row[i] - shift;
}

// 21. Rows of 2048 floats (8 KiB), R = 16384 (x, y 128 MiB), 4 KiB a block: 2 blocks an SM, a 16 KiB
// carve-out, 240 KiB of L1 keeping up to 30 KiB: the SM's two rows (16 KiB) stay between the passes.
// x: l1 2x, l2 1x, dram 1x. y: written once, 1x, 1x; 128 MiB: DRAM 0.53x..1x.
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void centre_rows_small_shared(float* y, const float* x, int n) { centre_row(y, x, n); }

// 22. Rows of 8192 floats (32 KiB), R = 4096 (128 MiB), 220 KiB a block: 1 block an SM, the 228 KiB
// carve-out, 28 KiB of L1, less than the row: the second pass misses L1 throughout and is served by L2
// (132 rows of 32 KiB in flight, 4 MiB): x l1 2x, l2 2x, dram 1x. y as in 21.
// truth: x l1 2x, x l2 2x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void centre_rows_large_shared(float* y, const float* x, int n) { centre_row(y, x, n); }

// 23-24. A causal softmax's backward pass in outline: a warp per U columns c of BH lower triangles of
// T x T walks the rows r = c .. T-1 and reads each row's first r + 1 floats (a coalesced loop), then its
// first U lanes write U floats of out. Block b's rows (8U columns a block) run from 8Ub to the last, so
// its footprint holds its right neighbour's, and the two reach the rows they share at different points
// of their runs. Rows start 2 KiB apart (64-byte aligned): row r is ceil((r + 1) / 8) sectors,
// ceil((r + 1) / 16) granules. The sums below are over r (and the warps or blocks that read row r).
// - 23, U = 1, BH = 128, T = 512 (a triangle 525,312 bytes): row r is read by the r + 1 warps c <= r:
//   sum (r + 1) ceil((r + 1) / 8) sectors: 345.1x at L1. 64 blocks a triangle; a wave of 132 x 8 blocks
//   holds 16.5 triangles, 8.9 MB, well within L2's kept part: each granule from DRAM once, 8,448 of
//   them a triangle, 1.029x (1.029x..1.1x: a few read again). out: one float a warp, one sector: 8x at L1 and L2; 256 KiB,
//   within L2: 0x..1x at DRAM.
// - 24, U = 8, BH = 64, T = 1024: row r is read by the r / 8 + 1 warps c = 8k <= r: 86.25x at L1. 16
//   blocks a triangle, 1,024 in all: one wave, reading 134 MB while a block walks its rows, over L2
//   (and its kept part): every block reads its rows from DRAM, sum over b of the granules of rows
//   64b .. 1023: 11.28x. A block's warps are 8 rows apart, and in the 8 steps between two of them
//   reading a row the SM's 64 warps read about 1 MB, over L1 and the SM's share of L2: some of those
//   re-reads reach DRAM too, up to every warp reading its rows from DRAM, 86.75x: how many, the hand
//   cannot bound, so DRAM is left out (the H100 counted 34.9x, 2026-12-06). out: 8 lanes, 32 contiguous bytes, one sector: 1x at L1 and L2; 256 KiB: 0x..1x
//   at DRAM.
// L2 is left out: whether a block's warps find their rows still in L1 one row later (U = 1) or 8 rows
// later (U = 8) depends on how far the warps drift apart. At L1 the H100 counted 409x and 104x, 18% and
// 21% over the loop's sectors: more requests a row than the lanes need.
template <int U>
__device__ __forceinline__ void suffix_rows(const float* a, float* out, int t) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int c = U * (blockIdx.x * 8 + warp);
  const float* m = a + (size_t)blockIdx.y * t * t;
  float s = 0.f;
  for (int r = c; r < t; ++r)
    for (int j = lane; j <= r; j += 32) s += m[(size_t)r * t + j];
  if (lane < U) out[(size_t)blockIdx.y * t + c + lane] = s;
}
// truth: a l1 345x, a dram 1.029x..1.1x, out l1 8x, out l2 8x, out dram 0x..1x
__global__ void suffix_rows_narrow(const float* a, float* out, int t) { suffix_rows<1>(a, out, t); }
// truth: a l1 86.3x, out l1 1x, out l2 1x, out dram 0x..1x
__global__ void suffix_rows_wide(const float* a, float* out, int t) { suffix_rows<8>(a, out, t); }

#include "rooflint/dsl.h"
namespace everyday2_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct D2 final : dim<"D2"> {} D2;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct HW final : dim<"HW"> {} HW;
inline constexpr struct Cin final : dim<"Cin"> {} Cin;
inline constexpr struct Cout final : dim<"Cout"> {} Cout;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct R2 final : dim<"R2"> {} R2;
inline constexpr struct C3 final : dim<"C3"> {} C3;
inline constexpr struct Ca final : dim<"Ca"> {} Ca;
inline constexpr struct Cb final : dim<"Cb"> {} Cb;
inline constexpr struct Cy final : dim<"Cy"> {} Cy;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct C2 final : dim<"C2"> {} C2;
inline constexpr struct Hq final : dim<"Hq"> {} Hq;
inline constexpr struct Hkv final : dim<"Hkv"> {} Hkv;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct NC final : dim<"NC"> {} NC;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct BH final : dim<"BH"> {} BH;
inline constexpr struct Nine final : dim<"Nine", 9> {} Nine;
inline constexpr struct Three final : dim<"Three", 3> {} Three;
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr struct Taps final : dim<"Taps", 129> {} Taps;

inline constexpr auto rope_forward_spec =
    kernel<rope_forward>("rope_forward", custom(6 * B * T * H * D2, out<0>("y", f32, B, T, H, D), in<1>("x", f32, B, T, H, D),
                                                in<2>("cos", f32, T, D2), in<3>("sin", f32, T, D2)))
        .sizes(B(arg<4>), T(arg<5>), H(arg<6>), D(arg<7>), D2(D / 2)).at(B(8), T(1024), H(32), D(128))
        .block(256).grid(ceil_div(B * T * H * D, 512));
inline constexpr auto nchw_to_nhwc_naive_spec =
    kernel<nchw_to_nhwc_naive>("nchw_to_nhwc_naive", custom(0, out<0>("y", f32, N, H, W, C), in<1>("x", f32, N, C, H, W)))
        .at(N(32), C(64), H(128), W(128)).sizes(N(arg<2>), C(arg<3>), H(arg<4>), W(arg<5>))
        .block(256).grid(ceil_div(N * C * H * W, 256));
inline constexpr auto nchw_to_nhwc_tiled_spec =
    kernel<nchw_to_nhwc_tiled>("nchw_to_nhwc_tiled", custom(0, out<0>("y", f32, N, HW, C), in<1>("x", f32, N, C, HW)))
        .at(N(32), C(64), HW(16384)).sizes(N(grid_dim.z), C(arg<2>), HW(arg<3>))
        .block(32, 8).grid(ceil_div(HW, 32), ceil_div(C, 32), N);
inline constexpr auto im2col_3x3_spec =
    kernel<im2col_3x3>("im2col_3x3", custom(0, out<0>("col", f32, C, Nine, H, W), in<1>("x", f32, C, H, W)))
        .at(C(64), H(256), W(256)).sizes(C(arg<2>), H(arg<3>), W(arg<4>))
        .block(256).grid(ceil_div(9 * C * H * W, 256));
inline constexpr auto conv3x3_direct_nchw_spec =
    kernel<conv3x3_direct_nchw>("conv3x3_direct_nchw",
                                custom(18 * N * Cout * Cin * H * W, out<0>("y", f32, N, Cout, H, W), in<1>("x", f32, N, Cin, H, W),
                                       in<2>("wt", f32, Cout, Cin, Nine)))
        .at(N(8), Cin(32), Cout(32), H(128), W(128)).sizes(N(arg<3>), Cin(arg<4>), Cout(arg<5>), H(arg<6>), W(arg<7>))
        .block(256).grid(ceil_div(N * Cout * H * W, 256));
inline constexpr auto slice_step2_step3_spec =
    kernel<slice_step2_step3>("slice_step2_step3", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R2, C3).touches(R * C)))
        .sizes(R(arg<2>), C(arg<3>), R2(2 * R), C3(3 * C)).at(R(4096), C(2048))
        .block(256).grid(ceil_div(C, 256), R);
inline constexpr auto concat_lastdim_spec =
    kernel<concat_lastdim>("concat_lastdim", custom(0, out<0>("y", f32, R, Cy), in<1>("a", f32, R, Ca), in<2>("b", f32, R, Cb)))
        .sizes(R(arg<3>), Ca(arg<4>), Cb(arg<5>), Cy(Ca + Cb)).at(R(65536), Ca(100), Cb(156))
        .block(256).grid(ceil_div(R * Ca + R * Cb, 256));
inline constexpr auto bias_gelu_bf16x2_spec =
    kernel<bias_gelu_bf16x2>("bias_gelu_bf16x2", custom(10 * M * C, out<0>("y", bf16, M, C), in<1>("x", bf16, M, C), in<2>("bias", bf16, C)).precision(f32))
        .at(M(8192), C(3072)).sizes(M(arg<3>), C(arg<4>))
        .block(256).grid(ceil_div(M * C, 512));
inline constexpr auto gqa_scores_tiled_spec =
    kernel<gqa_scores_tiled>("gqa_scores_tiled", custom(2 * B * Hq * T * T * D, out<0>("S", f32, B, Hq, T, T), in<1>("Q", f32, B, Hq, T, D),
                                                        in<2>("K", f32, B, Hkv, T, D)))
        .sizes(B(arg<3>), Hq(arg<4>), Hkv(arg<5>), T(arg<6>), D(arg<7>)).at(B(2), Hq(32), Hkv(8), T(512), D(64))
        .block(32, 8).grid(ceil_div(T, 32), ceil_div(T, 32), B * Hq);
inline constexpr auto batched_gemv_warp_spec =
    kernel<batched_gemv_warp>("batched_gemv_warp", custom(2 * Bt * M * K, out<0>("y", f32, Bt, M), in<1>("A", f32, Bt, M, K), in<2>("x", f32, Bt, K)))
        .at(Bt(32), M(512), K(4096)).sizes(Bt(arg<3>), M(arg<4>), K(arg<5>))
        .block(128).grid(ceil_div(Bt * M, 4));
inline constexpr auto conv1d_halo_spec =
    kernel<conv1d_halo>("conv1d_halo", custom(2 * 129 * N, out<0>("y", f32, N), in<1>("x", f32, N), in<2>("w", f32, Taps)))
        .at(N(1 << 24)).sizes(N(arg<3>))
        .block(128).grid(ceil_div(N, 128));
inline constexpr auto scale_float4_gridstride_spec =
    kernel<scale_float4_gridstride>("scale_float4_gridstride", unary(1, in<1>("x", f32, N), out<0>("y", f32, N)))
        .at(N((1 << 25) + 3)).sizes(N(arg<3>))
        .block(256).grid(1056);
inline constexpr auto upsample_bilinear2x_spec =
    kernel<upsample_bilinear2x>("upsample_bilinear2x", custom(0, out<0>("y", f32, NC, Ho, Wo), in<1>("x", f32, NC, H, W)))
        .sizes(NC(arg<2>), H(arg<3>), W(arg<4>), Ho(2 * H), Wo(2 * W)).at(NC(64), H(256), W(256))
        .block(256).grid(ceil_div(4 * NC * H * W, 256));
inline constexpr auto maxpool2x2_nchw_spec =
    kernel<maxpool2x2_nchw>("maxpool2x2_nchw", custom(0, out<0>("y", f32, NC, Ho, Wo), in<1>("x", f32, NC, H, W)))
        .sizes(NC(arg<2>), H(arg<3>), W(arg<4>), Ho(H / 2), Wo(W / 2)).at(NC(128), H(512), W(512))
        .block(256).grid(ceil_div(NC * H * W, 1024));
inline constexpr auto argmax_rows_spec =
    kernel<argmax_rows>("argmax_rows", custom(0, out<0>("out", i32, R), in<1>("logits", f32, R, V)))
        .at(R(1024), V(50257)).sizes(R(arg<2>), V(arg<3>))
        .block(256).grid(ceil_div(R, 8));
inline constexpr auto sobel_u8_spec =
    kernel<sobel_u8>("sobel_u8", custom(0, out<0>("out", u8, H, W), in<1>("img", u8, H, W)))
        .at(H(8192), W(8192)).sizes(H(arg<2>), W(arg<3>))
        .block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto sgd_momentum_mixed_spec =
    kernel<sgd_momentum_mixed>("sgd_momentum_mixed", custom(5 * N, inout<0>("params", f32, N), inout<1>("mom", f32, N), in<2>("grads", bf16, N),
                                                            out<3>("params_bf16", bf16, N)))
        .at(N(1 << 25)).sizes(N(arg<6>))
        .block(256).grid(ceil_div(N, 256));
inline constexpr auto depthwise3x3_nhwc_spec =
    kernel<depthwise3x3_nhwc>("depthwise3x3_nhwc", custom(18 * N * H * W * C, out<0>("y", f32, N, H, W, C), in<1>("x", f32, N, H, W, C),
                                                          in<2>("wd", f32, Three, Three, C)))
        .at(N(16), H(64), W(64), C(64)).sizes(N(arg<3>), H(arg<4>), W(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(N * H * W * C, 256));
inline constexpr auto causal_mask_scale_spec =
    kernel<causal_mask_scale>("causal_mask_scale", custom(0, out<0>("y", f32, BH, T, T), in<1>("s", f32, BH, T, T).touches(0.5 * BH * T * T + 0.5 * BH * T)))
        .at(BH(16), T(2048)).sizes(BH(arg<3>), T(arg<4>))
        .block(256).grid(ceil_div(T, 256), T, BH);
inline constexpr auto stack_lastdim_spec =
    kernel<stack_lastdim>("stack_lastdim", custom(0, out<0>("y", f32, N, Two), in<1>("a", f32, N), in<2>("b", f32, N)))
        .at(N(1 << 24)).sizes(N(arg<3>))
        .block(256).grid(ceil_div(2 * N, 256));
inline constexpr auto centre_rows_small_shared_spec =
    kernel<centre_rows_small_shared>("centre_rows_small_shared", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R, C)))
        .at(R(16384), C(2048)).sizes(R(grid_dim.x), C(arg<2>))
        .block(1024).grid(R).dynamic_shared(4096);
inline constexpr auto centre_rows_large_shared_spec =
    kernel<centre_rows_large_shared>("centre_rows_large_shared", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R, C)))
        .at(R(4096), C(8192)).sizes(R(grid_dim.x), C(arg<2>))
        .block(1024).grid(R).dynamic_shared(220 * 1024);
inline constexpr auto suffix_rows_narrow_spec =
    kernel<suffix_rows_narrow>("suffix_rows_narrow", custom(0, in<0>("a", f32, BH, T, T).touches(0.5 * BH * T * T + 0.5 * BH * T), out<1>("out", f32, BH, T)))
        .at(BH(128), T(512)).sizes(T(arg<2>), BH(grid_dim.y))
        .block(256).grid(T / 8, BH);
inline constexpr auto suffix_rows_wide_spec =
    kernel<suffix_rows_wide>("suffix_rows_wide", custom(0, in<0>("a", f32, BH, T, T).touches(0.5 * BH * T * T + 0.5 * BH * T), out<1>("out", f32, BH, T)))
        .at(BH(64), T(1024)).sizes(T(arg<2>), BH(grid_dim.y))
        .block(256).grid(T / 64, BH);
}  // namespace everyday2_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch, on zeroed
// buffers (the bf16 and 8-bit ones too).
#include "program.h"
inline void run_everyday2_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  if (wanted("rope_forward")) {
    Case c("rope_forward");
    const int B = 8, T = 1024, H = 32, D = 128;
    float *y = c.zeros<float>(Z(B) * T * H * D), *x = c.zeros<float>(Z(B) * T * H * D);
    float *cs = c.zeros<float>(Z(T) * D / 2), *sn = c.zeros<float>(Z(T) * D / 2);
    if (c.ready()) rope_forward<<<blocks(1ll * B * T * H * D / 2, 256), 256>>>(y, x, cs, sn, B, T, H, D);
    c.done();
  }
  if (wanted("nchw_to_nhwc_naive")) {
    Case c("nchw_to_nhwc_naive");
    const int N = 32, C = 64, H = 128, W = 128;
    float *y = c.zeros<float>(Z(N) * C * H * W), *x = c.zeros<float>(Z(N) * C * H * W);
    if (c.ready()) nchw_to_nhwc_naive<<<blocks(1ll * N * C * H * W, 256), 256>>>(y, x, N, C, H, W);
    c.done();
  }
  if (wanted("nchw_to_nhwc_tiled")) {
    Case c("nchw_to_nhwc_tiled");
    const int N = 32, C = 64, HW = 128 * 128;
    float *y = c.zeros<float>(Z(N) * C * HW), *x = c.zeros<float>(Z(N) * C * HW);
    if (c.ready()) nchw_to_nhwc_tiled<<<dim3(HW / 32, C / 32, N), dim3(32, 8)>>>(y, x, C, HW);
    c.done();
  }
  if (wanted("im2col_3x3")) {
    Case c("im2col_3x3");
    const int C = 64, H = 256, W = 256;
    float *col = c.zeros<float>(Z(9) * C * H * W), *x = c.zeros<float>(Z(C) * H * W);
    if (c.ready()) im2col_3x3<<<blocks(9ll * C * H * W, 256), 256>>>(col, x, C, H, W);
    c.done();
  }
  if (wanted("conv3x3_direct_nchw")) {
    Case c("conv3x3_direct_nchw");
    const int N = 8, Cin = 32, Cout = 32, H = 128, W = 128;
    float *y = c.zeros<float>(Z(N) * Cout * H * W), *x = c.zeros<float>(Z(N) * Cin * H * W), *wt = c.zeros<float>(Z(Cout) * Cin * 9);
    if (c.ready()) conv3x3_direct_nchw<<<blocks(1ll * N * Cout * H * W, 256), 256>>>(y, x, wt, N, Cin, Cout, H, W);
    c.done();
  }
  if (wanted("slice_step2_step3")) {
    Case c("slice_step2_step3");
    const int R = 4096, C = 2048;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(2 * R) * (3 * C));
    if (c.ready()) slice_step2_step3<<<dim3(blocks(C, 256), R), 256>>>(y, x, R, C);
    c.done();
  }
  if (wanted("concat_lastdim")) {
    Case c("concat_lastdim");
    const int R = 65536, Ca = 100, Cb = 156;
    float *y = c.zeros<float>(Z(R) * (Ca + Cb)), *a = c.zeros<float>(Z(R) * Ca), *b = c.zeros<float>(Z(R) * Cb);
    if (c.ready()) concat_lastdim<<<blocks(1ll * R * (Ca + Cb), 256), 256>>>(y, a, b, R, Ca, Cb);
    c.done();
  }
  if (wanted("bias_gelu_bf16x2")) {
    Case c("bias_gelu_bf16x2");
    const int M = 8192, C = 3072;
    __nv_bfloat162 *y = c.zeros<__nv_bfloat162>(Z(M) * C / 2), *x = c.zeros<__nv_bfloat162>(Z(M) * C / 2), *b = c.zeros<__nv_bfloat162>(C / 2);
    if (c.ready()) bias_gelu_bf16x2<<<blocks(1ll * M * C / 2, 256), 256>>>(y, x, b, M, C);
    c.done();
  }
  if (wanted("gqa_scores_tiled")) {
    Case c("gqa_scores_tiled");
    const int B = 2, Hq = 32, Hkv = 8, T = 512, D = 64;
    float *S = c.zeros<float>(Z(B) * Hq * T * T), *Q = c.zeros<float>(Z(B) * Hq * T * D), *K = c.zeros<float>(Z(B) * Hkv * T * D);
    if (c.ready()) gqa_scores_tiled<<<dim3(T / 32, T / 32, B * Hq), dim3(32, 8)>>>(S, Q, K, B, Hq, Hkv, T, D);
    c.done();
  }
  if (wanted("batched_gemv_warp")) {
    Case c("batched_gemv_warp");
    const int Bt = 32, M = 512, K = 4096;
    float *y = c.zeros<float>(Z(Bt) * M), *A = c.zeros<float>(Z(Bt) * M * K), *x = c.zeros<float>(Z(Bt) * K);
    if (c.ready()) batched_gemv_warp<<<blocks(1ll * Bt * M, 4), 128>>>(y, A, x, Bt, M, K);
    c.done();
  }
  if (wanted("conv1d_halo")) {
    Case c("conv1d_halo");
    const int n = 1 << 24;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(n), *w = c.zeros<float>(129);
    if (c.ready()) conv1d_halo<<<blocks(n, 128), 128>>>(y, x, w, n);
    c.done();
  }
  if (wanted("scale_float4_gridstride")) {
    Case c("scale_float4_gridstride");
    const int n = (1 << 25) + 3;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(n);
    if (c.ready()) scale_float4_gridstride<<<1056, 256>>>(y, x, 0.5f, n);
    c.done();
  }
  if (wanted("upsample_bilinear2x")) {
    Case c("upsample_bilinear2x");
    const int NC = 64, H = 256, W = 256;
    float *y = c.zeros<float>(Z(NC) * 4 * H * W), *x = c.zeros<float>(Z(NC) * H * W);
    if (c.ready()) upsample_bilinear2x<<<blocks(4ll * NC * H * W, 256), 256>>>(y, x, NC, H, W);
    c.done();
  }
  if (wanted("maxpool2x2_nchw")) {
    Case c("maxpool2x2_nchw");
    const int NC = 128, H = 512, W = 512;
    float *y = c.zeros<float>(Z(NC) * H * W / 4), *x = c.zeros<float>(Z(NC) * H * W);
    if (c.ready()) maxpool2x2_nchw<<<blocks(1ll * NC * H * W / 4, 256), 256>>>(y, x, NC, H, W);
    c.done();
  }
  if (wanted("argmax_rows")) {
    Case c("argmax_rows");
    const int R = 1024, V = 50257;
    int* out = c.zeros<int>(R);
    float* logits = c.zeros<float>(Z(R) * V);
    if (c.ready()) argmax_rows<<<blocks(R, 8), 256>>>(out, logits, R, V);
    c.done();
  }
  if (wanted("sobel_u8")) {
    Case c("sobel_u8");
    const int H = 8192, W = 8192;
    unsigned char *out = c.zeros<unsigned char>(Z(H) * W), *img = c.zeros<unsigned char>(Z(H) * W);
    if (c.ready()) sobel_u8<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(out, img, H, W);
    c.done();
  }
  if (wanted("sgd_momentum_mixed")) {
    Case c("sgd_momentum_mixed");
    const int n = 1 << 25;
    float *params = c.zeros<float>(n), *mom = c.zeros<float>(n);
    __nv_bfloat16 *grads = c.zeros<__nv_bfloat16>(n), *pbf = c.zeros<__nv_bfloat16>(n);
    if (c.ready()) sgd_momentum_mixed<<<blocks(n, 256), 256>>>(params, mom, grads, pbf, 0.01f, 0.9f, n);
    c.done();
  }
  if (wanted("depthwise3x3_nhwc")) {
    Case c("depthwise3x3_nhwc");
    const int N = 16, H = 64, W = 64, C = 64;
    float *y = c.zeros<float>(Z(N) * H * W * C), *x = c.zeros<float>(Z(N) * H * W * C), *wd = c.zeros<float>(9 * C);
    if (c.ready()) depthwise3x3_nhwc<<<blocks(1ll * N * H * W * C, 256), 256>>>(y, x, wd, N, H, W, C);
    c.done();
  }
  if (wanted("causal_mask_scale")) {
    Case c("causal_mask_scale");
    const int BH = 16, T = 2048;
    float *y = c.zeros<float>(Z(BH) * T * T), *s = c.zeros<float>(Z(BH) * T * T);
    if (c.ready()) causal_mask_scale<<<dim3(T / 256, T, BH), 256>>>(y, s, 0.125f, BH, T);
    c.done();
  }
  if (wanted("stack_lastdim")) {
    Case c("stack_lastdim");
    const int n = 1 << 24;
    float *y = c.zeros<float>(Z(2) * n), *a = c.zeros<float>(n), *b = c.zeros<float>(n);
    if (c.ready()) stack_lastdim<<<blocks(2ll * n, 256), 256>>>(y, a, b, n);
    c.done();
  }
  if (wanted("centre_rows_small_shared")) {
    Case c("centre_rows_small_shared");
    const int R = 16384, C = 2048;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(R) * C);
    if (c.ready()) centre_rows_small_shared<<<R, 1024, 4096>>>(y, x, C);
    c.done();
  }
  if (wanted("centre_rows_large_shared")) {
    Case c("centre_rows_large_shared");
    const int R = 4096, C = 8192, bytes = 220 * 1024;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(R) * C);
    if (c.ready() && cudaFuncSetAttribute(centre_rows_large_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) == cudaSuccess)
      centre_rows_large_shared<<<R, 1024, bytes>>>(y, x, C);
    c.done();
  }
  for (const int u : {1, 8}) {
    const char* name = u == 1 ? "suffix_rows_narrow" : "suffix_rows_wide";
    if (!wanted(name)) continue;
    Case c(name);
    const int BH = u == 1 ? 128 : 64, T = u == 1 ? 512 : 1024;
    float *a = c.zeros<float>(Z(BH) * T * T), *out = c.zeros<float>(Z(BH) * T);
    if (c.ready()) {
      if (u == 1) suffix_rows_narrow<<<dim3(T / 8, BH), 256>>>(a, out, T);
      else suffix_rows_wide<<<dim3(T / 64, BH), 256>>>(a, out, T);
    }
    c.done();
  }
}
#endif
