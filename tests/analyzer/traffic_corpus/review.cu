// Indexing patterns whose traffic is easy to get wrong: a weight vector beside a matrix, '%' and '/' by
// runtime values, bit masks, products of loop indices, a modular gather, re-reads through '%' and '/',
// grid-stride loops that repeat work, a window of neighbouring loads, a thread, a warp or a block per
// row, guards that leave lanes idle, passes in a __noinline__ helper, float4 passes, atomics, __ldg,
// __ldcs and inline PTX loads, cp.async copies into shared memory, 2-D blocks 16 and 8 threads wide.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// y = x * w[c]: x and y (R,C), a weight per column, one thread per element (i % C is the column).
// R = 32768, C = 1024: x and y 128 MiB each, w 4 KiB. x, y: a warp's 32 consecutive floats are 4
// sectors for 4 needed: 1x at L1 and L2; streamed over L2, each 64-byte granule of x comes from DRAM
// once (1x); y is written back but for what L2 holds dirty at the end (at most 60 MiB: 0.53x..1x). w: every warp reads 32 consecutive weights (C is a multiple of 32: 4 aligned sectors):
// R * C / 32 requests x 128 bytes over 4 KiB = R = 32768x at L1; 4 KiB stays in L2: DRAM 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, w l1 32768x, w dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void weight_beside_rows(const float* x, const float* w, float* y, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (R,C)  w: (C)  y: (R,C)
  if (i < R * C) y[i] = x[i] * w[i % C];
}

// A transpose through '%' and '/' by a runtime C: y[i] = x[(i % C) * R + i / C], R = C = 4096 (64 MiB
// each). In a warp i / C is one row r and i % C 32 consecutive columns: lanes R floats (16 KiB) apart,
// 32 sectors for 4 needed: x 8x at L1. The other 7 floats of each sector are read by the warps of
// rows r + 1 .. r + 7, 16 blocks apart each: other SMs, so L1 serves almost none of them (7x..8x at
// L2); all 8 run within 128 blocks of each other, 1 MiB of L2 traffic apart: L2 keeps the granule,
// DRAM 1x. y: coalesced, 1x at L1 and L2; up to 60 MiB of its 64 may stay in L2: 0.06x..1x at DRAM.
// truth: x l1 8x, x l2 7x..8x, x dram 1x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void mod_div_runtime(const float* x, float* y, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (C,R)  y: (R,C)
  if (i < R * C) y[i] = x[(i % C) * R + i / C];
}

// Bit tricks, n = 2^25 (128 MiB a tensor): a[i ^ 1] swaps neighbours within a sector: 1x everywhere.
// b[((i & 31) << 20) | (i >> 5)] is a permutation: lane l of warp g reads b[l * 2^20 + g], lanes 4 MiB
// apart: 32 sectors for 4, 8x at L1. Lane l's sector is l * 2^17 + g / 8: the 8 warps of a block (g / 8
// is the block) read the same 32 sectors at the same time: L1 serves 7 of 8, 1x at L2; the blocks 2k
// and 2k + 1 share each 64-byte granule and run together: DRAM 1x.
// truth: a l1 1x, a l2 1x, a dram 1x, b l1 8x, b l2 1x, b dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void bit_masks(const float* a, const float* b, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // a, b, y: (N)
  if (i < n) y[i] = a[i ^ 1] + b[((i & 31) << 20) | (i >> 5)];
}

// A product of the loop index and the thread index: y[i] = sum over k < 16 of x[(k * i) % n], n = 2^21
// (8 MiB a tensor). A warp's lanes are k floats apart (the wrap at n falls between warps but for 120
// of 65536): 1 sector at k = 0 (one address), 4k sectors for k = 1..7, 32 for k >= 8: 369 sectors a
// warp for 128 useful bytes a warp of compulsory x (k = 1 reads all of it): 369 * 32 / 128 = 92.25x at
// L1. Different k read different parts of x and blocks on one SM rarely meet: L1 serves little but
// k = 0 (90x..92.3x at L2). x and y are 16 MiB together, within 0.4 of L2: each granule of x comes
// from DRAM once; y's writes may stay in L2 (0x..1x).
// truth: x l1 92.25x, x l2 90x..92.3x, x dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void loop_index_product(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x, y: (N)
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < 16; ++k) s += x[(k * i) % n];
  y[i] = s;
}

// A modular gather: y[i] = x[i * s % n], s = 33 (a constant; n runtime), n = 2^21 (8 MiB a tensor): a permutation (s odd), so
// compulsory x is all of it. Lanes 33 floats apart: 32 sectors for 4, 8x at L1. The other floats of a
// sector belong to i far away (i + d / 33 mod n): L1 serves few (7x..8x at L2). 16 MiB together,
// within L2: DRAM 1x for x, 0x..1x for y.
// truth: x l1 8x, x l2 7x..8x, x dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void modular_gather(const float* x, float* y, int n) {
  constexpr int s = 33;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x, y: (N)
  if (i < n) y[i] = x[static_cast<long long>(i) * s % n];
}

