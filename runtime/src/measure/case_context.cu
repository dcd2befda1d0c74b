// case_context: device buffers for a verification case (verify_case.h), filled on the device with a
// counter-based hash (splitmix64 of seed and index): reproducible, never all zero, no curand state.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>

#include "rooflint/runtime/verify_case.h"

namespace rooflint::runtime {

namespace {

__device__ __host__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Uniform in [-1, 1) from the top 24 bits of a hash (exact in float).
__device__ inline float unit(std::uint64_t h) { return static_cast<float>(h >> 40) * (2.0f / 16777216.0f) - 1.0f; }

template <class T>
__global__ void fill(T* data, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    if constexpr (std::is_same_v<T, float>) data[i] = unit(h);
    else if constexpr (std::is_same_v<T, double>) data[i] = static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    else if constexpr (std::is_same_v<T, __half>) data[i] = __float2half(unit(h));
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) data[i] = __float2bfloat16(unit(h));
    else if constexpr (std::is_unsigned_v<T>) data[i] = static_cast<T>(h >> 57);  // [0, 128)
    else data[i] = static_cast<T>(static_cast<int>(h >> 57) - 64);  // signed integers: [-64, 64)
  }
}

/// Uniform integers in [lo, lo + range): the hash modulo the range (a bias below range / 2^64).
template <class T>
__global__ void fill_integers(T* data, std::size_t count, std::uint64_t seed, std::int64_t lo, std::uint64_t range) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[i] = static_cast<T>(lo + static_cast<std::int64_t>(splitmix64(seed ^ splitmix64(i)) % range));
}

template <class T>
void launch_fill_integers(void* p, std::size_t bytes, std::uint64_t seed, std::int64_t lo, std::uint64_t range) {
  const std::size_t count = bytes / sizeof(T);
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 65536));
  fill_integers<T><<<blocks, 256>>>(static_cast<T*>(p), count, seed, lo, range);
}

template <class T>
void launch_fill(void* p, std::size_t bytes, std::uint64_t seed) {
  const std::size_t count = bytes / sizeof(T);
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 65536));
  fill<T><<<blocks, 256>>>(static_cast<T*>(p), count, seed);
}

/// A case body cannot return an error (it returns a launcher), so a failed CUDA call throws; the
/// verifier catches it and reports the case as faulted (never std::exit: that would end an in-process run).
[[noreturn]] void fail(const char* what, cudaError_t status, std::size_t bytes) {
  throw case_error(std::string(what) + " of " + std::to_string(bytes) + " bytes failed: " + cudaGetErrorName(status) +
                       " (" + cudaGetErrorString(status) + ")",
                   true);
}

void* allocate(std::vector<device_ptr<>>& buffers, std::size_t bytes) {
  void* p = nullptr;
  if (const cudaError_t s = cudaMalloc(&p, bytes == 0 ? 1 : bytes); s != cudaSuccess) fail("cudaMalloc", s, bytes);
  buffers.emplace_back(p);
  return p;
}

}  // namespace

case_context::case_context(const dsl::spec& spec, dsl::sizes sizes, std::uint64_t seed)
    : spec_(spec), sizes_(sizes), seed_(seed) {}

case_context::~case_context() = default;

std::int64_t case_context::size_of(dsl::name_t dim) const {
  const int i = spec_.dim_index(dim);
  if (i < 0)
    throw case_error("ctx.size(): spec '" + std::string(spec_.kernel_name.view()) + "' has no dimension '" +
                         std::string(dim.view()) + "'",
                     false);
  return static_cast<std::int64_t>(sizes_[static_cast<std::size_t>(i)]);
}

void* case_context::random_bytes(std::size_t bytes, kind k) {
  void* p = allocate(buffers_, bytes);
  const std::uint64_t seed = splitmix64(seed_ + buffers_.size());  // a different stream per buffer
  switch (k) {
    case kind::f32: launch_fill<float>(p, bytes, seed); break;
    case kind::f64: launch_fill<double>(p, bytes, seed); break;
    case kind::f16: launch_fill<__half>(p, bytes, seed); break;
    case kind::bf16: launch_fill<__nv_bfloat16>(p, bytes, seed); break;
    case kind::i8: launch_fill<std::int8_t>(p, bytes, seed); break;
    case kind::i32: launch_fill<std::int32_t>(p, bytes, seed); break;
    case kind::u8: launch_fill<std::uint8_t>(p, bytes, seed); break;
  }
  if (const cudaError_t s = cudaGetLastError(); s != cudaSuccess) fail("filling a random buffer", s, bytes);
  return p;
}

void* case_context::poisoned_bytes(std::size_t bytes) {
  void* p = allocate(buffers_, bytes);
  if (const cudaError_t s = cudaMemset(p, 0xff, bytes); s != cudaSuccess) fail("cudaMemset", s, bytes);
  return p;
}

void* case_context::zero_bytes(std::size_t bytes) {
  void* p = allocate(buffers_, bytes);
  if (const cudaError_t s = cudaMemset(p, 0, bytes); s != cudaSuccess) fail("cudaMemset", s, bytes);
  return p;
}

void* case_context::allocate_bytes(std::size_t bytes) { return allocate(buffers_, bytes); }

void case_context::check_integer_range(std::int64_t lo, std::int64_t hi, std::int64_t type_min, std::int64_t type_max) const {
  // hi is exclusive: [lo, hi) must be non-empty and hi - 1 must fit the type.
  if (lo >= hi || lo < type_min || hi - 1 > type_max)
    throw case_error("ctx.random_integers(): the range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         ") is empty or does not fit the element type [" + std::to_string(type_min) + ", " +
                         std::to_string(type_max) + "] (spec '" + std::string(spec_.kernel_name.view()) + "')",
                     false);
}

void* case_context::integer_bytes(std::size_t bytes, std::size_t element_size, bool is_signed, std::int64_t lo, std::int64_t hi) {
  void* p = allocate(buffers_, bytes);
  const std::uint64_t seed = splitmix64(seed_ + buffers_.size());
  const auto range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);  // hi > lo: no overflow in unsigned
  switch (element_size) {
    case 1: is_signed ? launch_fill_integers<std::int8_t>(p, bytes, seed, lo, range) : launch_fill_integers<std::uint8_t>(p, bytes, seed, lo, range); break;
    case 4: is_signed ? launch_fill_integers<std::int32_t>(p, bytes, seed, lo, range) : launch_fill_integers<std::uint32_t>(p, bytes, seed, lo, range); break;
    default: launch_fill_integers<std::int64_t>(p, bytes, seed, lo, range); break;
  }
  if (const cudaError_t s = cudaGetLastError(); s != cudaSuccess) fail("filling a buffer of random integers", s, bytes);
  return p;
}

void* case_context::copy_bytes(const void* host, std::size_t bytes) {
  void* p = allocate(buffers_, bytes);
  if (const cudaError_t s = cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice); s != cudaSuccess)
    fail("cudaMemcpy", s, bytes);
  return p;
}

}  // namespace rooflint::runtime
