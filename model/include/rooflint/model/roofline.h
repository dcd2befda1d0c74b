#pragma once
/// @file roofline.h
/// The roofline model (Williams, Waterman, Patterson, "Roofline: an insightful visual performance
/// model for multicore architectures", CACM 2009), in one place for the DSL, analyzer and runtime.

#include <algorithm>
#include <cassert>
#include <string_view>

#include "rooflint/model/peaks.h"

namespace rooflint::model {

/// The work of one kernel launch, as the roofline sees it.
struct workload {
  double flops = 0;                          ///< ideal FLOPs (FLOP)
  double bytes = 0;                          ///< compulsory bytes, read + written (bytes)
  math_mode mode = math_mode::fp32_simt;     ///< which compute roof applies
};

/// Which ceiling sets the floor.
enum class bound : unsigned char { memory, compute };

constexpr std::string_view name(bound b) { return b == bound::memory ? "memory-bound" : "compute-bound"; }

/// @return Arithmetic intensity in FLOP/byte; 0 when there are no bytes (nothing to divide by).
constexpr double intensity(const workload& w) { return w.bytes > 0 ? w.flops / w.bytes : 0; }

/// @return Ridge point in FLOP/byte: the intensity at which compute time equals memory time.
constexpr double ridge(const peaks& p, math_mode m) {
  assert(p.dram_bytes_per_s > 0 && "rooflint: ridge needs a positive bandwidth");
  return p.flops_per_s[m] / p.dram_bytes_per_s;
}

/// @return Time in seconds the arithmetic needs at the compute roof (0 if the roof is unknown).
constexpr double compute_time_s(const workload& w, const peaks& p) {
  return p.flops_per_s[w.mode] > 0 ? w.flops / p.flops_per_s[w.mode] : 0;
}

/// @return Time in seconds the compulsory traffic needs at the bandwidth roof.
constexpr double memory_time_s(const workload& w, const peaks& p) {
  return p.dram_bytes_per_s > 0 ? w.bytes / p.dram_bytes_per_s : 0;
}

/// @return The floor t_min in seconds: max(flops / peak_flops, bytes / peak_bandwidth).
/// No correct kernel beats it, except one that legitimately skips input.
constexpr double t_min_s(const workload& w, const peaks& p) {
  return std::max(compute_time_s(w, p), memory_time_s(w, p));
}

/// @return Attainable rate in FLOP/s at intensity @p ai: min(peak_flops, bandwidth * ai).
constexpr double attainable_flops_per_s(const peaks& p, math_mode m, double ai) {
  return std::min(p.flops_per_s[m], p.dram_bytes_per_s * ai);
}

/// @return Roofline fraction t_min / t_measured, in 0..1 for a kernel slower than its floor
/// (above 1 means faster than the roof: the ceilings or the spec are wrong). 0 if not measured.
constexpr double roofline_fraction(double t_min, double t_measured_s) {
  return t_measured_s > 0 ? t_min / t_measured_s : 0;
}

/// Which of a level's roofs a read/write mix meets, and the rate.
enum class mix_kind : unsigned char { read_only, write_only, read_write };

constexpr std::string_view name(mix_kind k) {
  switch (k) {
    case mix_kind::read_only: return "read-only";
    case mix_kind::write_only: return "write-only";
    case mix_kind::read_write: return "read and write";
  }
  return "unknown";
}

struct mix_roof {
  double bytes_per_s = 0;     ///< the roof for this mix, bytes/s (read + write counted); 0 = no roof known
  mix_kind kind = mix_kind::read_write;
  double write_fraction = 0;  ///< written / (read + written), 0..1
};

/// A mix counts as read-only (write-only) when at most this fraction of its bytes are written (read):
/// a reduction's 4-byte result does not make it a copy.
inline constexpr double pure_mix_fraction = 0.02;

/// @return The roof that @p read_bytes and @p write_bytes meet at a level with roofs @p r: the probes
/// measured the three mixes write_fraction = 0 (read), 0.5 (copy) and 1 (write); between two of them the
/// roof is interpolated linearly in the write fraction, beyond the outermost measured one it is that
/// probe's rate. A read-only (write-only) mix, pure_mix_fraction, meets the read (write) roof itself.
/// No traffic: the read roof (or the nearest measured one).
constexpr mix_roof roof_for_mix(const level_roofs& r, double read_bytes, double write_bytes) {
  mix_roof out;
  const double total = read_bytes + write_bytes;
  const double f = total > 0 ? write_bytes / total : 0;
  out.write_fraction = f;
  out.kind = f <= pure_mix_fraction ? mix_kind::read_only
             : f >= 1 - pure_mix_fraction ? mix_kind::write_only
                                          : mix_kind::read_write;
  if (out.kind == mix_kind::read_only && r.read_bytes_per_s > 0) return out.bytes_per_s = r.read_bytes_per_s, out;
  if (out.kind == mix_kind::write_only && r.write_bytes_per_s > 0) return out.bytes_per_s = r.write_bytes_per_s, out;
  const double xs[3] = {0, 0.5, 1};
  const double ys[3] = {r.read_bytes_per_s, r.copy_bytes_per_s, r.write_bytes_per_s};
  int lo = -1, hi = -1;  // the measured points nearest below and above f
  for (int i = 0; i < 3; ++i) {
    if (ys[i] <= 0) continue;
    if (xs[i] <= f) lo = i;
    if (xs[i] >= f && hi < 0) hi = i;
  }
  if (lo < 0 && hi < 0) return out;
  if (lo < 0) out.bytes_per_s = ys[hi];
  else if (hi < 0 || hi == lo) out.bytes_per_s = ys[lo];
  else out.bytes_per_s = ys[lo] + (ys[hi] - ys[lo]) * (f - xs[lo]) / (xs[hi] - xs[lo]);
  return out;
}

/// @return The roof @p read_bytes and @p write_bytes meet at memory level @p level of @p p: the level's
/// measured roofs (roof_for_mix), else at DRAM its datasheet bandwidth; 0 where neither is known.
constexpr mix_roof level_roof(const peaks& p, memory_level level, double read_bytes, double write_bytes) {
  mix_roof m = roof_for_mix(p.level(level), read_bytes, write_bytes);
  if (m.bytes_per_s <= 0 && level == memory_level::dram) m.bytes_per_s = p.dram_bytes_per_s;
  return m;
}

/// @return @p p with its DRAM roof that of @p read_bytes and @p write_bytes' mix (level_roof): the roof
/// a kernel's compulsory traffic meets, against which its floor t_min is judged.
constexpr peaks peaks_at_mix(const peaks& p, double read_bytes, double write_bytes) {
  peaks out = p;
  const mix_roof m = level_roof(p, memory_level::dram, read_bytes, write_bytes);
  if (m.bytes_per_s > 0) out.dram_bytes_per_s = m.bytes_per_s;
  return out;
}

/// Bytes at a level over the compulsory bytes above which a kernel moves more than it must (the
/// verifier's default, a spec's .max_traffic_ratio() overriding it): the caches' own overheads stay under.
inline constexpr double traffic_tolerance = 1.10;

/// The verdict of a workload against a set of peaks.
struct bound_result {
  bound verdict = bound::memory;  ///< the roof that sets t_min (floor_roof)
  double intensity = 0;       ///< FLOP/byte
  double ridge = 0;           ///< FLOP/byte
  double compute_time_s = 0;  ///< s
  double memory_time_s = 0;   ///< s
  double t_min_s = 0;         ///< s
};

/// Relative tolerance of the tie: times within it of each other count as equal, so rounding in
/// flops / bytes or peak / bandwidth cannot flip a verdict.
inline constexpr double tie_tolerance = 1e-12;

/// @return Which roof sets the floor t_min, given the times at each roof: compute when the compute time
/// reaches the memory time (the tie, within tie_tolerance, is compute's), memory otherwise. Zero FLOPs
/// is always memory. This is the one place that decides it: classify's verdict is this answer, and
/// every text that says which time is the floor ("t_min is set by ...", "memory time becomes the
/// floor") reads the verdict rather than comparing the two times again, which would disagree with the
/// verdict just under the ridge. Comparing times is comparing intensity with the ridge:
/// flops / F >= bytes / B  <=>  flops / bytes >= F / B.
constexpr bound floor_roof(double flops, double compute_time_s, double memory_time_s) {
  return (flops > 0 && compute_time_s >= memory_time_s * (1 - tie_tolerance)) ? bound::compute : bound::memory;
}

/// @return Memory- or compute-bound: the roof that sets the floor (floor_roof). A workload whose
/// intensity equals the ridge (compute time == memory time) is compute-bound.
constexpr bound_result classify(const workload& w, const peaks& p) {
  bound_result r;
  r.intensity = intensity(w);
  r.ridge = ridge(p, w.mode);
  r.compute_time_s = compute_time_s(w, p);
  r.memory_time_s = memory_time_s(w, p);
  r.t_min_s = std::max(r.compute_time_s, r.memory_time_s);
  r.verdict = floor_roof(w.flops, r.compute_time_s, r.memory_time_s);
  return r;
}

}  // namespace rooflint::model
