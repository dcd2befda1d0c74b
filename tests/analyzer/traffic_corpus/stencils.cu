// Stencils on periodic grids (the neighbour's index wraps through '& (W - 1)', W a power of two, as a
// lattice or a spectral solver's grid does; every warp then has the same pattern, which makes the hand
// count exact): 2-D 5- and 9-point from global memory and through shared tiles with halos, 3-D 7-point a
// plane at a time, and marching in z with the planes in registers, with and without a shared tile.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// 2-D 5-point, blocks of 32 x 8, W = H = 8192 (256 MiB a grid). A warp is 32 consecutive x of one row:
// the centre and the rows above and below are aligned 128-byte runs (4 sectors each), x - 1 and x + 1
// straddle 5 sectors (the wrapped lane adds the far end's sector instead of the next run's): 22 sectors
// for 4, 5.5x at L1. A block needs its 8 rows plus a sector on each side (6 sectors a row) and the centre
// 4 sectors of the rows above and below: 56 sectors for 32, the rest served by L1: 1.75x at L2 (the
// other rows and side sectors belong to blocks on other SMs). Neighbouring blocks run together: DRAM 1x.
// out: 1x.
// truth: in l1 5.5x, in l2 1.75x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void stencil2d_5pt(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;  // out, in: (H,W)
  const int xm = (x - 1) & (W - 1), xp = (x + 1) & (W - 1), ym = (y - 1) & (H - 1), yp = (y + 1) & (H - 1);
  out[y * W + x] = 0.5f * in[y * W + x] + 0.125f * (in[y * W + xm] + in[y * W + xp] + in[ym * W + x] + in[yp * W + x]);
}

// 2-D 9-point (the 3 x 3 box), the same blocks and sizes: per row of the box 4 + 5 + 5 sectors, 42 for 4,
// 10.5x at L1; a block needs 10 rows of 6 sectors: 60 for 32, 1.875x at L2; DRAM 1x. out: 1x.
// truth: in l1 10.5x, in l2 1.875x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void stencil2d_9pt(float* out, const float* in, int W, int H) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;  // out, in: (H,W)
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy) {
    const int yy = (y + dy) & (H - 1);
    for (int dx = -1; dx <= 1; ++dx) s += in[yy * W + ((x + dx) & (W - 1))];
  }
  out[y * W + x] = s / 9.f;
}

// 2-D 5-point through a shared tile of 34 x 10 with halos: each thread loads its centre (a row a warp,
// 4 sectors), lanes 0 and 31 of each warp the left and right halo values (one lane each: a sector
// each), warps 0 and 7 the rows above and below (4 sectors each): per block 32 + 16 + 8 = 56 sectors for
// 32: 1.75x at L1, and every sector once: 1.75x at L2. W = H = 8192; DRAM 1x; out 1x.
// truth: in l1 1.75x, in l2 1.75x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void stencil2d_5pt_shared(float* out, const float* in, int W, int H) {
  __shared__ float t[10][34];  // out, in: (H,W)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  t[ty + 1][tx + 1] = in[y * W + x];
  if (tx == 0) t[ty + 1][0] = in[y * W + ((x - 1) & (W - 1))];
  if (tx == 31) t[ty + 1][33] = in[y * W + ((x + 1) & (W - 1))];
  if (ty == 0) t[0][tx + 1] = in[((y - 1) & (H - 1)) * W + x];
  if (ty == 7) t[9][tx + 1] = in[((y + 1) & (H - 1)) * W + x];
  __syncthreads();
  out[y * W + x] = 0.5f * t[ty + 1][tx + 1] + 0.125f * (t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] + t[ty + 2][tx + 1]);
}

// 3-D 7-point a plane at a time: blocks of 32 x 8 x 1, grid (W / 32, H / 8, D), W = H = D = 256 (64 MiB).
// A warp: centre 4, x - 1 and x + 1 5 each, y and z neighbours 4 each: 30 sectors for 4, 7.5x at L1. A
// block needs 8 rows of 6 sectors, the rows above and below (4 each) and its 8 rows in the planes above
// and below (4 each): 48 + 8 + 64 = 120 sectors for 32, 3.75x at L2 when no other block of its SM shares
// them (the blocks of the neighbouring planes are 256 apart in launch order; block b + 264, one plane and
// one block row on, shares a row of each of two planes: down to about 3.4x when such blocks meet on an
// SM). They run in the same wave, 1 MiB of L2 traffic apart: DRAM 1x. out: 1x.
// truth: in l1 7.5x, in l2 3.3x..3.75x, in dram 1x, out l1 1x, out l2 1x, out dram 0.06x..1x
__global__ void stencil3d_7pt(float* out, const float* in, int W, int H, int D) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z = blockIdx.z;  // out, in: (D,H,W)
  const int xm = (x - 1) & (W - 1), xp = (x + 1) & (W - 1), ym = (y - 1) & (H - 1), yp = (y + 1) & (H - 1);
  const int zm = (z - 1) & (D - 1), zp = (z + 1) & (D - 1);
  const int plane = W * H;
  out[z * plane + y * W + x] = 0.4f * in[z * plane + y * W + x] +
                               0.1f * (in[z * plane + y * W + xm] + in[z * plane + y * W + xp] + in[z * plane + ym * W + x] +
                                       in[z * plane + yp * W + x] + in[zm * plane + y * W + x] + in[zp * plane + y * W + x]);
}

