// How much dirty data does an L2 flush leave behind? (docs/cupti.md §6)
//
// A dirtying kernel writes 256 MiB (the L2 ends full of dirty lines), a flush variant runs, then a
// read-only probe kernel streams 1 GiB. The probe stores nothing, so every DRAM byte written during it is
// a dirty line the flush left in L2 and the probe evicted. Run under ncu with --cache-control none:
//   nvcc -O3 -arch=sm_90 -o residue scripts/probes/l2_flush_residue.cu
//   ncu --cache-control none --clock-control none -k regex:probe --metrics dram__bytes_write.sum ./residue VARIANT [GiB]
// (GiB: the probe's size, default 1).
// Variants: none, ldcg3 (the verifier's sweep: 3x L2 with ld.global.cg), ldcg6, twice3 (two 3x sweeps of
// different buffers), ld3 (plain loads), last3 (3x L2 loads with an L2 evict_last policy, then the lines
// demoted to evict_normal with applypriority), first3 (evict_first policy), wdiscard1/wdiscard3 (write
// 1.5x / 3x L2, then discard.global.L2 those lines), memset_ldcg3 (a memset of 3x L2, then the sweep).

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "probe_check.h"

enum class load { cg, plain, evict_last, evict_first };

__device__ __forceinline__ uint4 load_line(const uint4* p, load how) {
  uint4 v;
  unsigned long long policy;
  switch (how) {
    case load::cg: return __ldcg(p);
    case load::plain: return *p;
    case load::evict_last:
      asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
      asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
      return v;
    case load::evict_first:
      asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
      asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(policy));
      return v;
  }
  return v;
}

__global__ void dirty(uint4* out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = make_uint4(unsigned(i), 1, 2, 3);
}

__global__ void sweep(const uint4* data, size_t n, load how, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = load_line(data + i, how);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u && threadIdx.x == 1023) *sink = acc;
}

// One applypriority per 128-byte line: the sweep's evict_last lines go back to normal priority.
__global__ void demote(const char* data, size_t bytes) {
  for (size_t off = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * 128; off < bytes;
       off += size_t(gridDim.x) * blockDim.x * 128)
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(data + off));
}

__global__ void probe(const uint4* data, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(data + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u && threadIdx.x == 1023) *sink = acc;
}

// Writes every line of @p data, then invalidates it in L2 without write-back (discard.global.L2): the
// write displaces every older dirty line (written back now, outside the measured window) and the discard
// leaves the L2 holding no dirty line at all. @p data's contents are undefined afterwards.
__global__ void write_discard(uint4* data, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += stride) data[i] = make_uint4(0, 0, 0, 0);
}
__global__ void discard_lines(const char* data, size_t bytes) {
  for (size_t off = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * 128; off < bytes;
       off += size_t(gridDim.x) * blockDim.x * 128)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(data + off) : "memory");
}

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "ldcg3";
  int l2 = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t dirty_bytes = 256ull << 20;
  const size_t probe_bytes = size_t((argc > 2 ? std::atof(argv[2]) : 1.0) * (1ull << 30)) / 16 * 16;
  const size_t sweep_bytes = (variant == "ldcg6" ? 6 : 3) * size_t(l2) / 16 * 16;
  uint4 *w, *s1, *s2, *r;
  unsigned* sink;
  CHECK(cudaMalloc(&w, dirty_bytes));
  CHECK(cudaMalloc(&s1, sweep_bytes));
  CHECK(cudaMalloc(&s2, sweep_bytes));
  CHECK(cudaMalloc(&r, probe_bytes));
  CHECK(cudaMalloc(&sink, 4));
  CHECK(cudaMemset(s1, 0x5a, sweep_bytes));
  CHECK(cudaMemset(s2, 0x5a, sweep_bytes));
  CHECK(cudaMemset(r, 0x33, probe_bytes));
  const int blocks = sms * 4;
    // Clean start: two sweeps of the probe buffer itself, then dirty the L2.
  probe<<<blocks, 256>>>(r, probe_bytes / 16, sink);
  CHECK(cudaDeviceSynchronize());
  dirty<<<blocks, 256>>>(w, dirty_bytes / 16);
  CHECK(cudaDeviceSynchronize());
  const size_t n = sweep_bytes / 16;
  if (variant == "ldcg3" || variant == "ldcg6") sweep<<<blocks, 256>>>(s1, n, load::cg, sink);
  else if (variant == "twice3") {
    sweep<<<blocks, 256>>>(s1, n, load::cg, sink);
    sweep<<<blocks, 256>>>(s2, n, load::cg, sink);
  } else if (variant == "ld3") sweep<<<blocks, 256>>>(s1, n, load::plain, sink);
  else if (variant == "last3") {
    sweep<<<blocks, 256>>>(s1, n, load::evict_last, sink);
    demote<<<blocks, 256>>>(reinterpret_cast<const char*>(s1), sweep_bytes);
  } else if (variant == "first3") sweep<<<blocks, 256>>>(s1, n, load::evict_first, sink);
  else if (variant == "wdiscard1" || variant == "wdiscard3") {
    const size_t bytes = variant == "wdiscard1" ? size_t(l2) / 128 * 128 * 3 / 2 : sweep_bytes / 128 * 128;
    write_discard<<<blocks, 256>>>(s1, bytes / 16);
    discard_lines<<<blocks, 256>>>(reinterpret_cast<const char*>(s1), bytes);
  } else if (variant == "memset_ldcg3") {
    CHECK(cudaMemsetAsync(s2, 0x11, sweep_bytes));
    sweep<<<blocks, 256>>>(s1, n, load::cg, sink);
  } else if (variant != "none") {
    std::fprintf(stderr, "unknown variant %s\n", variant.c_str());
    return 2;
  }
  CHECK(cudaDeviceSynchronize());
  probe<<<blocks, 256>>>(r, probe_bytes / 16, sink);
  CHECK(cudaDeviceSynchronize());
  std::printf("variant %s: L2 %d B, sweep %zu B, dirty %zu B, probe %zu B\n", variant.c_str(), l2, sweep_bytes,
              dirty_bytes, probe_bytes);
  return 0;
}
