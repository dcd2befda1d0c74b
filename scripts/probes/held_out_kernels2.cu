// held_out_kernels2.cu: nine more everyday kernels, written for this check (not tuned against rooflint),
// each with a spec and, above it, a hand analysis of its traffic per tensor and level at the spec's
// sizes, as a ratio to the tensor's compulsory bytes. main() launches each kernel once, at its spec's
// sizes and launch. The geometry and the meaning of each level are held_out_kernels.cu's.
//
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -I<rooflint>/dsl/include -I<rooflint>/model/include held_out_kernels2.cu -o held_out_kernels2
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include <rooflint/dsl.h>

#include "held_out_setup.h"

// ---------------------------------------------------------------------------------------------------
// 1. Hashed gather from a table four times L2: y[i] = x[mix32(i) & (NX - 1)], N = 2^22, NX = 2^26 floats
// (256 MiB), 256 threads a block. The spec says x is touched N times (16 MiB compulsory).
// x: every lane of a warp reads its own random sector: 32 sectors for 4 used, L1 8x; L1 keeps almost
//    nothing of 256 MiB: L2 8x. DRAM: a 64-byte granule a read; of the 2^22 granules, 2^22 reads hit
//    1 - 1/e = 63% at least once (10.1x), and a granule read again comes back from DRAM unless L2 still
//    holds it (about a quarter of x at a time): 10.1x..16x, about 15x.
// y: 1x at L1 and L2; 16 MiB, within L2: DRAM 0x..1x.
__global__ void hash_gather(float* y, const float* x, int n, int nx) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[held_out::mix32(static_cast<std::uint64_t>(i)) & static_cast<unsigned>(nx - 1)];
}

// 2. The same gather from a table that L2 holds: NX = 2^22 floats (16 MiB), N = 2^22 reads.
// x: L1 8x, L2 8x (as above); DRAM: 2^22 reads cover all but e^-16 of x's 2^18 granules, and L2 keeps
//    the 16 MiB: each granule once, 1x of x's 16 MiB (the spec's N touches: 16 MiB).
// y: 1x, 1x, DRAM 0x..1x.
// (the kernel is hash_gather at other sizes: its own spec below, hash_gather_small)

// 3. Sum over the channels of NCHW: out[b][p] = sum_c x[b][c][p], B = 64, C = 64, HW = 4096 (x 64 MiB),
// a thread per (b, p), grid (HW / 256, B).
// x: a warp reads 32 consecutive p of one (b, c): 4 sectors, 1x at L1 and L2; each granule once: DRAM 1x.
// out: 1 MiB, 1x, 1x, DRAM 0x..1x.
__global__ void channel_sum_nchw(float* out, const float* x, int C, int HW) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
  if (p >= HW) return;
  const float* xb = x + static_cast<size_t>(b) * C * HW + p;
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += xb[static_cast<size_t>(c) * HW];
  out[static_cast<size_t>(b) * HW + p] = s;
}

