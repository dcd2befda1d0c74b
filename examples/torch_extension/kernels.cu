/// @file kernels.cu
/// The kernels of a small PyTorch extension (binding.cpp, run.py), with their specs beside them. Plain
/// CUDA and rooflint's spec language, no torch header: the analyzer reads this file with
///   rooflint --manifest kernels.rooflint.json kernels.cu -- -std=c++20 -I<rooflint>/dsl/include -I<rooflint>/model/include
/// (an installed rooflint: -I<prefix>/include), and torch's extension build compiles it with nvcc.
///  - scaled_add: out = x + alpha * y over N floats, one element a thread. A warp's loads and stores are
///    128 contiguous bytes: it should move its compulsory bytes, 12N, and pass.
///  - row_sum_thread_per_row: y[r] = sum of row r of an (R,C) bf16 matrix, one thread a row. The lanes
///    of a warp read 2C bytes apart, so each warp-wide 2-byte load touches 32 sectors for 64 useful
///    bytes: L1 serves 16x the compulsory bytes of x (the rest of each sector comes from L1 on the lane's
///    next 15 iterations, so L2 and DRAM should stay near 1x). Its L1 floor then lies above the DRAM
///    floor t_min, and with measured ceilings (rooflint-ceilings, which give L1 its roof) the verifier
///    should fail it. The fix is one warp a row (lanes striding the row), or a transposed layout.

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "rooflint/dsl.h"
#include "kernels.h"

/// out[i] = x[i] + alpha * y[i] for i < n. One element a thread, blocks of 256.
__global__ void scaled_add(int n, float alpha, const float* x, const float* y, float* out) {
  // x: (N)  y: (N)  out: (N)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaf(alpha, y[i], x[i]);
}

/// y[r] = x[r][0] + ... + x[r][cols - 1], summed in float. One thread a row, blocks of 128: the 32 lanes
/// of a warp walk 32 consecutive rows, so at each step the warp's 32 loads are 2*cols bytes apart.
__global__ void row_sum_thread_per_row(const __nv_bfloat16* x, float* y, int rows, int cols) {
  // x: (R,C)  y: (R)
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += __bfloat162float(x[static_cast<long>(r) * cols + c]);
  y[r] = s;
}

namespace torch_extension_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;

inline constexpr int scaled_add_threads = 256;
inline constexpr int row_sum_threads = 128;

/// 2 FLOP per element (an FMA), as typed; compulsory bytes 4N + 4N read, 4N written.
inline constexpr auto scaled_add_spec =
    kernel<scaled_add>("scaled_add", binary(2, in<2>("x", f32, N),      // x: (N)
                                               in<3>("y", f32, N),      // y: (N)
                                               out<4>("out", f32, N)))  // out: (N)
        .at(N(1 << 20))               // run.py's size: 4 MiB a tensor
        .sizes(N(arg<0>))             // at a launch (rooflint-verify): N = n
        .block(scaled_add_threads)
        .grid(ceil_div(N, scaled_add_threads))
        .expect(memory_bound);

/// 1 FLOP per element (counted only under count_elementwise); compulsory bytes 2RC read (bf16), 4R written.
inline constexpr auto row_sum_spec =
    kernel<row_sum_thread_per_row>("row_sum_thread_per_row",
                                   reduction(in<0>("x", bf16, R, C),   // x: (R,C)
                                             out<1>("y", f32, R))      // y: (R)
                                       .precision(f32))                // bf16 storage, f32 accumulation
        .at(R(16384), C(256))         // run.py's size: 8 MiB of x
        .sizes(R(arg<2>), C(arg<3>))  // at a launch: R = rows, C = cols
        .block(row_sum_threads)
        .grid(ceil_div(R, row_sum_threads))
        .expect(memory_bound);

cudaError_t launch_scaled_add(const float* x, const float* y, float* out, int n, float alpha, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;  // a launch of 0 blocks is an error, and N must be positive
  scaled_add<<<(n + scaled_add_threads - 1) / scaled_add_threads, scaled_add_threads, 0, stream>>>(n, alpha, x, y, out);
  return cudaGetLastError();
}

cudaError_t launch_row_sum(const __nv_bfloat16* x, float* y, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0) return cudaSuccess;
  if (cols <= 0) return cudaMemsetAsync(y, 0, sizeof(float) * static_cast<size_t>(rows), stream);  // empty rows sum to 0
  row_sum_thread_per_row<<<(rows + row_sum_threads - 1) / row_sum_threads, row_sum_threads, 0, stream>>>(x, y, rows, cols);
  return cudaGetLastError();
}

}  // namespace torch_extension_example
