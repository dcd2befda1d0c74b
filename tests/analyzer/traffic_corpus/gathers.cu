// Accesses through index arrays: an embedding table read a row a warp, a gather and a scatter through a
// permutation, sparse matrix-vector products (a thread and a warp per row), a segment sum by atomics, and
// a column selection. The program fills the index arrays (program.cu), so the hand figures hold for its
// data. The embedding rows, the gather and the scatter state their indices distinct (`.indices(distinct
// (V))`: the program's are bijections i * 7919 mod V, neighbouring values 31 KiB or more apart, as a
// shuffle's are), so the analyzer evaluates them; where an address or a loop bound depends on data no
// statement describes, the build cannot know them and the analyzer's "not predicted" is the right answer
// at that level, which the test still counts as a miss.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// Embedding rows, a warp per token, float4: out[bt, :] = table[idx[bt], :], BT = 16384 tokens, D = 1024,
// V = 65536 rows (256 MiB); the program's tokens are distinct rows (bt * 7919 mod V), the touched 64
// MiB. idx: every lane reads idx[bt], a sector for 4 bytes: 8x at L1; the 8 warps of a block read one
// sector: 1x at L2. table: 512 contiguous bytes a request, each row once: 1x at every level. out: 1x.
// truth: idx l1 8x, idx l2 1x, idx dram 1x, table l1 1x, table l2 1x, table dram 1x, out l1 1x, out l2 1x, out dram 0.06x..1x
__global__ void embedding_rows_float4(float4* out, const int* idx, const float4* table, int BT, int D4) {
  const int bt = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;  // out: (BT,D)  idx: (BT)  table: (V,D)
  if (bt >= BT) return;
  const int row = idx[bt];
  for (int c = lane; c < D4; c += 32) out[bt * D4 + c] = table[row * D4 + c];
}

// A gather through a permutation: y[i] = x[idx[i]], n = 2^20, idx[i] = i * 7919 mod n (lanes 31 KiB
// apart). x: a sector a lane, 8x at L1; the other 7 floats of each sector are read by far-away i: L1
// (224 KiB of the 4 MiB) serves few, 7x..8x at L2; 12 MiB in all: DRAM 1x. idx, y: 1x.
// truth: x l1 8x, x l2 7x..8x, x dram 1x, idx l1 1x, idx l2 1x, idx dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void gather_permuted(float* y, const float* x, const int* idx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x, idx: (N)
  if (i < n) y[i] = x[idx[i]];
}

// A scatter through the same permutation: y[idx[i]] = x[i]: every store a sector for 4 bytes, 8x at L1
// and L2; each sector of y is completed in L2 by 8 stores: 0x..1x at DRAM (12 MiB). x, idx: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, idx l1 1x, idx l2 1x, idx dram 1x, y l1 8x, y l2 8x, y dram 0x..1x
__global__ void scatter_permuted(float* y, const float* x, const int* idx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x, idx: (N)
  if (i < n) y[idx[i]] = x[i];
}

// CSR sparse matrix times vector, a thread per row: R = 2^20 rows of 8 nonzeros (the program's rowptr is
// 8 r, columns (r + 1021 j) mod R). rowptr[r] and rowptr[r + 1]: 4 + 5 sectors a warp for 128 bytes:
// 2.25x at L1; a block's 257 entries are 33 sectors: 1.03x at L2. val, col: lanes 32 bytes apart (a
// row's 8 entries): a sector each, 8x at L1; each lane's sector serves its 8 iterations: 1x at L2. x:
// for j = 0 the lanes read 32 consecutive floats (4 sectors), for j = 1..7 a misaligned run (1021 j mod
// 8 is not 0: 5 sectors): 39 sectors per warp for its 128 bytes of x, 9.75x at L1. 24 MiB in all:
// DRAM 1x for the inputs. y: 1x. The loop bounds are loaded data: the build cannot count val, col, x.
// truth: rowptr l1 2.25x, rowptr l2 1.03x, val l1 8x, val l2 1x, col l1 8x, col l2 1x, x l1 9.75x, y l1 1x, y l2 1x
__global__ void csr_spmv_scalar(float* y, const int* rowptr, const int* col, const float* val, const float* x, int R) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // y, x: (R)  rowptr: (R+1), the spec's (R)  col, val: (R,8)
  if (r >= R) return;
  float s = 0.f;
  for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) s += val[j] * x[col[j]];
  y[r] = s;
}