// 4. Batched 32 x 32 GEMMs, one block of 32 x 32 threads a batch: C_b = A_b B_b, Bt = 8192 (A, B, C:
// 32 MiB each). Each thread loads one element of A_b and one of B_b into shared memory (a warp: a row
// of 32 floats, 4 sectors), then its dot product from shared memory, then its element of C_b.
// A, B: 1x at L1 and L2; each read once: DRAM 1x. C: 1x, 1x; 32 MiB, within L2: DRAM 0x..1x.
__global__ void batched_gemm32(float* C, const float* A, const float* B) {
  __shared__ float As[32][33], Bs[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const size_t base = static_cast<size_t>(blockIdx.x) * 1024;
  As[ty][tx] = A[base + ty * 32 + tx];
  Bs[ty][tx] = B[base + ty * 32 + tx];
  __syncthreads();
  float s = 0.f;
#pragma unroll 8
  for (int k = 0; k < 32; ++k) s += As[ty][k] * Bs[k][tx];
  C[base + ty * 32 + tx] = s;
}

// 5. 2 x 2 average pooling of NCHW, a thread per output: NC = 256, H = W = 512 (in 256 MiB, out 64 MiB).
// in: four loads a thread, in[2y][2x], in[2y][2x+1], in[2y+1][2x], in[2y+1][2x+1]. A warp's load of
//     one of them touches 64 floats of a row (8 sectors) for 32 used: 2x a request; the load beside it
//     asks for the same 8 sectors, which L1 serves. L1 32 sectors for 16: 2x; L2 1x; DRAM 1x.
// out: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
__global__ void avgpool2x2_nchw(float* out, const float* in, int Ho, int Wo) {
  const size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int x = static_cast<int>(o % Wo), y = static_cast<int>(o / Wo % Ho);
  const size_t plane = o / (static_cast<size_t>(Wo) * Ho);
  const float* r0 = in + (plane * 2 * Ho + 2 * y) * (2 * static_cast<size_t>(Wo)) + 2 * x;
  const float* r1 = r0 + 2 * Wo;
  out[o] = 0.25f * (r0[0] + r0[1] + r1[0] + r1[1]);
}

// 6. Banded matrix-vector product, 17 diagonals stored row by row: y[i] = sum_k Ab[i][k] x[i + k - 8]
// (terms outside [0, n) dropped), n = 2^22, Ab (n, 17) 272 MiB, 256 threads a block.
// Ab: lanes 68 bytes apart, each its own sector: 32 sectors for 4 used a request, 17 requests a warp
//     (544 sectors) over the 68 sectors its 32 rows hold: L1 8x; L1 keeps the warp's 2 KiB: L2 1x; DRAM 1x.
// x: a warp's 17 loads, 32 consecutive floats from i0 + k - 8 (i0 a multiple of 32): 4 sectors at
//    k = 0, 8, 16, 5 at the other 14: 82 sectors for 4: L1 20.5x. A block's window, 256 + 16 floats, is
//    34 sectors for its 32: L2 1.06x (the halos read again by the neighbouring blocks, other SMs);
//    16 MiB, within L2: DRAM 1x.
// y: 1x, 1x, DRAM 0x..1x.
__global__ void banded_matvec17(float* y, const float* Ab, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 17; ++k) {
    const int j = i + k - 8;
    if (j >= 0 && j < n) s += Ab[static_cast<size_t>(i) * 17 + k] * x[j];
  }
  y[i] = s;
}

// 7. 1-D convolution of 31 taps, the filter in constant memory: y[i] = sum_k f[k] x[i + k], x of
// n + 30 floats, n = 2^24, 256 threads a block. The filter is not global memory: not counted.
// x: a warp's 31 loads from i0 + k: 4 sectors at k = 0, 8, 16, 24, 5 at the other 27: 151 for 4:
//    L1 37.75x. A block's window, 286 floats, is 36 sectors for its 32: L2 1.125x; 64 MiB, each granule
//    read by a block and its neighbour a block apart: DRAM 1x.
// y: 1x, 1x; 64 MiB: DRAM 0.06x..1x.
__constant__ float conv_taps[31];

__global__ void conv1d_const31(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 31; ++k) s += conv_taps[k] * x[i + k];
  y[i] = s;
}

