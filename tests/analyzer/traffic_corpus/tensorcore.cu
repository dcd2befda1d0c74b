// Tensor-core fragments moved between registers and global memory with wmma (16 x 16 x 16, f16 inputs),
// the way cuda-samples' simple WMMA GEMMs and tutorial kernels use them: fragments loaded straight from
// global memory, accumulators stored there in row- and column-major order, in f32 and in f16.
//
// How the H200 moves a fragment (scripts/probes/wmma-global.sh, 2026-12-04: SASS and counters over
// 65,536 fragments at a row pitch of 4096 elements): an f16 A or B fragment (row- or column-major) is
// four requests (LDG.E) of 8 lines x 16 bytes, 8 sectors each: 32 sectors at L1 for its 16 sectors of
// data (2x), the second half of each line's sector found in L1 (16 at L2, 1x); an f32 accumulator
// loaded or stored row-major is four requests of 8 lines x 32 bytes (32 sectors, 1x at L1 and L2),
// column-major eight of 4 lines x 32 bytes (32 sectors, 1x); an f16 accumulator stored row-major four
// STG.E of 8 lines x 16 bytes (32 sectors for 16 of data: 2x at L1; at L2 the halves of each sector
// reached it apart in the probe, 2x, and mostly together in wmma_tile_rowsum_f16 below, 1.2x, by the
// order ptxas gave the stores). Each kernel's comment works its traffic out from these at its spec's
// sizes (README.md: the rules and the H200's figures they use). H200: 132 SMs, L2 60 MiB (24 MiB kept
// whole).
#include "corpus.h"

#ifdef ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_fp16.h>
#include <mma.h>
#else
// What the kernels below use of the toolkit's mma.h, as clang's builtins for it (the ones mma.h calls):
// the fragments' registers, loads, stores, fill and multiply-accumulate of 16 x 16 x 16 f16 tiles.
struct __half { unsigned short x; };
namespace nvcuda::wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment;
template <class L> struct fragment<matrix_a, 16, 16, 16, __half, L> { int x[8]; };
template <class L> struct fragment<matrix_b, 16, 16, 16, __half, L> { int x[8]; };
template <> struct fragment<accumulator, 16, 16, 16, float, void> {
  float x[8];
  static constexpr int num_elements = 8;
};
template <> struct fragment<accumulator, 16, 16, 16, __half, void> { int x[4]; };
template <class L> constexpr int col = __is_same(L, col_major) ? 1 : 0;
template <class L> __device__ void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __half, L>& f, const __half* p, unsigned ldm) {
  __hmma_m16n16k16_ld_a(f.x, reinterpret_cast<const int*>(p), ldm, col<L>);
}
template <class L> __device__ void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __half, L>& f, const __half* p, unsigned ldm) {
  __hmma_m16n16k16_ld_b(f.x, reinterpret_cast<const int*>(p), ldm, col<L>);
}
template <class F> __device__ void fill_fragment(F& f, float v) {
  for (auto& x : f.x) x = static_cast<decltype(+x)>(v);
}
template <class LA, class LB>
__device__ void mma_sync(fragment<accumulator, 16, 16, 16, float>& d, const fragment<matrix_a, 16, 16, 16, __half, LA>& a,
                         const fragment<matrix_b, 16, 16, 16, __half, LB>& b, const fragment<accumulator, 16, 16, 16, float>& c) {
  __hmma_m16n16k16_mma_f32f32(d.x, a.x, b.x, c.x, 2 * col<LA> + col<LB>, 0);
}
template <class LA, class LB>
__device__ void mma_sync(fragment<accumulator, 16, 16, 16, __half>& d, const fragment<matrix_a, 16, 16, 16, __half, LA>& a,
                         const fragment<matrix_b, 16, 16, 16, __half, LB>& b, const fragment<accumulator, 16, 16, 16, __half>& c) {
  __hmma_m16n16k16_mma_f16f16(d.x, a.x, b.x, c.x, 2 * col<LA> + col<LB>, 0);
}
__device__ inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, float>& f, const float* p, unsigned ldm, layout_t l) {
  if (l == mem_row_major) __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 0);
  else __hmma_m16n16k16_ld_c_f32(f.x, p, ldm, 1);
}
__device__ inline void store_matrix_sync(float* p, const fragment<accumulator, 16, 16, 16, float>& f, unsigned ldm, layout_t l) {
  if (l == mem_row_major) __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 0);
  else __hmma_m16n16k16_st_c_f32(p, f.x, ldm, 1);
}
__device__ inline void store_matrix_sync(__half* p, const fragment<accumulator, 16, 16, 16, __half>& f, unsigned ldm, layout_t l) {
  if (l == mem_row_major) __hmma_m16n16k16_st_c_f16(reinterpret_cast<int*>(p), f.x, ldm, 0);
  else __hmma_m16n16k16_st_c_f16(reinterpret_cast<int*>(p), f.x, ldm, 1);
}
}  // namespace nvcuda::wmma
#endif

