#include <gtest/gtest.h>

#include "rooflint/dsl.h"
#include "rooflint/dsl/formula.h"

using namespace rooflint::dsl;

namespace {
inline constexpr struct N final : dim<"N"> {} N;

void sgemm(const float*, const float*, float*, int) {}
void vadd(const float*, const float*, float*, int) {}

inline constexpr auto square_sgemm = kernel<sgemm>("sgemm", matmul(in<0>("A", f32, N, N),   // A: (N,N)
                                                                   in<1>("B", f32, N, N),   // B: (N,N)
                                                                   out<2>("C", f32, N, N))  // C: (N,N)
);
inline constexpr auto vector_add = kernel<vadd>("vadd", binary(1, in<0>("a", f32, N),   // a: (N)
                                                               in<1>("b", f32, N),   // b: (N)
                                                               out<2>("c", f32, N))  // c: (N)
);
}  // namespace

TEST(SquareMatmul, IntensityIsNOverSix) {
  // FLOPs 2*N^3, bytes 3 * 4 * N^2 = 12*N^2: AI = N/6. N = 512: 85.33; N = 4096: 682.67 FLOP/byte.
  EXPECT_EQ(ratio_to_string(square_sgemm.flops, square_sgemm.bytes()), "N/6");
  const auto at512 = square_sgemm.bind(N(512)).bound;
  EXPECT_NEAR(rooflint::model::intensity(square_sgemm.workload_at(at512)), 85.333333, 1e-5);
  const auto at4096 = square_sgemm.bind(N(4096)).bound;
  EXPECT_DOUBLE_EQ(square_sgemm.flops_at(at4096), 137438953472.0);
  EXPECT_DOUBLE_EQ(square_sgemm.bytes_at(at4096), 201326592.0);
  EXPECT_NEAR(rooflint::model::intensity(square_sgemm.workload_at(at4096)), 682.666667, 1e-5);
}

TEST(VectorAdd, OneFlopPerTwelveBytesWhenElementwiseIsCounted) {
  constexpr auto counted = vector_add.count_elementwise();
  EXPECT_EQ(ratio_to_string(counted.flops, counted.bytes()), "1/12");
  EXPECT_EQ(to_string(vector_add.flops), "0");  // torch.utils.flop_counter convention
}
