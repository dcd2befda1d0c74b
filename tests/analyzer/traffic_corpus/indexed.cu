// Accesses through index arrays whose spec states how the indices are distributed
// (`.indices(uniform(V))`): an embedding lookup of llm.c's encoder, a gather and a histogram. The
// analyzer evaluates the indexed addresses with values drawn as stated; the program fills the index
// arrays with uniformly distributed values (corpus::uniform_below, a fixed seed), so the hand figures
// below hold for its data up to the spread of a random draw.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// The encoder of a GPT-2 forward pass, a thread per (b, t, c): out[b, t, c] = wte[inp[b, t], c] +
// wpe[t, c], B = 8, T = 1024, C = 768, V = 50257 token ids uniform over the vocabulary. Compulsory:
// out 24 MiB, inp 32 KiB, wte the B*T = 8192 rows the spec says it touches (24 MiB), wpe 3 MiB.
// - inp: a warp's 32 lanes share one bt (C = 768 is 24 warps), one sector for 4 bytes: 196608 requests
//   of 1 sector over 1024 compulsory sectors, 192x at L1. A sector (8 tokens) is read by the 24 blocks
//   of those tokens: 1x at L2 when they share an SM, 24x when each block fetches it: 1x..24x. DRAM 1x.
// - wte: a warp reads 128 contiguous bytes of one row: 4 sectors, 1x at L1 and L2 (a repeated token
//   is read again far away in the grid). DRAM: the distinct rows among 8192 draws from 50257,
//   50257 (1 - (1 - 1/50257)^8192) = 7559 rows: 0.92x (the L2 keeps a row read twice).
// - wpe: row t is read by the B = 8 tokens b*T + t, 3072 blocks apart: 8x at L1, 1x..8x at L2 (the
//   order of blocks on SMs decides), 3 MiB in L2: DRAM 1x.
// - out: 1x at L1 and L2; DRAM 0x..1x (written lines may stay in L2 at the end).
// truth: inp l1 192x, inp l2 1x..24x, inp dram 1x, wte l1 1x, wte l2 1x, wte dram 0.92x, wpe l1 8x, wpe l2 1x..8x, wpe dram 1x, out l1 1x, out l2 1x, out dram 0x..1x
__global__ void encoder_uniform_tokens(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out: (B,T,C)  inp: (B,T)  wte: (V,C)  wpe: (T,C)
  if (i >= B * T * C) return;
  const int bt = i / C, t = bt % T, c = i % C;
  out[i] = wte[inp[bt] * C + c] + wpe[t * C + c];
}

// A gather through uniform indices: y[i] = x[idx[i]], N = 2^22 draws over M = 2^22 elements (16 MiB).
// - x: a warp's 32 lanes at 32 random places: 32 sectors for 128 bytes, 8x at L1 (N/32 requests of 32
//   sectors: 128 MiB over 16 MiB). An SM's L1 (about 224 KiB) holds 1.4% of x: 7.9x at L2, 7x..8x. DRAM: 4M draws over 262144 granules of 64 bytes leave none untouched
//   (e^-16), each granule read 16 times with a sixteenth of the kernel's 48 MiB in between, which L2
//   keeps: 1x.
// - idx: 1x at every level; y: 1x at L1 and L2, DRAM 0x..1x.
// truth: x l1 8x, x l2 7x..8x, x dram 1x, idx l1 1x, idx l2 1x, idx dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void gather_uniform(float* y, const float* x, const int* idx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, idx: (N)  x: (M)
  if (i < n) y[i] = x[idx[i]];
}

// The same gather at N = M = 2^24: x is 64 MiB, the kernel's footprint 192 MiB, over L2 (60 MiB).
// - x: 8x at L1 as above; an SM's L1 holds 0.3% of x: 7.9x..8x at L2. DRAM: 2^24 reads of a granule
//   each, uniform over x's 2^20 granules; L2 holds C bytes of x, and a read finds its granule there with
//   probability C / 64 MiB (random reads: no order helps). Per thread, x brings 64 (1 - h) bytes into
//   L2, idx and y 4 each, so x's share of what L2 holds is 64 (1 - h) / (64 (1 - h) + 8). With the
//   whole L2 holding (60 MiB): h = 60 s / 64 settles at 0.68, DRAM 16 (1 - h) = 5.2x; with the 0.4 of
//   it that keeps a working set (24 MiB): h = 0.32, 10.9x. 5.2x..10.9x.
// - idx: 1x at every level; y: 1x at L1 and L2, DRAM 0x..1x.
// truth: x l1 8x, x l2 7.9x..8x, x dram 5.2x..10.9x, idx l1 1x, idx l2 1x, idx dram 1x, y l1 1x, y l2 1x, y dram 0x..1x
__global__ void gather_uniform_wide(float* y, const float* x, const int* idx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, idx: (N)  x: (M)
  if (i < n) y[i] = x[idx[i]];
}