// 8. A linear layer without batching in the kernel: y[b][r] = sum_c W[r][c] x[b][c], R = C = 4096 (W
// 64 MiB), B = 8; a warp a row (lanes stride over c), 8 warps a block, grid (R / 8, 1, B): each z slice
// of 512 blocks reads all of W and its own x[b] (16 KiB).
// W: a warp reads its row once (4 sectors a request): per slice 1x, 8 slices: L1 8x; a block and its
//    sharers in the other slices are 512 ids apart, on other SMs, and L1 holds little of W: L2 8x. DRAM:
//    a wave (132 x 8 blocks) holds two slices; run in step, the second finds W in L2 (4x); run apart, a
//    sharer 512 blocks (64 MiB of W) behind misses (8x): 4x..8x.
// x: every warp reads all of x[b]: L1 4096x; an SM's L1 keeps x[b] for its blocks of slice b, and each
//    SM runs blocks of every slice: about 132x at L2 (fewer where SMs ask in step); 128 KiB: DRAM 1x.
// y: lane 0 of each warp stores 4 bytes, a sector a request: 8x at L1 and L2; L2 merges a sector's
//    eight writes: DRAM 0x..1x.
__global__ void gemv_batched_z(float* y, const float* W, const float* x, int R, int C) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int r = blockIdx.x * 8 + warp, b = blockIdx.z;
  if (r >= R) return;
  const float* w = W + static_cast<size_t>(r) * C;
  const float* xb = x + static_cast<size_t>(b) * C;
  float s = 0.f;
  for (int c = lane; c < C; c += 32) s += w[c] * xb[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[static_cast<size_t>(b) * R + r] = s;
}

// 9. A 5-point stencil with 16 x 16 blocks (a warp is two half rows), straight from global memory:
// H = W = 8192 (in, out 256 MiB), the border left alone.
// in: a warp's centre, upper and lower loads: two rows of 16 floats, 2 sectors each (4); its left and
//     right loads one float off: 3 sectors a row (6): 24 sectors for 4, L1 6x. A block's 16 rows need
//     their 2 sectors and one on each side, its rows above and below 2: 68 sectors for 32; its
//     neighbours run on other SMs: L2 2.125x. DRAM 1x (the halos read again soon after).
// out: 1x, 1x; DRAM 0.77x..1x.
__global__ void stencil5_block16(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return;
  const size_t i = static_cast<size_t>(y) * W + x;
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
}

// ---------------------------------------------------------------------------------------------------
// Specs. .registers(n): what ptxas allocated (nvcc 13.0, -O3 -arch=sm_90, -Xptxas -v).
namespace held_out2_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct NX final : dim<"NX"> {} NX;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct HH final : dim<"H"> {} HH;
inline constexpr struct WW final : dim<"W"> {} WW;
inline constexpr struct HW final : dim<"HW"> {} HW;
inline constexpr struct Bt final : dim<"Bt"> {} Bt;
inline constexpr struct S final : dim<"S", 32> {} S;
inline constexpr struct NC final : dim<"NC"> {} NC;
inline constexpr struct Ho final : dim<"Ho"> {} Ho;
inline constexpr struct Wo final : dim<"Wo"> {} Wo;
inline constexpr struct Hi final : dim<"Hi"> {} Hi;
inline constexpr struct Wi final : dim<"Wi"> {} Wi;
inline constexpr struct Bands final : dim<"Bands", 17> {} Bands;
inline constexpr struct NT final : dim<"NT"> {} NT;

inline constexpr auto hash_gather_spec =
    kernel<hash_gather>("hash_gather", custom(0, in<1>("x", f32, NX).touches(N), out<0>("y", f32, N)))
        .at(N(1 << 22), NX(1 << 26)).sizes(N(arg<2>), NX(arg<3>))
        .block(256).grid(ceil_div(N, 256))
        .registers(12);

inline constexpr auto hash_gather_small_spec =
    kernel<hash_gather>("hash_gather_small", custom(0, in<1>("x", f32, NX).touches(N), out<0>("y", f32, N)))
        .at(N(1 << 22), NX(1 << 22)).sizes(N(arg<2>), NX(arg<3>))
        .block(256).grid(ceil_div(N, 256))
        .registers(12);