// A bias re-read through '%' by a small runtime C: y[i] = x[i] + b[i % C], C = 50, R = 2^20 (x and y
// 200 MiB, b 200 bytes). A warp reads 32 distinct biases from c0 = i mod 50 (an even residue; the 25
// residues repeat every 25 warps), wrapping at 50: 4 to 6 sectors, 130 for the 25 residues (hand
// count: 47 for c0 <= 18, one run; 83 for c0 >= 20, two runs), 5.2 a request. R * C / 32 requests x
// 5.2 x 32 bytes / 200 bytes = 1363148.8x at L1. b's 200 bytes are 4 granules: 256 / 200 = 1.28x at
// DRAM. x and y: 1x (128-byte aligned warps).
// truth: x l1 1x, x l2 1x, x dram 1x, b l1 1363148.8x, b dram 1.28x, y l1 1x, y l2 1x, y dram 0.7x..1x
__global__ void bias_mod_small(const float* x, const float* b, float* y, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (R,C)  b: (C)  y: (R,C)
  if (i < R * C) y[i] = x[i] + b[i % C];
}

// A position table through i / C % T: y[b,t,c] = x[b,t,c] + wpe[t,c], B = 32, T = 1024, C = 768 (x and
// y 96 MiB, wpe 3 MiB). A warp's 32 floats of wpe lie in one row (C a multiple of 32): 1x a request,
// and wpe is read once per b: 32x at L1. The same wpe row is read again T * C / 256 = 3072 blocks
// later, never by a block on the same SM at the same time: 32x at L2; between two reads of it about
// 9 MiB of L2 traffic (3 MiB each of x, y, wpe): L2 keeps it, DRAM 1x. y: 0.37x..1x at DRAM (96 MiB,
// up to 60 in L2 at the end).
// truth: x l1 1x, x l2 1x, x dram 1x, wpe l1 32x, wpe l2 32x, wpe dram 1x, y l1 1x, y l2 1x, y dram 0.37x..1x
__global__ void position_table(const float* x, const float* wpe, float* y, int B, int T, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (B,T,C)  wpe: (T,C)  y: (B,T,C)
  if (i < B * T * C) y[i] = x[i] + wpe[(i / C) % T * C + i % C];
}

// A grid-stride loop that strides by blockDim.x only: block b walks i = 256 b + t, 256 b + t + 256,
// ... to n, so element j is processed by the min(j / 256 + 1, 64) blocks at or below it. 64 blocks,
// n = 2^20 (4 MiB a tensor): sum over b < 64 of (n - 256 b) = 64 n - 516096 element visits, 63.5078x
// at L1 for x (coalesced) and for y's stores. 64 blocks on 132 SMs run one to an SM: no L1 sharing,
// 63.5078x at L2 too. 8 MiB within L2: x 1x at DRAM, y 0x..1x.
// truth: x l1 63.5078x, x l2 63.5078x, x dram 1x, y l1 63.5078x, y l2 63.5078x, y dram 0x..1x
__global__ void grid_stride_block_only(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)  // x, y: (N)
    y[i] = 2.f * x[i];
}

// A grid-stride loop that forgets the block: every one of the 264 blocks walks all of x (n = 2^20):
// 264x at L1 for x and y. Two blocks share each of the 132 SMs and read the same addresses in step:
// L1 serves the second some of the time; the stores of the two blocks, the same bytes a moment apart,
// may be merged on their way to L2 (132x..264x). The H200 (2026-12-02) saw 35.2x at L2 for x and 132x
// for y: its way to L2 also merges requests of several SMs for the same sector. 8 MiB within L2: x 1x
// at DRAM, y 0x..1x.
// truth: x l1 264x, x l2 35.2x, x dram 1x, y l1 264x, y l2 132x..264x, y dram 0x..1x
__global__ void grid_stride_no_block(const float* x, float* y, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = 2.f * x[i];  // x, y: (N)
}

// A window of 8 neighbouring loads: y[i] = x[i] + ... + x[i + 7], n = 2^25 (x holds n + 7 floats:
// 128 MiB). Request k reads floats i0 + k .. i0 + k + 31: 4 sectors at k = 0, 5 (misaligned) at k = 1..7:
// 39 sectors for 4 needed, 9.75x at L1. A block's requests touch floats 256 b .. 256 b + 262: 33
// sectors for its 32, the rest served by L1: 33 / 32 = 1.03x at L2; DRAM 1x.
// truth: x l1 9.75x, x l2 1.03x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void window_sum(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (N) (+ 7)  y: (N)
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < 8; ++k) s += x[i + k];
  y[i] = s;
}

// One thread per row: thread r sums row r of x (R = 32768 rows of C = 768 floats, 96 MiB), 128
// threads a block (256 blocks: 2 on an SM, 8 warps). Lanes are 3 KiB apart: 32 sectors for 4, 8x at
// L1. Each lane's next 7 iterations read the rest of its sector; 8 warps keep 256 sectors live, far
// under L1: 1x at L2 (the H200 read 1.00x at L2 on such a walk with 8-32 warps an SM). The second
// sector of each granule is the same lane's, 8 iterations later: DRAM 1x. y[r]: 1x.
// truth: x l1 8x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void row_sum_per_thread(const float* x, float* y, int R, int C) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // x: (R,C)  y: (R)
  if (r >= R) return;
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += x[r * C + c];
  y[r] = s;
}