namespace wmma = nvcuda::wmma;

namespace tc {
using A16 = wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major>;
using Ones = wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major>;
using Acc32 = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;
using Acc16 = wmma::fragment<wmma::accumulator, 16, 16, 16, __half>;

/// The tile of warp w of a grid of 4-warp blocks over an (R, C) matrix: (row, column) of its first element.
__device__ inline void warp_tile(int C, int& r, int& c) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  r = w / (C / 16) * 16;
  c = w % (C / 16) * 16;
}

/// Warp w's 16 x 16 tile of x (R, C) times a fragment of ones (its row sums), stored into y in layout L:
/// row-major, y is (R, C); column-major, y is its transpose (C, R).
template <class Acc, wmma::layout_t L, class Y>
__device__ void tile_rowsum(Y* y, const __half* x, int R, int C) {
  int r = 0, c = 0;
  warp_tile(C, r, c);
  if (r >= R) return;
  A16 a;
  Ones ones;
  Acc acc;
  wmma::fill_fragment(ones, 1.f);
  wmma::fill_fragment(acc, 0.f);
  wmma::load_matrix_sync(a, x + static_cast<long>(r) * C + c, C);
  wmma::mma_sync(acc, a, ones, acc);
  if constexpr (L == wmma::mem_row_major) wmma::store_matrix_sync(y + static_cast<long>(r) * C + c, acc, C, L);
  else wmma::store_matrix_sync(y + static_cast<long>(c) * R + r, acc, R, L);
}
}  // namespace tc

// 1. Row sums of each 16 x 16 tile of x into an f32 tile of y, row-major (a tile times a fragment of ones).
// x: (R, C) = (4096, 4096) f16, 32 MiB; each warp loads its own tile once: 2x at L1, 1x at L2, 1x at DRAM.
// y: (R, C) f32, 64 MiB, stored row-major: 1x at L1 and L2; at DRAM (1 - 60/64 = 0.0625)..1x (what L2
//   still holds at the end).
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.0625x..1x
__global__ void wmma_tile_rowsum_f32(float* y, const __half* x, int R, int C) {
  tc::tile_rowsum<tc::Acc32, wmma::mem_row_major>(y, x, R, C);
}

// 2. The same stored column-major (y is the transpose's layout): eight requests of 4 lines x 32 bytes a
// fragment, every sector whole: 1x at L1 and L2.
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.0625x..1x
__global__ void wmma_tile_rowsum_f32_colmajor(float* y, const __half* x, int R, int C) {
  tc::tile_rowsum<tc::Acc32, wmma::mem_col_major>(y, x, R, C);
}

// 3. With an f16 accumulator stored row-major: y (R, C) f16, 32 MiB: four requests of 8 lines x 16 bytes
// a fragment, 32 sectors for 16 of data: 2x at L1. At L2 the two stores of the halves of each sector
// reach it once when they travel together, twice apart: 1x..2x (the H200 counted this kernel at 1.1x,
// 2026-12-04, so y about 1.2x; the probe's stores 2x). At DRAM y may stay in L2 whole (32 MiB of 60):
// not bounded by hand.
// truth: x l1 2x, x l2 1x, x dram 1x, y l1 2x, y l2 1x..2x
__global__ void wmma_tile_rowsum_f16(__half* y, const __half* x, int R, int C) {
  tc::tile_rowsum<tc::Acc16, wmma::mem_row_major>(y, x, R, C);
}

