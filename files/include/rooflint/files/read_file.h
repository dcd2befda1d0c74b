#pragma once
/// @file read_file.h
/// Reading an input file whole, after checking that it is one: a directory, a character device
/// (/dev/zero), a FIFO or a socket is refused before a byte is read (reading /dev/zero never ends), and
/// so is a file larger than its kind can be.

#include <cstddef>
#include <optional>
#include <string>

namespace rooflint::files {

/// Reads the regular file @p path (a symbolic link is followed), of at most @p max_bytes bytes. On
/// failure returns nullopt and sets @p error, naming the file as @p what ("manifest", "ceilings file"):
/// "cannot read manifest 'x.json': No such file or directory", "manifest '/dev/zero' is not a regular
/// file (a character device)", "manifest 'big.json' is 300000000 bytes, more than 268435456".
std::optional<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, const std::string& what,
                                             std::string& error);

}  // namespace rooflint::files
