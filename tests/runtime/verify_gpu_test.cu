// The verifier on a GPU: the L2 flush leaves no dirty lines, copy and saxpy move their compulsory bytes,
// a stride-33 gather fails with an ideal-traffic error, a launch count that does not match the ranges
// is caught, and a faulting kernel is reported while the other cases go on. Skips without a device.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "support/cuda_check.h"
#include "cupti/cupti.h"
#include "rooflint/runtime/gtest.h"
#include "measure/l2_flush.h"
#include "rooflint/runtime/verify.h"

using namespace rooflint;
using namespace rooflint::runtime;

namespace gpu_test {

inline constexpr struct N final : dsl::dim<"N"> {} N;

__global__ void empty_kernel() {}

__global__ void read_kernel(std::size_t n, const float* in, float* sink) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    acc += in[i];
  if (acc == 12345.678f) *sink = acc;
}

__global__ void copy(int n, const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

/// out[i] = in[(33 i) mod n]: with n a power of two this reads every element once (a permutation),
/// but neighbouring threads read 132 bytes apart, one sector each.
__global__ void gather33(int n, const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(static_cast<long long>(i) * 33) & (n - 1)];
}

__global__ void write_through_null(float* p) { p[threadIdx.x] = 1.0f; }

inline constexpr auto copy_spec = dsl::kernel<copy>("copy", dsl::unary(0, dsl::in<1>("in", dsl::f32, N),     // in: (N)
                                                                        dsl::out<2>("out", dsl::f32, N)))  // out: (N)
                                      .expect(dsl::memory_bound);
inline constexpr auto saxpy_spec = dsl::kernel<saxpy>("saxpy", dsl::elementwise(2, dsl::in<2>("x", dsl::f32, N),     // x: (N)
                                                                                     dsl::inout<3>("y", dsl::f32, N)))  // y: (N)
                                       .count_elementwise()
                                       .expect(dsl::memory_bound);
inline constexpr auto gather_spec = dsl::kernel<gather33>("gather33", dsl::unary(0, dsl::in<1>("in", dsl::f32, N),     // in: (N)
                                                                                   dsl::out<2>("out", dsl::f32, N)));  // out: (N)
inline constexpr auto fault_spec = dsl::kernel<write_through_null>("write_through_null",
                                                                   dsl::elementwise(0, dsl::out<0>("p", dsl::f32, N)));  // p: (N)

constexpr int big = 1 << 26;  // 256 MiB per f32 tensor, four times the H200's L2
inline unsigned blocks(int n) { return static_cast<unsigned>((n + 255) / 256); }

ROOFLINT_VERIFY_CASE(gpu_copy_n64M, copy_spec, N(big)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* in = ctx.random<float>(n);  // (N)
  float* out = ctx.poisoned<float>(n);     // (N)
  return launcher{.launch = [=](cudaStream_t s) { copy<<<blocks(n), 256, 0, s>>>(n, in, out); }};
}

ROOFLINT_VERIFY_CASE(gpu_saxpy_n64M, saxpy_spec, N(big)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* x = ctx.random<float>(n);  // (N)
  float* y = ctx.random<float>(n);        // (N)
  return launcher{.launch = [=](cudaStream_t s) { saxpy<<<blocks(n), 256, 0, s>>>(n, 2.0f, x, y); }};
}

ROOFLINT_VERIFY_CASE(gpu_gather33_n64M, gather_spec, N(big)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* in = ctx.random<float>(n);  // (N)
  float* out = ctx.poisoned<float>(n);     // (N)
  return launcher{.launch = [=](cudaStream_t s) { gather33<<<blocks(n), 256, 0, s>>>(n, in, out); }};
}

/// Declares one launch but makes two: CUPTI records two ranges, which the verifier must not ignore.
ROOFLINT_VERIFY_CASE(gpu_copy_twice_declared_once, copy_spec, N(1 << 20)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* in = ctx.random<float>(n);  // (N)
  float* out = ctx.poisoned<float>(n);     // (N)
  return launcher{.launch = [=](cudaStream_t s) {
    copy<<<blocks(n), 256, 0, s>>>(n, in, out);
    copy<<<blocks(n), 256, 0, s>>>(n, in, out);
  }};
}

