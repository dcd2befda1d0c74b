/// @file gather.cu
/// Two gathers whose specs state, with touches(), the part of the input the operation needs:
///  - gather_strided: y[i] = x[33 i]. Only the N gathered floats are compulsory, but every 4-byte load
///    brings a whole 32-byte sector into L2 and HBM moves 64 bytes at a time, so about 16 times the
///    compulsory reads reach DRAM on the H200: the verifier should flag it.
///  - embedding_gather: out[b][t][:] = table[ids[b][t]][:]. Only the B*T gathered rows of the V-row
///    table are compulsory; rows are 4 KiB contiguous, so the kernel reads exactly them.

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "rooflint/dsl.h"
#include "../common/example_check.h"
#include "../common/verdict.h"
#include "rooflint/runtime.h"

/// The gather stride, in floats: 132 bytes, so no two gathered floats share a 32-byte sector or a
/// 64-byte DRAM burst.
inline constexpr int gather_stride = 33;

/// y[i] = x[33 i]. Reads of x are 132 bytes apart across the warp: 32 sectors per warp-wide load for
/// 128 useful bytes. The writes of y are coalesced. One element per thread, N/256 blocks.
__global__ void gather_strided(int n, const float* x, float* y) {
  // x: (N,S), S = 33, of which column 0 is read  y: (N)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[static_cast<std::int64_t>(i) * gather_stride];
}

/// out[r][:] = table[ids[r]][:] for r < rows (rows = B*T). One block of 256 threads per gathered row,
/// float4 loads and stores (d is a multiple of 4): each row is d*4 bytes, contiguous and coalesced.
__global__ void embedding_gather(const float* table, const int* ids, float* out, int rows, int d) {
  // table: (V,D)  ids: (B,T)  out: (B,T,D)
  const int r = blockIdx.x;
  if (r >= rows) return;
  const auto* src = reinterpret_cast<const float4*>(table + static_cast<std::int64_t>(ids[r]) * d);
  auto* dst = reinterpret_cast<float4*>(out + static_cast<std::int64_t>(r) * d);
  for (int j = threadIdx.x; j < d / 4; j += blockDim.x) dst[j] = src[j];
}

namespace gather_example {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct S final : dim<"S", gather_stride> {} S;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;

/// No arithmetic; compulsory bytes 4N read (the touched part of x) + 4N written.
inline constexpr auto gather_strided_spec =
    kernel<gather_strided>("gather_strided",
                           custom(0, in<1>("x", f32, N, S).touches(N),  // x: (N,S), N elements touched
                                  out<2>("y", f32, N)))                 // y: (N)
        .at(N(1 << 26))
        .sizes(N(arg<0>))  // at a launch: N = n (S is static)
        .block(256)
        .grid(ceil_div(N, 256))
        .expect(memory_bound);

static_assert(gather_strided_spec.read_bytes_at(gather_strided_spec.declared().bound) == 4.0 * (1 << 26));

/// No arithmetic; compulsory bytes 4*B*T*D read from the table + 4*B*T ids + 4*B*T*D written.
inline constexpr auto embedding_gather_spec =
    kernel<embedding_gather>("embedding_gather",
                             custom(0, in<0>("table", f32, V, D).touches(B * T * D),  // table: (V,D), B*T rows touched
                                    in<1>("ids", i32, B, T).indices(distinct(V)),     // ids: (B,T), distinct rows
                                    out<2>("out", f32, B, T, D)))                     // out: (B,T,D)
        .at(V(1 << 20), D(1024), B(32), T(2048))
        // At a launch: D = d, and rows = B*T with T fixed at 2048 by .at() (the kernel sees only the product,
        // which is all the compulsory bytes depend on); V is not a parameter and stays at its .at() size.
        .sizes(B(arg<3> / 2048), D(arg<4>))
        .block(256)
        .grid(B * T)  // one block per gathered row
        .expect(memory_bound);

/// @return B*T distinct row indices below v (a power of two): r -> (r * odd + c) mod v is a bijection,
/// so no row is read twice (a repeated row could come from L2 and make the traffic look below compulsory).
inline std::vector<int> distinct_ids(int rows, int v) {
  std::vector<int> ids(rows);
  for (int r = 0; r < rows; ++r) ids[r] = static_cast<int>((static_cast<std::uint32_t>(r) * 2654435761u + 12345u) & (v - 1));
  return ids;
}

// Each spec's .expect() holds on the H200's datasheet peaks at its declared sizes (the analyzer
// reports the same verdicts).
static_assert(rooflint::examples::meets_its_expectation(gather_strided_spec, "H200"));
static_assert(rooflint::examples::meets_its_expectation(embedding_gather_spec, "H200"));

}  // namespace gather_example

ROOFLINT_EXAMPLE_CHECK(gather_strided) {
  using namespace rooflint::examples;
  const int n = 100003;
  const auto x = random_floats(static_cast<std::size_t>(n) * gather_stride, 5);
  device_buffer<float> dx(x), dy(n);
  gather_strided<<<(n + 255) / 256, 256>>>(n, dx, dy);
  if (!cuda_ok("gather_strided")) return false;
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = x[static_cast<std::size_t>(i) * gather_stride];
  return close("y", dy.to_host(), want, 0, 0);
}

ROOFLINT_EXAMPLE_CHECK(embedding_gather) {
  using namespace rooflint::examples;
  const int v = 4096, d = 256, rows = 1000;
  const auto table = random_floats(static_cast<std::size_t>(v) * d, 6);
  const auto ids = gather_example::distinct_ids(rows, v);
  device_buffer<float> dtable(table), dout(static_cast<std::size_t>(rows) * d);
  device_buffer<int> dids(ids);
  embedding_gather<<<rows, 256>>>(dtable, dids, dout, rows, d);
  if (!cuda_ok("embedding_gather")) return false;
  std::vector<float> want(static_cast<std::size_t>(rows) * d);
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < d; ++j) want[static_cast<std::size_t>(r) * d + j] = table[static_cast<std::size_t>(ids[r]) * d + j];
  return close("out", dout.to_host(), want, 0, 0);
}

namespace gather_example {

// x holds 33 * 2^26 floats (8.9 GB); 2^26 of them are gathered.
ROOFLINT_VERIFY_CASE(gather_strided_n64M, gather_strided_spec, N(1 << 26)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* x = ctx.random<float>(static_cast<std::size_t>(n) * gather_stride);  // (N,S)
  float* y = ctx.poisoned<float>(n);                                                // (N)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { gather_strided<<<(n + 255) / 256, 256, 0, s>>>(n, x, y); },
  };
}

// A 4 GiB table of 2^20 rows of 1024 floats; 65536 distinct rows gathered (256 MiB).
ROOFLINT_VERIFY_CASE(embedding_gather_v1M_d1024_bt64K, embedding_gather_spec, V(1 << 20), D(1024), B(32), T(2048)) {
  const int v = static_cast<int>(ctx.size(V)), d = static_cast<int>(ctx.size(D));
  const int rows = static_cast<int>(ctx.size(B) * ctx.size(T));
  const float* table = ctx.random<float>(static_cast<std::size_t>(v) * d);  // (V,D)
  const int* ids = ctx.copy_of(distinct_ids(rows, v));                      // (B,T)
  float* out = ctx.poisoned<float>(static_cast<std::size_t>(rows) * d);     // (B,T,D)
  return rooflint::runtime::launcher{
      .launch = [=](cudaStream_t s) { embedding_gather<<<rows, 256, 0, s>>>(table, ids, out, rows, d); },
  };
}

}  // namespace gather_example
