/// @file program.cu
/// rooflint-traffic-corpus: an ordinary CUDA program that launches the traffic corpus's kernels that
/// carry specs: a representative set of the first corpus files (coalesced, strided, row pointer,
/// transpose, a three-pass softmax at a size whose rows stay in L1 and one whose rows reach DRAM, naive
/// and tiled GEMMs at a size within L2 and one over it), with the specs below, and every kernel of the
/// files with truth lines (review.cu, llmc.cu, samples.cu, gemm_tiles.cu, stencils.cu, gathers.cu,
/// everyday.cu, everyday2.cu, tensorcore.cu: their run_*_cases(), beside their specs, each file in a unit of its own:
/// program_*.cu), each once on zeroed buffers (indices filled in range). `rooflint-verify --manifest M -- program`
/// sets the analyzer's predicted traffic per level (manifest version 4) beside what the counters see
/// (scripts/gpu-job.sh traffic). Usage: rooflint-traffic-corpus [filter]: the cases whose name, or kernel's
/// name, contains the filter ('|' between alternatives, "=name" for a whole name: corpus::wanted).
#define ROOFLINT_CORPUS_REAL_CUDA
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "elementwise.cu"
#include "gemm.cu"
#include "indexing.cu"
#include "program.h"
#include "reread.cu"
#include "reuse.cu"
#include "rooflint/dsl.h"

// The predictions that rest on sizes (a footprint against L2, a layer condition) hold at a spec's
// declared sizes: the second size of the three-pass softmax and of the GEMMs is a copy of the corpus
// kernel (the same body, another symbol) with a spec of its own at that size.
__global__ void softmax_three_pass_uncached(const float* x, float* y, int C) {
  __shared__ float red[2];
  const float* row = x + blockIdx.x * C;
  float m = -1e30f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) m = m > row[c] ? m : row[c];
  if (threadIdx.x == 0) red[0] = m;
  __syncthreads();
  m = red[0];
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) s += row[c] - m;
  if (threadIdx.x == 0) red[1] = s;
  __syncthreads();
  s = red[1];
  for (int c = threadIdx.x; c < C; c += blockDim.x) y[blockIdx.x * C + c] = (row[c] - m) / s;
}

// The naive GEMM, one thread an output (launched in blocks of 32 x 8), at sizes of its own below.
__device__ __forceinline__ void gemm_naive32x8(const float* A, const float* B, float* C, int N) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

__global__ void reuse_gemm_naive_n4096(const float* A, const float* B, float* C, int N) { gemm_naive32x8(A, B, C, N); }

// At N = 2048 a row of its 64 blocks of 32 x 8 reads all of B (16 MiB) and little else: within L2's kept
// part, so the next row of blocks finds B there.
__global__ void reuse_gemm_naive_n2048(const float* A, const float* B, float* C, int N) { gemm_naive32x8(A, B, C, N); }

