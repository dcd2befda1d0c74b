// held_out_kernels4.cu: seven more everyday kernels, written for this check (not tuned against rooflint),
// each with a spec and, above it, a hand analysis of its traffic per tensor and level at the spec's
// sizes, as a ratio to the tensor's compulsory bytes. main() launches each kernel once, at its spec's
// sizes and launch. The geometry and the meaning of each level are held_out_kernels.cu's (H200: 132 SMs,
// 32-byte sectors, 64-byte DRAM granules, L2 60 MiB of which 0.4 = 24 MiB kept whole, so 465 KiB of L2
// an SM and 186 KiB of its kept part; L1 + shared 256 KiB an SM, about 1/8 of L1 kept whole).
//
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -I<rooflint>/dsl/include -I<rooflint>/model/include -I<rooflint>/scripts/probes held_out_kernels4.cu -o held_out_kernels4
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include <rooflint/dsl.h>

#include "held_out_setup.h"

// ---------------------------------------------------------------------------------------------------
// 1. 2.5-D 7-point stencil: a block of 32 x 8 threads owns a 32 x 8 column of the volume and marches
// along z, the planes z-1, z, z+1 of its own point in registers (one new plane loaded a step), the four
// in-plane neighbours loaded from global memory; indices clamped at the faces. in, out: (Z,Y,X) =
// (256, 512, 512) f32, 256 MiB each; grid (16, 64) = 1024 blocks, 8 an SM: one wave, all resident.
// in: a warp is one row of 32 floats (128 B aligned). A step: the front plane 4 sectors, x-1 5 (4 in
//    the first column of blocks: clamped), x+1 5 (4 in the last), y-1 and y+1 4 each; plus the first
//    plane once: L1 (257/256) + (8 + (14 x 10 + 2 x 9) / 16) / 4 = 1.0039 + 4.469 = 5.473x. L2: what a
//    block asks of plane z beyond its own 32 sectors a row-step is its halo: rows y0-1 and y0+8 (4
//    sectors each, blocks +-16 ids: other SMs; none in the first / last row of blocks: 7.875 sectors a
//    block) and the sector left and right of each of its 8 rows (16, 15 on average at the x faces);
//    its own rows' re-reads (x+-1, y+-1 inside the block, the next step's centre) are in L1 (an SM's
//    8 blocks touch ~3 KiB a step each): (32 + 7.875 + 15) / 32 = 1.715x. DRAM: all blocks march
//    together, a halo is read by its neighbour within a step or two of its owner: 1x.
// out: a warp stores 128 aligned bytes a step: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void stencil7_zmarch(float* out, const float* in, int X, int Y, int Z) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  const size_t plane = static_cast<size_t>(X) * Y;
  const int xl = max(x - 1, 0), xr = min(x + 1, X - 1), yu = max(y - 1, 0), yd = min(y + 1, Y - 1);
  float cur = in[static_cast<size_t>(y) * X + x], behind = cur;
  for (int z = 0; z < Z; ++z) {
    const float* q = in + static_cast<size_t>(z) * plane;
    const float front = in[static_cast<size_t>(min(z + 1, Z - 1)) * plane + static_cast<size_t>(y) * X + x];
    const float nb = q[static_cast<size_t>(y) * X + xl] + q[static_cast<size_t>(y) * X + xr] + q[static_cast<size_t>(yu) * X + x] +
                     q[static_cast<size_t>(yd) * X + x];
    out[static_cast<size_t>(z) * plane + static_cast<size_t>(y) * X + x] = 0.4f * cur + 0.1f * (behind + front + nb);
    behind = cur;
    cur = front;
  }
}

