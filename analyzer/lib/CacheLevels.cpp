#include "rooflint/analyzer/Traffic.h"

namespace rooflint::analyzer {

std::optional<CacheLevels> CacheLevels::of(const model::gpu_geometry &G) {
  if (!G.known()) return std::nullopt;
  CacheLevels L;
  L.L1BytesPerSm = G.l1_shared_bytes_per_sm;
  L.L2Bytes = G.l2_bytes;
  L.Sms = G.sm_count;
  L.MaxThreadsPerSm = G.max_threads_per_sm;
  L.MaxBlocksPerSm = G.max_blocks_per_sm;
  L.RegistersPerSm = G.registers_per_sm;
  L.RegisterUnit = G.register_unit;
  L.ReservedSharedPerBlock = G.reserved_shared_bytes_per_block;
  L.SectorBytes = G.sector_bytes;
  L.DriverSharedPerBlock = G.driver_shared_bytes_per_block;
  L.L1KeptFraction = G.l1_kept_fraction;
  L.L2KeptFraction = G.l2_kept_fraction;
  L.DramAccessBytes = G.dram_access_bytes;
  L.SharedConfigsKiB.assign(G.shared.kib.begin(), G.shared.kib.begin() + G.shared.count);
  return L;
}

}  // namespace rooflint::analyzer