/// A region of two kernels (dsl/region.h): in -> tmp -> out, two copies through a buffer the spec does not
/// name. The launcher leaves `launches` to the spec (2).
inline constexpr auto copy_via_tmp_spec =
    dsl::region<copy, copy>("copy_via_tmp", dsl::unary(0, dsl::in("in", dsl::f32, N),     // in: (N)
                                                          dsl::out("out", dsl::f32, N)))  // out: (N)
        .expect(dsl::memory_bound);

ROOFLINT_VERIFY_CASE(gpu_region_copy_via_tmp_n64M, copy_via_tmp_spec, N(big)) {
  const int n = static_cast<int>(ctx.size(N));
  const float* in = ctx.random<float>(n);  // (N)
  float* tmp = ctx.poisoned<float>(n);     // (N), between the two kernels
  float* out = ctx.poisoned<float>(n);     // (N)
  return launcher{.launch = [=](cudaStream_t s) {
    copy<<<blocks(n), 256, 0, s>>>(n, in, tmp);
    copy<<<blocks(n), 256, 0, s>>>(n, tmp, out);
  }};
}

ROOFLINT_VERIFY_CASE(gpu_fault_null_store, fault_spec, N(256)) {
  return launcher{.launch = [](cudaStream_t s) { write_through_null<<<1, 256, 0, s>>>(nullptr); }};
}

/// @return Whether a CUDA device exists, asked in a child process so that this process's CUDA stays
/// uninitialised (the verifier forks its case processes; CUDA does not survive a fork).
bool device_present_in_child() {
  const pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    _exit(cudaGetDeviceCount(&n) == cudaSuccess && n > 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool device_present() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

verify_options quiet() {
  verify_options o;
  o.isolate = false;
  o.progress = false;
  o.repetitions = 10;
  return o;
}

/// The process's range profiler (shared with the verifier) and a core config, for the flush tests.
struct counting {
  cupti::range_profiler* profiler = nullptr;
  std::optional<cupti::config> core;
  std::string why_not;
  bool permission_denied = false;
  static counting& get() {
    static counting c = [] {
      counting c;
      auto rp = cupti::range_profiler::shared(0);
      if (!rp) {
        c.why_not = rp.err().message;
        c.permission_denied = rp.err().code == rooflint::error_code::permission_denied;
        return c;
      }
      auto cfg = cupti::config::create((*rp)->chip(), (*rp)->counter_availability(), cupti::core_metrics());
      if (!cfg) { c.why_not = cfg.err().message; return c; }
      c.core.emplace(std::move(*cfg));
      c.profiler = *rp;
      return c;
    }();
    return c;
  }
};

constexpr int dram_write = 1;  // index in core_metrics()

}  // namespace gpu_test

using namespace gpu_test;

TEST(L2Flush, EmptyKernelAfterTheReadOnlyFlushShowsNoDramWrites) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto& c = counting::get();
  if (!c.profiler && c.permission_denied) GTEST_SKIP() << "no permission for GPU counters: " << c.why_not;
  ASSERT_NE(c.profiler, nullptr) << "CUPTI counters unavailable: " << c.why_not;
  auto flush = l2_flush::create(3);
  ASSERT_TRUE(flush.ok()) << flush.err().message;
  void* dirty = nullptr;
  ASSERT_EQ(cudaMalloc(&dirty, 32 << 20), cudaSuccess);
  const auto prepare = [&]() -> result<void> {
    ROOFLINT_TRY_CUDA(cudaMemset(dirty, 1, 32 << 20));  // 32 MiB of dirty lines in L2
    ROOFLINT_TRY(flush->enqueue(nullptr));             // evicted here, outside the window
    ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
    return success();
  };
  const auto launch = [&]() -> result<void> {
    empty_kernel<<<1, 32>>>();
    ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
    return success();
  };
  auto v = c.profiler->collect(*c.core, 1, prepare, launch);
  ASSERT_TRUE(v.ok()) << v.err().message;
  EXPECT_LT((*v)[dram_write], 64 * 1024) << "DRAM bytes written by an empty kernel after the flush";
  cudaFree(dirty);
}