// One warp per row (R = 32768, C = 768, 8 rows a block of 256): the lanes stride the row by 32,
// coalesced: x 1x at every level. Lane 0 writes the row's sum: one sector a row for 4 bytes, 8x at
// L1 and L2; y (128 KiB) may stay in L2 (0x..1x).
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 8x, y l2 8x, y dram 0x..1x
__global__ void row_sum_per_warp(const float* x, float* y, int R, int C) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;  // x: (R,C)  y: (R)
  const int lane = threadIdx.x % 32;
  if (row >= R) return;
  float s = 0.f;
  for (int c = lane; c < C; c += 32) s += x[row * C + c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// A block per NCHW plane: grid (C, N) = (256, 64), a plane of H * W = 3136 floats (12.25 KiB, a multiple
// of 32 floats, so every warp's request is 128-byte aligned); 256 threads stride it, the last step
// with 64 threads (two whole warps): x 1x at every level (196 MiB). Thread 0 writes the plane's mean:
// one sector for 4 bytes, y 8x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 8x, y l2 8x, y dram 0x..1x
__global__ void plane_mean_nchw(const float* x, float* y, int HW) {
  __shared__ float part[256];  // x: (N,C,HW)  y: (N,C)
  const int plane = blockIdx.y * gridDim.x + blockIdx.x;
  float s = 0.f;
  for (int i = threadIdx.x; i < HW; i += blockDim.x) s += x[plane * HW + i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[plane] = part[0] / HW;
}

// A guard that leaves 8 lanes of 32: if (threadIdx.x % 4 == 0) y[i / 4] = x[i], n = 4Q, Q = 2^23. x is
// (Q,4) of which the kernel touches a float in 4 (compulsory 32 MiB of its 128): 8 lanes 16 bytes apart,
// 4 sectors for 32 useful bytes, 4x at L1 and L2, and every granule of x is fetched: 4x at DRAM. y:
// the 8 lanes write 32 contiguous bytes, 1 sector: 1x; 32 MiB may stay in L2: 0x..1x.
// truth: x l1 4x, x l2 4x, x dram 4x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void every_fourth_lane(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (Q,4), one float in 4  y: (Q)
  if (i < n && threadIdx.x % 4 == 0) y[i / 4] = x[i];
}

// A block reduction in a helper the compiler is told not to inline, called for two passes.
__device__ __attribute__((noinline)) float block_sum_noinline(const float* row, int C, float shift, bool square) {
  __shared__ float part[256];
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    const float d = row[c] - shift;
    s += square ? d * d : d;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  const float total = part[0];
  __syncthreads();
  return total;
}

// Normalising rows with the passes in a __noinline__ helper: a block of 256 per row, R = 131072 rows of
// C = 512 (2 KiB; 256 MiB). Three coalesced passes over the row (mean, variance, write): x 3x at L1. A
// block keeps 2 KiB between passes, 8 blocks an SM 16 KiB, under 1/8 of L1: the H200 read 1.002x per
// pass at L2 for this shape: x 1x at L2 and DRAM.
// truth: x l1 3x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.76x..1x
__global__ void normalize_noinline(const float* x, float* y, int C) {
  const float* row = x + blockIdx.x * C;  // x: (R,C)  y: (R,C)
  const float mean = block_sum_noinline(row, C, 0.f, false) / C;
  const float var = block_sum_noinline(row, C, mean, true) / C;
  const float rstd = rsqrtf(var + 1e-5f);
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = (row[c] - mean) * rstd;
}

// Two passes over float4 rows: a block of 256 per row of C = 1024 floats (one float4 a thread), R =
// 65536 (256 MiB). 512 contiguous bytes a warp request, 16 sectors for 16: each pass 1x, x 2x at L1.
// A block keeps 4 KiB, 8 blocks 32 KiB between the passes (the H200: 1.016x per pass at L2): 1x..1.05x
// at L2, DRAM 1x.
// truth: x l1 2x, x l2 1x..1.05x, x dram 1x, y l1 1x, y l2 1x, y dram 0.76x..1x
__global__ void float4_two_pass(const float4* x, float4* y, int C4) {
  __shared__ float part[256];  // x: (R,C)  y: (R,C), as float4
  const float4 v = x[blockIdx.x * C4 + threadIdx.x];
  part[threadIdx.x] = v.x + v.y + v.z + v.w;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  const float inv = 1.f / part[0];
  const float4 u = x[blockIdx.x * C4 + threadIdx.x];
  y[blockIdx.x * C4 + threadIdx.x] = {u.x * inv, u.y * inv, u.z * inv, u.w * inv};
}

// Row sums by atomics: each warp adds its 32 floats (a shuffle reduction) into y[row] with one
// atomicAdd from lane 0. R = 16384 rows of C = 4096 (256 MiB). x: 1x at every level. y: the counters
// count loads and stores, not atomics: 0x at L1 and L2; y's 64 KiB (compulsory read and written: 128
// KiB) come from DRAM once and may stay in L2: 0.5x..1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 0x, y l2 0x, y dram 0.5x..1x
__global__ void atomic_row_sums(const float* x, float* y, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (R,C)  y: (R), accumulated
  if (i >= R * C) return;
  float s = x[i];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(&y[i / C], s);
}

// __ldg and __ldcs: y[i] = __ldg(&a[2 i]) + __ldcs(&b[i]), n = 2^24. a is (N,2), one float in 2 touched:
// 8 sectors for 4, 2x at L1 and L2, every granule fetched: 2x at DRAM. b (ld.global.cs, evict-first,
// still through L1): 1x. y: 1x; 64 MiB, up to 60 left in L2: 0.06x..1x at DRAM.
// truth: a l1 2x, a l2 2x, a dram 2x, b l1 1x, b l2 1x, b dram 1x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void ldg_ldcs(const float* a, const float* b, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // a: (N,2), one float in 2  b, y: (N)
  if (i < n) y[i] = __ldg(&a[2 * i]) + __ldcs(&b[i]);
}

