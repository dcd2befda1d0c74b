/// @file large.cu
/// rooflint-example-large: an ordinary CUDA program of a dozen large annotated kernels per round, on
/// buffers allocated once (no allocation or free between the launches): saxpy, vector_add and the
/// reduction over 2^28 floats (1 GiB a vector), layernorm (single pass and the three-kernel region) and
/// softmax over 1 GiB of rows (65536 x 4096), the naive and tiled transposes at 16384 x 16384, the tiled
/// and register-blocked SGEMMs and the WMMA HGEMM at 4096, and the strided gather over 2^26 elements
/// (8.25 GiB of x), for `rounds` rounds (default 4): 12 windows and 14 kernel launches a round. It is a
/// program of the overhead figure (scripts/gpu-job.sh overhead3: rooflint-verify's cost per measured
/// launch against ncu's, on kernels of milliseconds). It checks on the host that the in-place saxpy was
/// applied exactly `rounds` times, so a verifier that replayed or skipped a launch would make it fail.
/// About 12 GiB of device memory. Usage: rooflint-example-large [rounds].

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "kernels.h"

using namespace program;

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 4;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  // One 2^28-float vector is also the 65536 x 4096 rows and the 16384 x 16384 matrix.
  const int n = 1 << 28, rows = 65536, cols = 4096, side = 16384, gemm = 4096, gathered = 1 << 26;
  const std::size_t gemm_elements = static_cast<std::size_t>(gemm) * gemm;
  auto x = random_floats(n, 1), y = random_floats(n, 2);
  buffer<float> out(n);
  auto gamma = random_floats(cols, 3), beta = random_floats(cols, 4);
  buffer<float> mean(rows), rstd(rows);
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const int reduce_blocks = std::min(std::max(8 * sms, 1), reduction_max_blocks);
  buffer<float> partials(reduction_max_blocks), sum(1);
  buffer<unsigned> done(1);
  check(cudaMemset(done, 0, sizeof(unsigned)), "memset");  // the kernel resets it for the next launch
  auto ga = random_floats(gemm_elements, 5), gb = random_floats(gemm_elements, 6);
  buffer<float> gc(gemm_elements);
  buffer<__half> ha(gemm_elements), hb(gemm_elements);
  fill_half<<<1024, 256>>>(ha, gemm_elements, 7);
  fill_half<<<1024, 256>>>(hb, gemm_elements, 8);
  auto gx = random_floats(static_cast<std::size_t>(gathered) * gather_stride, 9);
  buffer<float> gy(gathered);
  check(cudaDeviceSynchronize(), "fill");
  const int probe = 12345;
  float x0 = 0, y0 = 0;
  check(cudaMemcpy(&x0, x.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(&y0, y.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");

  const dim3 transpose_grid(side / transpose_tile, side / transpose_tile), transpose_block(transpose_tile, transpose_block_rows);
  for (int r = 0; r < rounds; ++r) {
    saxpy<<<float4_blocks(n), 256>>>(n, 2.0f, x, y);
    vector_add<<<float4_blocks(n), 256>>>(n, x, y, out);
    reduce_sum<<<reduce_blocks, reduction_threads>>>(x, partials, done, sum, n);
    layernorm_single_pass<<<rows, row_threads>>>(x, gamma, beta, out, cols, layernorm_eps);
    layernorm_mean<<<rows, row_threads>>>(x, mean, cols);  // the layernorm_naive region: three kernels
    layernorm_rstd<<<rows, row_threads>>>(x, mean, rstd, cols, layernorm_eps);
    layernorm_naive<<<rows, row_threads>>>(x, mean, rstd, gamma, beta, out, cols);
    softmax_online<<<rows, row_threads>>>(x, out, cols);
    transpose_naive<<<transpose_grid, transpose_block>>>(x, out, side, side);
    transpose_tiled<<<transpose_grid, transpose_block>>>(x, out, side, side);
    sgemm_tiled<<<dim3(gemm / sgemm_tile, gemm / sgemm_tile), dim3(sgemm_tile, sgemm_tile)>>>(ga, gb, gc, gemm);
    sgemm_register_blocked_128<<<(gemm / 128) * (gemm / 128), 256>>>(ga, gb, gc, gemm);
    hgemm_wmma<<<dim3(gemm / hgemm_bn, gemm / hgemm_bm), 256>>>(ha, hb, gc, gemm);
    gather_strided<<<(gathered + 255) / 256, 256>>>(gathered, gx, gy);
  }
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "launches");
  float y1 = 0;
  check(cudaMemcpy(&y1, y.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  const float want = y0 + 2.0f * rounds * x0;
  const bool saxpy_ok = std::fabs(y1 - want) <= 1e-5f * (1 + std::fabs(want)) * rounds;
  std::printf("%d rounds, %d annotated windows (%d kernel launches); saxpy applied %s (y = %.6f, want %.6f)\n", rounds,
              12 * rounds, 14 * rounds, saxpy_ok ? "exactly once per round" : "WRONG", y1, want);
  return saxpy_ok ? 0 : 1;
}
