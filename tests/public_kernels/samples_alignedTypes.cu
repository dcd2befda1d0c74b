/// @file samples_alignedTypes.cu
/// cuda-samples Samples/6_Performance/alignedTypes/alignedTypes.cu: testKernel<TData>, a grid-stride copy
/// of the sample's 49,999,872 bytes (MEM_SIZE rounded down to 256 bytes, the size it copies on an H200;
/// two buffers, 100 MB: more than the L2) as arrays of element types of 1 to 32 bytes, aligned and
/// misaligned, 64 blocks of 256 threads as runTest() launches it: uint8, the misaligned RGBA8
/// (4 bytes, 1-byte aligned: copied a byte at a time), and LA32 (8 bytes), RGB32 (12) and RGBA32 (16),
/// 4-byte aligned, which a thread copies 4 bytes at a time, and the aligned
/// RGBA8 (4), RGB32 (12 bytes padded to 16), RGBA32 (16) and RGBA32_2 (32).
#include "public_kernels.h"

#define main samples_alignedTypes_main
#include "6_Performance/alignedTypes/alignedTypes.cu"
#undef main

// The element types as storage: each holds its channels' dtype (the tensors count its bytes, padding
// included, as channels: RGB32 is 4 u32 of which the kernel copies 3).
namespace rooflint::dsl {
template <> struct storage_dtypes<RGBA8> : storage_dtypes<std::uint8_t> {};
template <> struct storage_dtypes<RGBA8_misaligned> : storage_dtypes<std::uint8_t> {};
template <> struct storage_dtypes<LA32_misaligned> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<RGB32_misaligned> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<RGBA32_misaligned> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<RGB32> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<RGBA32> : storage_dtypes<unsigned> {};
template <> struct storage_dtypes<RGBA32_2> : storage_dtypes<unsigned> {};
}  // namespace rooflint::dsl

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;         // elements (numElements)
inline constexpr struct C2 final : dim<"C2", 2> {} C2;   // channels of an element
inline constexpr struct C3 final : dim<"C3", 3> {} C3;
inline constexpr struct C4 final : dim<"C4", 4> {} C4;
inline constexpr struct C8 final : dim<"C8", 8> {} C8;

template <auto K, std::size_t L, class Dtype, class... Channels>
constexpr auto copy_spec(const char (&name)[L], double n, Dtype dtype, Channels... channels) {
  return kernel<K>(name, custom(0, out<0>("d_odata", dtype, N, channels...), in<1>("d_idata", dtype, N, channels...)))
      .at(N(n)).sizes(N(arg<2>)).block(256).grid(64);
}

inline constexpr double bytes = 49999872;  // the sample's MemorySize on an H200
inline constexpr auto testKernel_uint8_spec = copy_spec<testKernel<uint8>>("testKernel_uint8", bytes, u8);
inline constexpr auto testKernel_RGBA8_misaligned_spec =
    copy_spec<testKernel<RGBA8_misaligned>>("testKernel_RGBA8_misaligned", bytes / 4, u8, C4);
inline constexpr auto testKernel_LA32_misaligned_spec =
    copy_spec<testKernel<LA32_misaligned>>("testKernel_LA32_misaligned", bytes / 8, u32, C2);
inline constexpr auto testKernel_RGB32_misaligned_spec =
    copy_spec<testKernel<RGB32_misaligned>>("testKernel_RGB32_misaligned", 4166656, u32, C3);
inline constexpr auto testKernel_RGBA32_misaligned_spec =
    copy_spec<testKernel<RGBA32_misaligned>>("testKernel_RGBA32_misaligned", bytes / 16, u32, C4);
inline constexpr auto testKernel_RGBA8_spec = copy_spec<testKernel<RGBA8>>("testKernel_RGBA8", bytes / 4, u8, C4);
inline constexpr auto testKernel_RGB32_spec = copy_spec<testKernel<RGB32>>("testKernel_RGB32", bytes / 16, u32, C4);
inline constexpr auto testKernel_RGBA32_spec = copy_spec<testKernel<RGBA32>>("testKernel_RGBA32", bytes / 16, u32, C4);
inline constexpr auto testKernel_RGBA32_2_spec = copy_spec<testKernel<RGBA32_2>>("testKernel_RGBA32_2", bytes / 32, u32, C8);
}  // namespace public_specs

template <class TData>
static void copy_case(const char* name) {
  const int memorySize = 49999872;  // (MEM_SIZE / scale_factor) & 0xffffff00, scale_factor 1 on an H200
  if (!corpus::wanted(name)) return;
  corpus::Case c(name);
  auto *out = c.zeros<unsigned char>(memorySize), *in = c.zeros<unsigned char>(memorySize);
  if (c.ready()) testKernel<TData><<<64, 256>>>((TData*)out, (TData*)in, memorySize / int(sizeof(TData)));
  c.done();
}

static void run() {
  copy_case<uint8>("testKernel_uint8");
  copy_case<RGBA8_misaligned>("testKernel_RGBA8_misaligned");
  copy_case<LA32_misaligned>("testKernel_LA32_misaligned");
  copy_case<RGB32_misaligned>("testKernel_RGB32_misaligned");
  copy_case<RGBA32_misaligned>("testKernel_RGBA32_misaligned");
  copy_case<RGBA8>("testKernel_RGBA8");
  copy_case<RGB32>("testKernel_RGB32");
  copy_case<RGBA32>("testKernel_RGBA32");
  copy_case<RGBA32_2>("testKernel_RGBA32_2");
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
