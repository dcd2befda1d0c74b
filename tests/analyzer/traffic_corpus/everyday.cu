// Everyday layout and elementwise kernels: structures of three floats to arrays and back, complex
// numbers as float2, doubles, an int8 quantiser, per-row and outer-product broadcasts, a padded copy,
// rows copied out of a wider leading dimension, reversed rows, a repeat, a column sum, a scalar fill.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

struct Point3 { float x, y, z; };

// Array of 12-byte structures to three arrays: n = 2^24 (p 192 MiB). Each of the three loads has lanes 12
// bytes apart: 384 bytes, 12 sectors for 128: 3 requests of 12 sectors for the warp's 384 bytes, 3x at
// L1; the second and third find the sectors in L1: 1x at L2 and DRAM. x, y, z: 1x.
// truth: p l1 3x, p l2 1x, p dram 1x, x l1 1x, x l2 1x, y l1 1x, y l2 1x, z l1 1x, z l2 1x
__global__ void aos_to_soa3(float* x, float* y, float* z, const Point3* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // x, y, z: (N)  p: (N,3)
  if (i < n) {
    x[i] = p[i].x;
    y[i] = p[i].y;
    z[i] = p[i].z;
  }
}

// Three arrays into 12-byte structures: three stores of 12 sectors for the warp's 384 bytes: 3x at L1 and
// L2 (stores all reach L2); L2 merges the three into whole sectors: DRAM 1x, less what stays in L2.
// truth: p l1 3x, p l2 3x, p dram 0.68x..1x, x l1 1x, x l2 1x, x dram 1x, y l1 1x, y dram 1x, z l1 1x, z dram 1x
__global__ void soa_to_aos3(Point3* p, const float* x, const float* y, const float* z, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // p: (N,3)  x, y, z: (N)
  if (i < n) {
    p[i].x = x[i];
    p[i].y = y[i];
    p[i].z = z[i];
  }
}

// Complex products on interleaved float2: c = a * b, n = 2^24 (128 MiB a tensor): 256 contiguous bytes a
// warp request, 1x everywhere.
// truth: a l1 1x, a l2 1x, a dram 1x, b l1 1x, b l2 1x, b dram 1x, c l1 1x, c l2 1x, c dram 0.53x..1x
__global__ void complex_mul(float2* c, const float2* a, const float2* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // c, a, b: (N,2), as float2
  if (i < n) {
    const float2 u = a[i], v = b[i];
    c[i] = {u.x * v.x - u.y * v.y, u.x * v.y + u.y * v.x};
  }
}

// The real parts of an interleaved complex array: lanes 8 bytes apart, 8 sectors for 128 bytes: 2x at L1
// and L2, and every granule fetched: 2x at DRAM (compulsory: the real parts, half of z). n = 2^24.
// truth: z l1 2x, z l2 2x, z dram 2x, re l1 1x, re l2 1x
__global__ void real_part(float* re, const float2* z, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // re: (N)  z: (N,2), as float2, the first of each pair
  if (i < n) re[i] = z[i].x;
}

// daxpy: y = a x + y in double, n = 2^24 (128 MiB a vector): 256 contiguous bytes a request, 1x; y read
// and written.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x
__global__ void daxpy(double* y, const double* x, double a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x: (N)
  if (i < n) y[i] = a * x[i] + y[i];
}

// int8 quantisation: q = round(x / s), n = 2^25: x 1x; q: 32 contiguous bytes a warp, one sector: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, q l1 1x, q l2 1x, q dram 0x..1x
__global__ void quantize_int8(signed char* q, const float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // q: (N) int8  x: (N)
  if (i < n) q[i] = static_cast<signed char>(x[i] / s);
}

// A per-row bias: y[r, c] = x[r, c] + b[r], one thread per element, R = 32768, C = 1024 (128 MiB). b: one
// address a warp, a sector for 4 bytes: C / 4 = 256x at L1; a block (256 elements of one row) reads it
// once: C / 32 = 32x at L2 (a sector holds 8 rows, 32 blocks, on other SMs); DRAM 1x. x, y: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, b l1 256x, b l2 32x, b dram 1x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void row_bias(float* y, const float* x, const float* b, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x: (R,C)  b: (R)
  if (i < R * C) y[i] = x[i] + b[i / C];
}

