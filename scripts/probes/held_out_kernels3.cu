// held_out_kernels3.cu: ten more everyday kernels, written for this check (not tuned against rooflint),
// each with a spec and, above it, a hand analysis of its traffic per tensor and level at the spec's
// sizes, as a ratio to the tensor's compulsory bytes. main() launches each kernel once, at its spec's
// sizes and launch. The geometry and the meaning of each level are held_out_kernels.cu's (H200: 132 SMs,
// 32-byte sectors, 64-byte DRAM granules, L2 60 MiB of which 0.4 = 24 MiB kept whole, so 465 KiB of L2
// an SM and 186 KiB of its kept part; L1 + shared 256 KiB an SM, about 1/8 of L1 kept whole).
//
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -I<rooflint>/dsl/include -I<rooflint>/model/include -I<rooflint>/scripts/probes held_out_kernels3.cu -o held_out_kernels3
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include <rooflint/dsl.h>

#include "held_out_setup.h"

// ---------------------------------------------------------------------------------------------------
// 1. Tiled transpose through a 32 x 33 shared tile (the transpose of cuda-samples' shape), a width that
// is not a multiple of 32: in (H,W) = (8192, 4100) f32, 128.1 MiB; out (W,H), 128.1 MiB. Block 32 x 8,
// grid (129, 256); the last column of tiles holds 4 columns.
// in: a warp loads 32 floats of one row. A row is 16400 B: even rows start 32-B aligned, odd rows 16 B
//    into a sector. Per pair of rows: 128 full tiles x (4 + 5) sectors + the last tile's 1 + 1 = 1154
//    sectors for 1025: L1 1.126x. L2: the sector an odd row splits between two tiles is fetched by both
//    blocks (consecutive ids, other SMs); no block reads a sector twice: 1.126x. DRAM: the whole array is
//    read, shared granules by neighbours in the same wave: 1x.
// out: a warp stores 32 consecutive floats of a row of out (8192 floats, 128-B aligned): 1x, 1x;
//    128 MiB: DRAM 0.53x..1x.
__global__ void transpose_tile32_pad(float* out, const float* in, int W, int H) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8)
    if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;  // a column of out is a row of in
  y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W) out[static_cast<size_t>(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---------------------------------------------------------------------------------------------------
// 2. Separable convolution, row pass (cuda-samples' convolutionSeparable shape: 16 x 4 threads, 8 result
// steps, 1 halo step of 16 floats on each side). src, dst: (H,W) = (8192, 8192) f32, 256 MiB each;
// grid (64, 2048), two warps a block, a warp two rows of 16 floats.
// src: each load is 2 rows x 64 B, 64-B aligned: 4 sectors for 4: 1x a request. A warp makes 10 loads
//    for 8 of its own (the first block of a row has no left halo, the last no right halo, all lanes off):
//    (64 x 10 - 2) / (64 x 8) = 1.246x at L1. L2: a halo is the neighbour's main data (block ids one
//    apart, other SMs); no segment twice in a block: 1.246x. DRAM: neighbours run together: 1x.
// dst: 8 stores of 2 x 64 B a warp: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
constexpr int sep_radius = 8;
__constant__ float sep_taps[2 * sep_radius + 1];

__global__ void sep_conv_rows(float* dst, const float* src, int W, int H) {
  constexpr int bx = 16, by = 4, steps = 8, halo = 1;
  __shared__ float s[by][(steps + 2 * halo) * bx];
  const int x0 = (static_cast<int>(blockIdx.x) * steps - halo) * bx + static_cast<int>(threadIdx.x);
  const int y = blockIdx.y * by + threadIdx.y;
  const float* row = src + static_cast<size_t>(y) * W;
#pragma unroll
  for (int i = 0; i < steps + 2 * halo; ++i) {
    const int x = x0 + i * bx;
    s[threadIdx.y][threadIdx.x + i * bx] = (x >= 0 && x < W) ? row[x] : 0.f;
  }
  __syncthreads();
#pragma unroll
  for (int i = halo; i < halo + steps; ++i) {
    float acc = 0.f;
#pragma unroll
    for (int k = -sep_radius; k <= sep_radius; ++k) acc += sep_taps[sep_radius - k] * s[threadIdx.y][threadIdx.x + i * bx + k];
    dst[static_cast<size_t>(y) * W + x0 + i * bx] = acc;
  }
}

// ---------------------------------------------------------------------------------------------------
// 3. Separable convolution, column pass (16 x 8 threads, 8 result steps of 8 rows, 1 halo step of 8
// rows above and below). src, dst: (8192, 8192) f32; grid (512, 128), four warps a block, a warp two
// rows of 16 floats (64 B, aligned).
// src: 4 sectors for 4 a request; 10 loads a warp for 8 of its own (no upper halo in the first row of
//    blocks, no lower in the last): (128 x 10 - 2) / (128 x 8) = 1.248x at L1. L2: the halo rows are the
//    main rows of blocks (bx, by +- 1), 512 ids apart (512 mod 132 = 116: another SM): 1.248x. DRAM: the
//    block below reads them 512 blocks later, 2.5 MiB of loads and 2 MiB of stores after, well inside
//    L2's kept 24 MiB: 1x.
// dst: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void sep_conv_cols(float* dst, const float* src, int W, int H) {
  constexpr int bx = 16, by = 8, steps = 8, halo = 1;
  __shared__ float s[bx][(steps + 2 * halo) * by + 1];
  const int x = blockIdx.x * bx + threadIdx.x;
  const int y0 = (static_cast<int>(blockIdx.y) * steps - halo) * by + static_cast<int>(threadIdx.y);
#pragma unroll
  for (int i = 0; i < steps + 2 * halo; ++i) {
    const int y = y0 + i * by;
    s[threadIdx.x][threadIdx.y + i * by] = (y >= 0 && y < H) ? src[static_cast<size_t>(y) * W + x] : 0.f;
  }
  __syncthreads();
#pragma unroll
  for (int i = halo; i < halo + steps; ++i) {
    float acc = 0.f;
#pragma unroll
    for (int k = -sep_radius; k <= sep_radius; ++k) acc += sep_taps[sep_radius - k] * s[threadIdx.x][threadIdx.y + i * by + k];
    dst[static_cast<size_t>(y0 + i * by) * W + x] = acc;
  }
}

// ---------------------------------------------------------------------------------------------------
// 4. AdamW step (llm.c's adamw_kernel2 shape): params, m, v read and written, grads read; N = 2^24 f32,
// 64 MiB each (256 MiB in all). Block 512, grid 32768; every access a warp's 128 aligned bytes.
// grads: 1x, 1x, 1x.
// params, m, v (inout: compulsory = read + written): L1 4 + 4 sectors for 4 + 4: 1x; L2 1x. DRAM: read
//    once, written back but for what L2 holds at the end: of 192 MiB written, at most ~45 MiB (3/4 of
//    L2's last 60 MiB of lines) and more likely about the kept 24 MiB stay: written 0.77x..1x (~0.875x):
//    (1 + 0.77..1) / 2 = 0.88x..1x, about 0.94x.
__device__ inline float lerp_f(float a, float b, float w) { return fmaf(w, b, fmaf(-w, a, a)); }

__global__ void adamw_step(float* params, const float* grads, float* m, float* v, long long n, float lr, float beta1,
                           float beta2, float beta1_corr, float beta2_corr, float eps, float wd) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = grads[i];
  const float mi = lerp_f(g, m[i], beta1);
  const float vi = lerp_f(g * g, v[i], beta2);
  m[i] = mi;
  v[i] = vi;
  const float p = params[i];
  params[i] = p - lr * ((mi / beta1_corr) / (sqrtf(vi / beta2_corr) + eps) + wd * p);
}

