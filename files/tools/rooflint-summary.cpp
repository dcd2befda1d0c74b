// rooflint-summary: the verdicts of one or more analyzer manifests as a table, for build logs and
// CI step summaries ($GITHUB_STEP_SUMMARY with --markdown).
//   rooflint-summary build/examples/*.rooflint.json
//   rooflint-summary --markdown build/my_kernels.rooflint.json >> "$GITHUB_STEP_SUMMARY"
// Host only (the files library, fmt, CLI11): it needs no LLVM and no CUDA. See docs/analyzer.md.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/files/manifest.h"
#include "rooflint/model/describe.h"

namespace {

namespace manifest = rooflint::manifest;
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

std::string mode_label(rooflint::model::math_mode m) { return std::string(rooflint::model::label(m)); }

/// "H200 (datasheet peaks): DRAM 4.8 TB/s; FP32 66.9 TFLOP/s": the compute peaks of the math modes
/// in @p modes (those the kernels use).
std::string peaks_sentence(const manifest::peaks_used& p, const std::vector<rooflint::model::math_mode>& modes) {
  std::string s = fmt::format("{} ({} peaks): DRAM {} TB/s", p.device, rooflint::model::name(p.source),
                              format_significant(p.dram_bytes_per_s / 1e12));
  std::string rates;
  for (std::size_t i = 0; i < rooflint::model::math_mode_count; ++i) {
    const auto m = static_cast<rooflint::model::math_mode>(i);
    if (p.flops_per_s[m] > 0 && std::find(modes.begin(), modes.end(), m) != modes.end())
      rates += fmt::format("{}{} {} TFLOP/s", rates.empty() ? "" : ", ", mode_label(m), format_significant(p.flops_per_s[m] / 1e12));
  }
  return rates.empty() ? s : s + "; " + rates;
}

std::string position_key(const char* kind, const manifest::position& loc) {
  return fmt::format("{}:{}:{}:{}", kind, loc.file, loc.line, loc.column);
}

/// The warnings and errors about kernel @p k: those of its spec's group and of its body's group.
std::string warnings_of(const manifest::kernel& k, const std::vector<manifest::diagnostic>& diagnostics) {
  std::vector<std::string> groups{position_key("spec", k.spec_location), position_key("kernel", k.location)};
  // A region's body checks are those of its kernels given by function.
  if (k.region)
    for (const manifest::region_member& member : k.region->kernels)
      if (member.match == rooflint::dsl::kernel_match::function) groups.push_back(position_key("kernel", member.location));
  std::vector<std::string> names;
  for (const manifest::diagnostic& d : diagnostics)
    if ((d.level == rooflint::diagnostics::level::warning || d.level == rooflint::diagnostics::level::error) &&
        std::find(groups.begin(), groups.end(), d.group) != groups.end())
      names.push_back(d.name);
  if (names.empty()) return "0";
  return fmt::format("{} ({})", names.size(), fmt::join(names, ", "));
}

row kernel_row(const manifest::kernel& k, const std::vector<manifest::diagnostic>& diagnostics) {
  row r{k.name + (k.is_region() ? " (region)" : ""), "no verdict", "-", "-", warnings_of(k, diagnostics)};
  if (k.missing_size) r.bound = "no verdict (" + *k.missing_size + " has no size)";
  if (k.verdict) {
    r.bound = std::string(rooflint::model::name(k.verdict->bound));
    r.intensity = format_significant(k.verdict->intensity);
    r.floor = format_duration(k.verdict->t_min_s);
  } else {
    r.intensity = k.formulas.intensity;  // symbolic: the sizes are not declared
  }
  return r;
}

/// @return The manifest's rows, or an error naming the file and what is wrong.
std::optional<summary> read_manifest(const std::string& path, std::string& error) {
  const std::optional<manifest::manifest_file> m = manifest::load(path, error);
  if (!m) return std::nullopt;
  summary s;
  std::vector<rooflint::model::math_mode> modes;
  for (const manifest::kernel& k : m->kernels) {
    s.rows.push_back(kernel_row(k, m->diagnostics));
    modes.push_back(k.math_mode);
  }
  s.peaks = peaks_sentence(m->peaks, modes);
  return s;
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
