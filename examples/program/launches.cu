/// @file launches.cu
/// rooflint-example-launches: an ordinary CUDA program of 5 annotated launches per round, small and
/// large kernels mixed (saxpy at 2^16 and 2^26 elements, vector_add at 2^20, sgemm_tiled at 1024,
/// transpose_tiled at 8192 x 8192), for `rounds` rounds (default 10: 50 annotated launches). It is the
/// program of the overhead figure (scripts/gpu-job.sh inject_overhead): rooflint-verify's cost per
/// measured launch against ncu's on the same launches. It checks on the host that the in-place saxpy
/// was applied exactly `rounds` times (y = y0 + 2 rounds x), so a verifier that replayed or skipped a
/// launch would make it fail. Usage: rooflint-example-launches [rounds].

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "kernels.h"

using namespace program;

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  const int small = 1 << 16, large = 1 << 26, add = 1 << 20, gemm = 1024, side = 8192;
  auto xs = random_floats(small, 1), ys = random_floats(small, 2);
  auto xl = random_floats(large, 3), yl = random_floats(large, 4);
  auto a = random_floats(add, 5), b = random_floats(add, 6);
  buffer<float> c(add);
  auto ga = random_floats(static_cast<std::size_t>(gemm) * gemm, 7), gb = random_floats(static_cast<std::size_t>(gemm) * gemm, 8);
  buffer<float> gc(static_cast<std::size_t>(gemm) * gemm);
  auto tin = random_floats(static_cast<std::size_t>(side) * side, 9);
  buffer<float> tout(static_cast<std::size_t>(side) * side);
  check(cudaDeviceSynchronize(), "fill");
  const int probe = 4321;
  float x0 = 0, y0 = 0;
  check(cudaMemcpy(&x0, xs.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(&y0, ys.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");

  for (int r = 0; r < rounds; ++r) {
    saxpy<<<float4_blocks(small), 256>>>(small, 2.0f, xs, ys);
    saxpy<<<float4_blocks(large), 256>>>(large, 2.0f, xl, yl);
    vector_add<<<float4_blocks(add), 256>>>(add, a, b, c);
    sgemm_tiled<<<dim3(gemm / sgemm_tile, gemm / sgemm_tile), dim3(sgemm_tile, sgemm_tile)>>>(ga, gb, gc, gemm);
    transpose_tiled<<<dim3(side / transpose_tile, side / transpose_tile), dim3(transpose_tile, transpose_block_rows)>>>(tin, tout, side, side);
  }
  check(cudaDeviceSynchronize(), "launches");
  float y1 = 0, t = 0, t_in = 0;
  check(cudaMemcpy(&y1, ys.p + probe, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  // out[c][r] = in[r][c]: element (r = 3, c = 5) of the input is element (5, 3) of the output.
  check(cudaMemcpy(&t_in, tin.p + 3 * side + 5, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(&t, tout.p + 5 * side + 3, sizeof(float), cudaMemcpyDeviceToHost), "copy");
  const float want = y0 + 2.0f * rounds * x0;
  const bool saxpy_ok = std::fabs(y1 - want) <= 1e-5f * (1 + std::fabs(want)) * rounds;
  std::printf("%d rounds, %d annotated launches; saxpy applied %s (y = %.6f, want %.6f); transpose %s\n", rounds,
              5 * rounds, saxpy_ok ? "exactly once per round" : "WRONG", y1, want, t == t_in ? "ok" : "WRONG");
  return saxpy_ok && t == t_in ? 0 : 1;
}