TEST(L2Flush, MemsetAloneLeavesDirtyLinesThatLandInTheMeasuredWindow) {
  // The control for the test above: without the read-only sweep, a kernel that reads 256 MiB evicts
  // the memset's dirty lines left in L2 inside its own window.
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto& c = counting::get();
  if (!c.profiler && c.permission_denied) GTEST_SKIP() << "no permission for GPU counters: " << c.why_not;
  ASSERT_NE(c.profiler, nullptr) << "CUPTI counters unavailable: " << c.why_not;
  void *dirty = nullptr, *big_in = nullptr, *sink = nullptr;
  ASSERT_EQ(cudaMalloc(&dirty, 32 << 20), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&big_in, 256 << 20), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&sink, 4), cudaSuccess);
  ASSERT_EQ(cudaMemset(big_in, 0, 256 << 20), cudaSuccess);
  const auto prepare = [&]() -> result<void> {
    ROOFLINT_TRY_CUDA(cudaMemset(dirty, 1, 32 << 20));
    ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
    return success();
  };
  const auto launch = [&]() -> result<void> {
    read_kernel<<<528, 256>>>((256 << 20) / 4, static_cast<const float*>(big_in), static_cast<float*>(sink));
    ROOFLINT_TRY_CUDA(cudaDeviceSynchronize());
    return success();
  };
  auto v = c.profiler->collect(*c.core, 1, prepare, launch);
  ASSERT_TRUE(v.ok()) << v.err().message;
  // docs/cupti.md §6: measured +5.1 MB after an L2-sized memset: much of a memset's dirty data is written back
  // while it runs; what is left in L2 at its end lands here.
  EXPECT_GT((*v)[dram_write], 1e6) << "DRAM bytes written by a read-only kernel after a memset";
  cudaFree(dirty);
  cudaFree(big_in);
  cudaFree(sink);
}

TEST(VerifyCopy, ObservedDramBytesAreWithinThreePercentOfCompulsory) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto run = verify_in_process("gpu_copy_n64M", quiet());
  ASSERT_TRUE(run.ok()) << run.err().message;
  const case_report& r = run->cases.at(0);
  if (!r.compared.traffic_measured && r.measured.counters.permission_denied)
    GTEST_SKIP() << "no permission for GPU counters: " << r.measured.counters.unavailable_reason;
  ASSERT_TRUE(r.compared.traffic_measured) << "CUPTI counters unavailable: " << r.measured.counters.unavailable_reason;
  EXPECT_NEAR(r.compared.read_ratio, 1.0, 0.03);
  EXPECT_NEAR(r.compared.write_ratio, 1.0, 0.03);
  EXPECT_EQ(r.status, case_status::passed) << test_support::findings_text(r);
}

TEST(VerifySaxpy, ObservedDramBytesAreWithinThreePercentOfCompulsoryAndFfmaEqualsN) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto run = verify_in_process("gpu_saxpy_n64M", quiet());
  ASSERT_TRUE(run.ok()) << run.err().message;
  const case_report& r = run->cases.at(0);
  if (!r.compared.traffic_measured && r.measured.counters.permission_denied)
    GTEST_SKIP() << "no permission for GPU counters: " << r.measured.counters.unavailable_reason;
  ASSERT_TRUE(r.compared.traffic_measured) << "CUPTI counters unavailable: " << r.measured.counters.unavailable_reason;
  EXPECT_NEAR(r.compared.read_ratio, 1.0, 0.03);
  EXPECT_DOUBLE_EQ(r.measured.counters.l2_write_bytes(), 4.0 * big);  // exact written volume
  ASSERT_TRUE(r.measured.counters.fp_available);
  EXPECT_DOUBLE_EQ(r.measured.counters.fp_instructions.at("ffma"), static_cast<double>(big));
  EXPECT_GT(r.measured.timing.median_s, 0);
  EXPECT_EQ(r.status, case_status::passed) << test_support::findings_text(r);
}