// ---------------------------------------------------------------------------------------------------
// 2. CSR SpMV, a warp a row (the "CSR-vector" shape), every row K = 32 non-zeros (row_ptr[r] = r K,
// computed, not loaded), column indices uniform over the N columns: N = 2^20 rows; vals, cols (N,K)
// 128 MiB each; x (N) 4 MiB (inside L2); y (N) 4 MiB. Block 256 (8 rows), grid 131072.
// vals, cols: a warp loads 128 aligned bytes of each: 1x, 1x, 1x.
// x: each lane its own random x[col]: 32 sectors for 4 B each, 2^25 reads over 2^20 elements: L1 256x.
//    L2: an SM's L1 (<= ~240 KiB, 1/3 of it the streams) holds at most ~5% of x's 131072 sectors, the
//    1/8 kept whole far less: 243x..256x, about 252x. DRAM: 2^25 draws over 65536 granules touch all,
//    and 4 MiB stays in L2: 1x.
// y: lane 0 stores 4 B: a sector a row, 8 rows a sector from 8 warps (stores apart): L1 8x, L2 8x;
//    4 MiB merged in L2: DRAM 0x..1x.
__global__ void spmv_csr_warp_row(float* y, const float* vals, const int* cols, const float* x, int n_rows, int K) {
  const int row = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = threadIdx.x & 31;
  if (row >= n_rows) return;
  float s = 0.f;
  for (int j = lane; j < K; j += 32) {
    const size_t e = static_cast<size_t>(row) * K + j;
    s += vals[e] * x[cols[e]];
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// ---------------------------------------------------------------------------------------------------
// 3. SGEMM with 32 x 32 shared tiles and a grouped (swizzled) block order, Triton's GROUP_M = 8: a 1-D
// grid of 16384 blocks, pid -> group of 8 tile-rows x 128 tile-columns, the tile-row fastest. Block
// 32 x 8, each thread 4 outputs (rows ty + 8r). M = N = K = 4096: A, B, C 64 MiB each.
// A, B: a warp loads one 128-B row of a tile: 1x a request. Every A tile is read by 128 blocks (one
//    tile-row), every B tile by 128 (one tile-column): L1 128x each. L2: in the first wave an SM holds
//    pids s + 132k, k = 0..7 (if 8 fit): 132k mod 8 = 0, 4 -> four of them share one A panel, in step,
//    so L1 can serve A 4-fold there; later waves' co-resident sets depend on dispatch: A 32x..128x;
//    B panels are shared only by consecutive pids (other SMs): 128x (times the in-step merge of misses
//    the counters show, which I do not model by hand).
// DRAM: a wave (1056 blocks if 8 an SM) holds the end of one group and the start of the next: it reads
//    16 A panels (8 MiB) and all 128 B panels (each by 8 consecutive pids in step) once. B's 64 MiB
//    does not stay in L2 between waves: B once a wave, 16384 / 1056 = 15.5x. A: a group's 8 panels are
//    read in the wave that starts it and again in the next (the split groups 1..15): 1 + 15/16 ~ 1.9x.
// C: a warp stores a 128-B row: 1x, 1x, DRAM 0.77x..1x.
__global__ void __launch_bounds__(256) sgemm_grouped32(float* C, const float* A, const float* B, int M, int N, int K) {
  __shared__ float As[32][33], Bs[32][33];
  constexpr int group = 8;
  const int grid_m = M / 32, grid_n = N / 32;
  const int pid = blockIdx.x, per_group = group * grid_n;
  const int first_m = (pid / per_group) * group;
  const int gm = min(grid_m - first_m, group);
  const int pm = first_m + (pid % per_group) % gm, pn = (pid % per_group) / gm;
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 32) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      As[ty + 8 * r][tx] = A[static_cast<size_t>(pm * 32 + ty + 8 * r) * K + k0 + tx];
      Bs[ty + 8 * r][tx] = B[static_cast<size_t>(k0 + ty + 8 * r) * N + pn * 32 + tx];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 32; ++kk) {
      const float b = Bs[kk][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[r] += As[ty + 8 * r][kk] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) C[static_cast<size_t>(pm * 32 + ty + 8 * r) * N + pn * 32 + tx] = acc[r];
}

// ---------------------------------------------------------------------------------------------------
// 4. Online softmax, a block of 256 a row: one pass keeps a running max and a rescaled sum, the pairs
// reduced by shuffles and through shared memory, a second pass reads the row again and writes y. R =
// 16384 rows of C = 4096 f32 (16 KiB): x, y 256 MiB each. 8 blocks an SM: 128 KiB of rows an SM.
// x: each pass 16 requests a thread-column of 128 aligned bytes: L1 2x. L2: between a sector's two
//    reads pass the rest of the row and the SM's 7 other rows, 128 KiB: an LRU L1 of ~240 KiB keeps it,
//    the 1/8 kept whole (~30 KiB) does not: 1x..2x. DRAM: a miss in the second pass finds the row in
//    L2 (128 KiB an SM against its 465 KiB share, 186 KiB of the kept part): 1x.
// y: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void softmax_online_block(float* y, const float* x, int C) {
  __shared__ float sm[8], ss[8];
  const float* xr = x + static_cast<size_t>(blockIdx.x) * C;
  float* yr = y + static_cast<size_t>(blockIdx.x) * C;
  float m = -3.0e38f, s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    const float v = xr[c], mn = fmaxf(m, v);
    s = s * __expf(m - mn) + __expf(v - mn);
    m = mn;
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const float mo = __shfl_xor_sync(0xffffffffu, m, o), so = __shfl_xor_sync(0xffffffffu, s, o);
    const float mn = fmaxf(m, mo);
    s = s * __expf(m - mn) + so * __expf(mo - mn);
    m = mn;
  }
  if ((threadIdx.x & 31) == 0) sm[threadIdx.x / 32] = m, ss[threadIdx.x / 32] = s;
  __syncthreads();
  m = sm[0];
  for (int w = 1; w < 8; ++w) m = fmaxf(m, sm[w]);
  s = 0.f;
  for (int w = 0; w < 8; ++w) s += ss[w] * __expf(sm[w] - m);
  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < C; c += blockDim.x) yr[c] = __expf(xr[c] - m) * inv;
}

