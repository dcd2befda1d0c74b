#pragma once
/// @file input_file.h
/// Input files read whole, and only when they are regular files. A tool given a directory, a FIFO or a
/// character device as an input would fail late (a directory), block for ever (a FIFO with no writer)
/// or read until memory runs out (/dev/zero), so such paths are refused before any byte is read.

#include <cstddef>
#include <optional>
#include <string>

namespace rooflint::io {

/// The largest input read_regular_file reads by default: far above any manifest, ceilings file or
/// report (kilobytes to a few megabytes), far below what would exhaust a build machine's memory.
inline constexpr std::size_t default_input_limit_bytes = std::size_t{1} << 30;

/// Reads @p path whole into @p contents. The file is opened without blocking (a FIFO's open would wait
/// for a writer) and checked to be a regular file before it is read; a symbolic link is followed.
/// @return std::nullopt on success, else the reason, naming the file: "cannot read 'x.json': No such
/// file or directory", "...: Is a directory", "...: not a regular file (a FIFO, socket or device)",
/// "...: larger than 1073741824 bytes".
[[nodiscard]] std::optional<std::string> read_regular_file(const std::string& path, std::string& contents,
                                                           std::size_t limit_bytes = default_input_limit_bytes);

}  // namespace rooflint::io