// ---------------------------------------------------------------------------------------------------
// 5. Embedding bag (mean) of fixed size: B = 8192 bags of L = 16 ids, uniform over V = 16384 rows of
// D = 256 f32 (table 16 MiB, all of it the compulsory part: B*L = 131072 > V); idx (B,L) i32 512 KiB;
// out (B,D) 8 MiB. Block 64 x 4 (a bag is 64 threads, two warps), grid 2048.
// table: a warp loads 512 contiguous aligned bytes of a row: 1x a request; 131072 rows of 1 KiB over
//    16 MiB: L1 8x. L2: an SM's L1 holds at most ~230 of the 16384 rows: a lookup finds its row there
//    with probability <= 1.4%: 7.9x..8x. DRAM: 131072 draws cover all but e^-8 of the rows, and 16 MiB
//    stays in L2's kept part: each granule once, 1x.
// idx: every lane of a warp loads idx[bag][l]: 1 sector for 4 B, two warps a bag: L1 16x. L2: a bag's 16
//    ids are 64 B (2 aligned sectors), its second warp finds them in L1: 1x. DRAM 1x.
// out: a warp stores 512 B: 1x, 1x; 8 MiB: DRAM 0x..1x.
__global__ void embedding_bag_mean(float4* out, const int* idx, const float4* table, int L, int D4) {
  const int bag = blockIdx.x * blockDim.y + threadIdx.y;
  const int d = threadIdx.x;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int l = 0; l < L; ++l) {
    const int row = idx[static_cast<size_t>(bag) * L + l];
    const float4 t = table[static_cast<size_t>(row) * D4 + d];
    acc.x += t.x, acc.y += t.y, acc.z += t.z, acc.w += t.w;
  }
  const float inv = 1.f / static_cast<float>(L);
  out[static_cast<size_t>(bag) * D4 + d] = make_float4(acc.x * inv, acc.y * inv, acc.z * inv, acc.w * inv);
}

