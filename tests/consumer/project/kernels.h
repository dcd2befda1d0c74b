#pragma once
/// @file kernels.h
/// The consumer's kernels and their specs: what a user of rooflint writes next to a kernel.

#include <rooflint/dsl.h>

__global__ void consumer_saxpy(int n, float a, const float* x, float* y);
__global__ void consumer_gather(const float* x, float* y, int n);
/// A template kernel defined in kernels.cu and launched from program.cu: with nvcc 13 both files need
/// -static-global-template-stub=false (CMakeLists.txt; docs/troubleshooting.md).
template <typename T>
__global__ void consumer_scale(T* x, T a, int n);

namespace consumer {

using namespace rooflint::dsl;

inline constexpr struct N final : dim<"N"> {} N;

/// y = a*x + y, counted as 2 FLOP per element (count_elementwise). At N = 2^24 (by hand): 2N =
/// 33,554,432 FLOP; 12N = 201,326,592 bytes (x read, y read and written, 4 bytes each); intensity
/// 2/12 = 0.167 FLOP/byte, left of the H200's FP32 ridge 66.9 TFLOP/s / 4.8 TB/s = 13.9 FLOP/byte:
/// memory-bound, floor 201,326,592 B / 4.8 TB/s = 41.9 us. At a launch, N is the argument n
/// (rooflint-verify -- consumer_program).
inline constexpr auto saxpy_spec =
    kernel<consumer_saxpy>("consumer_saxpy", elementwise(2, in<2>("x", f32, N),       // x: (N)
                                                            inout<3>("y", f32, N)))   // y: (N)
        .count_elementwise()
        .at(N(1 << 24))
        .sizes(N(arg<0>))
        .expect(memory_bound);

}  // namespace consumer
