// rooflint-summary: the verdicts of analyzer manifests, or of rooflint-verify JSON reports from one or
// many machines merged into one table keyed by case and GPU, for build logs and CI step summaries
// ($GITHUB_STEP_SUMMARY with --markdown, kept under its 1 MiB limit).
//   rooflint-summary build/examples/*.rooflint.json
//   rooflint-summary --markdown build/my_kernels.rooflint.json >> "$GITHUB_STEP_SUMMARY"
//   rooflint-summary --markdown h200/verify.json a100/verify.json >> "$GITHUB_STEP_SUMMARY"
// Host only (the files library, fmt, CLI11): it needs no LLVM and no CUDA. See docs/analyzer.md.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <tuple>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/files/input_file.h"
#include "rooflint/files/manifest.h"
#include "rooflint/files/verify_report.h"
#include "rooflint/model/describe.h"

namespace {

namespace manifest = rooflint::manifest;
using rooflint::model::format_duration;
using rooflint::model::format_significant;

enum exit_code : int { ok = 0, usage = 2, bad_manifest = 3, output_failed = 5 };

struct row {
  std::string kernel, gpu, file, source, spec, bound, intensity, floor, dram, l2, l1, warnings;
  std::vector<std::string> not_predicted;  ///< "'x' at L2, DRAM: why", per tensor and reason
  std::vector<std::string> no_point;       ///< the same for the ranges without a point estimate
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
  std::vector<std::pair<std::string, int>> names;  // each name once, in the order first seen, with its count
  int count = 0;
  for (const manifest::diagnostic& d : diagnostics)
    if ((d.level == rooflint::diagnostics::level::warning || d.level == rooflint::diagnostics::level::error) &&
        std::find(groups.begin(), groups.end(), d.group) != groups.end()) {
      ++count;
      auto it = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == d.name; });
      if (it == names.end()) names.push_back({d.name, 1});
      else ++it->second;
    }
  if (names.empty()) return "0";
  std::vector<std::string> parts;  // "2 rooflint-uncoalesced", "rooflint-reread"
  for (const auto& [name, n] : names) parts.push_back(n > 1 ? fmt::format("{} {}", n, name) : name);
  return fmt::format("{} ({})", count, fmt::join(parts, ", "));
}

/// The kernel's predicted traffic at @p level over its compulsory bytes at the spec's declared sizes,
/// its tensors' figures summed in bytes: "4.5x", "6x (1-6x)" for a range and its point, "1-32x" for a
/// range without one; "-" where a tensor of it has no figure at that level (the manifest's basis says why).
std::string predicted_cell(const manifest::kernel& k, rooflint::model::memory_level level) {
  if (!k.predicted || k.is_region()) return "-";
  const rooflint::dsl::binding_result declared = k.spec_value.declared();
  if (!declared.ok()) return "-";
  double low = 0, point = 0, high = 0, compulsory = 0;
  bool pointed = true;
  for (const rooflint::dsl::tensor_info& t : k.spec_value.tensor_list()) {
    if (t.arg < 0 || t.access == rooflint::dsl::role::not_counted) continue;
    const manifest::level_prediction* p = manifest::prediction_of(*k.predicted, t.arg, level);
    if (!p || p->kind == manifest::prediction_kind::not_predicted || !p->low || !p->high) return "-";
    const double bytes = k.spec_value.tensor_bytes_at(t, declared.bound);
    low += *p->low * bytes;
    pointed = pointed && p->ratio;
    point += p->ratio.value_or(*p->low) * bytes;
    high += *p->high * bytes;
    compulsory += bytes;
  }
  if (!(compulsory > 0)) return "-";
  const auto x = [&](double bytes) { return format_significant(bytes / compulsory, 3); };
  if (!pointed) return fmt::format("{}-{}x", x(low), x(high));  // even where the ends print alike
  if (x(low) == x(high)) return x(point) + "x";
  return fmt::format("{}x ({}-{}x)", x(point), x(low), x(high));
}

row kernel_row(const manifest::kernel& k, const std::vector<manifest::diagnostic>& diagnostics) {
  using rooflint::model::memory_level;
  row r{k.name + (k.is_region() ? " (region)" : ""), "", "", fmt::format("{}:{}", k.location.file, k.location.line), k.spec,
        "no verdict", "-", "-",
        predicted_cell(k, memory_level::dram), predicted_cell(k, memory_level::l2), predicted_cell(k, memory_level::l1),
        warnings_of(k, diagnostics), manifest::unpredicted_traffic(k), manifest::unpointed_traffic(k)};
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
    s.rows.back().gpu = m->peaks.device;
    s.rows.back().file = path;
    modes.push_back(k.math_mode);
  }
  s.peaks = peaks_sentence(m->peaks, modes);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// rooflint-verify reports, from one or many machines