// ---------------------------------------------------------------------------------------------------
// 6. Bias (C) added over NCHW: N = 256, C = 2048, HW = 49 (the last stage of a ResNet): x, y 98 MiB,
// bias 8 KiB. Block 256, grid 100352 (8 blocks an SM).
// x: 1x, 1x, 1x. y: 1x, 1x; 98 MiB: DRAM 0.39x..1x.
// bias: a warp's 32 elements span one or two channels: 1.061 sectors a request (exact count over an
//    image: 2048 x 49 = 100352 elements, a whole number of warps), 802816 requests over 256 sectors: L1
//    3328x. L2: an SM's blocks are 132 apart and an image is 392 blocks (gcd 4), so each SM reads only
//    98 block positions, 160 of bias's 256 sectors, each again every ~98 blocks (~98 KiB of x loads).
//    Simulated per SM as an LRU of x's and bias's sectors: at 248 KiB it keeps them (132 x 160 / 256 =
//    82.5x), at 31 KiB (the 1/8 kept whole) 1241 misses an SM (640x): 82.5x..640x, guess ~300x. (If
//    blocks after the first wave land on whichever SM frees first, each SM meets all 256 sectors:
//    132x where L1 keeps them.) DRAM 1x.
__global__ void bias_add_nchw(float* y, const float* x, const float* bias, int N, int C, int HW) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * HW) return;
  const int c = (i / HW) % C;
  y[i] = x[i] + bias[c];
}

// ---------------------------------------------------------------------------------------------------
// 7. Every second row made contiguous, y = x[::2]: x (2R, C) = (2^22, 24) f32, 384 MiB, of which R*C
// (192 MiB) read; y (R, C) 192 MiB. Block 256, grid 196608.
// x: a warp's 32 elements are 4 runs of 8 floats (32 x w mod 24 is 0, 8 or 16), each a whole sector of
//    a row 2r (rows 2r start at 192r B): 4 sectors for 4: L1 1x, L2 1x. DRAM: row 2r is bytes
//    [192r, 192r + 96): granules [192r, +64) and [192r + 64, +64), whose upper 32 B are row 2r+1's, not
//    read: 128 B for 96: 1.333x.
// y: 1x, 1x; 192 MiB: DRAM 0.69x..1x.
__global__ void slice_rows_step2(float* y, const float* x, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= R * C) return;
  const int r = i / C, c = i % C;
  y[i] = x[static_cast<size_t>(2 * r) * C + c];
}

