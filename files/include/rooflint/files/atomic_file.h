#pragma once
/// @file atomic_file.h
/// Output files written whole or not at all. A report, a manifest or a ceilings file that ends up
/// truncated (a full disk, a file-size limit) is worse than none: a reader takes it for the whole
/// thing, or rejects it and loses what the old file held. So every output goes to a temporary file
/// beside its target (the same directory, hence the same file system, where rename(2) is atomic),
/// is flushed to the disk, and only then is renamed over the target.

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace rooflint::io {

/// Writes @p contents to @p path whole or not at all. On failure @p path is untouched (an existing
/// file keeps its old contents), the temporary file is gone, and the returned message names the file
/// and the reason: "cannot write 'out/report.json': No space left on device". An existing path that is
/// not a regular file (/dev/stdout, /dev/null, a FIFO) is written in place, since it cannot be
/// replaced; a symbolic link is followed, and its target replaced. A new file gets mode 0666 less the
/// umask; a replaced one keeps its mode.
/// @return std::nullopt on success, else the error message.
[[nodiscard]] std::optional<std::string> write_file_atomically(const std::string& path, std::string_view contents);

/// Checks, before a long run, that write_file_atomically(@p path, ...) could create its file now: the
/// directory exists and accepts a new file, and @p path is not a directory. (A full disk shows only when
/// the contents are written.)
/// @return std::nullopt when it can, else the message write_file_atomically would give.
[[nodiscard]] std::optional<std::string> check_writable(const std::string& path);

/// For find_non_finite: a NaN is allowed (a writer's deliberate null, "not measured"); an infinity is not.
struct nan_is_null_t {};
inline constexpr nan_is_null_t nan_is_null{};

/// @return The JSON pointer of the first number in @p value that is not finite (nlohmann::json or
/// any type with its interface), or std::nullopt. JSON has no infinity or NaN: nlohmann::json writes
/// them as null and other writers as "inf", so a writer refuses them instead.
template <class Json>
std::optional<std::string> find_non_finite(const Json& value, bool allow_nan = false, const std::string& where = "") {
  if (value.is_number_float()) {
    const double x = value.template get<double>();
    if (std::isfinite(x) || (allow_nan && std::isnan(x))) return std::nullopt;
    return where.empty() ? std::string("/") : where;
  }
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      if (auto bad = find_non_finite(it.value(), allow_nan, where + "/" + it.key())) return bad;
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto bad = find_non_finite(value[i], allow_nan, where + "/" + std::to_string(i))) return bad;
  }
  return std::nullopt;
}

/// find_non_finite that lets NaN through (see nan_is_null).
template <class Json>
std::optional<std::string> find_non_finite(const Json& value, nan_is_null_t) { return find_non_finite(value, true); }

}  // namespace rooflint::io
