/// @file sgemm.cu
/// C = A * B for square row-major f32 matrices, N = 512 and N = 4096, four ways: naive, shared-memory
/// tiled, register-blocked, and cuBLAS (FP32, no TF32) as the reference. FLOPs 2 N^3, compulsory bytes
/// 3 * 4 N^2, intensity N/6 FLOP/byte: 85.3 at N = 512 and 683 at N = 4096, both right of the H200's FP32
/// ridge (66.9 TFLOP/s / 4.8 TB/s = 13.9 FLOP/byte), so every spec expects compute-bound. What changes with
/// N is whether the kernels' re-reads reach DRAM: at N = 512 all three matrices (3 MiB) stay in L2; at
/// N = 4096 B alone (64 MiB) is larger than L2, and the naive and tiled kernels stream it from DRAM once
/// per wave of resident blocks.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"
#include "../common/launch_count.h"

// ---------------------------------------------------------------------------------------------------
// Naive

inline constexpr int sgemm_naive_block = 16;  // 16 x 16 threads, one output each

/// THE TEXTBOOK MISTAKE: one thread per output, each reading a whole row of A and a whole column of B
/// from global memory (2N loads per 2N FLOP). Nothing is reused on chip except by chance in L1/L2: every
/// element of A and B is requested N times, and at N = 4096 the re-reads of B reach DRAM.
__global__ void sgemm_naive(const float* A, const float* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  const int row = blockIdx.y * sgemm_naive_block + threadIdx.y;
  const int col = blockIdx.x * sgemm_naive_block + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

/// THE SAME MISTAKE, WRITTEN AS USERS WRITE IT: threadIdx.x walks rows of C (row = ... + threadIdx.x),
/// as if C were column-major. A warp's 32 loads of A[row * n + k] are n floats apart: 32 sectors for 128
/// bytes used (uncoalesced), and its stores to C scatter likewise. Its DRAM traffic stays near compulsory
/// at moderate N (the L2 catches the re-reads) while the L2 carries every sector: the hierarchical
/// roofline puts its floor at L2, far above the compute floor.
__global__ void sgemm_naive_rows(const float* A, const float* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  const int row = blockIdx.y * sgemm_naive_block + threadIdx.x;
  const int col = blockIdx.x * sgemm_naive_block + threadIdx.y;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

// ---------------------------------------------------------------------------------------------------
// Shared-memory tiled

inline constexpr int sgemm_tile = 32;  // 32 x 32 tiles, 32 x 32 threads, one output each

/// The first fix: blocks stage 32 x 32 tiles of A and B in shared memory, so each global element is
/// loaded N/32 times instead of N times. Still one output per thread: two shared-memory loads per FMA,
/// so it is bound by shared-memory bandwidth far below the FP32 roof. n must be a multiple of 32.
__global__ void sgemm_tiled(const float* A, const float* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  __shared__ float As[sgemm_tile][sgemm_tile];
  __shared__ float Bs[sgemm_tile][sgemm_tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * sgemm_tile + ty;
  const int col = blockIdx.x * sgemm_tile + tx;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += sgemm_tile) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < sgemm_tile; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

// ---------------------------------------------------------------------------------------------------
// Register-blocked

/// The body of the register-blocked kernels: a block computes a BM x BN tile of C with 256 threads, each
/// a TM x TN sub-tile held in registers, so each value loaded from shared memory feeds TN (or TM) FMAs.
/// A's tile is stored transposed (As[k][m]) so both operands are read as float4 rows. A thread's TM rows
/// are TM/4 groups of 4 spread BM/(TM/4) apart (and likewise its columns), so a warp's float4 reads of a
/// shared-memory row are contiguous: no bank conflicts. Global loads are float4 (n a multiple of BM, BN
/// and BK). Blocks are rasterised in groups of 16 tile-rows (Triton's GROUP_M), so the ~264 blocks resident
/// at one time cover a near-square 16 x 16 patch of C and share 16 tile-rows of A and 16 tile-columns of
/// B in L2, instead of one tile-row of A and all of B (at N = 4096 B alone is larger than L2).
template <int BM, int BN, int BK, int TM, int TN>
__device__ __forceinline__ void sgemm_register_blocked_body(const float* A, const float* B, float* C, int n) {
  constexpr int threads_n = BN / TN, threads_m = BM / TM, threads = threads_m * threads_n;
  constexpr int group_m = 16;
  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0 && threads == 256);
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];

  // Grouped rasterisation of the 1-D grid (Triton's GROUP_M): tile (tile_m, tile_n) of C.
  const int tiles_m = n / BM, tiles_n = n / BN;
  const int per_group = group_m * tiles_n;
  const int group = blockIdx.x / per_group;
  const int first_m = group * group_m;
  const int rows_in_group = min(tiles_m - first_m, group_m);
  const int tile_m = first_m + (blockIdx.x % per_group) % rows_in_group;
  const int tile_n = (blockIdx.x % per_group) / rows_in_group;

  const int tid = threadIdx.x;
  const int tx = tid % threads_n, ty = tid / threads_n;
  const float* a_tile = A + static_cast<long long>(tile_m) * BM * n;
  const float* b_tile = B + tile_n * BN;

  float acc[TM][TN] = {};
  float a_reg[TM], b_reg[TN];

  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int i = tid; i < BM * BK / 4; i += threads) {  // A tile: BM rows of BK/4 float4, stored transposed
      const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
      const float4 v = *reinterpret_cast<const float4*>(a_tile + r * n + c);
      As[c + 0][r] = v.x;
      As[c + 1][r] = v.y;
      As[c + 2][r] = v.z;
      As[c + 3][r] = v.w;
    }
    for (int i = tid; i < BK * BN / 4; i += threads) {  // B tile: BK rows of BN/4 float4
      const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&Bs[r][c]) =
          *reinterpret_cast<const float4*>(b_tile + r * n + c);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int g = 0; g < TM / 4; ++g)
        *reinterpret_cast<float4*>(&a_reg[4 * g]) = *reinterpret_cast<const float4*>(&As[k][g * threads_m * 4 + ty * 4]);