// ---------------------------------------------------------------------------------------------------
// 8. Histogram of an 8-bit image by 2-D tiles: img (H,W) = (8192, 8192) u8, 64 MiB; a block of 16 x 16
// counts a 16 x 64 tile (grid (512, 128)) in shared bins and adds its non-zero bins (about 251 of 256
// for 1024 random pixels) to bins (256) u32 with atomicAdd.
// img: a warp is 2 rows x 16 bytes, each 16 B inside one sector: 2 sectors for 32 B: L1 2x. L2: the
//    other 16 B of each sector are block bx^1's (consecutive ids, another SM): 2x. DRAM: 1x.
// bins: updated by atomics only: 0x at L1 and L2, whether a bin is added or skipped. DRAM: L2 reads the
//    1 KiB once and writes it back or keeps it: 0.5x..1x.
__global__ void hist2d_u8_tiles(unsigned int* bins, const unsigned char* img, int W, int H) {
  __shared__ unsigned int h[256];
  const int t = threadIdx.y * 16 + threadIdx.x;
  h[t] = 0u;
  __syncthreads();
  const int x = blockIdx.x * 16 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int y = blockIdx.y * 64 + k * 16 + threadIdx.y;
    if (x < W && y < H) atomicAdd(&h[img[static_cast<size_t>(y) * W + x]], 1u);
  }
  __syncthreads();
  if (h[t] != 0u) atomicAdd(&bins[t], h[t]);
}

// ---------------------------------------------------------------------------------------------------
// 9. Vector-matrix product, a thread a column: y = x^T A, M = 2048, N = 32768; A 256 MiB, x 8 KiB,
// y 128 KiB. Block 128 (4 warps), grid 256: SMs hold blocks s and s + 132, all at once (one wave).
// A: a warp loads 32 consecutive floats of row i: 1x, 1x, DRAM 1x.
// x: every warp loads x[i] for every i (scalar ld.global.f32, one address): 1 sector for 4 B; 1024
//    warps x 2048 requests over 256 sectors: L1 8192x. L2: an SM's warps start together and walk x in
//    step, 8 consecutive i a sector, and x stays in L1 beside A's stream (1 KiB an SM an i): each SM
//    fetches it once: 132x (256x if each block fetched its own). DRAM 1x.
// y: 1x, 1x; DRAM 0x..1x.
__global__ void vecmat_colwise(float* y, const float* x, const float* A, int M, int N) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= N) return;
  float s = 0.f;
  for (int i = 0; i < M; ++i) s += x[i] * A[static_cast<size_t>(i) * N + j];
  y[j] = s;
}

// ---------------------------------------------------------------------------------------------------
// 10. Block scan of 512 elements (work-efficient, in shared memory), the block's total to block_sums:
// N = 2^26 f32 (in, out 256 MiB), block_sums 2^17 f32 (512 KiB). Block 256, grid 131072.
// in: two loads a thread, a warp's 128 aligned bytes each: 1x, 1x, 1x.
// out: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
// block_sums: thread 0 stores 4 B: a sector for 4 B: L1 8x; every store reaches L2, the 8 blocks of a
//    sector on 8 SMs: L2 8x. DRAM: L2 merges a sector's 8 parts; 512 MiB stream past, so nearly all is
//    written back: 0x..1x (~1x).
__global__ void scan_block512(float* out, float* block_sums, const float* in, int n) {
  __shared__ float s[512];
  const int t = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * 512;
  s[t] = in[base + t];
  s[t + 256] = in[base + t + 256];
  int offset = 1;
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
    offset <<= 1;
  }
  if (t == 0) {
    block_sums[blockIdx.x] = s[511];
    s[511] = 0.f;
  }
  for (int d = 1; d < 512; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      const float a = s[ai];
      s[ai] = s[bi];
      s[bi] += a;
    }
  }
  __syncthreads();
  out[base + t] = s[t];
  out[base + t + 256] = s[t + 256];
}