TEST(VerifySaxpy, GtestHelperPasses) {
  ROOFLINT_EXPECT_VERIFIED(gpu_saxpy_n64M);
}

TEST(VerifyGather, StrideThirtyThreeFailsWithAnIdealTrafficError) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto run = verify_in_process("gpu_gather33_n64M", quiet());
  ASSERT_TRUE(run.ok()) << run.err().message;
  const case_report& r = run->cases.at(0);
  if (!r.compared.traffic_measured && r.measured.counters.permission_denied)
    GTEST_SKIP() << "no permission for GPU counters: " << r.measured.counters.unavailable_reason;
  ASSERT_TRUE(r.compared.traffic_measured) << "CUPTI counters unavailable: " << r.measured.counters.unavailable_reason;
  EXPECT_GT(r.compared.read_ratio, 4.0);
  EXPECT_EQ(r.status, case_status::failed);
  bool error = false;
  for (const auto& f : r.findings) error = error || (f.id == "rooflint-ideal-traffic" && f.level == severity::error);
  EXPECT_TRUE(error) << test_support::findings_text(r);
}

TEST(VerifyRegion, SumsItsKernelsAgainstTheOperationsCompulsoryBytes) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto run = verify_in_process("gpu_region_copy_via_tmp_n64M", quiet());
  ASSERT_TRUE(run.ok()) << run.err().message;
  const case_report& r = run->cases.at(0);
  if (!r.compared.traffic_measured && r.measured.counters.permission_denied)
    GTEST_SKIP() << "no permission for GPU counters: " << r.measured.counters.unavailable_reason;
  ASSERT_TRUE(r.compared.traffic_measured) << "CUPTI counters unavailable: " << r.measured.counters.unavailable_reason;
  EXPECT_EQ(r.measured.counters.ranges_expected, 2);  // the spec's two kernels, one range each
  // Compulsory: in read once (4N), out written once (4N). The two kernels read in and tmp (8N) and
  // write tmp and out (8N); tmp (256 MiB) is four times the L2, so both reach DRAM: 2x each way.
  EXPECT_NEAR(r.compared.read_ratio, 2.0, 0.06);
  EXPECT_DOUBLE_EQ(r.measured.counters.l2_write_bytes(), 8.0 * big);  // exact written volume of both kernels
}

TEST(VerifyRanges, MoreLaunchesThanDeclaredAreNotCountedSilently) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  auto run = verify_in_process("gpu_copy_twice_declared_once", quiet());
  ASSERT_TRUE(run.ok()) << run.err().message;
  const case_report& r = run->cases.at(0);
  EXPECT_FALSE(r.measured.counters.available);
  EXPECT_NE(r.measured.counters.unavailable_reason.find("2 ranges"), std::string::npos) << r.measured.counters.unavailable_reason;
}

TEST(VerifyFaultDeathTest, FaultingKernelFailsItsCaseAndTheOthersGoOn) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: CUDA must not be initialised before fork
  if (!device_present_in_child()) GTEST_SKIP() << "no CUDA device";
  const auto run = [] {
    verify_options o;
    o.filter = "^(gpu_fault_null_store|gpu_copy_n64M)$";
    o.repetitions = 3;
    auto report = verify(o);
    if (!report) _exit(100);
    const bool fault_reported = report->cases.at(0).status == case_status::passed &&  // copy, registered first
                                report->cases.at(1).status == case_status::error &&
                                report->cases.at(1).measured.status == run_status::faulted;
    std::fprintf(stderr, "%s", to_table(*report).c_str());
    _exit(fault_reported ? report->exit_code : 101);
  };
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(exit_cannot_measure), "gpu_fault_null_store.*faulted");
}

// Data for cases (verify_case.h): token ids below V, zeros, and a buffer filled by a kernel of the case's own.
namespace gpu_test {
__global__ void iota(std::int32_t* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = i;
}
}  // namespace gpu_test