#pragma unroll
      for (int g = 0; g < TN / 4; ++g)
        *reinterpret_cast<float4*>(&b_reg[4 * g]) = *reinterpret_cast<const float4*>(&Bs[k][g * threads_n * 4 + tx * 4]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
    }
    __syncthreads();
    a_tile += BK;
    b_tile += BK * n;
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = tile_m * BM + (i / 4) * threads_m * 4 + ty * 4 + i % 4;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int c = tile_n * BN + g * threads_n * 4 + tx * 4;
      *reinterpret_cast<float4*>(C + static_cast<long long>(r) * n + c) =
          make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
    }
  }
}

/// Register-blocked SGEMM for large N: 128 x 128 tiles of C, BK = 8, 8 x 8 outputs per thread (64 FMAs per
/// 4 float4 shared-memory loads). n must be a multiple of 128. At N = 4096: 1024 blocks, about 4 waves of
/// 2 blocks per SM on 132 SMs. Capped at 128 registers for 2 blocks per SM (one block's global loads
/// overlap the other's FMAs); ptxas spills 24 bytes for it. Without the cap it takes 155 registers and
/// no spill, at one block per SM; which is faster on the H200 is for a measurement to say.
__global__ void __launch_bounds__(256, 2) sgemm_register_blocked_128(const float* A, const float* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  sgemm_register_blocked_body<128, 128, 8, 8, 8>(A, B, C, n);
}

/// The same with 64 x 64 tiles and 4 x 4 outputs per thread, for small N: at N = 512 it launches 64 blocks
/// where the 128 x 128 version would launch 16 on 132 SMs. n must be a multiple of 64.
__global__ void __launch_bounds__(256) sgemm_register_blocked_64(const float* A, const float* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  sgemm_register_blocked_body<64, 64, 8, 4, 4>(A, B, C, n);
}

// ---------------------------------------------------------------------------------------------------
// cuBLAS

