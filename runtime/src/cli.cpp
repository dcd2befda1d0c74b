// The runtime tools' shared command-line setup (cli.h).

#include "cli.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace rooflint::runtime::cli {

namespace {

/// CLI11's wording for the errors users meet most, in the tools' own words.
std::string reworded(const CLI::Error& e) {
  std::string what = e.what();
  if (const auto at = what.find(" was given a disallowed flag override"); at != std::string::npos) {
    const std::string flag = what.substr(0, at);  // CLI11 names the flag without its dashes
    return "'" + (flag.rfind('-', 0) == 0 ? flag : (flag.size() == 1 ? "-" : "--") + flag) + "' is a flag and takes no value";
  }
  if (what.rfind("The following argument was not expected: ", 0) == 0)
    return "unknown option '" + what.substr(std::string("The following argument was not expected: ").size()) + "'";
  return what;
}

}  // namespace

void configure(CLI::App& app, const std::string& footer) {
  app.option_defaults()->disable_flag_override();
  app.set_help_flag("-h,--help", "this text");
  // The program's file name (a verifier binary's name is its argv[0], a path).
  app.set_version_flag("--version", std::filesystem::path(app.get_name()).filename().string() + " (rooflint) " ROOFLINT_VERSION,
                       "rooflint's version");
  app.footer(footer + "\n");
  app.description(app.get_description() + "\n");
  app.get_formatter()->column_width(24);
}

std::optional<int> parse(CLI::App& app, int argc, char** argv, int usage_code) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    print_error(app.get_name(), reworded(e));
    std::cerr << "(see '" << app.get_name() << " --help')\n";
    return usage_code;
  }
  return std::nullopt;
}

CLI::Validator at_least(double lo, const std::string& what) {
  return CLI::Validator(
      [lo, what](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(x >= lo && x <= 1e6)) return "needs " + what + ", not '" + text + "'";
        return {};
      },
      "");
}

CLI::Validator device_index() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const long x = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || x < 0 || x > 1024) return "needs a CUDA device index (0 to 1024), not '" + text + "'";
        return {};
      },
      "");
}

CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string { return text.empty() ? "needs " + what + ", not an empty value" : ""; }, "");
}

CLI::Validator one_of(std::vector<std::string> values) {
  return CLI::Validator(
      [values](std::string& text) -> std::string {
        for (const std::string& v : values)
          if (text == v) return {};
        std::string list;
        for (std::size_t i = 0; i < values.size(); ++i)
          list += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
        return "needs one of " + list + ", not '" + text + "'";
      },
      "");
}

void print_error(const std::string& tool, const std::string& message) {
  std::cerr << tool << ": error: " << message << "\n";
}

}  // namespace rooflint::runtime::cli
