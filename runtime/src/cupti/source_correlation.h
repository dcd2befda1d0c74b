#pragma once
/// @file source_correlation.h
/// PC -> file:line for a cubin's functions through CUPTI (cuptiGetSassToSourceCorrelation, cupti_pcsampling.h),
/// and a cubin's CRC (cuptiGetCubinCrc), which CUPTI's SASS metrics records carry (its low 32 bits) to say
/// which module a record's PC belongs to. Neither needs a GPU or a driver (checked on a machine without
/// either: tests/runtime/line_traffic_test.cpp builds a cubin and correlates it).
///
/// CUPTI gives the innermost location of the instruction: an inlined function's line, not its call's
/// (atomicAdd's RED is on a line of the toolkit's sm_20_atomic_functions.hpp). Where that is a toolchain
/// header, the correlation walks out to the line that called it, through the cubin's own line table
/// (inlined_calls.h); a helper the user wrote keeps its line. A cubin built without
/// -lineinfo (or -G) gives every PC no line: CUPTI returns success with no file. Past a function's end
/// CUPTI answers with the lines of the code that follows in the cubin: ask only for PCs the SASS records
/// name.

#include <cstdint>
#include <memory>
#include <vector>

#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::cupti {

/// @return CUPTI's CRC of @p cubin (an ELF image, as CUPTI's module-loaded callback hands it over).
result<std::uint64_t> cubin_crc(const std::vector<char>& cubin);

/// @return Whether the low 32 bits of @p crc (cubin_crc) are a SASS record's @p record_crc.
inline bool crc_matches(std::uint64_t crc, std::uint32_t record_crc) { return static_cast<std::uint32_t>(crc) == record_crc; }

/// @return A correlation over @p cubin (kept alive by the function): a PC's file (the directory joined when
/// CUPTI gives a relative name) and line, out of the toolchain's headers (rooflint/files/source_position.h);
/// an unknown location for a PC with no line; invalid_argument
/// for a function the cubin does not have.
correlate_fn correlation_of(std::shared_ptr<const std::vector<char>> cubin);

}  // namespace rooflint::runtime::cupti