// 3-D 7-point marching in z: blocks of 32 x 8 over a plane, each walks the D planes keeping the centre
// column of planes z - 1, z, z + 1 in registers. Two centre loads before the loop, then per plane the
// centre of z + 1 (4 sectors) and the x and y neighbours of z (5 + 5 + 4 + 4): 8 + 22 D sectors for 4 D,
// 5.5x + 2 / D = 5.5078x at L1. At L2 per plane the centre of z + 1 (32 sectors a block; the x and y
// neighbours of z are the rows the block loaded one plane before, in L1) and the halo (16 side sectors,
// 8 of the rows above and below): 56 a plane, 64 before the loop: 1.75x + 2 / D = 1.7578x. W = H = D =
// 256; DRAM 1x; out 1x.
// truth: in l1 5.5078x, in l2 1.7578x, in dram 1x, out l1 1x, out l2 1x, out dram 0.06x..1x
__global__ void stencil3d_7pt_zmarch(float* out, const float* in, int W, int H, int D) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;  // out, in: (D,H,W)
  const int xm = (x - 1) & (W - 1), xp = (x + 1) & (W - 1), ym = (y - 1) & (H - 1), yp = (y + 1) & (H - 1);
  const int plane = W * H;
  float below = in[(D - 1) * plane + y * W + x], here = in[y * W + x];
  for (int z = 0; z < D; ++z) {
    const float above = in[((z + 1) & (D - 1)) * plane + y * W + x];
    const float* p = in + z * plane;
    out[z * plane + y * W + x] = 0.4f * here + 0.1f * (p[y * W + xm] + p[y * W + xp] + p[ym * W + x] + p[yp * W + x] + below + above);
    below = here;
    here = above;
  }
}

// 2-D 9-point through a shared tile of 34 x 10 with halos and corners: the 5-point's 56 sectors a block
// and the four corners, one lane each in its own sector: 60 for 32, 1.875x at L1 and L2. W = H = 8192.
// truth: in l1 1.875x, in l2 1.875x, in dram 1x, out l1 1x, out l2 1x, out dram 0.76x..1x
__global__ void stencil2d_9pt_shared(float* out, const float* in, int W, int H) {
  __shared__ float t[10][34];  // out, in: (H,W)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  const int xm = (x - 1) & (W - 1), xp = (x + 1) & (W - 1), ym = (y - 1) & (H - 1), yp = (y + 1) & (H - 1);
  t[ty + 1][tx + 1] = in[y * W + x];
  if (tx == 0) t[ty + 1][0] = in[y * W + xm];
  if (tx == 31) t[ty + 1][33] = in[y * W + xp];
  if (ty == 0) t[0][tx + 1] = in[ym * W + x];
  if (ty == 7) t[9][tx + 1] = in[yp * W + x];
  if (tx == 0 && ty == 0) t[0][0] = in[ym * W + xm];
  if (tx == 31 && ty == 0) t[0][33] = in[ym * W + xp];
  if (tx == 0 && ty == 7) t[9][0] = in[yp * W + xm];
  if (tx == 31 && ty == 7) t[9][33] = in[yp * W + xp];
  __syncthreads();
  float s = 0.f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) s += t[ty + dy][tx + dx];
  out[y * W + x] = s / 9.f;
}

// 3-D 7-point marching in z with the current plane's tile (and its x and y halos) in shared memory and
// the planes below and above in registers: per plane a block loads the centre of z + 1 (32 sectors) and
// the halos of z (16 side sectors, 8 of the rows above and below); the centre of z is the register it
// loaded one plane before. 64 sectors before the loop, 56 a plane: 1.75x + 2 / D = 1.7578x at L1 and L2
// (every sector once). W = H = D = 256; DRAM 1x; out 1x.
// truth: in l1 1.7578x, in l2 1.7578x, in dram 1x, out l1 1x, out l2 1x, out dram 0.06x..1x
__global__ void stencil3d_7pt_shared(float* out, const float* in, int W, int H, int D) {
  __shared__ float t[10][34];  // out, in: (D,H,W)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  const int xm = (x - 1) & (W - 1), xp = (x + 1) & (W - 1), ym = (y - 1) & (H - 1), yp = (y + 1) & (H - 1);
  const int plane = W * H;
  float below = in[(D - 1) * plane + y * W + x], here = in[y * W + x];
  for (int z = 0; z < D; ++z) {
    const float above = in[((z + 1) & (D - 1)) * plane + y * W + x];
    const float* p = in + z * plane;
    t[ty + 1][tx + 1] = here;
    if (tx == 0) t[ty + 1][0] = p[y * W + xm];
    if (tx == 31) t[ty + 1][33] = p[y * W + xp];
    if (ty == 0) t[0][tx + 1] = p[ym * W + x];
    if (ty == 7) t[9][tx + 1] = p[yp * W + x];
    __syncthreads();
    out[z * plane + y * W + x] = 0.4f * here + 0.1f * (t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] + t[ty + 2][tx + 1] + below + above);
    __syncthreads();
    below = here;
    here = above;
  }
}