// An outer product: y[i, j] = a[i] b[j], blocks of 32 x 8 (i from threadIdx.y), M = N = 8192 (y 256 MiB).
// a: one address a warp: N / 4 = 2048x at L1; a block's 8 rows are one sector: N / 32 = 256x at L2. b:
// 32 consecutive floats, read by every row: M = 8192x at L1; a block reads its 32 once (its 8 warps
// share them): M / 8 = 1024x at L2. DRAM 1x for both. y: 1x.
// truth: a l1 2048x, a l2 256x, a dram 1x, b l1 8192x, b l2 1024x, b dram 1x, y l1 1x, y l2 1x, y dram 0.76x..1x
__global__ void outer_product(float* y, const float* a, const float* b, int M, int N) {
  const int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;  // y: (M,N)  a: (M)  b: (N)
  if (i < M && j < N) y[i * N + j] = a[i] * b[j];
}

// A copy into a padded array: y[(r + 1) (C + 2) + c + 1] = x[r, c], R = C = 4096. Each row of y starts at
// an odd float: every warp's store straddles 5 sectors for 4: 1.25x, over the compulsory bytes of y with
// its border ((R + 2)(C + 2)): 1.25 R C / ((R + 2)(C + 2)) = 1.2488x at L1 and L2; L2 merges the
// partial sectors. x: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1.2488x, y l2 1.2488x
__global__ void pad_copy(float* y, const float* x, int R, int C, int RP, int CP) {
  const int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;  // y: (RP,CP) = (R+2,C+2)  x: (R,C)
  if (r < R && c < C) y[(r + 1) * CP + c + 1] = x[r * C + c];
}

// Rows out of a wider leading dimension: y[r, c] = x[r * ld + c], C = 1000 of ld = 1024 columns, R = 32768.
// x's rows start 4 KiB apart (aligned): 1x a request (the last warp of a row has 8 lanes: one sector); the
// touched 4000 bytes of a row are 62.5 granules, 63 fetched: 1.008x at DRAM. y: rows of 4000 bytes start
// on a sector: 1x.
// truth: x l1 1x, x l2 1x, x dram 1.008x, y l1 1x, y l2 1x
__global__ void strided_rows_copy(float* y, const float* x, int C, int ld, int R) {
  const int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;  // y: (R,C)  x: (R,LD), C of its columns
  if (r < R && c < C) y[r * C + c] = x[r * ld + c];
}

// Reversed rows: y[r, c] = x[r, C - 1 - c], C = 4096, R = 16384: the same 4 sectors in the other order, 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x, y dram 0.76x..1x
__global__ void reverse_rows(float* y, const float* x, int R, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y, x: (R,C)
  if (i < R * C) y[i] = x[i / C * C + C - 1 - i % C];
}

// Each element three times: y[i] = x[i / 3], n = 3 * 2^23. A warp's 32 lanes read 11 or 12 consecutive
// floats, always within 2 sectors: 2 sectors a request for 128 / 3 bytes of x: 1.5x at L1; a block's 86
// floats are 11 sectors: 1x..1.13x at L2; DRAM 1x. y: 1x.
// truth: x l1 1.5x, x l2 1x..1.13x, x dram 1x, y l1 1x, y l2 1x
__global__ void repeat3(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y: (N3)  x: (N)
  if (i < 3 * n) y[i] = x[i / 3];
}

// Column sums, a thread per column walking the R rows: x[r, col] is 32 consecutive floats a warp, 1x; R =
// 8192, C = 8192 (256 MiB). y: 1x.
// truth: x l1 1x, x l2 1x, x dram 1x, y l1 1x, y l2 1x
__global__ void column_sum(float* y, const float* x, int R, int C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // y: (C)  x: (R,C)
  if (col >= C) return;
  float s = 0.f;
  for (int r = 0; r < R; ++r) s += x[r * C + col];
  y[col] = s;
}

// A fill from one scalar in memory: y[i] = *value, n = 2^25. value: one address a warp, a sector for 4
// bytes: n / 32 requests x 32 bytes over 4 = n / 4 = 8388608x at L1; DRAM moves its 64-byte granule
// once: 16x its 4 bytes. y: 1x.
// truth: value l1 8388608x, value dram 16x, y l1 1x, y l2 1x, y dram 0.53x..1x
__global__ void fill_from_scalar(float* y, const float* value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // y: (N)  value: (1)
  if (i < n) y[i] = *value;
}

