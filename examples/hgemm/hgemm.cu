/// @file hgemm.cu
/// C = A * B with f16 A and B, f32 accumulation and an f32 C (row-major, square N = 4096), on tensor cores:
/// a WMMA kernel (16 x 16 x 16 HMMA tiles, shared-memory staging with cp.async, two stages) and cuBLAS
/// (cublasGemmEx, f16 in, f32 out, f32 compute) as the reference. Classified against the FP16 tensor roof:
/// FLOPs 2 N^3, compulsory bytes 2N^2 + 2N^2 + 4N^2 = 8 N^2, intensity N/4 = 1024 FLOP/byte at N = 4096,
/// right of the H200's FP16 ridge (989.4 TFLOP/s / 4.8 TB/s = 206 FLOP/byte).

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <vector>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"
#include "../common/launch_count.h"

inline constexpr int hgemm_bm = 128, hgemm_bn = 128, hgemm_bk = 32;  // block tile of C, K step
inline constexpr int hgemm_a_ld = hgemm_bk + 8;   // shared row pitch of A, halves: +16 bytes against bank conflicts
inline constexpr int hgemm_b_ld = hgemm_bn + 8;   // shared row pitch of B, halves

__device__ __forceinline__ void cp_async_16(void* shared, const void* global) {
  const auto s = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(global));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int Pending>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending)); }

/// Tensor-core HGEMM with WMMA: a block of 8 warps computes a 128 x 128 tile of C; warp (wm, wn) of a
/// 2 x 4 grid computes 64 x 32 of it as 4 x 2 fragments of 16 x 16 f32 accumulators. A and B tiles
/// (128 x 32 and 32 x 128 halves) are copied to shared memory with 16-byte cp.async, two stages deep, so
/// the next K step's copy overlaps this step's MMAs. n must be a multiple of 128.
/// (WMMA compiles to HMMA (mma.sync); Hopper's fastest path is wgmma, which this example does not use:
/// cuBLAS shows what it reaches.)
__global__ void __launch_bounds__(256) hgemm_wmma(const __half* A, const __half* B, float* C, int n) {
  // A: (N,N)  B: (N,N)  C: (N,N)
  using namespace nvcuda;
  __shared__ __align__(128) __half As[2][hgemm_bm][hgemm_a_ld];
  __shared__ __align__(128) __half Bs[2][hgemm_bk][hgemm_b_ld];

  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = warp / 4, wn = warp % 4;  // 2 x 4 warps
  const int tile_m = blockIdx.y, tile_n = blockIdx.x;
  const __half* a_tile = A + static_cast<std::int64_t>(tile_m) * hgemm_bm * n;
  const __half* b_tile = B + tile_n * hgemm_bn;

  const auto load_stage = [&](int stage, int k0) {
    for (int i = tid; i < hgemm_bm * hgemm_bk / 8; i += 256) {  // 8 halves = 16 bytes per copy
      const int r = i / (hgemm_bk / 8), c = (i % (hgemm_bk / 8)) * 8;
      cp_async_16(&As[stage][r][c], a_tile + static_cast<std::int64_t>(r) * n + k0 + c);
    }
    for (int i = tid; i < hgemm_bk * hgemm_bn / 8; i += 256) {
      const int r = i / (hgemm_bn / 8), c = (i % (hgemm_bn / 8)) * 8;
      cp_async_16(&Bs[stage][r][c], b_tile + static_cast<std::int64_t>(k0 + r) * n + c);
    }
    cp_async_commit();
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  const int steps = n / hgemm_bk;
  load_stage(0, 0);
  for (int step = 0; step < steps; ++step) {
    const int stage = step & 1;
    if (step + 1 < steps) {
      load_stage(stage ^ 1, (step + 1) * hgemm_bk);  // that buffer was released by the last barrier
      cp_async_wait<1>();                            // this step's copies are done
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < hgemm_bk; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(a[i], &As[stage][wm * 64 + i * 16][kk], hgemm_a_ld);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[stage][kk][wn * 32 + j * 16], hgemm_b_ld);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      float* c = C + static_cast<std::int64_t>(tile_m * hgemm_bm + wm * 64 + i * 16) * n + tile_n * hgemm_bn + wn * 32 + j * 16;
      wmma::store_matrix_sync(c, acc[i][j], n, wmma::mem_row_major);
    }
}

namespace hgemm_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// f16 inputs: the FP16 tensor roof (the first read tensor's dtype picks the math mode).
inline constexpr auto hgemm_wmma_spec =
    kernel<hgemm_wmma>("hgemm_wmma", matmul(in<0>("A", f16, N, N),    // A: (N,N)
                                            in<1>("B", f16, N, N),    // B: (N,N)
                                            out<2>("C", f32, N, N)))  // C: (N,N)
        .at(N(4096))
        .sizes(N(arg<3>))  // at a launch: N = n
        .block(256)
        .grid(ceil_div(N, hgemm_bn), ceil_div(N, hgemm_bm))
        .expect(compute_bound);

/// cublasGemmEx (f16 A and B, f32 C, CUBLAS_COMPUTE_32F): a region of cuBLAS's own kernel
/// (rooflint/dsl/region.h), matched by its symbol containing "gemm"; no stub kernel. The harness case binds
/// its sizes and counts the kernels one call makes.
inline constexpr auto hgemm_cublas_spec =
    region<library_kernel<"gemm">>("hgemm_cublas", matmul(in("A", f16, N, N),    // A: (N,N)
                                                          in("B", f16, N, N),    // B: (N,N)
                                                          out("C", f32, N, N)))  // C: (N,N)
        .at(N(4096))
        .expect(compute_bound);
static_assert(hgemm_cublas_spec.mode == rooflint::model::math_mode::fp16_tensor);

static_assert(hgemm_wmma_spec.mode == rooflint::model::math_mode::fp16_tensor);
static_assert(hgemm_wmma_spec.bytes_at(hgemm_wmma_spec.declared().bound) == 8.0 * 4096 * 4096);

inline void launch_wmma(const __half* A, const __half* B, float* C, int n, cudaStream_t s = 0) {
  hgemm_wmma<<<dim3(n / hgemm_bn, n / hgemm_bm), 256, 0, s>>>(A, B, C, n);
}

/// @return A cuBLAS handle, created once per process.
inline cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    return cublasCreate(&h) == CUBLAS_STATUS_SUCCESS ? h : nullptr;
  }();
  return handle;
}