// ---------------------------------------------------------------------------------------------------
// 5. Depthwise 3 x 3 convolution over NHWC, padding 1, a thread an output (channel fastest): N = 32,
// H = W = 112, C = 64: x, y 98 MiB each; w (3,3,C) 2304 B. Block 256 = 4 pixels of a row, grid 100352.
// x: a tap is a warp's 32 channels of one pixel, 128 aligned bytes; taps outside the image skipped:
//    (334/112)^2 = 8.893 taps an output on average: L1 8.893x. L2: a block's 4 pixels read 3 rows x 6
//    pixels (5 at the row's ends, 2 rows at the image's top and bottom); neighbours along w are block
//    ids +-1, along h +-28 (other SMs; an SM's blocks 132 apart are 4.7 rows apart): (166/28) x
//    (334/112) / 4 = 4.42x. DRAM: the rows above and below are read 28 blocks from their owner: 1x.
// w: a warp loads 32 weights of a tap (4 sectors) inside the tap's guard: 25690112 x 8.893 / 576 =
//    396,600x at L1. L2: 2304 B stays in every SM's L1 (nothing else is re-read): each SM once, 132x.
//    DRAM 1x.
// y: 1x, 1x; 98 MiB: DRAM 0.39x..1x.
__global__ void dwconv3x3_nhwc(float* y, const float* x, const float* w, int N, int H, int W, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * H * W * C) return;
  const int c = i % C, p = i / C, wo = p % W, ho = (p / W) % H, n = p / (W * H);
  float acc = 0.f;
#pragma unroll
  for (int dh = -1; dh <= 1; ++dh)
#pragma unroll
    for (int dw = -1; dw <= 1; ++dw) {
      const int hi = ho + dh, wi = wo + dw;
      if (hi >= 0 && hi < H && wi >= 0 && wi < W)
        acc += x[(static_cast<size_t>(n * H + hi) * W + wi) * C + c] * w[((dh + 1) * 3 + (dw + 1)) * C + c];
    }
  y[i] = acc;
}

// ---------------------------------------------------------------------------------------------------
// 6. Outer product y[i][j] = a[i] b[j], a, b re-read from global memory: M = N = 8192, a, b 32 KiB each,
// y 256 MiB. Block 256 along j, grid (32, 8192) = 262144 blocks (8 an SM).
// a: every warp loads a[i] (one address): 1 sector for 4 B, 2^21 requests over 1024 sectors: L1 2048x.
//    L2: a block's 8 warps share the sector (L1); an SM's blocks walk i about 4 a block, 8 i a sector,
//    so every SM meets every sector, and L1 keeps a and b (64 KiB, the only loads): 132x. DRAM 1x.
// b: a warp loads 128 aligned bytes: L1 M = 8192x. L2: each SM's L1 keeps b; blocks dispatched round
//    robin would give SM s only the column blocks = s mod 4 (8 KiB: 33x), dispatch to whichever SM
//    frees first over 248 waves gives each SM all of b: 33x..132x, about 132x. DRAM 1x.
// y: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void outer_product(float* y, const float* a, const float* b, int M, int N) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j < N) y[static_cast<size_t>(i) * N + j] = a[i] * b[j];
}