__device__ float load_global_cg(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// A window of 4 loads through inline PTX ld.global.cg (cached in L2 only): request k reads floats
// i0 + k .. i0 + k + 31, 4 sectors at k = 0 and 5 at k = 1..3: 19 sectors for 4, 4.75x at L1; L1 does
// not keep them, so all 19 go to L2: 4.75x, less what the way to L2 merges of one SM's requests for
// the same sector a moment apart (the H200, 2026-12-02: 2.27x for the kernel, 3.54x for x; the warp's
// distinct sectors are 5 of the 19 a request: down to about 1.3x). n = 2^25 (128 MiB): DRAM 1x.
// truth: x l1 4.75x, x l2 1.3x..4.75x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void ptx_cg_window(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x: (N) (+ 3)  y: (N)
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < 4; ++k) s += load_global_cg(x + i + k);
  y[i] = s;
}

// The shared-memory address of a generic pointer into shared memory, for cp.async's destination.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  unsigned long long s;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(s) : "l"(p));
  return static_cast<unsigned>(s);
}

// A copy staged through shared memory by cp.async.cg (LDGSTS.BYPASS: the H200 counts its sectors as
// global loads, scripts/probes/async-copy.sh; the analyzer does not follow cp.async, whose counts also
// depend on the shared destination: x is not predicted, its truth is the count), 16 bytes a thread: y = 2 x, n = 2^22 float4s (64 MiB a
// tensor). A warp's 32 copies are 512 consecutive bytes: 16 sectors for 16, 1x at L1 and L2, each
// granule from DRAM once. y: float4 stores, 16 sectors for 16: 1x; up to 60 of its 64 MiB may stay in L2.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void async_copy_cg(const float4* x, float4* y, int n4) {
  __shared__ float4 staged[256];
  const int i = blockIdx.x * 256 + threadIdx.x;  // x, y: (N) floats, N = 4 n4
  if (i >= n4) return;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(&staged[threadIdx.x])), "l"(x + i));
  asm volatile("cp.async.wait_all;\n" ::);
  const float4 v = staged[threadIdx.x];
  y[i] = float4{2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w};
}

// A tiled transpose whose tile comes in by cp.async.ca with a src-size (cuda_pipeline's form; not
// followed by the analyzer, as above: 'in' is not predicted), 32 x 32 tiles, blocks of 32 x 8: out (W,H) = in (H,W)^T, H = W = 8192 (256 MiB each). Thread t of a block
// copies 16 bytes of row t / 8 of the tile: a warp's 32 copies are 4 whole rows of 128 bytes, 16 sectors
// for 16: in 1x at L1 and L2, each granule from DRAM once. The store out[(32 bx + r) H + 32 by + tx]: a
// warp's 32 consecutive floats, 4 sectors for 4: 1x; DRAM 0.766x (1 - 60 MiB / 256 MiB: what L2 holds
// at the end)..1x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.766x..1x
__global__ void async_copy_transpose(const float* in, float* out, int H, int W) {
  __shared__ __align__(16) float tile[32][36];  // rows of 144 bytes: each 16-byte chunk stays aligned
  const int t = threadIdx.y * 32 + threadIdx.x, r = t / 8, c = 4 * (t % 8);  // in: (H,W)  out: (W,H)
  const float* from = in + static_cast<long long>(blockIdx.y * 32 + r) * W + blockIdx.x * 32 + c;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, 16;\n" ::"r"(shared_address(&tile[r][c])), "l"(from));
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  for (int j = 0; j < 4; ++j) {
    const int row = threadIdx.y + 8 * j;
    out[static_cast<long long>(blockIdx.x * 32 + row) * H + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][row];
  }
}

// The naive transpose with 16 x 16 blocks: out (W,H) = in (H,W)^T, H = W = 8192 (256 MiB each). A warp
// is two rows of 16 threads: the read in[r * W + c] is two 64-byte runs, 4 sectors for 4: 1x. The store
// out[c * H + r]: 16 columns H floats apart, the two rows adjacent floats: 16 sectors for 128 bytes,
// 4x at L1 and L2. The block's 8 warps fill each sector of out within the block: DRAM writes near 1x,
// less what stays in L2 at the end; partly written sectors may be read to merge (the H200's naive
// transpose at 16384: DRAM 1.19x for the kernel, reads 1.21x and writes 1.17x of a matrix): 0.766x (1 - 60 MiB / 256 MiB: what L2 holds at the end)..1.4x.
// truth: in l1 1x, in l2 1x, in dram 1x, out l1 4x, out l2 4x, out dram 0.766x..1.4x
__global__ void transpose_bx16(const float* in, float* out, int H, int W) {
  const int c = blockIdx.x * 16 + threadIdx.x, r = blockIdx.y * 16 + threadIdx.y;  // in: (H,W)  out: (W,H)
  if (r < H && c < W) out[c * H + r] = in[r * W + c];
}

// A column read with 8-wide blocks (8 x 32): out (H,W) = in (W,H)^T read down columns. A warp is 4 rows
// (ty) of 8 threads (tx): in[c * H + r] with c from tx and 4 consecutive r: 8 sectors of 16 bytes, 2x at
// L1; the other half of each sector is the next warp's 4 r: L1 serves it, 1x at L2. The store out[r * W +
// c]: 4 rows of 32 contiguous bytes, 4 sectors: 1x. H = W = 8192.
// truth: in l1 2x, in l2 1x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void column_read_bx8(const float* in, float* out, int H, int W) {
  const int c = blockIdx.x * 8 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;  // in: (W,H)  out: (H,W)
  if (r < H && c < W) out[r * W + c] = in[c * H + r];
}