namespace verify_report = rooflint::verify_report;

/// One case on one GPU (or a report that measured nothing: its reason).
struct case_row {
  std::string name, gpu, status, dram, l2, l1, fraction, reference, gate;
};

std::string status_text(const std::string& s) {
  return s == "passed" ? "PASS" : s == "failed" ? "FAIL" : s == "skipped" ? "SKIP" : s == "error" ? "could not be measured" : s;
}

std::string level_cell(const verify_report::case_entry& c, rooflint::model::memory_level level) {
  for (const verify_report::level& l : c.compared.levels)
    if (l.level == level && l.traffic_ratio > 0) return format_significant(l.traffic_ratio, 3) + "x";
  return "-";
}

std::vector<case_row> report_rows(const verify_report::report& r, const std::string& path) {
  const std::string gpu = r.device.empty() ? std::string("(no GPU)") : r.device;
  std::vector<case_row> rows;
  for (const verify_report::case_entry& c : r.cases) {
    case_row row{c.name, gpu, status_text(c.status), level_cell(c, rooflint::model::memory_level::dram),
                 level_cell(c, rooflint::model::memory_level::l2), level_cell(c, rooflint::model::memory_level::l1),
                 c.compared.roofline_fraction > 0 ? fmt::format("{:.1f}%", 100 * c.compared.roofline_fraction) : "-",
                 c.reference ? fmt::format("{}: {:.1f}%", c.reference->name, 100 * c.reference->roofline_fraction) : "-", "-"};
    for (const verify_report::baseline_entry& b : r.baseline)
      if (b.name == c.name && !b.verdict.empty()) row.gate = b.verdict;
    rows.push_back(std::move(row));
  }
  // A machine whose counters or GPU could not be used: said, never a failure of the gate by itself.
  if (rows.empty())
    rows.push_back({"(" + path + ")", gpu, "unverifiable: " + (r.warnings.empty() ? std::string("no case was measured") : r.warnings.front()),
                    "-", "-", "-", "-", "-", "-"});
  return rows;
}

const std::vector<std::string> case_headers{"case", "GPU", "status", "DRAM", "L2", "L1", "roofline", "reference", "vs baseline"};

std::vector<std::string> cells_of(const case_row& r) {
  return {r.name, r.gpu, r.status, r.dram, r.l2, r.l1, r.fraction, r.reference, r.gate};
}

/// "12 cases on 2 GPUs: 10 PASS, 1 FAIL, 1 could not be measured; vs baseline: 1 WORSE, 11 SAME; 1 report
/// measured nothing": a report's "unverifiable" row is neither a case nor a GPU.
std::string cases_sentence(const std::vector<case_row>& rows) {
  std::vector<std::string> gpus;
  std::map<std::string, int> statuses, gates;
  int cases = 0, empty_reports = 0;
  for (const case_row& r : rows) {
    if (r.status.rfind("unverifiable", 0) == 0) {
      ++empty_reports;
      continue;
    }
    ++cases;
    if (std::find(gpus.begin(), gpus.end(), r.gpu) == gpus.end()) gpus.push_back(r.gpu);
    ++statuses[r.status];
    if (r.gate != "-") ++gates[r.gate];
  }
  const auto counts = [](const std::map<std::string, int>& m) {
    std::vector<std::string> parts;
    for (const auto& [what, n] : m) parts.push_back(fmt::format("{} {}", n, what));
    return fmt::format("{}", fmt::join(parts, ", "));
  };
  std::string s = cases == 0 ? std::string("no case measured")
                             : fmt::format("{} case{} on {} GPU{}: {}", cases, cases == 1 ? "" : "s", gpus.size(),
                                           gpus.size() == 1 ? "" : "s", counts(statuses));
  if (!gates.empty()) s += "; vs baseline: " + counts(gates);
  if (empty_reports > 0) s += fmt::format("; {} report{} measured nothing", empty_reports, empty_reports == 1 ? "" : "s");
  return s;
}

std::string markdown_cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

/// "683", "0.112 ms", "4.08x", "4.8 TB/s", "6x (1-6x)": a number with at most a unit after it, and
/// a range after a point.
bool is_figure(const std::string& s) {
  static const std::regex figure(R"([-+]?[0-9][0-9.,eE+-]*( ?[A-Za-z/%]+)?( \([0-9.eE+]+-[0-9.eE+]+x\))?)");
  return std::regex_match(s, figure);
}