// ---------------------------------------------------------------------------------------------------
// 7. Tiled transpose with diagonal block reordering (cuda-samples' transposeDiagonal shape): the tile
// of block (bx, by) is (by, (bx + by) mod G); 32 x 33 shared tile, block 32 x 8. in, out (8192, 8192)
// f32, 256 MiB each; grid (256, 256).
// in: a warp loads 128 aligned bytes of a row: 1x; each sector once: L2 1x; each granule read by one
//    block: DRAM 1x.
// out: a warp stores 128 aligned bytes: 1x, 1x; 256 MiB: DRAM 0.77x..1x.
__global__ void transpose_diag32(float* out, const float* in, int n) {
  __shared__ float tile[32][33];
  const int by = blockIdx.x, bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * n + x];
  __syncthreads();
  x = by * 32 + threadIdx.x;
  y = bx * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += 8) out[static_cast<size_t>(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---------------------------------------------------------------------------------------------------
// Specs. .registers(n): what ptxas allocated (nvcc 13.0, -O3 -arch=sm_90, -Xptxas -v).
namespace held_out4_specs {
using namespace rooflint::dsl;
inline constexpr struct X final : dim<"X"> {} X;
inline constexpr struct Y final : dim<"Y"> {} Y;
inline constexpr struct Z final : dim<"Z"> {} Z;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct One final : dim<"One", 1> {} One;
inline constexpr struct Kh final : dim<"Kh", 3> {} Kh;
inline constexpr struct Kw final : dim<"Kw", 3> {} Kw;

inline constexpr auto stencil7_zmarch_spec =
    kernel<stencil7_zmarch>("stencil7_zmarch", custom(8 * X * Y * Z, in<1>("in", f32, Z, Y, X), out<0>("out", f32, Z, Y, X)))
        .at(X(512), Y(512), Z(256)).sizes(X(arg<2>), Y(arg<3>), Z(arg<4>))
        .block(32, 8).grid(ceil_div(X, 32), ceil_div(Y, 8))
        .registers(32);

inline constexpr auto spmv_csr_warp_row_spec =
    kernel<spmv_csr_warp_row>("spmv_csr_warp_row",
                              custom(2 * N * K, in<1>("vals", f32, N, K), in<2>("cols", i32, N, K).indices(uniform(N)),
                                     in<3>("x", f32, N), out<0>("y", f32, N)))
        .at(N(1 << 20), K(32)).sizes(N(arg<4>), K(arg<5>))
        .block(256).grid(ceil_div(32 * N, 256))
        .registers(32);

inline constexpr auto sgemm_grouped32_spec =
    kernel<sgemm_grouped32>("sgemm_grouped32", matmul(in<1>("A", f32, M, K), in<2>("B", f32, K, N), out<0>("C", f32, M, N)))
        .at(M(4096), N(4096), K(4096)).sizes(M(arg<3>), N(arg<4>), K(arg<5>))
        .block(32, 8).grid(M * N / 1024)
        .registers(32);

inline constexpr auto softmax_online_block_spec =
    kernel<softmax_online_block>("softmax_online_block", softmax(in<1>("x", f32, R, C), out<0>("y", f32, R, C)))
        .at(R(16384), C(4096)).sizes(R(grid_dim.x), C(arg<2>))
        .block(256).grid(R)
        .registers(24);

inline constexpr auto dwconv3x3_nhwc_spec =
    kernel<dwconv3x3_nhwc>("dwconv3x3_nhwc", custom(18 * N * H * W * C, in<1>("x", f32, N, H, W, C), in<2>("w", f32, Kh, Kw, C),
                                                    out<0>("y", f32, N, H, W, C)))
        .at(N(32), H(112), W(112), C(64)).sizes(N(arg<3>), H(arg<4>), W(arg<5>), C(arg<6>))
        .block(256).grid(ceil_div(N * H * W * C, 256))
        .registers(36);

inline constexpr auto outer_product_spec =
    kernel<outer_product>("outer_product", binary(1, in<1>("a", f32, M, One), in<2>("b", f32, N), out<0>("y", f32, M, N)))
        .at(M(8192), N(8192)).sizes(M(arg<3>), N(arg<4>))
        .block(256).grid(ceil_div(N, 256), M)
        .registers(12);

inline constexpr auto transpose_diag32_spec =
    kernel<transpose_diag32>("transpose_diag32", custom(0, in<1>("in", f32, N, N), out<0>("out", f32, N, N)))
        .at(N(8192)).sizes(N(arg<2>))
        .block(32, 8).grid(ceil_div(N, 32), ceil_div(N, 32))
        .registers(20);
}  // namespace held_out4_specs

// ---------------------------------------------------------------------------------------------------
// The program: each kernel once, at its spec's sizes and launch.
using namespace held_out;

int main() {
  using Z = size_t;
  {  // 1
    const int X = 512, Y = 512, Zn = 256;
    const Z n = Z(X) * Y * Zn;
    float *out = alloc<float>(n, "out"), *in = alloc<float>(n, "in");
    fill_f32(in, n, 1);
    check(cudaDeviceSynchronize(), "init");
    stencil7_zmarch<<<dim3(X / 32, Y / 8), dim3(32, 8)>>>(out, in, X, Y, Zn);
    done("stencil7_zmarch");
    cudaFree(out), cudaFree(in);
  }
  {  // 2
    const int N = 1 << 20, K = 32;
    float *y = alloc<float>(N, "y"), *vals = alloc<float>(Z(N) * K, "vals"), *x = alloc<float>(N, "x");
    int* cols = alloc<int>(Z(N) * K, "cols");
    fill_f32(vals, Z(N) * K, 2);
    fill_f32(x, N, 3);
    init_hash_u32<<<2048, 256>>>(reinterpret_cast<std::uint32_t*>(cols), Z(N) * K, static_cast<std::uint32_t>(N), 4);
    check(cudaDeviceSynchronize(), "init");
    spmv_csr_warp_row<<<(32 * N + 255) / 256, 256>>>(y, vals, cols, x, N, K);
    done("spmv_csr_warp_row");
    cudaFree(y), cudaFree(vals), cudaFree(x), cudaFree(cols);
  }
  {  // 3
    const int M = 4096, N = 4096, K = 4096;
    float *C = alloc<float>(Z(M) * N, "C"), *A = alloc<float>(Z(M) * K, "A"), *B = alloc<float>(Z(K) * N, "B");
    fill_f32(A, Z(M) * K, 5);
    fill_f32(B, Z(K) * N, 6);
    check(cudaDeviceSynchronize(), "init");
    sgemm_grouped32<<<(M / 32) * (N / 32), dim3(32, 8)>>>(C, A, B, M, N, K);
    done("sgemm_grouped32");
    cudaFree(C), cudaFree(A), cudaFree(B);
  }
  {  // 4
    const int R = 16384, C = 4096;
    float *y = alloc<float>(Z(R) * C, "y"), *x = alloc<float>(Z(R) * C, "x");
    fill_f32(x, Z(R) * C, 7);
    check(cudaDeviceSynchronize(), "init");
    softmax_online_block<<<R, 256>>>(y, x, C);
    done("softmax_online_block");
    cudaFree(y), cudaFree(x);
  }
  {  // 5
    const int N = 32, H = 112, W = 112, C = 64;
    const Z n = Z(N) * H * W * C;
    float *y = alloc<float>(n, "y"), *x = alloc<float>(n, "x"), *w = alloc<float>(9 * C, "w");
    fill_f32(x, n, 8);
    fill_f32(w, 9 * C, 9);
    check(cudaDeviceSynchronize(), "init");
    dwconv3x3_nhwc<<<static_cast<unsigned>((n + 255) / 256), 256>>>(y, x, w, N, H, W, C);
    done("dwconv3x3_nhwc");
    cudaFree(y), cudaFree(x), cudaFree(w);
  }
  {  // 6
    const int M = 8192, N = 8192;
    float *y = alloc<float>(Z(M) * N, "y"), *a = alloc<float>(M, "a"), *b = alloc<float>(N, "b");
    fill_f32(a, M, 10);
    fill_f32(b, N, 11);
    check(cudaDeviceSynchronize(), "init");
    outer_product<<<dim3((N + 255) / 256, M), 256>>>(y, a, b, M, N);
    done("outer_product");
    cudaFree(y), cudaFree(a), cudaFree(b);
  }
  {  // 7
    const int n = 8192;
    float *out = alloc<float>(Z(n) * n, "out"), *in = alloc<float>(Z(n) * n, "in");
    fill_f32(in, Z(n) * n, 12);
    check(cudaDeviceSynchronize(), "init");
    transpose_diag32<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(out, in, n);
    done("transpose_diag32");
    cudaFree(out), cudaFree(in);
  }
  std::printf("held-out: %s\n", failures ? "FAILED" : "all kernels ran");
  return failures ? 1 : 0;
}