// ---------------------------------------------------------------------------------------------------
// Specs. .registers(n): what ptxas allocated (nvcc 13.0, -O3 -arch=sm_90, -Xptxas -v).
namespace held_out3_specs {
using namespace rooflint::dsl;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct L final : dim<"L"> {} L;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct HW final : dim<"HW"> {} HW;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct R2 final : dim<"R2"> {} R2;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct NB final : dim<"NB"> {} NB;
inline constexpr struct One final : dim<"One", 1> {} One;
inline constexpr struct Bins final : dim<"Bins", 256> {} Bins;

inline constexpr auto transpose_tile32_pad_spec =
    kernel<transpose_tile32_pad>("transpose_tile32_pad", custom(0, in<1>("in", f32, H, W), out<0>("out", f32, W, H)))
        .at(H(8192), W(4100)).sizes(W(arg<2>), H(arg<3>))
        .block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 32))
        .registers(30);

inline constexpr auto sep_conv_rows_spec =
    kernel<sep_conv_rows>("sep_conv_rows", custom(34 * H * W, in<1>("src", f32, H, W), out<0>("dst", f32, H, W)))
        .at(H(8192), W(8192)).sizes(W(arg<2>), H(arg<3>))
        .block(16, 4).grid(ceil_div(W, 128), ceil_div(H, 4))
        .registers(32);

inline constexpr auto sep_conv_cols_spec =
    kernel<sep_conv_cols>("sep_conv_cols", custom(34 * H * W, in<1>("src", f32, H, W), out<0>("dst", f32, H, W)))
        .at(H(8192), W(8192)).sizes(W(arg<2>), H(arg<3>))
        .block(16, 8).grid(ceil_div(W, 16), ceil_div(H, 64))
        .registers(32);

inline constexpr auto adamw_step_spec =
    kernel<adamw_step>("adamw_step", custom(12 * N, inout<0>("params", f32, N), in<1>("grads", f32, N), inout<2>("m", f32, N),
                                            inout<3>("v", f32, N)))
        .at(N(1 << 24)).sizes(N(arg<4>))
        .block(512).grid(ceil_div(N, 512))
        .registers(18);

inline constexpr auto embedding_bag_mean_spec =
    kernel<embedding_bag_mean>("embedding_bag_mean",
                               custom(B * L * D, in<1>("idx", i32, B, L).indices(uniform(V)),
                                      in<2>("table", f32, V, D).touches(min(B * L, V) * D), out<0>("out", f32, B, D)))
        .at(B(8192), L(16), V(16384), D(256)).sizes(B(4 * grid_dim.x), L(arg<3>), D(4 * arg<4>))
        .block(64, 4).grid(ceil_div(B, 4))
        .registers(32);

inline constexpr auto bias_add_nchw_spec =
    kernel<bias_add_nchw>("bias_add_nchw",
                          binary(1, in<1>("x", f32, N, C, HW), in<2>("bias", f32, C, One), out<0>("y", f32, N, C, HW)))
        .at(N(256), C(2048), HW(49)).sizes(N(arg<3>), C(arg<4>), HW(arg<5>))
        .block(256).grid(ceil_div(N * C * HW, 256))
        .registers(14);

inline constexpr auto slice_rows_step2_spec =
    kernel<slice_rows_step2>("slice_rows_step2", custom(0, in<1>("x", f32, R2, C).touches(R * C), out<0>("y", f32, R, C)))
        .at(R2(1 << 22)).sizes(R(arg<2>), C(arg<3>)).at(R(1 << 21), C(24))
        .block(256).grid(ceil_div(R * C, 256))
        .registers(12);