/// Appends @p lines to @p out, cut before @p max_bytes in all with a line that says how many @p unit s
/// were left out and @p where they are.
void append_within(std::string& out, const std::vector<std::string>& lines, std::size_t max_bytes, const char* unit,
                   const char* where) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (out.size() + lines[i].size() + 200 > max_bytes) {
      out += fmt::format("{} more {}{} not shown (the summary is kept under {} bytes): see {}\n", lines.size() - i, unit,
                         lines.size() - i == 1 ? "" : "s", max_bytes, where);
      return;
    }
    out += lines[i];
  }
}

/// Rows of text or Markdown, cut before @p max_bytes with a line that says how many were left out.
std::string table_text(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows, bool markdown,
                       std::size_t max_bytes) {
  std::vector<std::size_t> width;
  for (const std::string& h : headers) width.push_back(h.size());
  if (!markdown)
    for (const auto& c : rows)
      for (std::size_t i = 0; i < c.size(); ++i) width[i] = std::max(width[i], c[i].size());
  // A column of figures is right-aligned, so that their digits line up.
  std::vector<bool> figures(headers.size(), true), any(headers.size(), false);
  for (const auto& c : rows)
    for (std::size_t i = 0; i < c.size(); ++i) {
      const bool blank = c[i].empty() || c[i] == "-";
      figures[i] = figures[i] && (blank || is_figure(c[i]));
      any[i] = any[i] || !blank;
    }
  for (std::size_t i = 0; i < figures.size(); ++i) figures[i] = figures[i] && any[i];
  const auto line = [&](const std::vector<std::string>& c) {
    std::string s;
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::size_t w = i + 1 < c.size() || figures[i] ? width[i] : 0;
      s += markdown   ? "| " + markdown_cell(c[i]) + " "
           : figures[i] ? fmt::format("{:>{}}  ", c[i], w)
                        : fmt::format("{:<{}}  ", c[i], w);
    }
    if (markdown) return s + "|\n";
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(headers);
  if (markdown) {
    out += "|";
    for (std::size_t i = 0; i < headers.size(); ++i) out += figures[i] ? "---:|" : "---|";
    out += "\n";
  }
  std::vector<std::string> lines;
  for (const auto& r : rows) lines.push_back(line(r));
  append_within(out, lines, max_bytes, "row", "the files");
  return out;
}

/// The table of verification reports, merged: one row per case and GPU, sorted by case, then GPU.
std::string reports_table(std::vector<case_row> rows, bool markdown, std::size_t max_bytes) {
  std::sort(rows.begin(), rows.end(), [](const case_row& a, const case_row& b) { return std::tie(a.name, a.gpu) < std::tie(b.name, b.gpu); });
  std::vector<std::vector<std::string>> cells;
  for (const case_row& r : rows) cells.push_back(cells_of(r));
  const std::string sentence = cases_sentence(rows);
  return (markdown ? "### rooflint-verify: " + sentence + "\n\n" : sentence + "\n") + table_text(case_headers, cells, markdown, max_bytes);
}

/// The columns that tell the manifests' rows apart, where some rows share a kernel name.
struct distinctions {
  bool gpu = false;       ///< made for several GPUs
  bool manifest = false;  ///< a kernel in several manifests for one GPU
  bool source = false;    ///< one manifest has kernels of one name from several places (two files' `scale`)
  bool spec = false;      ///< one kernel has several specs (a spec template's instantiations)
};

distinctions distinctions_of(const std::vector<row>& rows) {
  distinctions d;
  std::set<std::string> gpus;
  std::map<std::pair<std::string, std::string>, std::string> file_of;  // (kernel, GPU) -> the first file
  std::map<std::tuple<std::string, std::string, std::string>, std::string> source_of;  // (kernel, GPU, file) -> source
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::string> spec_of;  // ... source -> spec
  for (const row& r : rows) {
    gpus.insert(r.gpu);
    d.manifest = file_of.try_emplace({r.kernel, r.gpu}, r.file).first->second != r.file || d.manifest;
    d.source = source_of.try_emplace({r.kernel, r.gpu, r.file}, r.source).first->second != r.source || d.source;
    d.spec = spec_of.try_emplace({r.kernel, r.gpu, r.file, r.source}, r.spec).first->second != r.spec || d.spec;
  }
  d.gpu = gpus.size() > 1;
  return d;
}

