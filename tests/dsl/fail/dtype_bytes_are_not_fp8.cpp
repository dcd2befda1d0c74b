// expected-message: rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u8 (std::uint8_t, unsigned char, uchar2, uchar4; fp8 data needs __nv_fp8_e4m3 or __nv_fp8_e5m2)
// Invalid: the bytes are declared fp8_e4m3, but 'const std::uint8_t *' holds u8: a byte buffer is
// integer data (its work meets the SIMT roof); fp8 data is held by CUDA's fp8 types only.
#include "common.h"

void byte_histogram(const std::uint8_t*, unsigned int*, int) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<byte_histogram>("histogram", custom(N, in<0>("bytes", u8, N), inout<1>("bins", u32, K)));
#else
inline constexpr auto checked = kernel<byte_histogram>("histogram", custom(N, in<0>("bytes", fp8_e4m3, N), inout<1>("bins", u32, K)));
#endif
