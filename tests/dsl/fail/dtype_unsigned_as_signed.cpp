// expected-message: rooflint: kernel: the tensor's dtype does not match the element type of its pointer parameter, which holds u32 (unsigned int, std::uint32_t, uint2, uint3, uint4)
// Invalid: the bins are declared i32, but 'unsigned int *' holds u32: signedness is part of the dtype.
#include "common.h"

void byte_histogram(const std::uint8_t*, unsigned int*, int) {}

#ifdef ROOFLINT_FIXED
inline constexpr auto checked = kernel<byte_histogram>("histogram", custom(N, in<0>("bytes", u8, N), inout<1>("bins", u32, K)));
#else
inline constexpr auto checked = kernel<byte_histogram>("histogram", custom(N, in<0>("bytes", u8, N), inout<1>("bins", i32, K)));
#endif