inline constexpr auto hist2d_u8_tiles_spec =
    kernel<hist2d_u8_tiles>("hist2d_u8_tiles", custom(H * W, in<1>("img", u8, H, W), inout<0>("bins", u32, Bins)))
        .at(H(8192), W(8192)).sizes(W(arg<2>), H(arg<3>))
        .block(16, 16).grid(ceil_div(W, 16), ceil_div(H, 64))
        .registers(14);

inline constexpr auto vecmat_colwise_spec =
    kernel<vecmat_colwise>("vecmat_colwise", custom(2 * M * N, in<1>("x", f32, M), in<2>("A", f32, M, N), out<0>("y", f32, N)))
        .at(M(2048), N(32768)).sizes(M(arg<3>), N(arg<4>))
        .block(128).grid(ceil_div(N, 128))
        .registers(32);

inline constexpr auto scan_block512_spec =
    kernel<scan_block512>("scan_block512",
                          custom(N, in<2>("in", f32, N), out<0>("out", f32, N), out<1>("block_sums", f32, NB)))
        .at(N(1 << 26), NB(1 << 17)).sizes(N(arg<3>), NB(grid_dim.x))
        .block(256).grid(NB)
        .registers(28);
}  // namespace held_out3_specs

// ---------------------------------------------------------------------------------------------------
// The program: each kernel once, at its spec's sizes and launch.
using namespace held_out;

