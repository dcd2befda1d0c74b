#pragma once
// Device memory the program frees is cleared by the driver in the background, after cuMemFree has
// returned and beyond cudaDeviceSynchronize: its DRAM writes land in whatever window runs meanwhile.
// Measured on the H200 (2026-12-04, scripts/probes/memory-clear.sh, a 0.32 ms saxpy counted in one
// profiling session): a window right after freeing 4 GiB that had been written counted 155 MiB of DRAM
// writes beyond its own, still 138 MiB 5 ms after the free and none 10 ms after; 16 GiB were clean 50 ms
// after (not 20); an allocation, touched or not, left nothing behind: 0.34 to 0.86 TB/s of clearing
// (0.5 from the 155 MiB in 0.32 ms), with the GPU otherwise idle. The next window waits for the bytes
// freed at 0.2 TB/s, under 60% of the slowest rate those measurements allow.

#include <chrono>
#include <cstddef>

namespace rooflint::runtime::inject {

class freed_memory {
 public:
  using clock = std::chrono::steady_clock;
  /// The clearing rate assumed: below every rate the H200 measurement allows.
  static constexpr double clearing_bytes_per_s = 0.2e12;

  /// An allocation of @p bytes was freed at @p now: its clearing follows the clearing still due.
  void freed(std::size_t bytes, clock::time_point now) {
    const auto clearing = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(static_cast<double>(bytes) / clearing_bytes_per_s));
    cleared_at_ = (cleared_at_ > now ? cleared_at_ : now) + clearing;
  }
  /// When the memory freed so far has been cleared (a time in the past once it has).
  clock::time_point cleared_at() const { return cleared_at_; }

 private:
  clock::time_point cleared_at_{};
};

}  // namespace rooflint::runtime::inject