// Shifts: y[i] = x[i >> 1] + z[i << 1], n = 2^24 (y): x has n / 2 floats, read twice, a warp's 16 floats
// 64 contiguous bytes (2 sectors for 2): 1x at every level; z (n, 2) is read at every other float: 8
// sectors for 4, 2x at L1 and L2, and every granule fetched: 2x at DRAM (compulsory: the floats read).
// truth: x l1 1x, x l2 1x, x dram 1x, z l1 2x, z l2 2x, z dram 2x, y l1 1x, y l2 1x
__global__ void shift_pairs(float* y, const float* x, const float* z, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y: (N)  x: (N/2)  z: (N,2), every other float
  if (i < n) y[i] = x[i >> 1] + z[i << 1];
}

// A guard that leaves half of each warp: blocks of 32 x 8, only threadIdx.x < 16 copies, so half of each
// 32-column block of x (R = 8192 rows of W = 8192) is read, into a compact y (R, W / 2). 16 lanes read
// 64 contiguous, aligned bytes: 2 sectors for 2, one granule: x 1x at every level (compulsory: the half
// read); y: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void half_warp_rows(float* y, const float* x, int W, int HW, int R) {
  const int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;  // y: (R,HW)  x: (R,W), half of it
  if (threadIdx.x < 16 && r < R && c < W) y[r * HW + blockIdx.x * 16 + threadIdx.x] = x[r * W + c];
}

// Division by a constant: y[i] = x[(i / 7) * 8 + i % 7], 7 floats of every 8, n = 7 * 2^22. The warps
// repeat every 7 (hand count over the 7: 5, 6, 5, 6, 5, 6, 5 sectors, 38): 5.43 sectors for 4, 1.357x
// at L1; a block's 256 floats span 37.4 sectors on average, the edge sectors shared with the neighbours
// on other SMs: 1.17x at L2; every granule of x is fetched: 8 / 7 = 1.143x at DRAM (compulsory: the
// 7 floats of 8 read).
// truth: x l1 1.357x, x l2 1.17x, x dram 1.143x, y l1 1x, y l2 1x
__global__ void division_by_constant(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y: (Q,7)  x: (Q,8), 7 of each 8
  if (i < n) y[i] = x[(i / 7) * 8 + i % 7];
}

// A byte read at a stride of 32 from a tensor the kernel touches in part: y[i] = x[32 i], x (N,32) int8
// of which one byte in 32 is read (compulsory: N bytes), n = 2^24 (x spans 512 MiB). Each lane's byte is
// in its own sector: 32 sectors for 32 useful bytes (1), 32x at L1 and L2; two lanes share each 64-byte
// granule: 16 granules for 32 bytes, 32x at DRAM. y: 32 contiguous bytes a warp, 1x.
// truth: x l1 32x, x l2 32x, x dram 32x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void char_stride32(signed char* y, const signed char* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y: (N) int8  x: (N,32) int8, one byte in 32
  if (i < n) y[i] = x[32ll * i];
}

// A product of two loop indices: y[i] = sum over j, k < 4 of x[(i + k j 1024) mod n], n = 2^21 (8 MiB a
// tensor). The offsets k j are 0 (seven times), 1, 2 (twice), 3 (twice), 4, 6 (twice), 9: the compiler
// unrolls both loops and loads each of the 7 distinct addresses once (the H200, 2026-12-02: 4.0x at L1
// for the kernel, (7 x 4 + 4) / 8). Each request is 32 consecutive floats at 1024-float aligned offsets,
// 4 sectors: 7x at L1; they reach L2 (another warp's offset of 1024 floats is 4 blocks away, on another
// SM): 7x at L2. Within L2: DRAM 1x.
// truth: x l1 7x, x l2 7x, x dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void loop_product_mod(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x: (N)
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) s += x[(i + k * j * 1024) % n];
  y[i] = s;
}

#include "rooflint/dsl.h"
namespace review_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct Q final : dim<"Q"> {} Q;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct HW final : dim<"HW"> {} HW;
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr struct Four final : dim<"Four", 4> {} Four;
inline constexpr struct Seven final : dim<"Seven", 7> {} Seven;
inline constexpr struct Eight final : dim<"Eight", 8> {} Eight;
inline constexpr struct ThirtyTwo final : dim<"ThirtyTwo", 32> {} ThirtyTwo;