int main() {
  using Z = size_t;
  {  // 1
    const int H = 8192, W = 4100;
    float *out = alloc<float>(Z(W) * H, "out"), *in = alloc<float>(Z(H) * W, "in");
    fill_f32(in, Z(H) * W, 1);
    check(cudaDeviceSynchronize(), "init");
    transpose_tile32_pad<<<dim3((W + 31) / 32, (H + 31) / 32), dim3(32, 8)>>>(out, in, W, H);
    done("transpose_tile32_pad");
    cudaFree(out), cudaFree(in);
  }
  {  // 2, 3
    const int H = 8192, W = 8192;
    float taps[2 * sep_radius + 1];
    for (float& t : taps) t = 1.f / (2 * sep_radius + 1);
    check(cudaMemcpyToSymbol(sep_taps, taps, sizeof taps), "taps");
    float *dst = alloc<float>(Z(H) * W, "dst"), *src = alloc<float>(Z(H) * W, "src");
    fill_f32(src, Z(H) * W, 2);
    check(cudaDeviceSynchronize(), "init");
    sep_conv_rows<<<dim3(W / 128, H / 4), dim3(16, 4)>>>(dst, src, W, H);
    done("sep_conv_rows");
    sep_conv_cols<<<dim3(W / 16, H / 64), dim3(16, 8)>>>(src, dst, W, H);
    done("sep_conv_cols");
    cudaFree(dst), cudaFree(src);
  }
  {  // 4
    const long long n = 1 << 24;
    float *p = alloc<float>(n, "params"), *g = alloc<float>(n, "grads"), *m = alloc<float>(n, "m"), *v = alloc<float>(n, "v");
    fill_f32(p, n, 3);
    fill_f32(g, n, 4);
    check(cudaMemset(m, 0, n * sizeof(float)), "memset m");
    check(cudaMemset(v, 0, n * sizeof(float)), "memset v");
    check(cudaDeviceSynchronize(), "init");
    adamw_step<<<static_cast<unsigned>((n + 511) / 512), 512>>>(p, g, m, v, n, 1e-3f, 0.9f, 0.999f, 0.1f, 0.001f, 1e-8f, 0.01f);
    done("adamw_step");
    cudaFree(p), cudaFree(g), cudaFree(m), cudaFree(v);
  }
  {  // 5
    const int B = 8192, L = 16, V = 16384, D = 256, D4 = D / 4;
    float4* out = alloc<float4>(Z(B) * D4, "out");
    int* idx = alloc<int>(Z(B) * L, "idx");
    float4* table = alloc<float4>(Z(V) * D4, "table");
    init_hash_u32<<<64, 256>>>(reinterpret_cast<std::uint32_t*>(idx), Z(B) * L, static_cast<std::uint32_t>(V), 5);
    fill_f32(reinterpret_cast<float*>(table), Z(V) * D, 6);
    check(cudaDeviceSynchronize(), "init");
    embedding_bag_mean<<<B / 4, dim3(64, 4)>>>(out, idx, table, L, D4);
    done("embedding_bag_mean");
    cudaFree(out), cudaFree(idx), cudaFree(table);
  }
  {  // 6
    const int N = 256, C = 2048, HW = 49;
    const Z n = Z(N) * C * HW;
    float *y = alloc<float>(n, "y"), *x = alloc<float>(n, "x"), *bias = alloc<float>(C, "bias");
    fill_f32(x, n, 7);
    fill_f32(bias, C, 8);
    check(cudaDeviceSynchronize(), "init");
    bias_add_nchw<<<static_cast<unsigned>((n + 255) / 256), 256>>>(y, x, bias, N, C, HW);
    done("bias_add_nchw");
    cudaFree(y), cudaFree(x), cudaFree(bias);
  }
  {  // 7
    const int R = 1 << 21, C = 24;
    float *y = alloc<float>(Z(R) * C, "y"), *x = alloc<float>(Z(2 * R) * C, "x");
    fill_f32(x, Z(2 * R) * C, 9);
    check(cudaDeviceSynchronize(), "init");
    slice_rows_step2<<<(R * C + 255) / 256, 256>>>(y, x, R, C);
    done("slice_rows_step2");
    cudaFree(y), cudaFree(x);
  }
  {  // 8
    const int H = 8192, W = 8192;
    unsigned int* bins = alloc<unsigned int>(256, "bins");
    unsigned char* img = alloc<unsigned char>(Z(H) * W, "img");
    init_hash_u32<<<2048, 256>>>(reinterpret_cast<std::uint32_t*>(img), Z(H) * W / 4, 0u, 10);
    check(cudaMemset(bins, 0, 256 * sizeof(unsigned int)), "memset bins");
    check(cudaDeviceSynchronize(), "init");
    hist2d_u8_tiles<<<dim3(W / 16, H / 64), dim3(16, 16)>>>(bins, img, W, H);
    done("hist2d_u8_tiles");
    unsigned int h[256];
    check(cudaMemcpy(h, bins, sizeof h, cudaMemcpyDeviceToHost), "copy bins");
    unsigned long long total = 0;
    for (unsigned c : h) total += c;
    if (total != Z(H) * W) std::fprintf(stderr, "held-out: histogram counted %llu of %zu\n", total, Z(H) * W), ++failures;
    cudaFree(bins), cudaFree(img);
  }
  {  // 9
    const int M = 2048, N = 32768;
    float *y = alloc<float>(N, "y"), *x = alloc<float>(M, "x"), *A = alloc<float>(Z(M) * N, "A");
    fill_f32(x, M, 11);
    fill_f32(A, Z(M) * N, 12);
    check(cudaDeviceSynchronize(), "init");
    vecmat_colwise<<<(N + 127) / 128, 128>>>(y, x, A, M, N);
    done("vecmat_colwise");
    cudaFree(y), cudaFree(x), cudaFree(A);
  }
  {  // 10
    const int n = 1 << 26, nb = n / 512;
    float *out = alloc<float>(n, "out"), *sums = alloc<float>(nb, "block_sums"), *in = alloc<float>(n, "in");
    fill_f32(in, n, 13);
    check(cudaDeviceSynchronize(), "init");
    scan_block512<<<nb, 256>>>(out, sums, in, n);
    done("scan_block512");
    cudaFree(out), cudaFree(sums), cudaFree(in);
  }
  std::printf("held-out: %s\n", failures ? "FAILED" : "all kernels ran");
  return failures ? 1 : 0;
}