inline constexpr auto channel_sum_nchw_spec =
    kernel<channel_sum_nchw>("channel_sum_nchw", custom(B * C * HW, in<1>("x", f32, B, C, HW), out<0>("out", f32, B, HW)))
        .at(B(64), C(64), HW(4096)).sizes(B(grid_dim.y), C(arg<2>), HW(arg<3>))
        .block(256).grid(ceil_div(HW, 256), B)
        .registers(32);

inline constexpr auto batched_gemm32_spec =
    kernel<batched_gemm32>("batched_gemm32", bmm(in<1>("A", f32, Bt, S, S), in<2>("B", f32, Bt, S, S), out<0>("C", f32, Bt, S, S)))
        .at(Bt(8192)).sizes(Bt(grid_dim.x))
        .block(32, 32).grid(Bt)
        .registers(25);

inline constexpr auto avgpool2x2_nchw_spec =
    kernel<avgpool2x2_nchw>("avgpool2x2_nchw",
                            custom(4 * NC * Ho * Wo, in<1>("in", f32, NC, Hi, Wi), out<0>("out", f32, NC, Ho, Wo)))
        .at(NC(256), Ho(256), Wo(256), Hi(512), Wi(512)).sizes(Ho(arg<2>), Wo(arg<3>), Hi(2 * arg<2>), Wi(2 * arg<3>))
        .block(256).grid(ceil_div(NC * Ho * Wo, 256))
        .registers(22);

inline constexpr auto banded_matvec17_spec =
    kernel<banded_matvec17>("banded_matvec17",
                            custom(2 * Bands * N, in<1>("Ab", f32, N, Bands), in<2>("x", f32, N), out<0>("y", f32, N)))
        .at(N(1 << 22)).sizes(N(arg<3>))
        .block(256).grid(ceil_div(N, 256))
        .registers(23);

inline constexpr auto conv1d_const31_spec =
    kernel<conv1d_const31>("conv1d_const31", custom(62 * N, in<1>("x", f32, NT), out<0>("y", f32, N)))
        .at(N(1 << 24), NT((1 << 24) + 30)).sizes(N(arg<2>))
        .block(256).grid(ceil_div(N, 256))
        .registers(30);
inline constexpr auto gemv_batched_z_spec =
    kernel<gemv_batched_z>("gemv_batched_z",
                           custom(2 * B * R * C, in<1>("W", f32, R, C), in<2>("x", f32, B, C), out<0>("y", f32, B, R)))
        .at(B(8), R(4096), C(4096)).sizes(B(grid_dim.z), R(arg<3>), C(arg<4>))
        .block(256).grid(ceil_div(R, 8), 1, B)
        .registers(32);
inline constexpr auto stencil5_block16_spec =
    kernel<stencil5_block16>("stencil5_block16", custom(5 * HH * WW, in<1>("in", f32, HH, WW), out<0>("out", f32, HH, WW)))
        .at(HH(8192), WW(8192)).sizes(WW(arg<2>), HH(arg<3>))
        .block(16, 16).grid(ceil_div(WW, 16), ceil_div(HH, 16))
        .registers(15);
}  // namespace held_out2_specs

// ---------------------------------------------------------------------------------------------------
// The program: each kernel once, at its spec's sizes and launch.
using namespace held_out;

