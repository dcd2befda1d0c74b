// rooflint-summary: the verdicts of one or more analyzer manifests as a table, for build logs and
// CI step summaries ($GITHUB_STEP_SUMMARY with --markdown).
//   rooflint-summary build/examples/*.rooflint.json
//   rooflint-summary --markdown build/my_kernels.rooflint.json >> "$GITHUB_STEP_SUMMARY"
// Host only (nlohmann-json, fmt, CLI11): it needs no LLVM and no CUDA. See docs/analyzer.md.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/io/input_file.h"
#include "rooflint/model/describe.h"

namespace {

using nlohmann::json;
using rooflint::model::format_duration;
using rooflint::model::format_significant;

enum exit_code : int { ok = 0, usage = 2, bad_manifest = 3, output_failed = 5 };

struct row {
  std::string kernel, bound, intensity, floor, warnings;
};

/// One manifest's table rows and its peaks sentence.
struct summary {
  std::vector<row> rows;
  std::string peaks;
};

std::string mode_label(const std::string& mode_name) {
  for (std::size_t i = 0; i < rooflint::model::math_mode_count; ++i) {
    const auto m = static_cast<rooflint::model::math_mode>(i);
    if (rooflint::model::name(m) == mode_name) return std::string(rooflint::model::label(m));
  }
  return mode_name;
}

/// "H200 (datasheet peaks): DRAM 4.8 TB/s; FP32 66.9 TFLOP/s": the compute peaks of the math modes
/// in @p modes (those the kernels use).
std::string peaks_sentence(const json& p, const std::vector<std::string>& modes) {
  std::string s = fmt::format("{} ({} peaks): DRAM {} TB/s", p.at("device").get<std::string>(),
                              p.at("source").get<std::string>(),
                              format_significant(p.at("dram_bytes_per_s").get<double>() / 1e12));
  std::string rates;
  for (const auto& [mode, rate] : p.at("flops_per_s").items())
    if (std::find(modes.begin(), modes.end(), mode) != modes.end())
      rates += fmt::format("{}{} {} TFLOP/s", rates.empty() ? "" : ", ", mode_label(mode),
                         format_significant(rate.get<double>() / 1e12));
  return rates.empty() ? s : s + "; " + rates;
}

std::string position_key(const char* kind, const json& loc) {
  return fmt::format("{}:{}:{}:{}", kind, loc.at("file").get<std::string>(), loc.at("line").get<int>(),
                     loc.at("column").get<int>());
}

/// The warnings and errors about kernel @p k: those of its spec's group and of its body's group.
std::string warnings_of(const json& k, const json& diagnostics) {
  std::vector<std::string> groups{position_key("spec", k.at("spec_location")), position_key("kernel", k.at("location"))};
  // Version 3: a region's body checks are those of its kernels given by function.
  if (const auto r = k.find("region"); r != k.end() && r->is_object())
    for (const json& member : r->value("kernels", json::array()))
      if (member.contains("location")) groups.push_back(position_key("kernel", member.at("location")));
  std::vector<std::string> names;
  for (const json& d : diagnostics) {
    const std::string level = d.value("level", "");
    const std::string group = d.value("group", "");
    if ((level == "warning" || level == "error") && std::find(groups.begin(), groups.end(), group) != groups.end())
      names.push_back(d.value("name", ""));
  }
  if (names.empty()) return "0";
  return fmt::format("{} ({})", names.size(), fmt::join(names, ", "));
}

row kernel_row(const json& k, const json& diagnostics) {
  const bool region = k.value("kind", "kernel") == "region";
  row r{k.at("name").get<std::string>() + (region ? " (region)" : ""), "no verdict", "-", "-", warnings_of(k, diagnostics)};
  if (k.contains("missing_size") && k.at("missing_size").is_string())
    r.bound = "no verdict (" + k.at("missing_size").get<std::string>() + " has no size)";
  if (const json& v = k.at("verdict"); v.is_object()) {
    r.bound = v.at("bound").get<std::string>();
    r.intensity = format_significant(v.at("intensity").get<double>());
    r.floor = format_duration(v.at("t_min_s").get<double>());
  } else if (const json& f = k.at("formulas"); f.is_object()) {
    r.intensity = f.at("intensity").get<std::string>();  // symbolic: the sizes are not declared
  }
  return r;
}

/// Whether @p m says it is a manifest this reads: schema "rooflint-manifest" and an integer version 1
/// to 4. Fields of another JSON type (a numeric schema, a null or string version) are no manifest.
bool is_known_manifest(const json& m) {
  const auto schema = m.find("schema");
  const auto version = m.find("version");
  return schema != m.end() && schema->is_string() && schema->get<std::string>() == "rooflint-manifest" &&
         version != m.end() && version->is_number_integer() && *version >= 1 && *version <= 4;
}

/// @return The manifest's rows, or an error naming the file and what is wrong.
std::optional<summary> read_manifest(const std::string& path, std::string& error) {
  std::string text;
  if (const auto why = rooflint::io::read_regular_file(path, text)) {  // a directory, FIFO or device: refused unread
    error = *why;
    return std::nullopt;
  }
  const json m = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (m.is_discarded() || !m.is_object()) {
    error = fmt::format("'{}' is not JSON", path);
    return std::nullopt;
  }
  // Version 2 added what the verifier needs (parameters, launch, spec_value), version 3 regions of
  // kernels; this reads what all have.
  if (!is_known_manifest(m)) {
    error = fmt::format("'{}' is not a rooflint manifest of version 1 to 4 (schema \"rooflint-manifest\")", path);
    return std::nullopt;
  }
  try {
    summary s;
    const json diagnostics = m.value("diagnostics", json::array());
    std::vector<std::string> modes;
    for (const json& k : m.at("kernels")) {
      s.rows.push_back(kernel_row(k, diagnostics));
      modes.push_back(k.value("math_mode", ""));
    }
    s.peaks = peaks_sentence(m.at("peaks"), modes);
    return s;
  } catch (const json::exception& e) {
    error = fmt::format("'{}': {}", path, e.what());
    return std::nullopt;
  }
}

const std::vector<std::string> headers{"kernel", "bound", "arithmetic intensity (FLOP/byte)", "floor", "warnings"};

std::string text_table(const std::vector<row>& rows) {
  std::vector<std::size_t> width;
  for (const std::string& h : headers) width.push_back(h.size());
  const auto cells = [](const row& r) { return std::vector<std::string>{r.kernel, r.bound, r.intensity, r.floor, r.warnings}; };
  for (const row& r : rows) {
    const auto c = cells(r);
    for (std::size_t i = 0; i < c.size(); ++i) width[i] = std::max(width[i], c[i].size());
  }
  const auto line = [&](const std::vector<std::string>& c) {
    std::string s;
    for (std::size_t i = 0; i < c.size(); ++i) s += fmt::format("{:<{}}", c[i], i + 1 < c.size() ? width[i] + 2 : 0);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(headers);
  for (const row& r : rows) out += line(cells(r));
  return out;
}

std::string markdown_cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string markdown_table(const std::vector<row>& rows) {
  std::string out = "| " + fmt::format("{}", fmt::join(headers, " | ")) + " |\n|---|---|---:|---:|---|\n";
  for (const row& r : rows)
    out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_cell(r.kernel), markdown_cell(r.bound),
                       markdown_cell(r.intensity), markdown_cell(r.floor), markdown_cell(r.warnings));
  return out;
}

/// Prints the table of @p manifests on stdout. @return The exit status.
int summarize(const std::vector<std::string>& manifests, bool markdown) {
  std::vector<row> rows;
  std::vector<std::string> peaks;  // each different peaks sentence once, in the order first seen
  for (const std::string& path : manifests) {
    std::string error;
    auto s = read_manifest(path, error);
    if (!s) {
      std::cerr << "rooflint-summary: error: " << error << "\n";
      return bad_manifest;
    }
    rows.insert(rows.end(), s->rows.begin(), s->rows.end());
    if (std::find(peaks.begin(), peaks.end(), s->peaks) == peaks.end()) peaks.push_back(s->peaks);
  }
  std::string peaks_line = fmt::format("Peaks: {}", fmt::join(peaks, " | "));
  if (markdown)
    std::cout << fmt::format("### rooflint: {} kernel{}\n\n{}\n\n{}", rows.size(), rows.size() == 1 ? "" : "s",
                             peaks_line, markdown_table(rows));
  else
    std::cout << peaks_line << "\n" << text_table(rows);
  // A table lost to a full disk (or a closed file) must not pass for one printed.
  if (!std::cout.flush()) {
    std::cerr << "rooflint-summary: error: cannot write the table to the standard output: " << std::strerror(errno) << "\n";
    return output_failed;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rooflint-summary: the verdicts of rooflint manifests as a table (docs/analyzer.md).\n"
               "Exit status: 0 printed; 2 bad command line; 3 a manifest cannot be read or is not one (missing,\n"
               "a directory or device, not JSON, another schema or version); 5 the table cannot be written\n"
               "(the standard output failed: a full disk)."};
  std::vector<std::string> manifests;
  bool markdown = false;
  app.add_option("manifests", manifests, "manifests written by rooflint --manifest")->required();
  app.add_flag("--markdown", markdown, "GitHub-flavoured Markdown (for $GITHUB_STEP_SUMMARY) instead of text");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? ok : usage;
  }
  try {
    return summarize(manifests, markdown);
  } catch (const std::exception& e) {  // what the readers' checks missed is still a manifest that cannot be read
    std::cerr << "rooflint-summary: error: " << e.what() << "\n";
    return bad_manifest;
  }
}