TEST(CaseData, RandomIntegersStayInTheirRangeZerosAreZeroAndAnOwnKernelFills) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  const auto bound = gpu_test::copy_spec.bind(gpu_test::N(1 << 16));
  case_context ctx(gpu_test::copy_spec, bound.bound);
  constexpr int n = 1 << 16, v = 1000;
  const std::int32_t* ids = ctx.random_integers<std::int32_t>(n, 0, v);
  const std::int64_t* wide = ctx.random_integers<std::int64_t>(n, -5, 5);
  const float* zeros = ctx.zeros<float>(n);
  std::int32_t* own = ctx.uninitialized<std::int32_t>(n);
  gpu_test::iota<<<n / 256, 256>>>(own, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::int32_t> h_ids(n), h_own(n);
  std::vector<std::int64_t> h_wide(n);
  std::vector<float> h_zeros(n);
  ASSERT_EQ(cudaMemcpy(h_ids.data(), ids, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(h_wide.data(), wide, n * sizeof(std::int64_t), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(h_zeros.data(), zeros, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(h_own.data(), own, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<bool> seen(v);
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(h_ids[i] >= 0 && h_ids[i] < v) << i << ": " << h_ids[i];
    ASSERT_TRUE(h_wide[i] >= -5 && h_wide[i] < 5) << i << ": " << h_wide[i];
    ASSERT_EQ(h_zeros[i], 0.0f);
    ASSERT_EQ(h_own[i], i);
    seen[h_ids[i]] = true;
  }
  // 65,536 uniform draws over 1000 ids miss a given id with probability (999/1000)^65536, about 4e-29.
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), v);
}

// Per-line traffic (docs/verifier.md, "Per-line traffic") through verify(): the case's own process under
// CUPTI's SASS metrics. gather33 over n = 2^26 floats: n / 32 = 2097152 warp requests per instruction;
// the load's lanes are 132 bytes apart, one 32-byte sector each: 32 sectors per request against the 4 its
// 128 bytes need; the store is coalesced: 4 against 4. Summed per kind over the observed lines, or over
// the unmapped instructions where this binary has no line information. In a fresh process (death-test
// style threadsafe: verify forks before any CUDA call). Where CUPTI's SASS metrics are not available
// (no counter permission, another profiler) the child says why and passes.
TEST(VerifyLinesDeathTest, TheGatherLoadTouchesThirtyTwoSectorsPerRequestAgainstAnIdealOfFour) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  if (!device_present_in_child()) GTEST_SKIP() << "no CUDA device";
  const auto run = [] {
    verify_options o;
    o.filter = "^gpu_gather33_n64M$";
    o.repetitions = 3;
    o.lines = lines_mode::all;
    auto report = verify(o);
    if (!report) _exit(100);
    const line_report& l = report->cases.at(0).lines;
    if (!l.collected) {
      std::fprintf(stderr, "per-line traffic not available: %s\n", l.not_available.c_str());
      _exit(0);
    }
    double req[4] = {}, sec[4] = {}, ideal[4] = {};
    for (const observed_line& x : l.observed) {
      const int k = static_cast<int>(x.op);
      req[k] += x.requests, sec[k] += x.sectors, ideal[k] += x.ideal_sectors;
    }
    for (const instruction_traffic& t : l.unmapped) {
      const int k = static_cast<int>(t.op);
      req[k] += t.requests, sec[k] += t.sectors, ideal[k] += t.ideal_sectors();
    }
    const int ld = static_cast<int>(memory_op::load), st = static_cast<int>(memory_op::store);
    std::fprintf(stderr, "load %.0f requests %.1f/%.1f store %.0f requests %.1f/%.1f\n", req[ld], sec[ld] / req[ld],
                 ideal[ld] / req[ld], req[st], sec[st] / req[st], ideal[st] / req[st]);
    _exit(0);
  };
  // Not available passes only for what the machine decides (counter permission, another profiler, a
  // device or chip without the metrics), never for a broken child, protocol or correlation.
  EXPECT_EXIT(run(), ::testing::ExitedWithCode(0),
              "load 2097152 requests 32\\.0/4\\.0 store 2097152 requests 4\\.0/4\\.0|"
              "per-line traffic not available: .*(permission|profil|do not support|offers no SASS metric)");
}
