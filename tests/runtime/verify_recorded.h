#pragma once
// Recorded H200 measurements (CUPTI.md Appendix B) and specs for the verifier's host tests.

#include "rooflint/dsl.h"
#include "rooflint/model/peaks_table.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::verify_test {

inline constexpr struct N final : dsl::dim<"N"> {} N;
inline constexpr struct S final : dsl::dim<"S"> {} S;

inline void saxpy(int, float, const float*, float*) {}
inline void sgemm(const float*, const float*, float*, int) {}

/// saxpy: y = a x + y, 2 FLOP per element when elementwise work is counted; 8N bytes read, 4N written.
inline constexpr auto saxpy_unexpected = dsl::kernel<saxpy>("saxpy", dsl::elementwise(2, dsl::in<2>("x", dsl::f32, N),     // x: (N)
                                                                                           dsl::inout<3>("y", dsl::f32, N)))  // y: (N)
                                             .count_elementwise();
/// The same, expecting the verdict it gets. (A test that expects the other bound starts from
/// saxpy_unexpected: contradicting an earlier .expect() does not compile.)
inline constexpr auto saxpy_spec = saxpy_unexpected.expect(dsl::memory_bound);

/// Square SGEMM C = A B, all (S,S): 2 S^3 FLOP, 12 S^2 bytes.
inline constexpr auto sgemm_spec = dsl::kernel<sgemm>("sgemm", dsl::matmul(dsl::in<0>("A", dsl::f32, S, S),    // A: (S,S)
                                                                           dsl::in<1>("B", dsl::f32, S, S),    // B: (S,S)
                                                                           dsl::out<2>("C", dsl::f32, S, S)));  // C: (S,S)

inline constexpr double saxpy_n = 67108864;  // 2^26

/// saxpy at N = 2^26 on the H200: DRAM read 5.369e8 B, write 2.60e8 B, 238 us, FFMA 6.711e7,
/// L2 store sectors 8.3886e6 (exactly 4N / 32).
inline runtime::measurement recorded_saxpy() {
  runtime::measurement m;
  m.case_name = "saxpy_n64M";
  m.device = {"NVIDIA H200", "GH100", 9, 0, 132, 62914560, 188743680};
  auto& k = m.counters;
  k.available = true;
  k.dram_read_bytes = 5.369e8;
  k.dram_write_bytes = 2.60e8;
  k.l2_bytes = 1.213e9;
  k.l2_read_sectors = 16777216;
  k.l2_write_sectors = 8388608;
  k.duration_s = 238e-6;
  k.sm_clock_hz = 1.979e9;
  k.fp_available = true;
  k.fp_instructions = {{"ffma", 6.711e7}, {"fadd", 0}, {"fmul", 0}, {"dfma", 0}, {"dadd", 0},
                       {"dmul", 0},       {"hfma", 0}, {"hadd", 0}, {"hmul", 0}};
  k.passes = {{"core", 1}, {"fp", 1}};
  k.ranges_expected = 1;
  auto& t = m.timing;
  t.available = true;
  t.warmup = 3;
  t.repetitions = 30;
  t.median_s = 238e-6;
  t.min_s = 236e-6;
  t.max_s = 242e-6;
  t.clock_available = true;
  t.sm_mhz_min = t.sm_mhz_max = t.sm_mhz_mean = 1980;
  return m;
}

inline dsl::sizes saxpy_sizes() { return saxpy_spec.bind(N(static_cast<std::int64_t>(saxpy_n))).bound; }

inline model::peaks h200() { return *model::find_peaks("NVIDIA H200"); }

}  // namespace rooflint::verify_test