// The tiled GEMM of reuse.cu (32 x 32 tiles through shared memory), at sizes of its own below.
__device__ __forceinline__ void gemm_tiled32(const float* A, const float* B, float* C, int N) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.f;
  for (int t = 0; t < N / 32; ++t) {
    As[ty][tx] = A[row * N + t * 32 + tx];
    Bs[ty][tx] = B[(t * 32 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

__global__ void reuse_gemm_tiled_n4096(const float* A, const float* B, float* C, int N) { gemm_tiled32(A, B, C, N); }

// The tiled GEMM at N = 2048 (48 MiB): over L2's kept part, but a row of blocks reads 16.5 MiB, all of B
// included, and the next row of blocks reads B again while L2 still holds it.
__global__ void reuse_gemm_tiled_n2048(const float* A, const float* B, float* C, int N) { gemm_tiled32(A, B, C, N); }

// At N = 3072 a row of 96 blocks reads 36.75 MiB (B's 36 MiB, a panel of A, a row's share of C): between
// L2's kept part and its whole, so the next row finds part of B (docs/traffic.md: the point
// interpolates; TrafficEvaluation.ABlockFindsWhatTheRowOfBlocksBeforeReadWhereTheRowFitsL2 works it).
__global__ void reuse_gemm_tiled_n3072(const float* A, const float* B, float* C, int N) { gemm_tiled32(A, B, C, N); }

namespace traffic_corpus_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;

// copy: y = x, n floats, coalesced (1x at every level).
inline constexpr auto copy_spec =
    kernel<::copy>("copy", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 26)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
// stride33: y[i] = x[33 i]: n floats of x used (the compulsory bytes), 8x per warp request.
inline constexpr auto stride33_spec =
    kernel<::stride33>("stride33", unary(0, in<0>("x", f32, N), out<1>("y", f32, N))).at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
// row_pointer_per_lane: y[r] = sum of row r of x (R x C), r from threadIdx.x.
inline constexpr auto row_pointer_spec =
    kernel<::row_pointer_per_lane>("row_pointer_per_lane", custom(0, in<0>("x", f32, R, C), out<1>("y", f32, R)))
        .at(R(1 << 16), C(1024))
        .sizes(R(grid_dim.x * 256), C(arg<2>))  // launched with 256 threads a block
        .block(256);
// transpose_naive: out (C x R) = in (R x C)^T.
inline constexpr auto transpose_spec =
    kernel<::transpose_naive>("transpose_naive", custom(0, in<0>("in", f32, R, C), out<1>("out", f32, C, R)))
        .at(R(8192), C(8192))
        .sizes(R(arg<2>), C(arg<3>))
        .block(32, 8)
        .grid(ceil_div(C, 32), ceil_div(R, 8));
// The second sizes (see above): rows of 196 KiB (over L1 and, on 132 SMs, over L2); GEMMs over L2.
inline constexpr auto softmax_uncached_spec =
    kernel<::softmax_three_pass_uncached>("softmax_three_pass_uncached", softmax(in<0>("x", f32, R, C), out<1>("y", f32, R, C)))
        .at(R(1024), C(50257))
        .sizes(R(grid_dim.x), C(arg<2>))
        .block(256);
inline constexpr auto naive_4096_spec =
    kernel<::reuse_gemm_naive_n4096>("reuse_gemm_naive_n4096", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(4096))
        .sizes(N(arg<3>))
        .block(32, 8)
        .grid(ceil_div(N, 32), ceil_div(N, 8));
inline constexpr auto tiled_4096_spec =
    kernel<::reuse_gemm_tiled_n4096>("reuse_gemm_tiled_n4096", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(4096))
        .sizes(N(arg<3>))
        .block(32, 32)
        .grid(ceil_div(N, 32), ceil_div(N, 32));
inline constexpr auto tiled_2048_spec =
    kernel<::reuse_gemm_tiled_n2048>("reuse_gemm_tiled_n2048", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(2048))
        .sizes(N(arg<3>))
        .block(32, 32)
        .grid(ceil_div(N, 32), ceil_div(N, 32));
inline constexpr auto tiled_3072_spec =
    kernel<::reuse_gemm_tiled_n3072>("reuse_gemm_tiled_n3072", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(3072))
        .sizes(N(arg<3>))
        .block(32, 32)
        .grid(ceil_div(N, 32), ceil_div(N, 32));
inline constexpr auto naive_2048_spec =
    kernel<::reuse_gemm_naive_n2048>("reuse_gemm_naive_n2048", matmul(in<0>("A", f32, N, N), in<1>("B", f32, N, N), out<2>("C", f32, N, N)))
        .at(N(2048))
        .sizes(N(arg<3>))
        .block(32, 8)
        .grid(ceil_div(N, 32), ceil_div(N, 8));
}  // namespace traffic_corpus_specs

namespace {

int failures = 0;

bool wanted(const char* name) { return corpus::wanted(name); }

float* zeros(std::size_t n) {
  void* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess || cudaMemset(p, 0, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "rooflint-traffic-corpus: cannot allocate %zu floats\n", n);
    std::exit(1);
  }
  return static_cast<float*>(p);
}

void done(const char* name) {
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%-32s %s\n", name, e == cudaSuccess ? "ran" : cudaGetErrorString(e));
  if (e != cudaSuccess) ++failures;
}

void elementwise_cases() {
  if (wanted("copy")) {
    const int n = 1 << 26;
    float *x = zeros(n), *y = zeros(n);
    copy<<<n / 256, 256>>>(x, y, n);
    done("copy");
    cudaFree(x), cudaFree(y);
  }
  if (wanted("stride33")) {
    const int n = 1 << 24;
    float *x = zeros(33ull * n), *y = zeros(n);
    stride33<<<n / 256, 256>>>(x, y, n);
    done("stride33");
    cudaFree(x), cudaFree(y);
  }
  if (wanted("row_pointer_per_lane")) {
    const int rows = 1 << 16, cols = 1024;
    float *x = zeros(std::size_t(rows) * cols), *y = zeros(rows);
    row_pointer_per_lane<<<rows / 256, 256>>>(x, y, cols);
    done("row_pointer_per_lane");
    cudaFree(x), cudaFree(y);
  }
  if (wanted("transpose_naive")) {
    const int rows = 8192, cols = 8192;
    float *in = zeros(std::size_t(rows) * cols), *out = zeros(std::size_t(rows) * cols);
    transpose_naive<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(in, out, rows, cols);
    done("transpose_naive");
    cudaFree(in), cudaFree(out);
  }
}

void softmax_cases() {
  // C = 512 (R = 65536, the spec's sizes): 2 KiB rows, 16 KiB per SM at 8 blocks, within 1/8 of L1
  // (rooflint-reread: 1x); C = 50257 (R = 1024): 196 KiB rows, over L1 and, on 132 SMs, over L2: 3x at DRAM.
  for (const auto [rows, cols] : {std::pair{65536, 512}, std::pair{1024, 50257}}) {
    const std::string name = "softmax_three_pass C=" + std::to_string(cols);
    if (!wanted(name.c_str()) && !wanted(cols == 512 ? "softmax_three_pass" : "softmax_three_pass_uncached")) continue;
    float *x = zeros(std::size_t(rows) * cols), *y = zeros(std::size_t(rows) * cols);
    if (cols == 512) softmax_three_pass<<<rows, 256>>>(x, y, cols);
    else softmax_three_pass_uncached<<<rows, 256>>>(x, y, cols);
    done(name.c_str());
    cudaFree(x), cudaFree(y);
  }
}

/// One square GEMM of N x N floats, run when its label or its kernel's name is wanted: blocks of 32 x
/// @p block_y threads over the N x N outputs (the naive kernels 32 x 8, the tiled ones 32 x 32).
void gemm_case(const char* label, const char* kernel_name, void (*kernel)(const float*, const float*, float*, int), int n,
               int block_y) {
  if (!wanted(label) && !wanted(kernel_name)) return;
  const std::size_t e = std::size_t(n) * n;
  float *a = zeros(e), *b = zeros(e), *c = zeros(e);
  kernel<<<dim3(n / 32, n / block_y), dim3(32, block_y)>>>(a, b, c, n);
  done(label);
  cudaFree(a), cudaFree(b), cudaFree(c);
}

void gemm_cases() {
  // N = 512: A and B (2 MiB) within L2; N = 4096: 128 MiB, over it; 2048 and 3072 between (their comments).
  gemm_case("reuse_gemm_naive N=512", "reuse_gemm_naive", reuse_gemm_naive, 512, 8);
  gemm_case("reuse_gemm_tiled N=512", "reuse_gemm_tiled", reuse_gemm_tiled, 512, 32);
  gemm_case("reuse_gemm_naive N=4096", "reuse_gemm_naive_n4096", reuse_gemm_naive_n4096, 4096, 8);
  gemm_case("reuse_gemm_tiled N=4096", "reuse_gemm_tiled_n4096", reuse_gemm_tiled_n4096, 4096, 32);
  gemm_case("reuse_gemm_tiled N=2048", "reuse_gemm_tiled_n2048", reuse_gemm_tiled_n2048, 2048, 32);
  gemm_case("reuse_gemm_tiled N=3072", "reuse_gemm_tiled_n3072", reuse_gemm_tiled_n3072, 3072, 32);
  gemm_case("reuse_gemm_naive N=2048", "reuse_gemm_naive_n2048", reuse_gemm_naive_n2048, 2048, 8);
}

}  // namespace

// The parts (program_*.cu): the files with truth lines, each in its own translation unit.
void run_review_part();
void run_llmc_part();
void run_samples_part();
void run_gemm_tiles_part();
void run_stencils_part();
void run_gathers_part();
void run_indexed_part();
void run_everyday_part();
void run_everyday2_part();
void run_tensorcore_part();

int main(int argc, char** argv) {
  if (argc > 1) corpus::filter = argv[1];
  elementwise_cases();
  softmax_cases();
  gemm_cases();
  run_review_part();
  run_llmc_part();
  run_samples_part();
  run_gemm_tiles_part();
  run_stencils_part();
  run_gathers_part();
  run_indexed_part();
  run_everyday_part();
  run_everyday2_part();
  run_tensorcore_part();
  failures += corpus::failures;
  std::printf("%s\n", failures ? "some kernels failed" : "all kernels ran");
  return failures ? 1 : 0;
}