// CSR, a warp per row: R = 2^18 rows of 64 nonzeros (rowptr 64 r, columns (r + 16 j) mod R). rowptr[r]
// and rowptr[r + 1]: one address each a warp, a sector each for 4 bytes: 16x at L1. val, col: a row is
// 256 aligned bytes, two coalesced requests: 1x. x: lanes 16 floats apart, a sector each, 64 reads of
// every element: 512x at L1. y: lane 0, a sector for 4 bytes: 8x at L1 and L2.
// truth: rowptr l1 16x, val l1 1x, val l2 1x, val dram 1x, col l1 1x, col l2 1x, col dram 1x, x l1 512x, y l1 8x, y l2 8x
__global__ void csr_spmv_vector(float* y, const int* rowptr, const int* col, const float* val, const float* x, int R) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;  // y, x: (R)  rowptr: (R+1)  col, val: (R,64)
  if (r >= R) return;
  float s = 0.f;
  for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += 32) s += val[j] * x[col[j]];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[r] = s;
}

// A segment sum by atomics: out[seg[i]] += x[i], seg sorted (the program's segments are 64 long), n =
// 2^24. x, seg: 1x. out: atomics only, 0x at L1 and L2, wherever they land.
// truth: x l1 1x, x l2 1x, x dram 1x, seg l1 1x, seg l2 1x, seg dram 1x, out l1 0x, out l2 0x
__global__ void segment_sum_atomic(float* out, const float* x, const int* seg, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out: (S), accumulated  x, seg: (N)
  if (i < n) atomicAdd(&out[seg[i]], x[i]);
}

// Selecting K columns of an (R,C) matrix through an index list: y[r, k] = x[r, cols[k]], R = 16384, C =
// 4096, K = 1024; the program's cols[k] = 4 k. A warp's lanes read x 16 bytes apart: 16 sectors for 128
// bytes, 4x at L1 and L2 (no reuse), and every granule of x is fetched: 4x at DRAM (compulsory: the
// R * K selected floats). cols: all rows read it: R = 16384x at L1. y: 1x.
// truth: x l1 4x, x l2 4x, x dram 4x, cols l1 16384x, y l1 1x, y l2 1x, y dram 0.06x..1x
__global__ void select_columns(float* y, const float* x, const int* cols, int C, int K) {
  const int r = blockIdx.y, k = blockIdx.x * blockDim.x + threadIdx.x;  // y: (R,K)  x: (R,C), K of its columns  cols: (K)
  if (k < K) y[r * K + k] = x[r * C + cols[k]];
}