/// Row-major C = A * B through column-major cuBLAS: C^T = B^T * A^T, i.e. sgemm(B, A) with no transposes.
inline cublasStatus_t sgemm_with_cublas(cublasHandle_t handle, const float* A, const float* B, float* C, int n) {
  const float one = 1, zero = 0;
  return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n);
}

/// @return A cuBLAS handle in FP32 math (no TF32), created once per process.
inline cublasHandle_t fp32_cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return static_cast<cublasHandle_t>(nullptr);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    return h;
  }();
  return handle;
}

// ---------------------------------------------------------------------------------------------------
// Specs

namespace sgemm_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// Every SGEMM here computes the same operation: C (N,N) = A (N,N) @ B (N,N), f32, row-major; at a
/// launch N = n (parameter 3).
template <auto Kernel, std::size_t L>
constexpr auto square_sgemm(const char (&name)[L]) {
  return kernel<Kernel>(name, matmul(in<0>("A", f32, N, N),     // A: (N,N)
                                     in<1>("B", f32, N, N),     // B: (N,N)
                                     out<2>("C", f32, N, N)))   // C: (N,N)
      .sizes(N(arg<3>));
}

inline constexpr auto sgemm_naive_spec = square_sgemm<sgemm_naive>("sgemm_naive")
                                           .at(N(4096))
                                           .block(sgemm_naive_block, sgemm_naive_block)
                                           .grid(ceil_div(N, sgemm_naive_block), ceil_div(N, sgemm_naive_block))
                                           .expect(compute_bound);
inline constexpr auto sgemm_naive_rows_spec = square_sgemm<sgemm_naive_rows>("sgemm_naive_rows")
                                                .at(N(4096))
                                                .block(sgemm_naive_block, sgemm_naive_block)
                                                .grid(ceil_div(N, sgemm_naive_block), ceil_div(N, sgemm_naive_block))
                                                .expect(compute_bound);
inline constexpr auto sgemm_tiled_spec = square_sgemm<sgemm_tiled>("sgemm_tiled")
                                           .at(N(4096))
                                           .block(sgemm_tile, sgemm_tile)
                                           .grid(ceil_div(N, sgemm_tile), ceil_div(N, sgemm_tile))
                                           .expect(compute_bound);
/// One block of 256 threads per 128 x 128 (or 64 x 64) tile of C, in a 1-D grid. The 128-tile kernel's
/// 128 registers a thread (ptxas, `nvcc -Xptxas -v`, under its __launch_bounds__ cap) hold 2 blocks an
/// SM, not the 8 its threads allow: a wave is 264 blocks, and each wave reads its tiles of A and B again.
inline constexpr auto sgemm_register_blocked_128_spec =
    square_sgemm<sgemm_register_blocked_128>("sgemm_register_blocked_128")
        .at(N(4096))
        .block(256)
        .grid(N * N / (128 * 128))  // N is a multiple of 128
        .registers(128)
        .expect(compute_bound);
inline constexpr auto sgemm_register_blocked_64_spec = square_sgemm<sgemm_register_blocked_64>("sgemm_register_blocked_64")
                                                         .at(N(512))
                                                         .block(256)
                                                         .grid(N * N / (64 * 64))
                                                         .expect(compute_bound);
/// cublasSgemm, FP32 math (CUBLAS_DEFAULT_MATH: no TF32): a library call, so a region (rooflint/dsl/region.h)
/// of cuBLAS's own kernel, matched by its symbol containing "gemm" (kernels with specs of their own, such as
/// sgemm_naive, are never taken for it); no stub kernel. Its sizes are not read from a launch: the harness
/// cases below bind them and count the kernels one call makes.
inline constexpr auto sgemm_cublas_spec =
    region<library_kernel<"gemm">>("sgemm_cublas", matmul(in("A", f32, N, N),     // A: (N,N)
                                                          in("B", f32, N, N),     // B: (N,N)
                                                          out("C", f32, N, N)))   // C: (N,N)
        .at(N(4096))
        .expect(compute_bound);
static_assert(sgemm_cublas_spec.bytes_at(sgemm_cublas_spec.declared().bound) == 12.0 * 4096 * 4096);