/// The kernel's definition, its path cut to what tells the rows' sources apart: "a/k.cu:5" and
/// "b/k.cu:5" of "/src/a/k.cu:5" and "/src/b/k.cu:5".
std::vector<std::string> source_labels(const std::vector<row>& rows) {
  std::string common = rows.empty() ? "" : rows.front().source;
  for (const row& r : rows) common.resize(std::mismatch(common.begin(), common.end(), r.source.begin(), r.source.end()).first - common.begin());
  const std::size_t cut = common.rfind('/') == std::string::npos ? 0 : common.rfind('/') + 1;
  std::vector<std::string> labels;
  for (const row& r : rows) labels.push_back(r.source.substr(std::min(cut, r.source.size())));
  return labels;
}

/// The table of the manifests' kernels, with the columns distinctions_of asks for; else the rows could
/// not be told apart (one file given twice repeats its rows as they are).
std::string kernels_table(const std::vector<row>& rows, bool markdown, std::size_t max_bytes) {
  const distinctions d = distinctions_of(rows);
  const std::vector<std::string> sources = source_labels(rows);
  std::vector<std::string> headers{"kernel"};
  if (d.gpu) headers.push_back("GPU");
  if (d.manifest) headers.push_back("manifest");
  if (d.source) headers.push_back("source");
  if (d.spec) headers.push_back("spec");
  for (const char* h : {"bound", "arithmetic intensity (FLOP/byte)", "floor", "DRAM", "L2", "L1", "warnings"})
    headers.push_back(h);
  std::vector<std::vector<std::string>> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    std::vector<std::string> c{r.kernel};
    if (d.gpu) c.push_back(r.gpu);
    if (d.manifest) c.push_back(r.file);
    if (d.source) c.push_back(sources[i]);
    if (d.spec) c.push_back(r.spec);
    for (const std::string* v : {&r.bound, &r.intensity, &r.floor, &r.dram, &r.l2, &r.l1, &r.warnings}) c.push_back(*v);
    cells.push_back(std::move(c));
  }
  return table_text(headers, cells, markdown, max_bytes);
}

/// Why the "-" cells of the kernels' table have no figure (@p of: row::not_predicted; row::no_point: why
/// its ranges alone have no point), a line per tensor and reason under @p title, cut before @p max_bytes
/// with a line that says how many were left out.
std::string reasons_text(const std::vector<row>& rows, std::vector<std::string> row::*of, const std::string& title, bool markdown,
                         std::size_t max_bytes) {
  std::map<std::string, std::set<std::string>> specs, sources;  // kernel name -> its specs, its definitions
  for (const row& r : rows) {
    specs[r.kernel].insert(r.spec);
    sources[r.kernel].insert(r.source);
  }
  const std::vector<std::string> labels = source_labels(rows);
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    std::vector<std::string> which;  // what tells this row from another of its name
    if (sources[r.kernel].size() > 1) which.push_back(labels[i]);
    if (specs[r.kernel].size() > 1) which.push_back(r.spec);
    const std::string name = r.kernel + (which.empty() ? "" : fmt::format(" ({})", fmt::join(which, ", ")));
    for (const std::string& why : r.*of) lines.push_back(name + ": " + why);
  }
  if (lines.empty()) return "";
  for (std::string& l : lines) l = (markdown ? "- " + markdown_cell(l) : "  " + l) + "\n";
  std::string out = markdown ? "\n**" + title + "**\n\n" : title + ":\n";
  append_within(out, lines, max_bytes, "line", "the manifests");
  return out;
}

/// Prints the tables of @p paths (manifests, verification reports, or both) on stdout. @return The exit status.
/// The files @p args name: each file itself, each directory's manifests (*.rooflint.json below it, as
/// rooflint-verify --manifest reads a build directory), each file once however often it is named (a
/// directory and a file in it); nullopt, said, where one names nothing.
std::optional<std::vector<std::string>> files_of(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::set<std::filesystem::path> seen;
  for (const std::string& arg : args) {
    std::string error;
    const auto found = rooflint::manifest::files_named_by(arg, error);
    if (!found) {
      std::cerr << "rooflint-summary: error: " << error << "\n";
      return std::nullopt;
    }
    for (const std::string& file : *found) {
      std::error_code ec;
      const std::filesystem::path same = std::filesystem::weakly_canonical(file, ec);
      if (seen.insert(ec ? std::filesystem::path(file) : same).second) files.push_back(file);
    }
  }
  return files;
}

