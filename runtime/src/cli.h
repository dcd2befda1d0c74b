#pragma once
// The command line of the runtime's tools (rooflint-ceilings, every verifier binary's verify_main),
// one parser for both: CLI11, set up so that --help, errors and the --x=v / --x v forms behave alike.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rooflint::runtime::cli {

/// Sets up @p app the same way for every tool: -h/--help, --version, flags that take no value (`--quick=1` is an
/// error, not a silent `true`), and @p footer (the exit codes) after the option list.
void configure(CLI::App& app, const std::string& footer);

/// Parses @p argv into @p app. Errors are printed as "TOOL: error: MESSAGE" and "(see 'TOOL --help')".
/// @return std::nullopt to go on; else the exit code to return now: 0 after --help or --version, @p usage_code
/// after an error.
std::optional<int> parse(CLI::App& app, int argc, char** argv, int usage_code);

/// A number of at least @p lo and at most a million (counts and seconds become ints; a timeout in ms
/// for poll()); NaN and infinities are refused. @p what completes "needs ...".
CLI::Validator at_least(double lo, const std::string& what);

/// A CUDA device index, a whole number from 0 to 1024; else "needs a CUDA device index (0 to 1024), not 'x'".
CLI::Validator device_index();

/// A value that is not empty: `--ceilings "$CEILINGS"` with the variable unset must fail, not mean
/// "no file". @p what completes "needs ...".
CLI::Validator non_empty(const std::string& what);

/// One of @p values, exactly ("--lines=all"); else "needs one of a, b or c, not 'x'".
CLI::Validator one_of(std::vector<std::string> values);

/// Prints "TOOL: error: MESSAGE" on stderr, the form of every error of the tools.
void print_error(const std::string& tool, const std::string& message);

}  // namespace rooflint::runtime::cli
