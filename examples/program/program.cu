/// @file program.cu
/// rooflint-example-program: an ordinary CUDA program that launches every example kernel once on real
/// data, at the sizes of the harness's verification cases, on two streams, and calls cuBLAS; it knows
/// nothing of rooflint. `rooflint-verify --manifest build -- rooflint-example-program` verifies it.
/// It checks two results on the host (saxpy, in place; the reduction), so a verifier that changed them
/// would make it fail. Usage: rooflint-example-program [substring [repeat]]: run only the kernels whose
/// name contains the substring ("" for all), the whole sequence `repeat` times (default 1).

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels.h"

using namespace program;

namespace {

std::string filter;
bool wanted(const char* name) { return filter.empty() || std::strstr(name, filter.c_str()) != nullptr; }

int failures = 0;
void report(const char* name, bool ok, const char* detail = "") {
  std::printf("%-28s %s%s\n", name, ok ? "ran" : "FAILED", detail);
  if (!ok) ++failures;
}

void run_vectors(cudaStream_t s1, cudaStream_t s2) {
  const int n = 1 << 28;
  if (wanted("saxpy")) {
    auto x = random_floats(n, 1, -1, 1, s1), y = random_floats(n, 2, -1, 1, s1);
    check(cudaStreamSynchronize(s1), "fill");
    float x0 = 0, y0 = 0;
    check(cudaMemcpy(&x0, x.p + 12345, sizeof(float), cudaMemcpyDeviceToHost), "copy");
    check(cudaMemcpy(&y0, y.p + 12345, sizeof(float), cudaMemcpyDeviceToHost), "copy");
    saxpy<<<float4_blocks(n), 256, 0, s1>>>(n, 2.0f, x, y);
    check(cudaStreamSynchronize(s1), "saxpy");
    float y1 = 0;
    check(cudaMemcpy(&y1, y.p + 12345, sizeof(float), cudaMemcpyDeviceToHost), "copy");
    // In place: applied exactly once, whatever measured it (kernel replay restores memory between passes).
    report("saxpy", std::fabs(y1 - (2.0f * x0 + y0)) <= 1e-6f * (1 + std::fabs(y1)), "  (y = 2x + y checked once)");
  }
  if (wanted("vector_add")) {
    auto a = random_floats(n, 3, -1, 1, s2), b = random_floats(n, 4, -1, 1, s2);
    buffer<float> c(n);
    vector_add<<<float4_blocks(n), 256, 0, s2>>>(n, a, b, c);
    report("vector_add", cudaStreamSynchronize(s2) == cudaSuccess);
  }
  if (wanted("reduce_sum")) {
    auto x = random_floats(n, 5, 0, 1);
    buffer<float> partials(reduction_max_blocks), sum(1);
    buffer<unsigned> done(1);
    check(cudaMemset(done, 0, sizeof(unsigned)), "memset");
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int blocks = std::min(std::max(8 * sms, 1), reduction_max_blocks);
    reduce_sum<<<blocks, reduction_threads>>>(x, partials, done, sum, n);
    float got = 0;
    check(cudaMemcpy(&got, sum.p, sizeof(float), cudaMemcpyDeviceToHost), "reduce_sum");
    // Uniform [0,1): the sum of 2^28 values is 2^27 within a few parts in 10^4.
    report("reduce_sum", std::fabs(got / (n / 2.0) - 1) < 1e-3, "  (sum ~ n/2 checked)");
  }
  if (wanted("gather_strided")) {
    const int m = 1 << 26;
    auto x = random_floats(static_cast<std::size_t>(m) * gather_stride, 6);
    buffer<float> y(m);
    gather_strided<<<(m + 255) / 256, 256>>>(m, x, y);
    report("gather_strided", cudaDeviceSynchronize() == cudaSuccess);
  }
  if (wanted("embedding_gather")) {
    const int v = 1 << 20, d = 1024, rows = 32 * 2048;
    auto table = random_floats(static_cast<std::size_t>(v) * d, 7);
    buffer<int> ids(rows);
    fill_distinct_ids<<<256, 256>>>(ids, rows, v, 12345u);
    buffer<float> out(static_cast<std::size_t>(rows) * d);
    embedding_gather<<<rows, 256>>>(table, ids, out, rows, d);
    report("embedding_gather", cudaDeviceSynchronize() == cudaSuccess);
  }
}

void run_rows() {
  const int rows = 65536, cols = 4096;
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  auto x = random_floats(n, 9);
  auto gamma = random_floats(cols, 10), beta = random_floats(cols, 11);
  buffer<float> y(n), mean(rows), rstd(rows);
  if (wanted("layernorm_naive")) {
    layernorm_mean<<<rows, row_threads>>>(x, mean, cols);
    layernorm_rstd<<<rows, row_threads>>>(x, mean, rstd, cols, layernorm_eps);
    layernorm_naive<<<rows, row_threads>>>(x, mean, rstd, gamma, beta, y, cols);
    report("layernorm_naive", cudaDeviceSynchronize() == cudaSuccess);
  }
  if (wanted("layernorm_single_pass")) {
    layernorm_single_pass<<<rows, row_threads>>>(x, gamma, beta, y, cols, layernorm_eps);
    report("layernorm_single_pass", cudaDeviceSynchronize() == cudaSuccess);
  }
  if (wanted("softmax_naive")) {
    softmax_row_max<<<rows, row_threads>>>(x, mean, cols);
    softmax_row_sum<<<rows, row_threads>>>(x, mean, rstd, cols);
    softmax_naive<<<rows, row_threads>>>(x, mean, rstd, y, cols);
    report("softmax_naive", cudaDeviceSynchronize() == cudaSuccess);
  }
  if (wanted("softmax_online")) {
    softmax_online<<<rows, row_threads>>>(x, y, cols);
    report("softmax_online", cudaDeviceSynchronize() == cudaSuccess);
  }
}

void run_transpose() {
  const int r = 16384, c = 16384;
  auto in = random_floats(static_cast<std::size_t>(r) * c, 12);
  buffer<float> out(static_cast<std::size_t>(r) * c);
  const dim3 grid(c / transpose_tile, r / transpose_tile), block(transpose_tile, transpose_block_rows);
  if (wanted("transpose_naive")) {
    transpose_naive<<<grid, block>>>(in, out, r, c);
    report("transpose_naive", cudaDeviceSynchronize() == cudaSuccess);
  }
  if (wanted("transpose_tiled")) {
    transpose_tiled<<<grid, block>>>(in, out, r, c);
    report("transpose_tiled", cudaDeviceSynchronize() == cudaSuccess);
  }
}

void run_gemms() {
  for (const int n : {512, 4096}) {
    const std::size_t nn = static_cast<std::size_t>(n) * n;
    auto a = random_floats(nn, 13), b = random_floats(nn, 14);
    buffer<float> c(nn);
    const std::string suffix = "_n" + std::to_string(n);
    if (wanted(("sgemm_naive" + suffix).c_str())) {
      const int g = (n + sgemm_naive_block - 1) / sgemm_naive_block;
      sgemm_naive<<<dim3(g, g), dim3(sgemm_naive_block, sgemm_naive_block)>>>(a, b, c, n);
      report(("sgemm_naive" + suffix).c_str(), cudaDeviceSynchronize() == cudaSuccess);
    }
    if (wanted(("sgemm_tiled" + suffix).c_str())) {
      sgemm_tiled<<<dim3(n / sgemm_tile, n / sgemm_tile), dim3(sgemm_tile, sgemm_tile)>>>(a, b, c, n);
      report(("sgemm_tiled" + suffix).c_str(), cudaDeviceSynchronize() == cudaSuccess);
    }
    if (wanted(("sgemm_register_blocked" + suffix).c_str())) {
      if (n == 512) sgemm_register_blocked_64<<<(n / 64) * (n / 64), 256>>>(a, b, c, n);
      else sgemm_register_blocked_128<<<(n / 128) * (n / 128), 256>>>(a, b, c, n);
      report(("sgemm_register_blocked" + suffix).c_str(), cudaDeviceSynchronize() == cudaSuccess);
    }
    if (wanted(("sgemm_cublas" + suffix).c_str())) {  // a library call: cuBLAS's kernels are not annotated
      cublasHandle_t h = nullptr;
      const float one = 1, zero = 0;
      const bool ok = cublasCreate(&h) == CUBLAS_STATUS_SUCCESS &&
                      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n) == CUBLAS_STATUS_SUCCESS &&
                      cudaDeviceSynchronize() == cudaSuccess;
      if (h) cublasDestroy(h);
      report(("sgemm_cublas" + suffix).c_str(), ok);
    }
  }
  if (wanted("hgemm_wmma")) {
    const int n = 4096;
    const std::size_t nn = static_cast<std::size_t>(n) * n;
    buffer<__half> a(nn), b(nn);
    fill_half<<<1024, 256>>>(a, nn, 15);
    fill_half<<<1024, 256>>>(b, nn, 16);
    buffer<float> c(nn);
    hgemm_wmma<<<dim3(n / hgemm_bn, n / hgemm_bm), 256>>>(a, b, c, n);
    report("hgemm_wmma", cudaDeviceSynchronize() == cudaSuccess);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) filter = argv[1];
  const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  cudaStream_t s1 = nullptr, s2 = nullptr;
  check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "stream");
  check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream");
  for (int r = 0; r < repeat; ++r) {
    run_vectors(s1, s2);
    run_rows();
    run_transpose();
    run_gemms();
  }
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  std::printf("%s\n", failures == 0 ? "all kernels ran" : "some kernels FAILED");
  return failures == 0 ? 0 : 1;
}
