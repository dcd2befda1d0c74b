/// @file gemm.cpp
/// Tensor-core probes through cuBLASLt: D = A * B at large shapes with random data (never zeros: zero
/// operands let the hardware idle datapaths and draw less power, which flatters the clock), TN layout
/// (A stored K x M, B stored K x N, both column-major: the layout FP8 and INT8 require on sm_90).
///   tf32: f32 in and out, CUBLAS_COMPUTE_32F_FAST_TF32      fp16: f16 in and out, f32 accumulate
///   bf16: bf16 in and out, f32 accumulate                    int8: i8 in, i32 out, CUBLAS_COMPUTE_32I
///   fp64_tensor: f64 in and out, CUBLAS_COMPUTE_64F (DMMA on sm_80 and later)
///   fp8:  e4m3 in, bf16 out, f32 accumulate, A and B scale pointers (cuBLASLt requires them for FP8)
/// A few shapes and the heuristic's first few algorithms are screened with short bursts; the fastest
/// pair is then measured burst and sustained. FLOPs per launch are 2*M*N*K (OPs for INT8).

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ceilings/ceilings.h"
#include "support/cuda_check.h"
#include "fill.h"
#include "timing.h"

#define ROOFLINT_TRY_CUBLAS(call)                                                                  \
  do {                                                                                             \
    if (const cublasStatus_t rooflint_status_ = (call); rooflint_status_ != CUBLAS_STATUS_SUCCESS) \
      return ::rooflint::runtime::cublas_error(rooflint_status_, #call, __FILE__, __LINE__);       \
  } while (0)

namespace rooflint::runtime {

error cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  const error_code code = status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_ARCH_MISMATCH
                              ? error_code::unavailable
                              : error_code::internal;
  return {code, std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                    cublasLtGetStatusName(status) + " (" + cublasLtGetStatusString(status) + ")"};
}

namespace {

/// The data types of one math mode's GEMM.
struct gemm_types {
  cudaDataType_t ab, cd, scale;
  cublasComputeType_t compute;
  std::size_t ab_bytes, cd_bytes;  ///< element sizes
  int min_cc;                      ///< 10 * major + minor
  const char* label;
  cudaDataType_t b = CUDA_R_32F;   ///< B's type when it differs from A's (FP8 e4m3 x e5m2); CUDA_R_32F = same as A
  bool separate_c = false;         ///< C in its own buffer, distinct from D (cuBLASLt's FP8 kernels want it)
  bool fast_accumulate = true;     ///< FP8 only: CUBLASLT_MATMUL_DESC_FAST_ACCUM
};

result<gemm_types> types_of(probe p) {
  switch (p) {
    case probe::tf32: return gemm_types{CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80, "f32 (TF32 math) -> f32"};
    case probe::fp16: return gemm_types{CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2, 70, "f16 -> f16, f32 accumulate"};
    case probe::bf16: return gemm_types{CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2, 80, "bf16 -> bf16, f32 accumulate"};
    case probe::fp8: return gemm_types{CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1, 2, 89, "e4m3 x e4m3 -> bf16 (C bf16 distinct from D), f32 accumulate, fast accumulation"};
    case probe::int8: return gemm_types{CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 1, 4, 75, "i8 -> i32"};
    case probe::fp64_tensor: return gemm_types{CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 8, 8, 80, "f64 -> f64"};
    default: break;
  }
  return error{error_code::invalid_argument, "probe '" + std::string(name(p)) + "' is not a cuBLASLt probe"};
}

/// @return The configurations to try for @p p, in order: for FP8 the layouts cuBLASLt's sm_90 FP8
/// kernels accept (TN, per-tensor scale pointers, C distinct from D; D in bf16, f16 or f32; e4m3 x e4m3
/// and e4m3 x e5m2), the first the heuristic answers is measured; one configuration otherwise.
std::vector<gemm_types> variants_of(probe p, const gemm_types& t) {
  if (p != probe::fp8) return {t};
  std::vector<gemm_types> v;
  gemm_types x = t;
  x.separate_c = true;
  v.push_back(x);  // e4m3 x e4m3 -> bf16, C bf16
  x.cd = CUDA_R_16F, x.label = "e4m3 x e4m3 -> f16 (C f16 distinct from D), f32 accumulate, fast accumulation";
  v.push_back(x);
  x.cd = CUDA_R_32F, x.cd_bytes = 4, x.label = "e4m3 x e4m3 -> f32 (C f32 distinct from D), f32 accumulate, fast accumulation";
  v.push_back(x);
  x = t;
  x.separate_c = true;
  x.b = CUDA_R_8F_E5M2, x.label = "e4m3 x e5m2 -> bf16 (C bf16 distinct from D), f32 accumulate, fast accumulation";
  v.push_back(x);
  x = t;
  x.separate_c = true;
  x.fast_accumulate = false, x.label = "e4m3 x e4m3 -> bf16 (C bf16 distinct from D), f32 accumulate";
  v.push_back(x);
  return v;
}

struct lt_handle_deleter { void operator()(cublasLtContext* h) const { cublasLtDestroy(h); } };
struct lt_desc_deleter { void operator()(cublasLtMatmulDescOpaque_t* d) const { cublasLtMatmulDescDestroy(d); } };
struct lt_layout_deleter { void operator()(cublasLtMatrixLayoutOpaque_t* l) const { cublasLtMatrixLayoutDestroy(l); } };
struct lt_pref_deleter { void operator()(cublasLtMatmulPreferenceOpaque_t* p) const { cublasLtMatmulPreferenceDestroy(p); } };

/// One GEMM problem set up on the device: descriptors, random operands, output, workspace.
struct gemm_problem {
  std::int64_t m = 0, n = 0, k = 0;
  std::unique_ptr<cublasLtMatmulDescOpaque_t, lt_desc_deleter> op;
  std::unique_ptr<cublasLtMatrixLayoutOpaque_t, lt_layout_deleter> a_layout, b_layout, d_layout;
  std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, lt_pref_deleter> preference;
  detail::device_buffer a, b, c, d, workspace, scales;
  std::unique_ptr<cublasLtMatrixLayoutOpaque_t, lt_layout_deleter> c_layout;  ///< set when C is distinct from D
  std::vector<cublasLtMatmulHeuristicResult_t> algorithms;
  float alpha_f = 1, beta_f = 0;
  std::int32_t alpha_i = 1, beta_i = 0;
  double alpha_d = 1, beta_d = 0;
  bool integer = false, fp64 = false;

  double flops() const { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
  std::string shape() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }
};

constexpr std::size_t workspace_bytes = 64ull << 20;  // cuBLASLt asks for 32 MiB on Hopper; give it more

result<std::unique_ptr<gemm_problem>> make_problem(cublasLtHandle_t lt, const gemm_types& t, std::int64_t m,
                                                   std::int64_t n, std::int64_t k, int algorithms) {
  auto p = std::make_unique<gemm_problem>();
  p->m = m;
  p->n = n;
  p->k = k;
  p->integer = t.compute == CUBLAS_COMPUTE_32I;
  p->fp64 = t.compute == CUBLAS_COMPUTE_64F;
  cublasLtMatmulDesc_t op = nullptr;
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescCreate(&op, t.compute, t.scale));
  p->op.reset(op);
  const cublasOperation_t transa = CUBLAS_OP_T, transb = CUBLAS_OP_N;
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa));
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb));
  const cudaDataType_t b_type = t.b == CUDA_R_32F ? t.ab : t.b;
  ROOFLINT_TRY(p->a.allocate(static_cast<std::size_t>(k * m) * t.ab_bytes));
  ROOFLINT_TRY(p->b.allocate(static_cast<std::size_t>(k * n) * t.ab_bytes));
  ROOFLINT_TRY(p->d.allocate(static_cast<std::size_t>(m * n) * t.cd_bytes));
  ROOFLINT_TRY(p->workspace.allocate(workspace_bytes));
  ROOFLINT_TRY(detail::fill_random_values(p->a.get(), t.ab, static_cast<std::size_t>(k * m), 1));
  ROOFLINT_TRY(detail::fill_random_values(p->b.get(), b_type, static_cast<std::size_t>(k * n), 2));
  ROOFLINT_TRY_CUDA(cudaMemset(p->d.get(), 0, static_cast<std::size_t>(m * n) * t.cd_bytes));
  if (t.separate_c) {
    ROOFLINT_TRY(p->c.allocate(static_cast<std::size_t>(m * n) * t.cd_bytes));
    ROOFLINT_TRY_CUDA(cudaMemset(p->c.get(), 0, static_cast<std::size_t>(m * n) * t.cd_bytes));
  }
  if (t.ab == CUDA_R_8F_E4M3) {
    // Per-tensor dequantisation scales for A and B (device pointers to one float each), as cuBLASLt
    // requires for FP8; 1.0 keeps the products in range of the bf16 output. Each scale on its own
    // 256-byte boundary, and the scalar mode stated, as torch._scaled_mm does: with B's scale 4 bytes
    // after A's, cublasLtMatmul refused every configuration on the H200 (NOT_SUPPORTED, 2026-12-01).
    constexpr std::size_t scale_stride = 64;  // floats: 256 bytes
    std::vector<float> ones(2 * scale_stride, 1.0f);
    ROOFLINT_TRY(p->scales.allocate(ones.size() * sizeof(float)));
    ROOFLINT_TRY_CUDA(cudaMemcpy(p->scales.get(), ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice));
    const float* a_scale = p->scales.as<float>();
    const float* b_scale = p->scales.as<float>() + scale_stride;
    ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_scale, sizeof a_scale));
    ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &b_scale, sizeof b_scale));
    const std::int32_t scalar_mode = CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
    ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &scalar_mode, sizeof scalar_mode));
    ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &scalar_mode, sizeof scalar_mode));
    const std::int8_t fast_accumulate = t.fast_accumulate;  // Hopper's FP8 peak; torch._scaled_mm(use_fast_accum=True)
    ROOFLINT_TRY_CUBLAS(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accumulate, sizeof fast_accumulate));
  }
  cublasLtMatrixLayout_t layout = nullptr;
  ROOFLINT_TRY_CUBLAS(cublasLtMatrixLayoutCreate(&layout, t.ab, k, m, k));  // A: (K,M) column-major, op T
  p->a_layout.reset(layout);
  ROOFLINT_TRY_CUBLAS(cublasLtMatrixLayoutCreate(&layout, b_type, k, n, k));  // B: (K,N) column-major
  p->b_layout.reset(layout);
  ROOFLINT_TRY_CUBLAS(cublasLtMatrixLayoutCreate(&layout, t.cd, m, n, m));  // D (and C unless separate): (M,N) column-major
  p->d_layout.reset(layout);
  if (t.separate_c) {
    ROOFLINT_TRY_CUBLAS(cublasLtMatrixLayoutCreate(&layout, t.cd, m, n, m));
    p->c_layout.reset(layout);
  }
  cublasLtMatrixLayout_t c_layout = t.separate_c ? p->c_layout.get() : p->d_layout.get();
  cublasLtMatmulPreference_t preference = nullptr;
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulPreferenceCreate(&preference));
  p->preference.reset(preference);
  const std::uint64_t ws = workspace_bytes;
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
  p->algorithms.resize(algorithms);
  int returned = 0;
  ROOFLINT_TRY_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, op, p->a_layout.get(), p->b_layout.get(), c_layout,
                                                     p->d_layout.get(), preference, algorithms, p->algorithms.data(),
                                                     &returned));
  if (returned == 0)
    return error{error_code::unavailable, std::string("cuBLASLt has no algorithm for a ") + t.label + " GEMM of " +
                                              p->shape() + " on this device"};
  p->algorithms.resize(returned);
  ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
  return p;
}