int main() {
  using Z = size_t;
  for (const int NXlog : {26, 22}) {  // 1, 2
    const int N = 1 << 22;
    const Z NX = Z(1) << NXlog;
    float *y = alloc<float>(N, "y"), *x = alloc<float>(NX, "x");
    fill_f32(x, NX, 1);
    check(cudaDeviceSynchronize(), "init");
    hash_gather<<<(N + 255) / 256, 256>>>(y, x, N, static_cast<int>(NX));
    done(NXlog == 26 ? "hash_gather" : "hash_gather_small");
    cudaFree(y), cudaFree(x);
  }
  {  // 3
    const int B = 64, C = 64, HW = 4096;
    float *out = alloc<float>(Z(B) * HW, "out"), *x = alloc<float>(Z(B) * C * HW, "x");
    fill_f32(x, Z(B) * C * HW, 2);
    check(cudaDeviceSynchronize(), "init");
    channel_sum_nchw<<<dim3(HW / 256, B), 256>>>(out, x, C, HW);
    done("channel_sum_nchw");
    cudaFree(out), cudaFree(x);
  }
  {  // 4
    const int Bt = 8192;
    float *c = alloc<float>(Z(Bt) * 1024, "C"), *a = alloc<float>(Z(Bt) * 1024, "A"), *b = alloc<float>(Z(Bt) * 1024, "B");
    fill_f32(a, Z(Bt) * 1024, 3);
    fill_f32(b, Z(Bt) * 1024, 4);
    check(cudaDeviceSynchronize(), "init");
    batched_gemm32<<<Bt, dim3(32, 32)>>>(c, a, b);
    done("batched_gemm32");
    cudaFree(c), cudaFree(a), cudaFree(b);
  }
  {  // 5
    const int NC = 256, Ho = 256, Wo = 256;
    float *out = alloc<float>(Z(NC) * Ho * Wo, "out"), *in = alloc<float>(Z(NC) * 4 * Ho * Wo, "in");
    fill_f32(in, Z(NC) * 4 * Ho * Wo, 5);
    check(cudaDeviceSynchronize(), "init");
    avgpool2x2_nchw<<<(NC * Ho * Wo + 255) / 256, 256>>>(out, in, Ho, Wo);
    done("avgpool2x2_nchw");
    cudaFree(out), cudaFree(in);
  }
  {  // 6
    const int N = 1 << 22;
    float *y = alloc<float>(N, "y"), *ab = alloc<float>(Z(N) * 17, "Ab"), *x = alloc<float>(N, "x");
    fill_f32(ab, Z(N) * 17, 6);
    fill_f32(x, N, 7);
    check(cudaDeviceSynchronize(), "init");
    banded_matvec17<<<(N + 255) / 256, 256>>>(y, ab, x, N);
    done("banded_matvec17");
    cudaFree(y), cudaFree(ab), cudaFree(x);
  }
  {  // 7
    const int N = 1 << 24;
    float taps[31];
    for (int k = 0; k < 31; ++k) taps[k] = 1.f / 31;
    check(cudaMemcpyToSymbol(conv_taps, taps, sizeof taps), "taps");
    float *y = alloc<float>(N, "y"), *x = alloc<float>(Z(N) + 30, "x");
    fill_f32(x, Z(N) + 30, 8);
    check(cudaDeviceSynchronize(), "init");
    conv1d_const31<<<(N + 255) / 256, 256>>>(y, x, N);
    done("conv1d_const31");
    cudaFree(y), cudaFree(x);
  }
  {  // 8
    const int B = 8, R = 4096, C = 4096;
    float *y = alloc<float>(Z(B) * R, "y"), *w = alloc<float>(Z(R) * C, "W"), *x = alloc<float>(Z(B) * C, "x");
    fill_f32(w, Z(R) * C, 9);
    fill_f32(x, Z(B) * C, 10);
    check(cudaDeviceSynchronize(), "init");
    gemv_batched_z<<<dim3(R / 8, 1, B), 256>>>(y, w, x, R, C);
    done("gemv_batched_z");
    cudaFree(y), cudaFree(w), cudaFree(x);
  }
  {  // 9
    const int H = 8192, W = 8192;
    float *out = alloc<float>(Z(H) * W, "out"), *in = alloc<float>(Z(H) * W, "in");
    fill_f32(in, Z(H) * W, 11);
    check(cudaDeviceSynchronize(), "init");
    stencil5_block16<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(out, in, W, H);
    done("stencil5_block16");
    cudaFree(out), cudaFree(in);
  }
  std::printf("held-out: %s\n", failures ? "FAILED" : "all kernels ran");
  return failures ? 1 : 0;
}