// A histogram of 2^24 values uniform over H = 256 bins: atomicAdd(&hist[x[i]], 1). x: 64 MiB, 1x at
// every level. hist: atomics only, which are neither load nor store sectors: 0x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, hist l1 0x, hist l2 0x
__global__ void histogram_uniform(unsigned* hist, const int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // hist: (H), accumulated  x: (N)
  if (i < n) atomicAdd(&hist[x[i]], 1u);
}

#include "rooflint/dsl.h"
namespace indexed_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct H final : dim<"H"> {} H;

inline constexpr auto encoder_uniform_tokens_spec =
    kernel<encoder_uniform_tokens>("encoder_uniform_tokens",
                                   custom(0, out<0>("out", f32, B, T, C), in<1>("inp", i32, B, T).indices(uniform(V)),
                                          in<2>("wte", f32, V, C).touches(B * T * C), in<3>("wpe", f32, T, C)))
        .at(B(8), T(1024), C(768), V(50257)).sizes(B(arg<4>), T(arg<5>), C(arg<6>)).block(256).grid(ceil_div(B * T * C, 256));
inline constexpr auto gather_uniform_spec =
    kernel<gather_uniform>("gather_uniform", custom(0, out<0>("y", f32, N), in<1>("x", f32, M), in<2>("idx", i32, N).indices(uniform(M))))
        .at(N(1 << 22), M(1 << 22)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto gather_uniform_wide_spec =
    kernel<gather_uniform_wide>("gather_uniform_wide",
                                custom(0, out<0>("y", f32, N), in<1>("x", f32, M), in<2>("idx", i32, N).indices(uniform(M))))
        .at(N(1 << 24), M(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto histogram_uniform_spec =
    kernel<histogram_uniform>("histogram_uniform", custom(0, inout<0>("hist", u32, H), in<1>("x", i32, N).indices(uniform(H))))
        .at(N(1 << 24), H(256)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
}  // namespace indexed_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch, with index
// arrays drawn uniformly as the specs state.
#include "program.h"
inline void run_indexed_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  if (wanted("encoder_uniform_tokens")) {
    Case c("encoder_uniform_tokens");
    const int B = 8, T = 1024, C = 768, V = 50257;
    float *out = c.zeros<float>(Z(B) * T * C), *wte = c.zeros<float>(Z(V) * C), *wpe = c.zeros<float>(Z(T) * C);
    int* inp = c.upload(corpus::uniform_below(Z(B) * T, V, 1));
    if (c.ready()) encoder_uniform_tokens<<<blocks(B * T * C, 256), 256>>>(out, inp, wte, wpe, B, T, C);
    c.done();
  }
  if (wanted("gather_uniform")) {
    Case c("gather_uniform");
    const int n = 1 << 22, m = 1 << 22;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(m);
    int* idx = c.upload(corpus::uniform_below(Z(n), m, 2));
    if (c.ready()) gather_uniform<<<blocks(n, 256), 256>>>(y, x, idx, n);
    c.done();
  }
  if (wanted("gather_uniform_wide")) {
    Case c("gather_uniform_wide");
    const int n = 1 << 24, m = 1 << 24;
    float *y = c.zeros<float>(n), *x = c.zeros<float>(m);
    int* idx = c.upload(corpus::uniform_below(Z(n), m, 4));
    if (c.ready()) gather_uniform_wide<<<blocks(n, 256), 256>>>(y, x, idx, n);
    c.done();
  }
  if (wanted("histogram_uniform")) {
    Case c("histogram_uniform");
    const int n = 1 << 24, h = 256;
    unsigned* hist = c.zeros<unsigned>(h);
    int* x = c.upload(corpus::uniform_below(Z(n), h, 3));
    if (c.ready()) histogram_uniform<<<blocks(n, 256), 256>>>(hist, x, n);
    c.done();
  }
}
#endif