// 2 N^3 FLOP over 12 N^2 bytes: N/6 FLOP/byte.
static_assert(sgemm_naive_spec.flops_at(sgemm_naive_spec.declared().bound) == 2.0 * 4096 * 4096 * 4096);
static_assert(sgemm_naive_spec.bytes_at(sgemm_naive_spec.declared().bound) == 12.0 * 4096 * 4096);
static_assert(sgemm_register_blocked_64_spec.bytes_at(sgemm_register_blocked_64_spec.declared().bound) == 12.0 * 512 * 512);

inline void launch_naive(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  const dim3 block(sgemm_naive_block, sgemm_naive_block);
  const dim3 grid((n + sgemm_naive_block - 1) / sgemm_naive_block, (n + sgemm_naive_block - 1) / sgemm_naive_block);
  sgemm_naive<<<grid, block, 0, s>>>(A, B, C, n);
}
inline void launch_naive_rows(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  const dim3 block(sgemm_naive_block, sgemm_naive_block);
  const dim3 grid((n + sgemm_naive_block - 1) / sgemm_naive_block, (n + sgemm_naive_block - 1) / sgemm_naive_block);
  sgemm_naive_rows<<<grid, block, 0, s>>>(A, B, C, n);
}
inline void launch_tiled(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  sgemm_tiled<<<dim3(n / sgemm_tile, n / sgemm_tile), dim3(sgemm_tile, sgemm_tile), 0, s>>>(A, B, C, n);
}
inline void launch_register_blocked_128(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  sgemm_register_blocked_128<<<(n / 128) * (n / 128), 256, 0, s>>>(A, B, C, n);
}
inline void launch_register_blocked_64(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  sgemm_register_blocked_64<<<(n / 64) * (n / 64), 256, 0, s>>>(A, B, C, n);
}
inline void launch_cublas(const float* A, const float* B, float* C, int n, cudaStream_t s = 0) {
  cublasHandle_t h = fp32_cublas_handle();
  cublasSetStream(h, s);
  sgemm_with_cublas(h, A, B, C, n);
}

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(sgemm_naive_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(sgemm_naive_rows_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(sgemm_tiled_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(sgemm_register_blocked_128_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(sgemm_register_blocked_64_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(sgemm_cublas_spec, "H200"));
// The verdict flips only below N = 6 x 13.9 = 84: at N = 64 the intensity is 10.7 FLOP/byte.
static_assert(rooflint::examples::datasheet_verdict(sgemm_naive_spec, "H200", sgemm_naive_spec.bind(N(64)).bound) ==
              rooflint::model::bound::memory);

}  // namespace sgemm_example

// ---------------------------------------------------------------------------------------------------
// Self-checks: N = 256 against a double-precision host product.

namespace {
bool check_sgemm(void (*launch)(const float*, const float*, float*, int, cudaStream_t), const char* name) {
  using namespace rooflint::examples;
  const int n = 256;
  const auto a = random_floats(static_cast<std::size_t>(n) * n, 8), b = random_floats(static_cast<std::size_t>(n) * n, 9);
  device_buffer<float> da(a), db(b), dc(static_cast<std::size_t>(n) * n);
  launch(da, db, dc, n, 0);
  if (!cuda_ok(name)) return false;
  std::vector<float> want(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += static_cast<double>(a[i * n + k]) * b[k * n + j];
      want[i * n + j] = static_cast<float>(s);
    }
  return close("C", dc.to_host(), want, 1e-4, 1e-4);
}
}  // namespace

ROOFLINT_EXAMPLE_CHECK(sgemm_naive) { return check_sgemm(sgemm_example::launch_naive, "sgemm_naive"); }
ROOFLINT_EXAMPLE_CHECK(sgemm_naive_rows) { return check_sgemm(sgemm_example::launch_naive_rows, "sgemm_naive_rows"); }
ROOFLINT_EXAMPLE_CHECK(sgemm_tiled) { return check_sgemm(sgemm_example::launch_tiled, "sgemm_tiled"); }
ROOFLINT_EXAMPLE_CHECK(sgemm_register_blocked_128) {
  return check_sgemm(sgemm_example::launch_register_blocked_128, "sgemm_register_blocked_128");
}
ROOFLINT_EXAMPLE_CHECK(sgemm_register_blocked_64) {
  return check_sgemm(sgemm_example::launch_register_blocked_64, "sgemm_register_blocked_64");
}
ROOFLINT_EXAMPLE_CHECK(sgemm_cublas) { return check_sgemm(sgemm_example::launch_cublas, "sgemm_cublas"); }

// ---------------------------------------------------------------------------------------------------
// Verification cases: each kernel at N = 512 (everything fits in L2) and N = 4096 (B alone exceeds it).

namespace sgemm_example {

using launch_fn = void (*)(const float*, const float*, float*, int, cudaStream_t);

inline rooflint::runtime::launcher prepare(rooflint::runtime::case_context& ctx, launch_fn launch) {
  const int n = static_cast<int>(ctx.size(N));
  const float* A = ctx.random<float>(static_cast<std::size_t>(n) * n);  // (N,N)
  const float* B = ctx.random<float>(static_cast<std::size_t>(n) * n);  // (N,N)
  float* C = ctx.poisoned<float>(static_cast<std::size_t>(n) * n);      // (N,N)
  return {.launch = [=](cudaStream_t s) { launch(A, B, C, n, s); }};
}

ROOFLINT_VERIFY_CASE(sgemm_naive_n512, sgemm_naive_spec, N(512)) { return prepare(ctx, launch_naive); }
ROOFLINT_VERIFY_CASE(sgemm_naive_n4096, sgemm_naive_spec, N(4096)) { return prepare(ctx, launch_naive); }
// The row-walking naive SGEMM at N = 4096 only (276 ms a launch on the H200): it must fail at L2.
ROOFLINT_VERIFY_CASE(sgemm_naive_rows_n4096, sgemm_naive_rows_spec, N(4096)) { return prepare(ctx, launch_naive_rows); }
ROOFLINT_VERIFY_CASE(sgemm_tiled_n512, sgemm_tiled_spec, N(512)) { return prepare(ctx, launch_tiled); }
ROOFLINT_VERIFY_CASE(sgemm_tiled_n4096, sgemm_tiled_spec, N(4096)) { return prepare(ctx, launch_tiled); }
ROOFLINT_VERIFY_CASE(sgemm_register_blocked_n512, sgemm_register_blocked_64_spec, N(512)) {
  return prepare(ctx, launch_register_blocked_64);
}
ROOFLINT_VERIFY_CASE(sgemm_register_blocked_n4096, sgemm_register_blocked_128_spec, N(4096)) {
  return prepare(ctx, launch_register_blocked_128);
}
// cuBLAS picks its kernels by heuristics (at N = 512 it may split K and add a reduction kernel): the
// launches of one call are counted once, by graph capture, while preparing. The handle is created then
// too, not inside the first measured launch.
inline rooflint::runtime::launcher prepare_cublas(rooflint::runtime::case_context& ctx) {
  fp32_cublas_handle();
  rooflint::runtime::launcher l = prepare(ctx, launch_cublas);
  l.launches = rooflint::examples::kernels_launched_by(l.launch);
  return l;
}

ROOFLINT_VERIFY_CASE(sgemm_cublas_n512, sgemm_cublas_spec, N(512)) { return prepare_cublas(ctx); }
ROOFLINT_VERIFY_CASE(sgemm_cublas_n4096, sgemm_cublas_spec, N(4096)) { return prepare_cublas(ctx); }

// cuBLAS is the reference each SGEMM at 4096 is set beside: the same work, how far from it each one is.
ROOFLINT_VERIFY_REFERENCE(sgemm_naive_n4096, sgemm_cublas_n4096);
ROOFLINT_VERIFY_REFERENCE(sgemm_naive_rows_n4096, sgemm_cublas_n4096);
ROOFLINT_VERIFY_REFERENCE(sgemm_tiled_n4096, sgemm_cublas_n4096);
ROOFLINT_VERIFY_REFERENCE(sgemm_register_blocked_n4096, sgemm_cublas_n4096);

}  // namespace sgemm_example