#include "rooflint/dsl.h"
// Point3 holds f32 (three of them), as float4 does.
template <> struct rooflint::dsl::storage_dtypes<Point3> : rooflint::dsl::storage_dtypes<float> {};
namespace everyday_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct N3 final : dim<"N3"> {} N3;
inline constexpr struct R final : dim<"R"> {} R;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct M final : dim<"M"> {} M;
inline constexpr struct LD final : dim<"LD"> {} LD;
inline constexpr struct R2 final : dim<"R2"> {} R2;
inline constexpr struct C2 final : dim<"C2"> {} C2;
inline constexpr struct One final : dim<"One", 1> {} One;
inline constexpr struct Two final : dim<"Two", 2> {} Two;
inline constexpr struct Three final : dim<"Three", 3> {} Three;

inline constexpr auto aos_to_soa3_spec =
    kernel<aos_to_soa3>("aos_to_soa3", custom(0, out<0>("x", f32, N), out<1>("y", f32, N), out<2>("z", f32, N), in<3>("p", f32, N, Three)))
        .at(N(1 << 24)).sizes(N(arg<4>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto soa_to_aos3_spec =
    kernel<soa_to_aos3>("soa_to_aos3", custom(0, out<0>("p", f32, N, Three), in<1>("x", f32, N), in<2>("y", f32, N), in<3>("z", f32, N)))
        .at(N(1 << 24)).sizes(N(arg<4>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto complex_mul_spec =
    kernel<complex_mul>("complex_mul", custom(6 * N, out<0>("c", f32, N, Two), in<1>("a", f32, N, Two), in<2>("b", f32, N, Two)))
        .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto real_part_spec =
    kernel<real_part>("real_part", custom(0, out<0>("re", f32, N), in<1>("z", f32, N, Two).touches(N)))
        .at(N(1 << 24)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto daxpy_spec =
    kernel<daxpy>("daxpy", custom(2 * N, inout<0>("y", f64, N), in<1>("x", f64, N)))
        .at(N(1 << 24)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto quantize_int8_spec =
    kernel<quantize_int8>("quantize_int8", custom(0, out<0>("q", i8, N), in<1>("x", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto row_bias_spec =
    kernel<row_bias>("row_bias", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R, C), in<2>("b", f32, R)))
        .at(R(32768), C(1024)).sizes(R(arg<3>), C(arg<4>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto outer_product_spec =
    kernel<outer_product>("outer_product", custom(M * N, out<0>("y", f32, M, N), in<1>("a", f32, M), in<2>("b", f32, N)))
        .at(M(8192), N(8192)).sizes(M(arg<3>), N(arg<4>)).block(32, 8).grid(ceil_div(N, 32), ceil_div(M, 8));
inline constexpr auto pad_copy_spec =
    kernel<pad_copy>("pad_copy", custom(0, out<0>("y", f32, R2, C2), in<1>("x", f32, R, C)))
        .at(R(4096), C(4096), R2(4098), C2(4098)).sizes(R(arg<2>), C(arg<3>), R2(arg<4>), C2(arg<5>)).block(32, 8)
        .grid(ceil_div(C, 32), ceil_div(R, 8));
inline constexpr auto strided_rows_copy_spec =
    kernel<strided_rows_copy>("strided_rows_copy", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R, LD).touches(R * C)))
        .at(R(32768), C(1000), LD(1024)).sizes(C(arg<2>), LD(arg<3>), R(arg<4>)).block(32, 8).grid(ceil_div(C, 32), ceil_div(R, 8));
inline constexpr auto reverse_rows_spec =
    kernel<reverse_rows>("reverse_rows", custom(0, out<0>("y", f32, R, C), in<1>("x", f32, R, C)))
        .at(R(16384), C(4096)).sizes(R(arg<2>), C(arg<3>)).block(256).grid(ceil_div(R * C, 256));
inline constexpr auto repeat3_spec =
    kernel<repeat3>("repeat3", custom(0, out<0>("y", f32, N, Three), in<1>("x", f32, N)))
        .at(N(1 << 23)).sizes(N(arg<2>)).block(256).grid(ceil_div(3 * N, 256));
inline constexpr auto column_sum_spec =
    kernel<column_sum>("column_sum", reduction(in<1>("x", f32, R, C), out<0>("y", f32, C)))
        .at(R(8192), C(8192)).sizes(R(arg<2>), C(arg<3>)).block(128).grid(ceil_div(C, 128));
inline constexpr auto fill_from_scalar_spec =
    kernel<fill_from_scalar>("fill_from_scalar", custom(0, out<0>("y", f32, N), in<1>("value", f32, One)))
        .at(N(1 << 25)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
}  // namespace everyday_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_everyday_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  for (const bool gather : {true, false}) {
    const char* name = gather ? "aos_to_soa3" : "soa_to_aos3";
    if (!wanted(name)) continue;
    Case c(name);
    const int n = 1 << 24;
    Point3* p = c.zeros<Point3>(n);
    float *x = c.zeros<float>(n), *y = c.zeros<float>(n), *z = c.zeros<float>(n);
    if (c.ready() && gather) aos_to_soa3<<<blocks(n, 256), 256>>>(x, y, z, p, n);
    if (c.ready() && !gather) soa_to_aos3<<<blocks(n, 256), 256>>>(p, x, y, z, n);
    c.done();
  }
  if (wanted("complex_mul")) {
    Case c("complex_mul");
    const int n = 1 << 24;
    float2 *out = c.zeros<float2>(n), *a = c.zeros<float2>(n), *b = c.zeros<float2>(n);
    if (c.ready()) complex_mul<<<blocks(n, 256), 256>>>(out, a, b, n);
    c.done();
  }
  if (wanted("real_part")) {
    Case c("real_part");
    const int n = 1 << 24;
    float* re = c.zeros<float>(n);
    float2* z = c.zeros<float2>(n);
    if (c.ready()) real_part<<<blocks(n, 256), 256>>>(re, z, n);
    c.done();
  }
  if (wanted("daxpy")) {
    Case c("daxpy");
    const int n = 1 << 24;
    double *y = c.zeros<double>(n), *x = c.zeros<double>(n);
    if (c.ready()) daxpy<<<blocks(n, 256), 256>>>(y, x, 2.0, n);
    c.done();
  }
  if (wanted("quantize_int8")) {
    Case c("quantize_int8");
    const int n = 1 << 25;
    signed char* q = c.zeros<signed char>(n);
    float* x = c.zeros<float>(n);
    if (c.ready()) quantize_int8<<<blocks(n, 256), 256>>>(q, x, 0.5f, n);
    c.done();
  }
  if (wanted("row_bias")) {
    Case c("row_bias");
    const int R = 32768, C = 1024;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(R) * C), *b = c.zeros<float>(R);
    if (c.ready()) row_bias<<<blocks(1ll * R * C, 256), 256>>>(y, x, b, R, C);
    c.done();
  }
  if (wanted("outer_product")) {
    Case c("outer_product");
    const int M = 8192, N = 8192;
    float *y = c.zeros<float>(Z(M) * N), *a = c.zeros<float>(M), *b = c.zeros<float>(N);
    if (c.ready()) outer_product<<<dim3(N / 32, M / 8), dim3(32, 8)>>>(y, a, b, M, N);
    c.done();
  }
  if (wanted("pad_copy")) {
    Case c("pad_copy");
    const int R = 4096, C = 4096;
    float *y = c.zeros<float>(Z(R + 2) * (C + 2)), *x = c.zeros<float>(Z(R) * C);
    if (c.ready()) pad_copy<<<dim3(C / 32, R / 8), dim3(32, 8)>>>(y, x, R, C, R + 2, C + 2);
    c.done();
  }
  if (wanted("strided_rows_copy")) {
    Case c("strided_rows_copy");
    const int R = 32768, C = 1000, ld = 1024;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(R) * ld);
    if (c.ready()) strided_rows_copy<<<dim3(blocks(C, 32), R / 8), dim3(32, 8)>>>(y, x, C, ld, R);
    c.done();
  }
  if (wanted("reverse_rows")) {
    Case c("reverse_rows");
    const int R = 16384, C = 4096;
    float *y = c.zeros<float>(Z(R) * C), *x = c.zeros<float>(Z(R) * C);
    if (c.ready()) reverse_rows<<<blocks(1ll * R * C, 256), 256>>>(y, x, R, C);
    c.done();
  }
  if (wanted("repeat3")) {
    Case c("repeat3");
    const int n = 1 << 23;
    float *y = c.zeros<float>(Z(3) * n), *x = c.zeros<float>(n);
    if (c.ready()) repeat3<<<blocks(3ll * n, 256), 256>>>(y, x, n);
    c.done();
  }
  if (wanted("column_sum")) {
    Case c("column_sum");
    const int R = 8192, C = 8192;
    float *y = c.zeros<float>(C), *x = c.zeros<float>(Z(R) * C);
    if (c.ready()) column_sum<<<C / 128, 128>>>(y, x, R, C);
    c.done();
  }
  if (wanted("fill_from_scalar")) {
    Case c("fill_from_scalar");
    const int n = 1 << 25;
    float *y = c.zeros<float>(n), *value = c.zeros<float>(1);
    if (c.ready()) fill_from_scalar<<<blocks(n, 256), 256>>>(y, value, n);
    c.done();
  }
}
#endif