/// Row-major C = A * B through column-major cuBLAS: C^T = B^T * A^T.
inline void launch_cublas(const __half* A, const __half* B, float* C, int n, cudaStream_t s = 0) {
  cublasHandle_t h = cublas_handle();
  cublasSetStream(h, s);
  const float one = 1, zero = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, CUDA_R_16F, n, A, CUDA_R_16F, n, &zero, C,
               CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(hgemm_wmma_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(hgemm_cublas_spec, "H200"));
// At N = 512 the intensity is 512/4 = 128 FLOP/byte, left of the FP16 ridge (206): memory-bound.
static_assert(rooflint::examples::datasheet_verdict(hgemm_wmma_spec, "H200", hgemm_wmma_spec.bind(N(512)).bound) ==
              rooflint::model::bound::memory);

}  // namespace hgemm_example

namespace {
bool check_hgemm(void (*launch)(const __half*, const __half*, float*, int, cudaStream_t), const char* name) {
  using namespace rooflint::examples;
  const int n = 256;
  const auto af = random_floats(static_cast<std::size_t>(n) * n, 10), bf = random_floats(static_cast<std::size_t>(n) * n, 11);
  std::vector<__half> a(af.size()), b(bf.size());
  std::vector<float> ar(af.size()), br(bf.size());  // the values the GPU sees, rounded to f16
  for (std::size_t i = 0; i < af.size(); ++i) {
    a[i] = __float2half(af[i]);
    b[i] = __float2half(bf[i]);
    ar[i] = __half2float(a[i]);
    br[i] = __half2float(b[i]);
  }
  device_buffer<__half> da(a), db(b);
  device_buffer<float> dc(static_cast<std::size_t>(n) * n);
  launch(da, db, dc, n, 0);
  if (!cuda_ok(name)) return false;
  std::vector<float> want(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += static_cast<double>(ar[i * n + k]) * br[k * n + j];
      want[i * n + j] = static_cast<float>(s);
    }
  return close("C", dc.to_host(), want, 1e-3, 1e-3);
}
}  // namespace

ROOFLINT_EXAMPLE_CHECK(hgemm_wmma) { return check_hgemm(hgemm_example::launch_wmma, "hgemm_wmma"); }
ROOFLINT_EXAMPLE_CHECK(hgemm_cublas) { return check_hgemm(hgemm_example::launch_cublas, "hgemm_cublas"); }

namespace hgemm_example {

using launch_fn = void (*)(const __half*, const __half*, float*, int, cudaStream_t);

inline rooflint::runtime::launcher prepare(rooflint::runtime::case_context& ctx, launch_fn launch) {
  const int n = static_cast<int>(ctx.size(N));
  const __half* A = ctx.random<__half>(static_cast<std::size_t>(n) * n);  // (N,N)
  const __half* B = ctx.random<__half>(static_cast<std::size_t>(n) * n);  // (N,N)
  float* C = ctx.poisoned<float>(static_cast<std::size_t>(n) * n);        // (N,N)
  return {.launch = [=](cudaStream_t s) { launch(A, B, C, n, s); }};
}

ROOFLINT_VERIFY_CASE(hgemm_wmma_n4096, hgemm_wmma_spec, N(4096)) { return prepare(ctx, launch_wmma); }
// The handle is created while preparing, not inside the first measured launch; the kernels one
// cublasGemmEx launches are counted then, by graph capture (cuBLAS picks them by heuristics).
ROOFLINT_VERIFY_CASE(hgemm_cublas_n4096, hgemm_cublas_spec, N(4096)) {
  cublas_handle();
  rooflint::runtime::launcher l = prepare(ctx, launch_cublas);
  l.launches = rooflint::examples::kernels_launched_by(l.launch);
  return l;
}

// cuBLAS's GemmEx on the tensor cores is the reference of the WMMA kernel: the same work.
ROOFLINT_VERIFY_REFERENCE(hgemm_wmma_n4096, hgemm_cublas_n4096);

}  // namespace hgemm_example