// 4. The simple WMMA GEMM of cuda-samples' image: D (M, N) f32 = A (M, K) f16 row-major times B (K, N)
// f16 column-major (B's columns are its lines) plus beta C, every fragment loaded from global memory.
// Blocks of 128 x 4 threads: 4 x 4 warps, warp (i, j) of the grid computes the 16 x 16 tile (i, j) of D
// over K. M = N = K = 1024: A, B 2 MiB each, C, D 4 MiB; all within L2's kept part.
// A: every warp loads the K/16 = 64 fragments of its row band: each of the N/16 = 64 warps of a band
//   loads them all, at 2x a fragment: 128x at L1. B likewise: 128x at L1. L2 depends on which warps
//   and blocks meet in one L1: not bounded by hand. DRAM: within L2, 1x each.
// C: loaded once, row-major (four requests of 8 lines x 32 bytes a fragment): 1x at L1, L2 and DRAM.
// D: stored once, row-major: 1x at L1 and L2; within L2: 0x..1x at DRAM.
// truth: A l1 128x, A dram 1x, B l1 128x, B dram 1x, C l1 1x, C l2 1x, C dram 1x, D l1 1x, D l2 1x, D dram 0x..1x
__global__ void wmma_gemm_simple(float* D, const __half* A, const __half* B, const float* C, float beta, int M, int N, int K) {
  const int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
  const int row = warp_m * 16, col = warp_n * 16;
  if (row >= M || col >= N) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  tc::Acc32 acc, c;
  wmma::fill_fragment(acc, 0.f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + static_cast<long>(row) * K + k, K);
    wmma::load_matrix_sync(b, B + static_cast<long>(col) * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::load_matrix_sync(c, C + static_cast<long>(row) * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i) c.x[i] = acc.x[i] + beta * c.x[i];
  wmma::store_matrix_sync(D + static_cast<long>(row) * N + col, c, N, wmma::mem_row_major);
}

#include "rooflint/dsl.h"

namespace tensorcore_specs {
using namespace rooflint::dsl;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct Cc final : dim<"C"> {} Cc;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct K final : dim<"K"> {} K;

/// One warp per 16 x 16 tile of an (R, C) matrix, four warps a block.
template <auto Kernel, class Y, std::size_t L>
constexpr auto tile_rowsum(const char (&name)[L], Y y_dtype) {
  return kernel<Kernel>(name, custom(2 * R * Cc * 16, out<0>("y", y_dtype, R, Cc), in<1>("x", f16, R, Cc)))
      .at(R(4096), Cc(4096)).sizes(R(arg<2>), Cc(arg<3>))
      .block(128).grid(R * Cc / 1024);
}
inline constexpr auto wmma_tile_rowsum_f32_spec = tile_rowsum<wmma_tile_rowsum_f32>("wmma_tile_rowsum_f32", f32);
inline constexpr auto wmma_tile_rowsum_f32_colmajor_spec = tile_rowsum<wmma_tile_rowsum_f32_colmajor>("wmma_tile_rowsum_f32_colmajor", f32);
inline constexpr auto wmma_tile_rowsum_f16_spec = tile_rowsum<wmma_tile_rowsum_f16>("wmma_tile_rowsum_f16", f16);
inline constexpr auto wmma_gemm_simple_spec =
    kernel<wmma_gemm_simple>("wmma_gemm_simple", custom(2 * M * N * K + 2 * M * N, out<0>("D", f32, M, N), in<1>("A", f16, M, K),
                                                        in<2>("B", f16, K, N), in<3>("C", f32, M, N)))
        .at(M(1024), N(1024), K(1024)).sizes(M(arg<5>), N(arg<6>), K(arg<7>))
        .block(128, 4).grid(ceil_div(M, 64), ceil_div(N, 64));
}  // namespace tensorcore_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch, on zeroed buffers.
#include "program.h"
inline void run_tensorcore_cases() {
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  const int R = 4096, C = 4096;
  const auto rowsum = [&](const char* name, auto kernel, auto* y_type) {
    if (!wanted(name)) return;
    Case c(name);
    auto* y = c.zeros<std::remove_pointer_t<decltype(y_type)>>(Z(R) * C);
    const __half* x = c.zeros<__half>(Z(R) * C);
    if (c.ready()) kernel<<<R * C / 1024, 128>>>(y, x, R, C);
    c.done();
  };
  rowsum("wmma_tile_rowsum_f32", wmma_tile_rowsum_f32, static_cast<float*>(nullptr));
  rowsum("wmma_tile_rowsum_f32_colmajor", wmma_tile_rowsum_f32_colmajor, static_cast<float*>(nullptr));
  rowsum("wmma_tile_rowsum_f16", wmma_tile_rowsum_f16, static_cast<__half*>(nullptr));
  if (wanted("wmma_gemm_simple")) {
    Case c("wmma_gemm_simple");
    const int M = 1024, N = 1024, K = 1024;
    float* D = c.zeros<float>(Z(M) * N);
    const float* Cm = c.zeros<float>(Z(M) * N);
    const __half *A = c.zeros<__half>(Z(M) * K), *B = c.zeros<__half>(Z(K) * N);
    if (c.ready()) wmma_gemm_simple<<<dim3(M / 64, N / 64), dim3(128, 4)>>>(D, A, B, Cm, 0.5f, M, N, K);
    c.done();
  }
}
#endif
