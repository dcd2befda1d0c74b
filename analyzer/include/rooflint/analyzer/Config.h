#pragma once
/// @file Config.h
/// The `.rooflint` configuration file, found like `.clang-tidy`: the nearest one in the source file's
/// directory or a parent. YAML with clang-tidy's keys (docs/analyzer.md):
///   Checks: '-*,rooflint-bound,rooflint-uncoalesced'   # globs, as --checks
///   WarningsAsErrors: 'rooflint-uncoalesced'           # globs, as --warnings-as-errors=
///   HeaderFilterRegex: 'src/.*'                         # as --header-filter
///   InheritParentConfig: true                           # also apply the parent directory's file first

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace rooflint::analyzer {

inline constexpr llvm::StringLiteral ConfigFileName = ".rooflint";

struct ConfigFile {
  std::string Path;  ///< where it was read
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilterRegex;
  std::optional<bool> InheritParentConfig;
};

/// @return The file parsed, or an error "PATH:LINE:COL: unknown key 'Foo'" / the reason it cannot be read.
llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef Path);
/// The same from text (the config's name in messages is @p Path).
llvm::Expected<ConfigFile> parseConfig(llvm::StringRef Text, llvm::StringRef Path);

/// What the configuration files say for one source file, parents first.
struct EffectiveConfig {
  std::vector<std::string> Files;  ///< the files applied, outermost first
  std::string Checks;              ///< their Checks joined with ',' (the later wins on a name)
  std::string WarningsAsErrors;
  std::string HeaderFilterRegex;   ///< the innermost file's that sets one
};

/// Finds and merges the configuration for files in a directory; caches each directory's result.
class ConfigResolver {
public:
  /// @return The configuration for the source @p File, or the first config file's error.
  llvm::Expected<EffectiveConfig> forFile(llvm::StringRef File);
  /// @return The configuration for the directory @p Dir (for --list-checks: the current directory).
  llvm::Expected<EffectiveConfig> forDirectory(llvm::StringRef Dir);

private:
  std::map<std::string, EffectiveConfig> Cache;
};

}  // namespace rooflint::analyzer