inline constexpr auto weight_beside_rows_spec =
    kernel<weight_beside_rows>("weight_beside_rows", custom(0, in<0>("x", f32, R, C), in<1>("w", f32, C), out<2>("y", f32, R, C)))
        .at(R(32768), C(1024)).sizes(R(arg<3>), C(arg<4>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto mod_div_runtime_spec =
    kernel<mod_div_runtime>("mod_div_runtime", custom(0, in<0>("x", f32, C, R), out<1>("y", f32, R, C)))
        .at(R(4096), C(4096)).sizes(R(arg<2>), C(arg<3>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto bit_masks_spec =
    kernel<bit_masks>("bit_masks", custom(0, in<0>("a", f32, N), in<1>("b", f32, N), out<2>("y", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto loop_index_product_spec =
    kernel<loop_index_product>("loop_index_product", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 21)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto modular_gather_spec =
    kernel<modular_gather>("modular_gather", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 21)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto bias_mod_small_spec =
    kernel<bias_mod_small>("bias_mod_small", custom(0, in<0>("x", f32, R, C), in<1>("b", f32, C), out<2>("y", f32, R, C)))
        .at(R(1 << 20), C(50)).sizes(R(arg<3>), C(arg<4>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto position_table_spec =
    kernel<position_table>("position_table", custom(0, in<0>("x", f32, B, T, C), in<1>("wpe", f32, T, C), out<2>("y", f32, B, T, C)))
        .at(B(32), T(1024), C(768)).sizes(B(arg<3>), T(arg<4>), C(arg<5>)).block(256).grid(ceil_div(B * T * C, 256));
inline constexpr auto grid_stride_block_only_spec =
    kernel<grid_stride_block_only>("grid_stride_block_only", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(64);
inline constexpr auto grid_stride_no_block_spec =
    kernel<grid_stride_no_block>("grid_stride_no_block", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 20)).sizes(N(arg<2>)).block(256).grid(264);
inline constexpr auto window_sum_spec =
    kernel<window_sum>("window_sum", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto row_sum_per_thread_spec =
    kernel<row_sum_per_thread>("row_sum_per_thread", reduction(in<0>("x", f32, R, C), out<1>("y", f32, R)))
        .at(R(32768), C(768)).sizes(R(arg<2>), C(arg<3>)).block(128).grid(ceil_div(R, 128));
inline constexpr auto row_sum_per_warp_spec =
    kernel<row_sum_per_warp>("row_sum_per_warp", reduction(in<0>("x", f32, R, C), out<1>("y", f32, R)))
        .at(R(32768), C(768)).sizes(R(arg<2>), C(arg<3>)).block(256).grid(ceil_div(R, 8));
inline constexpr auto plane_mean_nchw_spec =
    kernel<plane_mean_nchw>("plane_mean_nchw", reduction(in<0>("x", f32, N, C, HW), out<1>("y", f32, N, C)))
        .at(N(64), C(256), HW(3136)).sizes(C(grid_dim.x), N(grid_dim.y), HW(arg<2>)).block(256).grid(C, N);
inline constexpr auto every_fourth_lane_spec =
    kernel<every_fourth_lane>("every_fourth_lane", custom(0, in<0>("x", f32, Q, Four).touches(Q), out<1>("y", f32, Q)))
        .at(Q(1 << 23)).sizes(Q(arg<2> / 4)).block(256).grid(ceil_div(4 * Q, 256));
inline constexpr auto normalize_noinline_spec =
    kernel<normalize_noinline>("normalize_noinline", layernorm(in<0>("x", f32, R, C), out<1>("y", f32, R, C)))
        .at(R(131072), C(512)).sizes(R(grid_dim.x), C(arg<2>)).block(256).grid(R);
inline constexpr auto float4_two_pass_spec =
    kernel<float4_two_pass>("float4_two_pass", custom(0, in<0>("x", f32, R, C), out<1>("y", f32, R, C)))
        .at(R(65536), C(1024)).sizes(R(grid_dim.x), C(4 * arg<2>)).block(256).grid(R);
inline constexpr auto atomic_row_sums_spec =
    kernel<atomic_row_sums>("atomic_row_sums", reduction(in<0>("x", f32, R, C), inout<1>("y", f32, R)))
        .at(R(16384), C(4096)).sizes(R(arg<2>), C(arg<3>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto ldg_ldcs_spec =
    kernel<ldg_ldcs>("ldg_ldcs", custom(0, in<0>("a", f32, N, Two).touches(N), in<1>("b", f32, N), out<2>("y", f32, N)))
        .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto ptx_cg_window_spec =
    kernel<ptx_cg_window>("ptx_cg_window", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto async_copy_cg_spec =
    kernel<async_copy_cg>("async_copy_cg", custom(0, in<0>("x", f32, N), out<1>("y", f32, N)))
        .at(N(1 << 24)).sizes(N(4 * arg<2>)).block(256).grid(ceil_div(N, 1024));
inline constexpr auto async_copy_transpose_spec =
    kernel<async_copy_transpose>("async_copy_transpose", custom(0, in<0>("in", f32, H, W), out<1>("out", f32, W, H)))
        .at(H(8192), W(8192)).sizes(H(arg<2>), W(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32));
inline constexpr auto transpose_bx16_spec =
    kernel<transpose_bx16>("transpose_bx16", custom(0, in<0>("in", f32, H, W), out<1>("out", f32, W, H)))
        .at(H(8192), W(8192)).sizes(H(arg<2>), W(arg<3>)).block(16, 16).grid(ceil_div(W, 16), ceil_div(H, 16));
inline constexpr auto column_read_bx8_spec =
    kernel<column_read_bx8>("column_read_bx8", custom(0, in<0>("in", f32, W, H), out<1>("out", f32, H, W)))
        .at(H(8192), W(8192)).sizes(H(arg<2>), W(arg<3>)).block(8, 32).grid(ceil_div(W, 8), ceil_div(H, 32));
inline constexpr auto shift_pairs_spec =
    kernel<shift_pairs>("shift_pairs", custom(0, out<0>("y", f32, Q, Two), in<1>("x", f32, Q), in<2>("z", f32, Q, Two, Two).touches(2 * Q)))
        .at(Q(1 << 23)).sizes(Q(arg<3> / 2)).block(256).grid(ceil_div(2 * Q, 256));
inline constexpr auto half_warp_rows_spec =
    kernel<half_warp_rows>("half_warp_rows", custom(0, out<0>("y", f32, R, HW), in<1>("x", f32, R, W).touches(R * HW)))
        .at(R(8192), W(8192), HW(4096)).sizes(W(arg<2>), HW(arg<3>), R(arg<4>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(R, 8));
inline constexpr auto division_by_constant_spec =
    kernel<division_by_constant>("division_by_constant", custom(0, out<0>("y", f32, Q, Seven), in<1>("x", f32, Q, Eight).touches(7 * Q)))
        .at(Q(1 << 22)).sizes(Q(arg<2> / 7)).block(256).grid(ceil_div(7 * Q, 256));
inline constexpr auto char_stride32_spec =
    kernel<char_stride32>("char_stride32", custom(0, out<0>("y", i8, N), in<1>("x", i8, N, ThirtyTwo).touches(N)))
        .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto loop_product_mod_spec =
    kernel<loop_product_mod>("loop_product_mod", custom(0, out<0>("y", f32, N), in<1>("x", f32, N)))
        .at(N(1 << 21)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
}  // namespace review_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_review_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  if (wanted("weight_beside_rows")) {
    Case c("weight_beside_rows");
    const int R = 32768, C = 1024;
    float *x = c.zeros<float>(Z(R) * C), *w = c.zeros<float>(C), *y = c.zeros<float>(Z(R) * C);
    if (c.ready()) weight_beside_rows<<<blocks(1ll * R * C, 256), 256>>>(x, w, y, R, C);
    c.done();
  }
  if (wanted("mod_div_runtime")) {
    Case c("mod_div_runtime");
    const int R = 4096, C = 4096;
    float *x = c.zeros<float>(Z(R) * C), *y = c.zeros<float>(Z(R) * C);
    if (c.ready()) mod_div_runtime<<<blocks(1ll * R * C, 256), 256>>>(x, y, R, C);
    c.done();
  }
  if (wanted("bit_masks")) {
    Case c("bit_masks");
    const int n = 1 << 25;
    float *a = c.zeros<float>(n), *b = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) bit_masks<<<blocks(n, 256), 256>>>(a, b, y, n);
    c.done();
  }
  if (wanted("loop_index_product")) {
    Case c("loop_index_product");
    const int n = 1 << 21;
    float *x = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) loop_index_product<<<blocks(n, 256), 256>>>(x, y, n);
    c.done();
  }
  if (wanted("modular_gather")) {
    Case c("modular_gather");
    const int n = 1 << 21;
    float *x = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) modular_gather<<<blocks(n, 256), 256>>>(x, y, n);
    c.done();
  }
  if (wanted("bias_mod_small")) {
    Case c("bias_mod_small");
    const int R = 1 << 20, C = 50;
    float *x = c.zeros<float>(Z(R) * C), *b = c.zeros<float>(C), *y = c.zeros<float>(Z(R) * C);
    if (c.ready()) bias_mod_small<<<blocks(1ll * R * C, 256), 256>>>(x, b, y, R, C);
    c.done();
  }
  if (wanted("position_table")) {
    Case c("position_table");
    const int B = 32, T = 1024, C = 768;
    float *x = c.zeros<float>(Z(B) * T * C), *wpe = c.zeros<float>(Z(T) * C), *y = c.zeros<float>(Z(B) * T * C);
    if (c.ready()) position_table<<<blocks(1ll * B * T * C, 256), 256>>>(x, wpe, y, B, T, C);
    c.done();
  }
  if (wanted("grid_stride_block_only")) {
    Case c("grid_stride_block_only");
    const int n = 1 << 20;
    float *x = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) grid_stride_block_only<<<64, 256>>>(x, y, n);
    c.done();
  }
  if (wanted("grid_stride_no_block")) {
    Case c("grid_stride_no_block");
    const int n = 1 << 20;
    float *x = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) grid_stride_no_block<<<264, 256>>>(x, y, n);
    c.done();
  }
  if (wanted("window_sum")) {
    Case c("window_sum");
    const int n = 1 << 25;
    float *x = c.zeros<float>(Z(n) + 7), *y = c.zeros<float>(n);
    if (c.ready()) window_sum<<<blocks(n, 256), 256>>>(x, y, n);
    c.done();
  }
  if (wanted("row_sum_per_thread")) {
    Case c("row_sum_per_thread");
    const int R = 32768, C = 768;
    float *x = c.zeros<float>(Z(R) * C), *y = c.zeros<float>(R);
    if (c.ready()) row_sum_per_thread<<<blocks(R, 128), 128>>>(x, y, R, C);
    c.done();
  }
  if (wanted("row_sum_per_warp")) {
    Case c("row_sum_per_warp");
    const int R = 32768, C = 768;
    float *x = c.zeros<float>(Z(R) * C), *y = c.zeros<float>(R);
    if (c.ready()) row_sum_per_warp<<<blocks(R, 8), 256>>>(x, y, R, C);
    c.done();
  }
  if (wanted("plane_mean_nchw")) {
    Case c("plane_mean_nchw");
    const int N = 64, C = 256, HW = 3136;
    float *x = c.zeros<float>(Z(N) * C * HW), *y = c.zeros<float>(Z(N) * C);
    if (c.ready()) plane_mean_nchw<<<dim3(C, N), 256>>>(x, y, HW);
    c.done();
  }
  if (wanted("every_fourth_lane")) {
    Case c("every_fourth_lane");
    const int Q = 1 << 23;
    float *x = c.zeros<float>(Z(4) * Q), *y = c.zeros<float>(Q);
    if (c.ready()) every_fourth_lane<<<blocks(4ll * Q, 256), 256>>>(x, y, 4 * Q);
    c.done();
  }
  if (wanted("normalize_noinline")) {
    Case c("normalize_noinline");
    const int R = 131072, C = 512;
    float *x = c.zeros<float>(Z(R) * C), *y = c.zeros<float>(Z(R) * C);
    if (c.ready()) normalize_noinline<<<R, 256>>>(x, y, C);
    c.done();
  }
  if (wanted("float4_two_pass")) {
    Case c("float4_two_pass");
    const int R = 65536, C = 1024;
    float4 *x = c.zeros<float4>(Z(R) * C / 4), *y = c.zeros<float4>(Z(R) * C / 4);
    if (c.ready()) float4_two_pass<<<R, 256>>>(x, y, C / 4);
    c.done();
  }
  if (wanted("atomic_row_sums")) {
    Case c("atomic_row_sums");
    const int R = 16384, C = 4096;
    float *x = c.zeros<float>(Z(R) * C), *y = c.zeros<float>(R);
    if (c.ready()) atomic_row_sums<<<blocks(1ll * R * C, 256), 256>>>(x, y, R, C);
    c.done();
  }
  if (wanted("ldg_ldcs")) {
    Case c("ldg_ldcs");
    const int n = 1 << 24;
    float *a = c.zeros<float>(Z(2) * n), *b = c.zeros<float>(n), *y = c.zeros<float>(n);
    if (c.ready()) ldg_ldcs<<<blocks(n, 256), 256>>>(a, b, y, n);
    c.done();
  }
  if (wanted("ptx_cg_window")) {
    Case c("ptx_cg_window");
    const int n = 1 << 25;
    float *x = c.zeros<float>(Z(n) + 3), *y = c.zeros<float>(n);
    if (c.ready()) ptx_cg_window<<<blocks(n, 256), 256>>>(x, y, n);
    c.done();
  }
  if (wanted("async_copy_cg")) {
    Case c("async_copy_cg");
    const int n4 = 1 << 22;
    float4 *x = c.zeros<float4>(n4), *y = c.zeros<float4>(n4);
    if (c.ready()) async_copy_cg<<<blocks(n4, 256), 256>>>(x, y, n4);
    c.done();
  }
  if (wanted("async_copy_transpose")) {
    Case c("async_copy_transpose");
    const int H = 8192, W = 8192;
    float *in = c.zeros<float>(Z(H) * W), *out = c.zeros<float>(Z(H) * W);
    if (c.ready()) async_copy_transpose<<<dim3(W / 32, H / 32), dim3(32, 8)>>>(in, out, H, W);
    c.done();
  }
  if (wanted("transpose_bx16")) {
    Case c("transpose_bx16");
    const int H = 8192, W = 8192;
    float *in = c.zeros<float>(Z(H) * W), *out = c.zeros<float>(Z(H) * W);
    if (c.ready()) transpose_bx16<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(in, out, H, W);
    c.done();
  }
  if (wanted("column_read_bx8")) {
    Case c("column_read_bx8");
    const int H = 8192, W = 8192;
    float *in = c.zeros<float>(Z(H) * W), *out = c.zeros<float>(Z(H) * W);
    if (c.ready()) column_read_bx8<<<dim3(W / 8, H / 32), dim3(8, 32)>>>(in, out, H, W);
    c.done();
  }
  if (wanted("shift_pairs")) {
    Case c("shift_pairs");
    const int n = 1 << 24;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(n / 2), *z = c.zeros<float>(Z(2) * n);
    if (c.ready()) shift_pairs<<<blocks(n, 256), 256>>>(y, x, z, n);
    c.done();
  }
  if (wanted("half_warp_rows")) {
    Case c("half_warp_rows");
    const int R = 8192, W = 8192;
    float *y = c.zeros<float>(Z(R) * W / 2), *x = c.zeros<float>(Z(R) * W);
    if (c.ready()) half_warp_rows<<<dim3(W / 32, R / 8), dim3(32, 8)>>>(y, x, W, W / 2, R);
    c.done();
  }
  if (wanted("division_by_constant")) {
    Case c("division_by_constant");
    const int n = 7 * (1 << 22);
    float *y = c.zeros<float>(n), *x = c.zeros<float>(Z(8) << 22);
    if (c.ready()) division_by_constant<<<blocks(n, 256), 256>>>(y, x, n);
    c.done();
  }
  if (wanted("char_stride32")) {
    Case c("char_stride32");
    const int n = 1 << 24;
    signed char *y = c.zeros<signed char>(n), *x = c.zeros<signed char>(Z(32) * n);
    if (c.ready()) char_stride32<<<blocks(n, 256), 256>>>(y, x, n);
    c.done();
  }
  if (wanted("loop_product_mod")) {
    Case c("loop_product_mod");
    const int n = 1 << 21;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(n);
    if (c.ready()) loop_product_mod<<<blocks(n, 256), 256>>>(y, x, n);
    c.done();
  }
}
#endif