#include "rooflint/dsl.h"
namespace stencils_specs {
using namespace rooflint::dsl;
inline constexpr struct W final : dim<"W"> {} W;
inline constexpr struct H final : dim<"H"> {} H;
inline constexpr struct D final : dim<"D"> {} D;

inline constexpr auto stencil2d_5pt_spec =
    kernel<stencil2d_5pt>("stencil2d_5pt", custom(6 * H * W, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto stencil2d_9pt_spec =
    kernel<stencil2d_9pt>("stencil2d_9pt", custom(9 * H * W, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto stencil2d_5pt_shared_spec =
    kernel<stencil2d_5pt_shared>("stencil2d_5pt_shared", custom(6 * H * W, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto stencil3d_7pt_spec =
    kernel<stencil3d_7pt>("stencil3d_7pt", custom(8 * D * H * W, out<0>("out", f32, D, H, W), in<1>("in", f32, D, H, W)))
        .at(W(256), H(256), D(256)).sizes(W(arg<2>), H(arg<3>), D(arg<4>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8), D);
inline constexpr auto stencil3d_7pt_zmarch_spec =
    kernel<stencil3d_7pt_zmarch>("stencil3d_7pt_zmarch", custom(8 * D * H * W, out<0>("out", f32, D, H, W), in<1>("in", f32, D, H, W)))
        .at(W(256), H(256), D(256)).sizes(W(arg<2>), H(arg<3>), D(arg<4>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto stencil2d_9pt_shared_spec =
    kernel<stencil2d_9pt_shared>("stencil2d_9pt_shared", custom(9 * H * W, out<0>("out", f32, H, W), in<1>("in", f32, H, W)))
        .at(W(8192), H(8192)).sizes(W(arg<2>), H(arg<3>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
inline constexpr auto stencil3d_7pt_shared_spec =
    kernel<stencil3d_7pt_shared>("stencil3d_7pt_shared", custom(8 * D * H * W, out<0>("out", f32, D, H, W), in<1>("in", f32, D, H, W)))
        .at(W(256), H(256), D(256)).sizes(W(arg<2>), H(arg<3>), D(arg<4>)).block(32, 8).grid(ceil_div(W, 32), ceil_div(H, 8));
}  // namespace stencils_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_stencils_cases() {
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  using Stencil2d = void (*)(float*, const float*, int, int);
  const std::pair<const char*, Stencil2d> planar[] = {
      {"stencil2d_5pt", stencil2d_5pt}, {"stencil2d_9pt", stencil2d_9pt}, {"stencil2d_5pt_shared", stencil2d_5pt_shared},
      {"stencil2d_9pt_shared", stencil2d_9pt_shared}};
  for (const auto& [name, kernel] : planar) {
    if (!wanted(name)) continue;
    Case c(name);
    const int W = 8192, H = 8192;
    float *out = c.zeros<float>(Z(W) * H), *in = c.zeros<float>(Z(W) * H);
    if (c.ready()) kernel<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(out, in, W, H);
    c.done();
  }
  const int W = 256, H = 256, D = 256;
  if (wanted("stencil3d_7pt")) {
    Case c("stencil3d_7pt");
    float *out = c.zeros<float>(Z(W) * H * D), *in = c.zeros<float>(Z(W) * H * D);
    if (c.ready()) stencil3d_7pt<<<dim3(W / 32, H / 8, D), dim3(32, 8)>>>(out, in, W, H, D);
    c.done();
  }
  if (wanted("stencil3d_7pt_shared")) {
    Case c("stencil3d_7pt_shared");
    float *out = c.zeros<float>(Z(W) * H * D), *in = c.zeros<float>(Z(W) * H * D);
    if (c.ready()) stencil3d_7pt_shared<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(out, in, W, H, D);
    c.done();
  }
  if (wanted("stencil3d_7pt_zmarch")) {
    Case c("stencil3d_7pt_zmarch");
    float *out = c.zeros<float>(Z(W) * H * D), *in = c.zeros<float>(Z(W) * H * D);
    if (c.ready()) stencil3d_7pt_zmarch<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(out, in, W, H, D);
    c.done();
  }
}
#endif
