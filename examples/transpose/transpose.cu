/// @file transpose.cu
/// out = in^T for a 16384 x 16384 f32 matrix (1 GiB in, 1 GiB out): memory-bound, compulsory bytes
/// 2 * 4 * R * C. Two kernels with the same launch (32 x 8 threads per 32 x 32 tile, 4 elements per
/// thread) that differ only in how they write:
///  - transpose_naive: reads coalesced, writes with a stride of R floats across the warp;
///  - transpose_tiled: stages a 32 x 33 tile in shared memory, so both reads and writes are coalesced.

#include <cuda_runtime.h>

#include <cstdint>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

inline constexpr int transpose_tile = 32;        // a tile is 32 x 32 elements
inline constexpr int transpose_block_rows = 8;   // a block is 32 x 8 threads: 4 elements per thread

/// THE TEXTBOOK MISTAKE: thread (x, y) reads in[y][x] (consecutive threads, consecutive addresses:
/// coalesced) and writes out[x][y] (consecutive threads, addresses R floats apart: each warp-wide store
/// touches 32 sectors to write 128 bytes). Whether the partly written sectors cost DRAM traffic or only
/// L2 transactions depends on whether L2 merges them before eviction (the 8 rows of one block fill
/// each 32-byte output sector): the verifier tells.
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  // in: (R,C)  out: (C,R)
  const int x = blockIdx.x * transpose_tile + threadIdx.x;  // column of in
  const int y = blockIdx.y * transpose_tile + threadIdx.y;  // row of in
  for (int j = 0; j < transpose_tile; j += transpose_block_rows)
    out[static_cast<std::int64_t>(x) * rows + (y + j)] = in[static_cast<std::int64_t>(y + j) * cols + x];
}

/// Reads a 32 x 32 tile coalesced into shared memory, then writes it transposed, coalesced. The tile is
/// padded to 33 columns so that reading a column of it (tile[threadIdx.x][...]) hits 32 different banks.
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  // in: (R,C)  out: (C,R)
  __shared__ float tile[transpose_tile][transpose_tile + 1];
  int x = blockIdx.x * transpose_tile + threadIdx.x;
  int y = blockIdx.y * transpose_tile + threadIdx.y;
  for (int j = 0; j < transpose_tile; j += transpose_block_rows)
    tile[threadIdx.y + j][threadIdx.x] = in[static_cast<std::int64_t>(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * transpose_tile + threadIdx.x;  // column of out (a row of in)
  y = blockIdx.x * transpose_tile + threadIdx.y;  // row of out (a column of in)
  for (int j = 0; j < transpose_tile; j += transpose_block_rows)
    out[static_cast<std::int64_t>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

namespace transpose_example {

using namespace rooflint::dsl;

inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;

/// No arithmetic; compulsory bytes 4*R*C read + 4*R*C written (2 GiB at 16384 x 16384).
inline constexpr auto transpose_naive_spec =
    kernel<transpose_naive>("transpose_naive", custom(0, in<0>("in", f32, R, C),     // in: (R,C)
                                                         out<1>("out", f32, C, R)))  // out: (C,R)
        .at(R(16384), C(16384))
        .sizes(R(arg<2>), C(arg<3>))  // at a launch: R = rows, C = cols
        .block(transpose_tile, transpose_block_rows)
        .grid(ceil_div(C, transpose_tile), ceil_div(R, transpose_tile))
        .expect(memory_bound);

inline constexpr auto transpose_tiled_spec =
    kernel<transpose_tiled>("transpose_tiled", custom(0, in<0>("in", f32, R, C),     // in: (R,C)
                                                         out<1>("out", f32, C, R)))  // out: (C,R)
        .at(R(16384), C(16384))
        .sizes(R(arg<2>), C(arg<3>))  // at a launch: R = rows, C = cols
        .block(transpose_tile, transpose_block_rows)
        .grid(ceil_div(C, transpose_tile), ceil_div(R, transpose_tile))
        .expect(memory_bound);

static_assert(transpose_tiled_spec.bytes_at(transpose_tiled_spec.declared().bound) == 8.0 * 16384 * 16384);

/// One block per 32 x 32 tile; rows and cols must be multiples of 32.
inline dim3 grid_for(int rows, int cols) { return dim3(cols / transpose_tile, rows / transpose_tile); }
inline dim3 block() { return dim3(transpose_tile, transpose_block_rows); }

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(transpose_naive_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(transpose_tiled_spec, "H200"));

}  // namespace transpose_example

namespace {
bool check_transpose(void (*kernel)(const float*, float*, int, int), const char* name) {
  using namespace rooflint::examples;
  const int rows = 1024, cols = 512;  // not square, so swapped indices show
  const auto in = random_floats(static_cast<std::size_t>(rows) * cols, 7);
  device_buffer<float> din(in), dout(in.size());
  kernel<<<transpose_example::grid_for(rows, cols), transpose_example::block()>>>(din, dout, rows, cols);
  if (!cuda_ok(name)) return false;
  std::vector<float> want(in.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) want[static_cast<std::size_t>(c) * rows + r] = in[static_cast<std::size_t>(r) * cols + c];
  return close("out", dout.to_host(), want, 0, 0);
}
}  // namespace

ROOFLINT_EXAMPLE_CHECK(transpose_naive) { return check_transpose(transpose_naive, "transpose_naive"); }
ROOFLINT_EXAMPLE_CHECK(transpose_tiled) { return check_transpose(transpose_tiled, "transpose_tiled"); }

namespace transpose_example {

ROOFLINT_VERIFY_CASE(transpose_naive_16K, transpose_naive_spec, R(16384), C(16384)) {
  const int rows = static_cast<int>(ctx.size(R)), cols = static_cast<int>(ctx.size(C));
  const float* in = ctx.random<float>(static_cast<std::size_t>(rows) * cols);  // (R,C)
  float* out = ctx.poisoned<float>(static_cast<std::size_t>(rows) * cols);     // (C,R)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { transpose_naive<<<grid_for(rows, cols), block(), 0, s>>>(in, out, rows, cols); },
  };
}

ROOFLINT_VERIFY_CASE(transpose_tiled_16K, transpose_tiled_spec, R(16384), C(16384)) {
  const int rows = static_cast<int>(ctx.size(R)), cols = static_cast<int>(ctx.size(C));
  const float* in = ctx.random<float>(static_cast<std::size_t>(rows) * cols);  // (R,C)
  float* out = ctx.poisoned<float>(static_cast<std::size_t>(rows) * cols);     // (C,R)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { transpose_tiled<<<grid_for(rows, cols), block(), 0, s>>>(in, out, rows, cols); },
  };
}

}  // namespace transpose_example