#include "rooflint/dsl.h"
namespace gathers_specs {
using namespace rooflint::dsl;
inline constexpr struct BT final : dim<"BT"> {} BT;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct V final : dim<"V", 65536> {} V;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct K final : dim<"K"> {} K;
inline constexpr struct S final : dim<"S", 262144> {} S;
inline constexpr struct Nnz8 final : dim<"Nnz8", 8> {} Nnz8;
inline constexpr struct Nnz64 final : dim<"Nnz64", 64> {} Nnz64;

inline constexpr auto embedding_rows_float4_spec =
    kernel<embedding_rows_float4>("embedding_rows_float4",
                                  custom(0, out<0>("out", f32, BT, D), in<1>("idx", i32, BT).indices(distinct(V)), in<2>("table", f32, V, D).touches(BT * D)))
        .at(BT(16384), D(1024)).sizes(BT(arg<3>), D(4 * arg<4>)).block(256).grid(ceil_div(BT, 8));
inline constexpr auto gather_permuted_spec =
    kernel<gather_permuted>("gather_permuted", custom(0, out<0>("y", f32, N), in<1>("x", f32, N), in<2>("idx", i32, N).indices(distinct(N))))
        .at(N(1 << 20)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto scatter_permuted_spec =
    kernel<scatter_permuted>("scatter_permuted", custom(0, out<0>("y", f32, N), in<1>("x", f32, N), in<2>("idx", i32, N).indices(distinct(N))))
        .at(N(1 << 20)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto csr_spmv_scalar_spec =
    kernel<csr_spmv_scalar>("csr_spmv_scalar",
                            custom(2 * 8 * R, out<0>("y", f32, R), in<1>("rowptr", i32, R), in<2>("col", i32, R, Nnz8), in<3>("val", f32, R, Nnz8),
                                   in<4>("x", f32, R)))
        .at(R(1 << 20)).sizes(R(arg<5>)).block(256).grid(ceil_div(R, 256));
inline constexpr auto csr_spmv_vector_spec =
    kernel<csr_spmv_vector>("csr_spmv_vector",
                            custom(2 * 64 * R, out<0>("y", f32, R), in<1>("rowptr", i32, R), in<2>("col", i32, R, Nnz64), in<3>("val", f32, R, Nnz64),
                                   in<4>("x", f32, R)))
        .at(R(1 << 18)).sizes(R(arg<5>)).block(256).grid(ceil_div(R, 8));
inline constexpr auto segment_sum_atomic_spec =
    kernel<segment_sum_atomic>("segment_sum_atomic", custom(0, inout<0>("out", f32, S), in<1>("x", f32, N), in<2>("seg", i32, N)))
        .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto select_columns_spec =
    kernel<select_columns>("select_columns", custom(0, out<0>("y", f32, R, K), in<1>("x", f32, R, C).touches(R * K), in<2>("cols", i32, K)))
        .at(R(16384), C(4096), K(1024)).sizes(R(grid_dim.y), C(arg<3>), K(arg<4>)).block(256).grid(ceil_div(K, 256), R);
}  // namespace gathers_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch, with the index
// arrays the comments describe.
#include "program.h"
inline void run_gathers_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  if (wanted("embedding_rows_float4")) {
    Case c("embedding_rows_float4");
    const int BT = 16384, D = 1024, V = 65536;
    float4 *out = c.zeros<float4>(Z(BT) * D / 4), *table = c.zeros<float4>(Z(V) * D / 4);
    int* idx = c.upload(corpus::indices_below(BT, V, 7919));
    if (c.ready()) embedding_rows_float4<<<BT / 8, 256>>>(out, idx, table, BT, D / 4);
    c.done();
  }
  for (const bool scatter : {false, true}) {
    const char* name = scatter ? "scatter_permuted" : "gather_permuted";
    if (!wanted(name)) continue;
    Case c(name);
    const int n = 1 << 20;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(n);
    int* idx = c.upload(corpus::scattered(n, 7919));
    if (c.ready() && scatter) scatter_permuted<<<blocks(n, 256), 256>>>(y, x, idx, n);
    if (c.ready() && !scatter) gather_permuted<<<blocks(n, 256), 256>>>(y, x, idx, n);
    c.done();
  }
  for (const bool vector : {false, true}) {
    const char* name = vector ? "csr_spmv_vector" : "csr_spmv_scalar";
    if (!wanted(name)) continue;
    Case c(name);
    const int R = vector ? 1 << 18 : 1 << 20, nnz = vector ? 64 : 8, step = vector ? 16 : 1021;
    std::vector<int> rowptr(Z(R) + 1), col(Z(R) * nnz);
    for (int r = 0; r <= R; ++r) rowptr[Z(r)] = r * nnz;
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < nnz; ++j) col[Z(r) * nnz + Z(j)] = static_cast<int>((r + 1ll * step * j) % R);
    float *y = c.zeros<float>(R), *val = c.zeros<float>(Z(R) * nnz), *x = c.zeros<float>(R);
    int *rp = c.upload(rowptr), *cl = c.upload(col);
    if (c.ready() && vector) csr_spmv_vector<<<R / 8, 256>>>(y, rp, cl, val, x, R);
    if (c.ready() && !vector) csr_spmv_scalar<<<R / 256, 256>>>(y, rp, cl, val, x, R);
    c.done();
  }
  if (wanted("segment_sum_atomic")) {
    Case c("segment_sum_atomic");
    const int n = 1 << 24;
    std::vector<int> seg(static_cast<Z>(n));
    for (int i = 0; i < n; ++i) seg[Z(i)] = i / 64;
    float *out = c.zeros<float>(n / 64), *x = c.zeros<float>(n);
    int* s = c.upload(seg);
    if (c.ready()) segment_sum_atomic<<<blocks(n, 256), 256>>>(out, x, s, n);
    c.done();
  }
  if (wanted("select_columns")) {
    Case c("select_columns");
    const int R = 16384, C = 4096, K = 1024;
    std::vector<int> cols(static_cast<Z>(K));
    for (int k = 0; k < K; ++k) cols[Z(k)] = 4 * k;
    float *y = c.zeros<float>(Z(R) * K), *x = c.zeros<float>(Z(R) * C);
    int* cl = c.upload(cols);
    if (c.ready()) select_columns<<<dim3(K / 256, R), 256>>>(y, x, cl, C, K);
    c.done();
  }
}
#endif
