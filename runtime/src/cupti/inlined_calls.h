#pragma once
/// @file inlined_calls.h
/// The call sites of inlined code, from a cubin's own line table: what CUPTI's source correlation
/// (source_correlation.h) does not give. CUPTI places a PC at its innermost location, so an `__ldg` or
/// an `atomicAdd` inlined into a kernel is on the toolkit header's line, every call of it together;
/// the per-line report names the line that called it (rooflint/files/source_position.h).
///
/// The table is the cubin's `.debug_line` (DWARF 2-4 line programs, one sequence per function, whose
/// `DW_LNE_set_address` a relocation of `.rela.debug_line` ties to the function's symbol). nvcc's
/// `-lineinfo` adds an extended opcode, 0x90, with two ULEB128 operands: the *context* (the 1-based
/// number, within the sequence, of the row at which the code that follows was inlined; 0 for the
/// function's own code) and an offset into `.debug_str` (the inlined function's name). The context stays
/// until the next 0x90. Read from cubins nvcc 13.0 builds for sm_90 (`readelf --debug-dump=rawline`
/// shows the opcode as "user defined" with those operands; the rows they name are the calls' lines):
/// an `__ldg` inside a user's inlined helper has the context of the helper's row, whose context is the
/// kernel's line that called the helper.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::cupti {

/// The rows of a cubin's line table per function, with their inlining contexts.
class inlined_calls {
 public:
  /// @return The table of @p cubin (an ELF image); an empty table for a cubin without line information;
  /// invalid_argument for one that is not a 64-bit little-endian ELF or whose line table is malformed.
  static result<inlined_calls> parse(const std::vector<char>& cubin);

  /// @return The locations of @p pc in @p function, innermost first, then each call site outward to the
  /// function's own line; empty when the table has no row for it.
  std::vector<source_location> chain(const std::string& function, std::uint32_t pc) const;

  /// One row of a sequence: a PC, its location and the row it was inlined at (0-based; -1: none).
  struct row {
    std::uint64_t pc = 0;
    source_location where;
    int inlined_at = -1;
  };

 private:
  std::map<std::string, std::vector<row>> functions_;
};

/// @return @p innermost, or the innermost of @p chain's call sites outside the toolchain's headers when
/// @p innermost is in one and @p chain starts at it (the same file and line).
source_location user_line(const source_location& innermost, const std::vector<source_location>& chain);

}  // namespace rooflint::runtime::cupti