result<void> run_gemm(cublasLtHandle_t lt, const gemm_problem& p, const cublasLtMatmulAlgo_t& algo, cudaStream_t s) {
  // alpha and beta in the scale type: i32 for INT8, f64 for FP64, f32 otherwise.
  const void* alpha = p.integer ? static_cast<const void*>(&p.alpha_i)
                      : p.fp64  ? static_cast<const void*>(&p.alpha_d)
                                : static_cast<const void*>(&p.alpha_f);
  const void* beta = p.integer ? static_cast<const void*>(&p.beta_i)
                     : p.fp64  ? static_cast<const void*>(&p.beta_d)
                               : static_cast<const void*>(&p.beta_f);
  ROOFLINT_TRY_CUBLAS(cublasLtMatmul(lt, p.op.get(), alpha, p.a.get(), p.a_layout.get(), p.b.get(), p.b_layout.get(),
                                     beta, p.c_layout ? p.c.get() : p.d.get(), p.c_layout ? p.c_layout.get() : p.d_layout.get(),
                                     p.d.get(), p.d_layout.get(), &algo,
                                     p.workspace.get(), workspace_bytes, s));
  return success();
}

}  // namespace

result<compute_result> measure_gemm(const device_properties& device, nvml_device nvml, probe which,
                                    const measure_settings& settings, const progress_fn& progress) {
  auto types = types_of(which);
  if (!types) return types.err();
  gemm_types t = *types;
  const int cc = 10 * device.cc_major + device.cc_minor;
  if (cc < t.min_cc)
    return error{error_code::unavailable, std::string(name(which)) + " tensor cores need compute capability " +
                                              std::to_string(t.min_cc / 10) + "." + std::to_string(t.min_cc % 10) +
                                              " or newer; '" + device.name + "' has " + std::to_string(device.cc_major) +
                                              "." + std::to_string(device.cc_minor)};
  cublasLtHandle_t raw = nullptr;
  ROOFLINT_TRY_CUBLAS(cublasLtCreate(&raw));
  std::unique_ptr<cublasLtContext, lt_handle_deleter> lt(raw);
  detail::stream_guard stream;
  ROOFLINT_TRY(stream.create());

  // Screen: each shape, each candidate algorithm, a short burst; keep the fastest (shape, algorithm)
  // and its problem (operands already on the device) for the sustained measurement.
  struct candidate { std::unique_ptr<gemm_problem> problem; cublasLtMatmulAlgo_t algo{}; double flops_per_s = 0; };
  candidate best;
  std::optional<error> last_error;
  const std::size_t shapes = settings.gemm_shapes_mnk.size() / 3;
  for (std::size_t s = 0; s < shapes; ++s) {
    const auto m = settings.gemm_shapes_mnk[3 * s], n = settings.gemm_shapes_mnk[3 * s + 1],
               k = settings.gemm_shapes_mnk[3 * s + 2];
    // The first configuration cuBLASLt accepts (FP8: see variants_of); the attempts are named if none does.
    result<std::unique_ptr<gemm_problem>> problem = error{error_code::unavailable, "no configuration tried"};
    std::string refused;
    for (const gemm_types& v : variants_of(which, *types)) {
      problem = make_problem(lt.get(), v, m, n, k, settings.gemm_algorithms);
      if (problem && which == probe::fp8) {
        // On the H200 (2026-12-01) the heuristic answered the first FP8 configuration and cublasLtMatmul
        // then refused it (NOT_SUPPORTED): a configuration counts only when one launch of it runs.
        if (auto trial = run_gemm(lt.get(), **problem, (*problem)->algorithms[0].algo, stream.get()); !trial)
          problem = trial.err();
        else if (const cudaError_t e = cudaStreamSynchronize(stream.get()); e != cudaSuccess)
          problem = error{error_code::internal, std::string("trial launch: ") + cudaGetErrorString(e)};
      }
      if (problem) {
        t = v;
        break;
      }
      refused += std::string(refused.empty() ? "" : "; ") + v.label + ": " + problem.err().message;
    }
    if (!problem) {
      last_error = error{problem.err().code, "cuBLASLt refused every configuration of the " + std::string(name(which)) +
                                                 " GEMM of " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                                                 std::to_string(k) + ": " + refused};
      continue;
    }
    std::unique_ptr<gemm_problem>& p = *problem;
    if (shapes == 1 && p->algorithms.size() == 1) {  // nothing to choose between
      best.algo = p->algorithms[0].algo;
      best.flops_per_s = 1;
      best.problem = std::move(p);
      break;
    }
    std::optional<cublasLtMatmulAlgo_t> best_here;
    double best_here_rate = best.flops_per_s;
    for (std::size_t a = 0; a < p->algorithms.size(); ++a) {
      if (progress) progress(std::string(name(which)) + ": cublaslt " + p->shape() + " algorithm " + std::to_string(a + 1) +
                             "/" + std::to_string(p->algorithms.size()) + " (screening)");
      const cublasLtMatmulAlgo_t algo = p->algorithms[a].algo;
      const gemm_problem& problem_ref = *p;
      auto launch = [&](cudaStream_t st) { return run_gemm(lt.get(), problem_ref, algo, st); };
      auto warm = detail::time_launches(stream.get(), 1, launch);
      if (!warm) {
        last_error = warm.err();
        continue;
      }
      auto timed = detail::time_launches(stream.get(), 5, launch);
      if (!timed) {
        last_error = timed.err();
        continue;
      }
      const double rate = p->flops() / summarize(*timed).median_s;
      if (rate > best_here_rate) {
        best_here = algo;
        best_here_rate = rate;
      }
    }
    if (best_here) {
      best.algo = *best_here;
      best.flops_per_s = best_here_rate;
      best.problem = std::move(p);  // frees the previous best's operands
    }
  }
  if (!best.problem)
    return last_error ? *last_error
                      : error{error_code::unavailable, std::string("no cuBLASLt GEMM ran for ") + std::string(name(which))};

  // Measure the winner, burst and sustained.
  const gemm_problem& p = *best.problem;
  if (progress) progress(std::string(name(which)) + ": cublaslt " + p.shape() + " " + t.label + " (sustained)");
  auto timing = detail::measure_sustained(
      stream.get(), [&](cudaStream_t st) { return run_gemm(lt.get(), p, best.algo, st); }, nvml, settings.settle_s,
      settings.sustained_s);
  if (!timing) return timing.err();
  compute_result r;
  r.which = which;
  r.probe_name = "cublaslt";
  r.shape = p.shape();
  r.detail = t.label;
  r.flops_per_launch = p.flops();
  detail::record_rates(r, *timing);
  return r;
}

}  // namespace rooflint::runtime