int summarize(const std::vector<std::string>& args, bool markdown, std::size_t max_bytes) {
  std::vector<row> rows;
  std::vector<case_row> cases;
  std::vector<std::string> peaks;  // each different peaks sentence once, in the order first seen
  const auto paths = files_of(args);
  if (!paths) return bad_manifest;
  for (const std::string& path : *paths) {
    std::string error, text;
    if (auto why = rooflint::io::read_regular_file(path, text)) {
      std::cerr << "rooflint-summary: error: " << *why << "\n";
      return bad_manifest;
    }
    if (verify_report::is_verify_report(text)) {
      auto r = verify_report::from_json(text, "report '" + path + "'", error);
      if (!r) {
        std::cerr << "rooflint-summary: error: " << error << "\n";
        return bad_manifest;
      }
      auto more = report_rows(*r, path);
      cases.insert(cases.end(), more.begin(), more.end());
      continue;
    }
    auto s = read_manifest(path, error);
    if (!s) {
      std::cerr << "rooflint-summary: error: " << error << "\n";
      return bad_manifest;
    }
    rows.insert(rows.end(), s->rows.begin(), s->rows.end());
    if (std::find(peaks.begin(), peaks.end(), s->peaks) == peaks.end()) peaks.push_back(s->peaks);
  }
  // Both tables within one budget: the reports' gets what the kernels' left.
  std::string out;
  if (!rows.empty()) {
    const std::string peaks_line = fmt::format("Peaks: {}", fmt::join(peaks, " | "));
    const std::string legend = "DRAM, L2, L1: the traffic predicted before the run, over the compulsory bytes (a range's "
                               "point, then the range, or the range alone: why, under the table); - not predicted (why: under the table)";
    const std::string table = kernels_table(rows, markdown, max_bytes);
    if (markdown)
      out = fmt::format("### rooflint: {} kernel{}\n\n{}\n\n{}\n\n{}", rows.size(), rows.size() == 1 ? "" : "s", peaks_line,
                        legend, table);
    else
      out = peaks_line + "\n" + legend + "\n" + table;
    out += reasons_text(rows, &row::not_predicted, "Not predicted", markdown, max_bytes - std::min(max_bytes, out.size()));
    out += reasons_text(rows, &row::no_point, "No point estimate", markdown, max_bytes - std::min(max_bytes, out.size()));
  }
  if (!cases.empty())
    out += (rows.empty() ? "" : "\n") + reports_table(std::move(cases), markdown, max_bytes - std::min(max_bytes, out.size()));
  std::cout << out;
  // A table lost to a full disk (or a closed file) must not pass for one printed.
  if (!std::cout.flush()) {
    std::cerr << "rooflint-summary: error: cannot write the table to the standard output: " << std::strerror(errno) << "\n";
    return output_failed;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rooflint-summary: the verdicts of rooflint manifests, and of rooflint-verify JSON reports (of one or\n"
               "many machines, merged into one table by case and GPU), as tables (docs/analyzer.md, docs/ci.md).\n"
               "Exit status: 0 printed; 2 bad command line; 3 a file cannot be read or is neither a manifest nor a\n"
               "report (missing, a device, not JSON, another schema or version, a directory without manifests); 5 the\n"
               "table cannot be written (the standard output failed: a full disk). The verdicts themselves never change it."};
  std::vector<std::string> manifests;
  bool markdown = false;
  std::size_t max_bytes = 1000000;
  app.add_option("files", manifests,
                 "manifests written by rooflint --manifest (a directory: every *.rooflint.json below it), reports written by "
                 "rooflint-verify --json")
      ->required();
  app.set_version_flag("--version", "rooflint-summary (rooflint) " ROOFLINT_VERSION, "rooflint's version");
  app.add_flag("--markdown", markdown, "GitHub-flavoured Markdown (for $GITHUB_STEP_SUMMARY) instead of text");
  app.add_option("--max-bytes", max_bytes,
                 "cut the tables before this many bytes in all, saying how many rows were left out (default 1000000: "
                 "GitHub cuts a step summary at 1 MiB)")
      ->check(CLI::Range(std::size_t{1000}, std::size_t{1} << 40));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? ok : usage;  // --help
    std::cerr << "rooflint-summary: error: " << e.what() << "\n(see 'rooflint-summary --help')\n";
    return usage;
  }
  try {
    return summarize(manifests, markdown, max_bytes);
  } catch (const std::exception& e) {  // what the readers' checks missed is still a manifest that cannot be read
    std::cerr << "rooflint-summary: error: " << e.what() << "\n";
    return bad_manifest;
  }
}
