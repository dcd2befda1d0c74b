/// @file kernel_tests.cu
/// rooflint-example-gtests: an ordinary GoogleTest binary of the example kernels, the kind a project
/// already has. The tests check results against host references and know nothing of rooflint;
/// `rooflint-verify --manifest build -- rooflint-example-gtests` verifies the annotated launches they make.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels.h"

using namespace program;

namespace {

bool have_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

template <class T>
std::vector<T> to_host(const buffer<T>& b) {
  std::vector<T> v(b.n);
  check(cudaMemcpy(v.data(), b.p, b.n * sizeof(T), cudaMemcpyDeviceToHost), "to_host");
  return v;
}

}  // namespace

#define REQUIRE_DEVICE() \
  if (!have_device()) GTEST_SKIP() << "no CUDA device"

TEST(Saxpy, ComputesAXPlusYInPlace) {
  REQUIRE_DEVICE();
  const int n = (1 << 24) + 3;  // a scalar tail too
  auto x = random_floats(n, 1), y = random_floats(n, 2);
  const auto hx = to_host(x), hy = to_host(y);
  saxpy<<<float4_blocks(n), 256>>>(n, 1.5f, x, y);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto out = to_host(y);
  for (int i = 0; i < n; i += 997) ASSERT_NEAR(out[i], std::fma(1.5f, hx[i], hy[i]), 1e-6f) << i;
}

TEST(VectorAdd, AddsElementwise) {
  REQUIRE_DEVICE();
  const int n = 1 << 24;
  auto a = random_floats(n, 3), b = random_floats(n, 4);
  buffer<float> c(n);
  vector_add<<<float4_blocks(n), 256>>>(n, a, b, c);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto ha = to_host(a), hb = to_host(b), hc = to_host(c);
  for (int i = 0; i < n; i += 1001) ASSERT_FLOAT_EQ(hc[i], ha[i] + hb[i]) << i;
}

TEST(Reduction, SumsLikeTheHost) {
  REQUIRE_DEVICE();
  const int n = 1 << 24;
  auto x = random_floats(n, 5, 0, 1);
  buffer<float> partials(reduction_max_blocks), sum(1);
  buffer<unsigned> done(1);
  ASSERT_EQ(cudaMemset(done, 0, sizeof(unsigned)), cudaSuccess);
  reduce_sum<<<1056, reduction_threads>>>(x, partials, done, sum, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  double want = 0;
  for (const float v : to_host(x)) want += v;
  EXPECT_NEAR(to_host(sum)[0], want, want * 1e-5);
}

TEST(Transpose, NaiveAndTiledAgree) {
  REQUIRE_DEVICE();
  const int r = 4096, c = 4096;
  auto in = random_floats(static_cast<std::size_t>(r) * c, 6);
  buffer<float> a(static_cast<std::size_t>(r) * c), b(static_cast<std::size_t>(r) * c);
  const dim3 grid(c / transpose_tile, r / transpose_tile), block(transpose_tile, transpose_block_rows);
  transpose_naive<<<grid, block>>>(in, a, r, c);
  transpose_tiled<<<grid, block>>>(in, b, r, c);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto hin = to_host(in), ha = to_host(a), hb = to_host(b);
  for (int i = 0; i < r; i += 37)
    for (int j = 0; j < c; j += 41) {
      ASSERT_EQ(ha[static_cast<std::size_t>(j) * r + i], hin[static_cast<std::size_t>(i) * c + j]);
      ASSERT_EQ(hb[static_cast<std::size_t>(j) * r + i], hin[static_cast<std::size_t>(i) * c + j]);
    }
}

TEST(Softmax, OnlineRowsSumToOne) {
  REQUIRE_DEVICE();
  const int rows = 8192, cols = 4096;
  auto x = random_floats(static_cast<std::size_t>(rows) * cols, 7);
  buffer<float> y(static_cast<std::size_t>(rows) * cols);
  softmax_online<<<rows, row_threads>>>(x, y, cols);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto hy = to_host(y);
  for (int r = 0; r < rows; r += 511) {
    double s = 0;
    for (int j = 0; j < cols; ++j) s += hy[static_cast<std::size_t>(r) * cols + j];
    EXPECT_NEAR(s, 1.0, 1e-4) << "row " << r;
  }
}

TEST(Layernorm, SinglePassRowsHaveZeroMean) {
  REQUIRE_DEVICE();
  const int rows = 8192, cols = 4096;
  auto x = random_floats(static_cast<std::size_t>(rows) * cols, 8);
  buffer<float> gamma(cols), beta(cols), y(static_cast<std::size_t>(rows) * cols);
  fill_uniform<<<16, 256>>>(gamma, cols, 0, 1.f, 1.f);  // gamma = 1
  fill_uniform<<<16, 256>>>(beta, cols, 0, 0.f, 0.f);   // beta = 0
  layernorm_single_pass<<<rows, row_threads>>>(x, gamma, beta, y, cols, layernorm_eps);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto hy = to_host(y);
  for (int r = 0; r < rows; r += 1021) {
    double s = 0;
    for (int j = 0; j < cols; ++j) s += hy[static_cast<std::size_t>(r) * cols + j];
    EXPECT_NEAR(s / cols, 0.0, 1e-4) << "row " << r;
  }
}

TEST(Sgemm, TiledMatchesNaive) {
  REQUIRE_DEVICE();
  const int n = 1024;
  const std::size_t nn = static_cast<std::size_t>(n) * n;
  auto a = random_floats(nn, 9), b = random_floats(nn, 10);
  buffer<float> c1(nn), c2(nn);
  const int g = n / sgemm_naive_block;
  sgemm_naive<<<dim3(g, g), dim3(sgemm_naive_block, sgemm_naive_block)>>>(a, b, c1, n);
  sgemm_tiled<<<dim3(n / sgemm_tile, n / sgemm_tile), dim3(sgemm_tile, sgemm_tile)>>>(a, b, c2, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto h1 = to_host(c1), h2 = to_host(c2);
  for (std::size_t i = 0; i < nn; i += 4099) ASSERT_NEAR(h1[i], h2[i], 1e-3f * (1 + std::fabs(h1[i]))) << i;
}
