// The SVG roofline chart (report.h), hierarchical: log-log, one bandwidth roof per memory level (DRAM,
// L2, L1, each at its own measured roof), the compute roof of each math mode the cases use, the DRAM
// ridge marked; per case the predicted dot (hollow, on the roof at t_min), beside it the dot of the
// analyzer's predicted DRAM traffic with the access pattern (hollow, dashed; manifest version 4, where
// it predicts one and it differs from the compulsory traffic), one dot per level at that
// level's intensity (ideal FLOPs / that level's bytes) and the achieved FLOP/s (circle DRAM, square L2,
// triangle L1), and the measured dot (filled, at the binding level) joined to the predicted by an arrow. Kernels without ideal
// FLOPs (pure data movement) get a second panel below: compulsory against observed DRAM bytes on a log
// scale, with the traffic ratio and the achieved bandwidth. The canvas is sized from its content; text
// widths are estimated (6.5 px per character at 12 px, 6 px at 11 px) since no font is embedded.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "rooflint/model/describe.h"
#include "rooflint/runtime/report.h"
#include "report/format.h"

namespace rooflint::runtime {

namespace {

constexpr double main_h = 640;
constexpr double left = 112, top = 56, bottom = 64, plot_w = 628;
constexpr double plot_h = main_h - top - bottom;
constexpr double char_w = 6.5;       // estimated width of one character at font-size 12
constexpr double small_char_w = 6;   // at font-size 11
constexpr double line_h = 14;        // a label's box height at font-size 12

struct dot {
  std::string label;
  double x_pred = 0, y_pred = 0;  // FLOP/byte, FLOP/s
  double x_meas = 0, y_meas = 0;
  bool measured = false;
  bool executed_flops = false;   // drawn with the counters' FLOPs (the spec counts 0)
  case_status status = case_status::passed;
  double x_level[model::memory_level_count] = {};  // FLOP/byte at each level's bytes; 0 = not measured
  std::string binding;           // "DRAM", "L2", "L1" or "compute"
  // The analyzer's prediction with the access pattern (manifest version 4): the kernel's predicted
  // DRAM bytes, on the roof at that intensity; 0 = no prediction.
  double x_access = 0, y_access = 0;
};

/// @return The drawn roof of level @p l: its best measured figure (DRAM: the peaks' single figure).
double level_bandwidth(const model::peaks& p, model::memory_level l) {
  if (l == model::memory_level::dram) return p.dram_bytes_per_s;
  const model::level_roofs& r = p.level(l);
  return std::max({r.read_bytes_per_s, r.write_bytes_per_s, r.copy_bytes_per_s});
}

const char* level_color(model::memory_level l) {
  switch (l) {
    case model::memory_level::dram: return "#0969da";
    case model::memory_level::l2: return "#bf8700";
    case model::memory_level::l1: return "#1b7c83";
  }
  return "#444";
}

/// A level's marker: circle (DRAM), square (L2), triangle (L1), centred on (x, y).
std::string level_marker(model::memory_level l, double x, double y, double r, const std::string& fill,
                         const std::string& extra) {
  switch (l) {
    case model::memory_level::dram:
      return fmt::format("<circle {} cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\"/>", extra, x, y, r, fill);
    case model::memory_level::l2:
      return fmt::format("<rect {} x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>", extra, x - r, y - r,
                         2 * r, 2 * r, fill);
    case model::memory_level::l1:
      return fmt::format("<path {} d=\"M {:.1f} {:.1f} L {:.1f} {:.1f} L {:.1f} {:.1f} z\" fill=\"{}\"/>", extra, x, y - 1.2 * r,
                         x + 1.1 * r, y + 0.8 * r, x - 1.1 * r, y + 0.8 * r, fill);
  }
  return {};
}

/// A kernel without ideal FLOPs: bytes only.
struct mover {
  std::string label;
  double compulsory = 0, observed = 0;  // bytes (observed 0: no counters): DRAM
  double level_bytes[model::memory_level_count] = {};  // observed at each level; 0 = not measured
  std::string ratio;                    // "16.0x reads, 1.0x writes"
  std::string bandwidth;                // "3.6 TB/s of 4.54 TB/s"
  case_status status = case_status::passed;
};

struct box {
  double x0, y0, x1, y1;
  bool overlaps(const box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

struct axes {
  double x0, x1, y0, y1;  // decades (log10)
  double px(double x) const { return left + (std::log10(x) - x0) / (x1 - x0) * plot_w; }
  double py(double y) const { return top + plot_h - (std::log10(y) - y0) / (y1 - y0) * plot_h; }
};

std::string color(case_status s) {
  switch (s) {
    case case_status::passed: return "#1a7f37";
    case case_status::failed: return "#cf222e";
    default: return "#6e7781";
  }
}

std::string decade_label(int k, const char* unit) {
  const double v = std::pow(10.0, k);
  if (unit[0] == '\0') return model::format_significant(v, 1);
  return detail::rate_text(v, unit);
}

/// @return @p text split at spaces into lines of at most @p max_chars (a longer word stays whole).
std::vector<std::string> wrap(const std::string& text, std::size_t max_chars) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (!line.empty() && line.size() + 1 + word.size() > max_chars) lines.push_back(line), line.clear();
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

/// "DRAM 11x, L2 1x, L1 1.2x": each level's bytes over its ideal, one level at a time.
std::string ratio_words(const comparison& c) {
  if (!c.traffic_measured) return "traffic not measured (no counters)";
  std::string out;
  for (const auto& t : c.levels)
    out += (out.empty() ? "" : ", ") + std::string(model::label(t.level)) + " " + fmt::format("{:.1f}x", t.ratio);
  return out.empty() ? fmt::format("DRAM {:.1f}x", c.total_ratio) : out;
}

/// A kernel without ideal FLOPs, for the data-movement panel.
mover mover_of(const case_report& r, const model::peaks& peaks) {
  const prediction& p = r.predicted;
  const comparison& c = r.compared;
  mover m;
  m.label = r.name;
  m.status = r.status;
  m.compulsory = p.bytes();
  m.observed = c.traffic_measured ? c.observed_bytes : 0;
  for (const auto& t : c.levels) m.level_bytes[static_cast<std::size_t>(t.level)] = t.bytes();
  m.ratio = ratio_words(c);
  if (c.t_measured_s > 0) {
    const double bw = c.achieved_bytes_per_s > 0 ? c.achieved_bytes_per_s
                                                 : (m.observed > 0 ? m.observed : m.compulsory) / c.t_measured_s;
    m.bandwidth = detail::rate_text(bw, "B");
    if (peaks.dram_bytes_per_s > 0) m.bandwidth += " of " + detail::rate_text(peaks.dram_bytes_per_s, "B");
  } else {
    m.bandwidth = "not timed";
  }
  return m;
}

/// The decade grid, the plot frame, the decade labels and the axis titles.
std::string grid_and_axes(const axes& a) {
  std::string s;
  s += "<g id=\"grid\" stroke=\"#e5e5e5\" stroke-width=\"1\">\n";
  for (int k = static_cast<int>(a.x0); k <= static_cast<int>(a.x1); ++k)
    s += fmt::format("  <line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>\n", a.px(std::pow(10.0, k)), top, top + plot_h);
  for (int k = static_cast<int>(a.y0); k <= static_cast<int>(a.y1); ++k)
    s += fmt::format("  <line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\"/>\n", a.py(std::pow(10.0, k)), left, left + plot_w);
  s += "</g>\n<g id=\"axes\">\n";
  s += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", left, top, plot_w, plot_h);
  for (int k = static_cast<int>(a.x0); k <= static_cast<int>(a.x1); ++k)
    s += fmt::format("  <text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", a.px(std::pow(10.0, k)),
                     top + plot_h + 18, decade_label(k, ""));
  for (int k = static_cast<int>(a.y0); k <= static_cast<int>(a.y1); ++k)
    s += fmt::format("  <text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>\n", left - 6,
                     a.py(std::pow(10.0, k)), decade_label(k, "FLOP"));
  s += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">arithmetic intensity (ideal FLOP per byte of each level: "
                   "circle DRAM, square L2, triangle L1)</text>\n",
                   left + plot_w / 2, main_h - 20);
  s += fmt::format("  <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">performance (FLOP/s)</text>\n",
                   top + plot_h / 2);
  s += "</g>\n";
  return s;
}

/// Roofs: bandwidth diagonal up to the highest ridge, each compute roof from its ridge on, and their labels.
std::string roofs(const model::peaks& peaks, const std::set<model::math_mode>& modes, const axes& a) {
  const double x_lo = std::pow(10.0, a.x0), x_hi = std::pow(10.0, a.x1), y_lo = std::pow(10.0, a.y0);
  std::string s;
  s += "<g id=\"roofs\" clip-path=\"url(#plot)\" fill=\"none\">\n";
  if (peaks.dram_bytes_per_s > 0) {
    double top_ridge = x_lo;
    for (auto m : modes) top_ridge = std::max(top_ridge, model::ridge(peaks, m));
    const double x_start = std::max(x_lo, y_lo / peaks.dram_bytes_per_s);
    s += fmt::format("  <line id=\"bandwidth-roof\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#0969da\" stroke-width=\"2.5\"/>\n",
                     a.px(x_start), a.py(peaks.dram_bytes_per_s * x_start), a.px(std::min(top_ridge, x_hi)),
                     a.py(peaks.dram_bytes_per_s * std::min(top_ridge, x_hi)));
  }
  double peak_max = 0;
  for (auto m : modes) peak_max = std::max(peak_max, peaks.flops_per_s[m]);
  for (const model::memory_level l : {model::memory_level::l2, model::memory_level::l1}) {
    const double bw = level_bandwidth(peaks, l);
    if (bw <= 0 || peak_max <= 0) continue;
    const double x_start = std::max(x_lo, y_lo / bw), x_end = std::min(peak_max / bw, x_hi);
    s += fmt::format("  <line class=\"level-roof\" id=\"{}-roof\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                     model::name(l), a.px(x_start), a.py(bw * x_start), a.px(x_end), a.py(bw * x_end), level_color(l));
  }
  for (auto m : modes) {
    const double ridge = model::ridge(peaks, m), peak = peaks.flops_per_s[m];
    s += fmt::format("  <line class=\"compute-roof\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#8250df\" stroke-width=\"2.5\"/>\n",
                     a.px(ridge), a.py(peak), a.px(x_hi), a.py(peak));
    s += fmt::format("  <line class=\"ridge\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#8250df\" stroke-dasharray=\"4 4\"/>\n",
                     a.px(ridge), a.py(peak), top + plot_h);
  }
  s += "</g>\n<g id=\"roof-labels\" font-size=\"11\">\n";
  if (peaks.dram_bytes_per_s > 0) {
    const double x = std::pow(10.0, a.x0 + 0.3);
    const double angle = -std::atan((plot_h / (a.y1 - a.y0)) / (plot_w / (a.x1 - a.x0))) * 180 / M_PI;
    s += fmt::format("  <text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#0969da\" transform=\"rotate({:.1f} {:.1f} {:.1f})\">DRAM {}</text>\n",
                     a.px(x), a.py(peaks.dram_bytes_per_s * x) - 6, angle, a.px(x), a.py(peaks.dram_bytes_per_s * x) - 6,
                     detail::rate_text(peaks.dram_bytes_per_s, "B"));
    // The cache levels' roofs, labelled by level at staggered intensities so the labels do not overlap.
    double offset = 0.3;
    for (const model::memory_level l : {model::memory_level::l2, model::memory_level::l1}) {
      const double bw = level_bandwidth(peaks, l);
      offset += 0.9;
      if (bw <= 0) continue;
      double xl = std::pow(10.0, a.x0 + offset);
      if (a.py(bw * xl) < top + 20) xl = std::pow(10.0, std::log10((y_lo > 0 ? std::pow(10.0, a.y1 - 0.4) : 1) / bw));
      s += fmt::format("  <text class=\"level-roof-label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" transform=\"rotate({:.1f} {:.1f} {:.1f})\">{} {}</text>\n",
                       a.px(xl), a.py(bw * xl) - 6, level_color(l), angle, a.px(xl), a.py(bw * xl) - 6, model::label(l),
                       detail::rate_text(bw, "B"));
    }
  }
  for (auto m : modes) {
    const double ridge = model::ridge(peaks, m), peak = peaks.flops_per_s[m];
    s += fmt::format("  <text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#8250df\" text-anchor=\"end\">{} {}</text>\n", left + plot_w - 4,
                     a.py(peak) - 5, model::label(m), detail::rate_text(peak, "FLOP"));
    s += fmt::format("  <text class=\"ridge-label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#8250df\" text-anchor=\"middle\">ridge {} FLOP/B</text>\n",
                     a.px(ridge), top + plot_h - 6, model::format_significant(ridge));
  }
  s += "</g>\n";
  return s;
}

/// The data-movement panel's geometry: names right-aligned, a log byte scale, the ratio and bandwidth text.
struct movement_layout {
  static constexpr double row_h = 28, bar_w = 420;
  double note_w = 0;
  double name_right = 0, bar_x0 = 0, note_x = 0;
  double panel_top = main_h, rows_top = main_h + 64, rows_bottom = main_h + 64;
  double b0 = 0, b1 = 1;  // the byte scale, log10
  double bx(double bytes) const { return bar_x0 + (std::log10(bytes) - b0) / (b1 - b0) * bar_w; }
};

movement_layout layout_movement(const std::vector<mover>& movers) {
  movement_layout g;
  double name_w = 0;
  double bmin = 1e300, bmax = 0;
  for (const mover& m : movers) {
    // Names sit right-aligned against the bars: size their column generously (browser fallback fonts
    // run ~7 px per character, wider than the 6.5 px estimate that is enough elsewhere).
    name_w = std::max(name_w, 1.15 * char_w * static_cast<double>(m.label.size()));
    g.note_w = std::max(g.note_w, char_w * static_cast<double>(m.ratio.size() + 3 + m.bandwidth.size()));
    for (double b : {m.compulsory, m.observed, m.level_bytes[1], m.level_bytes[2]})
      if (b > 0) bmin = std::min(bmin, b), bmax = std::max(bmax, b);
  }
  g.name_right = std::max(left - 6, 16 + name_w);
  g.bar_x0 = g.name_right + 16;
  g.note_x = g.bar_x0 + g.bar_w + 18;
  if (!movers.empty()) {
    g.b0 = std::floor(2 * std::log10(bmin / 1.3)) / 2;  // half decades
    g.b1 = std::ceil(2 * std::log10(bmax * 1.3)) / 2;
    if (g.b1 - g.b0 < 1.5) g.b0 = std::floor(g.b0 - 0.5), g.b1 = std::ceil(g.b1 + 0.5);
  }
  g.rows_bottom = g.rows_top + g.row_h * static_cast<double>(movers.size());
  return g;
}

/// Data movement: compulsory (hollow) against observed (filled) DRAM bytes, per kernel without FLOPs.
std::string data_movement(const std::vector<mover>& movers, const movement_layout& g, double width) {
  if (movers.empty()) return {};
  std::string s;
  s += "<g id=\"data-movement\">\n";
  s += fmt::format("  <line x1=\"16\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#d0d7de\"/>\n", g.panel_top + 4, width - 16);
  s += fmt::format("  <text x=\"16\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">data movement (kernels without ideal FLOPs)</text>\n",
                   g.panel_top + 26);
  s += fmt::format("  <text x=\"16\" y=\"{}\" fill=\"#555\">hollow: compulsory bytes; filled circle: observed DRAM bytes; square: L2 bytes; triangle: L1 bytes (each level its own, reads + writes); log scale</text>\n",
                   g.panel_top + 44);
  for (int k = static_cast<int>(std::ceil(g.b0)); k <= static_cast<int>(std::floor(g.b1)); ++k) {
    const double x = g.bx(std::pow(10.0, k));
    s += fmt::format("  <line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>\n", x, g.rows_top - 4, g.rows_bottom + 4);
    s += fmt::format("  <text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x, g.rows_bottom + 20,
                     detail::bytes_text(std::pow(10.0, k)));
  }
  s += fmt::format("  <text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">bytes per run at each level</text>\n", g.bar_x0 + g.bar_w / 2, g.rows_bottom + 38);
  double ry = g.rows_top;
  for (const mover& m : movers) {
    const std::string c = color(m.status);
    const double cy = ry + g.row_h / 2;
    s += fmt::format("  <g class=\"movement\" data-case=\"{}\">\n", xml_escape(m.label));
    s += fmt::format("    <title>{}: compulsory {}, observed {}</title>\n", xml_escape(m.label), detail::bytes_text(m.compulsory),
                     m.observed > 0 ? detail::bytes_text(m.observed) : std::string("not measured"));
    s += fmt::format("    <text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"{}\">{}</text>\n", g.name_right, cy + 4, c, xml_escape(m.label));
    s += fmt::format("    <line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#eee\"/>\n", g.bar_x0, cy, g.bar_x0 + g.bar_w, cy);
    const double xc = g.bx(m.compulsory);
    if (m.observed > 0) {
      const double xo = g.bx(m.observed);
      s += fmt::format("    <rect class=\"excess\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"10\" fill=\"{}\" fill-opacity=\"0.25\"/>\n",
                       std::min(xc, xo), cy - 5, std::abs(xo - xc), c);
    }
    // Hollow first, the filled observed dot on top and smaller: equal bytes read as a ring around a dot.
    s += fmt::format("    <circle class=\"compulsory-bytes\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"white\" stroke=\"{}\" stroke-width=\"2\"/>\n", xc, cy, c);
    if (m.observed > 0)
      s += fmt::format("    <circle class=\"observed-bytes\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"{}\"/>\n", g.bx(m.observed), cy, c);
    for (const model::memory_level l : {model::memory_level::l2, model::memory_level::l1}) {
      const double b = m.level_bytes[static_cast<std::size_t>(l)];
      if (b <= 0) continue;
      s += "    " + level_marker(l, g.bx(b), cy, 4, c,
                                 fmt::format("class=\"level-bytes\" data-level=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" fill-opacity=\"0.35\"",
                                             model::name(l), level_color(l))) + "\n";
    }
    s += fmt::format("    <text class=\"movement-ratio\" x=\"{:.1f}\" y=\"{:.1f}\"><tspan fill=\"{}\" font-weight=\"bold\">{}</tspan><tspan fill=\"#555\"> | {}</tspan></text>\n",
                     g.note_x, cy + 4, c, xml_escape(m.ratio), xml_escape(m.bandwidth));
    s += "  </g>\n";
    ry += g.row_h;
  }
  s += "</g>\n";
  return s;
}

/// What the chart draws: the roofline dots, the kernels without FLOPs (the data-movement panel), what
/// is not drawn (and why), and the math modes whose compute roofs appear.
struct chart_content {
  std::vector<dot> dots;
  std::vector<mover> movers;
  std::vector<std::string> not_drawn;
  std::set<model::math_mode> modes;
};

/// @return The dot of a case with FLOPs @p flops: predicted on the roof at its compulsory intensity,
/// beside it the prediction with the access pattern, and (when timed) the measured dot at the binding
/// level with one dot per level.
dot dot_of(const case_report& r, const model::peaks& peaks, double flops, bool executed_flops) {
  const prediction& p = r.predicted;
  const comparison& c = r.compared;
  dot d;
  d.label = r.name;
  d.status = r.status;
  d.executed_flops = executed_flops;
  const model::workload w{flops, p.bytes(), p.mode};
  d.x_pred = model::intensity(w);
  d.y_pred = model::attainable_flops_per_s(peaks, p.mode, d.x_pred);
  if (d.y_pred <= 0) d.y_pred = peaks.dram_bytes_per_s * d.x_pred;  // no compute roof known for the mode
  if (const double ratio = r.predicted_ratio[static_cast<std::size_t>(model::memory_level::dram)].ratio;
      r.predicted_ratio[static_cast<std::size_t>(model::memory_level::dram)].has_point() && ratio > 0) {
    d.x_access = flops / (p.bytes() * ratio);
    d.y_access = model::attainable_flops_per_s(peaks, p.mode, d.x_access);
    if (d.y_access <= 0) d.y_access = peaks.dram_bytes_per_s * d.x_access;
  }
  if (c.t_measured_s > 0) {
    d.measured = true;
    d.binding = c.binding_text();
    // The measured dot is where the kernel ran at its binding level (DRAM when compute binds).
    const level_traffic* at = nullptr;
    for (const auto& t : c.levels) {
      if (t.bytes() > 0) d.x_level[static_cast<std::size_t>(t.level)] = flops / t.bytes();
      if (c.binding && t.level == *c.binding) at = &t;
    }
    if (!at) at = c.level(model::memory_level::dram);
    const double bytes = at && at->bytes() > 0 ? at->bytes() : p.bytes();
    d.x_meas = flops / bytes;
    d.y_meas = flops / c.t_measured_s;
  }
  return d;
}

/// Sorts the cases: a dot each where there are FLOPs (the spec's, else the counters'), the panel below
/// for those without, "not drawn" for those without compulsory bytes.
chart_content collect(const run_report& run) {
  const model::peaks& peaks = run.peaks;
  chart_content out;
  for (const case_report& r : run.cases) {
    const prediction& p = r.predicted;
    double flops = p.flops;
    const bool executed_flops = flops <= 0 && r.compared.observed_flops > 0;
    if (executed_flops) flops = r.compared.observed_flops;
    if (p.bytes() <= 0) {
      out.not_drawn.push_back(r.name + " (0 compulsory bytes)");
      continue;
    }
    if (flops <= 0 || peaks.dram_bytes_per_s <= 0) {
      out.movers.push_back(mover_of(r, peaks));
      continue;
    }
    if (peaks.has(p.mode)) out.modes.insert(p.mode);
    out.dots.push_back(dot_of(r, peaks, flops, executed_flops));
  }
  if (out.modes.empty() && peaks.has(model::math_mode::fp32_simt)) out.modes.insert(model::math_mode::fp32_simt);
  return out;
}

/// Axis ranges: every dot and every ridge, padded by half a decade, at least 5 decades wide.
axes axes_for(const chart_content& content, const model::peaks& peaks) {
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  const auto include = [&](double x, double y) {
    if (x > 0) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    if (y > 0) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  };
  for (const dot& d : content.dots) {
    include(d.x_pred, d.y_pred);
    include(d.x_access, d.y_access);
    if (d.measured) include(d.x_meas, d.y_meas);
    for (double x : d.x_level)
      if (x > 0 && d.measured) include(x, d.y_meas);
  }
  for (auto m : content.modes) include(model::ridge(peaks, m), peaks.flops_per_s[m]);
  if (xmax <= 0) xmin = 0.01, xmax = 100;
  if (ymax <= 0) ymin = 1e11, ymax = 1e14;
  axes a{std::floor(std::log10(xmin) - 0.5), std::ceil(std::log10(xmax) + 0.5), std::floor(std::log10(ymin) - 0.5),
         std::ceil(std::log10(ymax) + 0.3)};
  if (a.x1 - a.x0 < 5) a.x0 = a.x1 - 5;
  if (a.y1 - a.y0 < 4) a.y0 = a.y1 - 4;
  return a;
}

/// A dot's label where place_labels put it.
struct placed_label {
  std::string text;
  double x = 0, y = 0;       // text anchor, baseline
  bool anchor_end = false;
  bool leader = false;
  double dot_x = 0, dot_y = 0;
  std::string case_name;
  case_status status = case_status::passed;
};

/// Dot labels: placed in order of y, each nudged down/up a line at a time until its box overlaps no
/// placed label and no dot; a label that would leave the plot on the right goes left of its dot.
std::vector<placed_label> place_labels(const std::vector<dot>& dots, const axes& a) {
  std::vector<placed_label> labels;
  std::vector<box> taken;
  for (const dot& d : dots) {
    taken.push_back({a.px(d.x_pred) - 6, a.py(d.y_pred) - 6, a.px(d.x_pred) + 6, a.py(d.y_pred) + 6});
    if (d.measured) taken.push_back({a.px(d.x_meas) - 6, a.py(d.y_meas) - 6, a.px(d.x_meas) + 6, a.py(d.y_meas) + 6});
    for (double x : d.x_level)
      if (x > 0 && d.measured) taken.push_back({a.px(x) - 5, a.py(d.y_meas) - 5, a.px(x) + 5, a.py(d.y_meas) + 5});
  }
  std::vector<std::size_t> order(dots.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto anchor = [&](const dot& d) {
    return d.measured ? std::pair{a.px(d.x_meas), a.py(d.y_meas)} : std::pair{a.px(d.x_pred), a.py(d.y_pred)};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return anchor(dots[i]).second < anchor(dots[j]).second; });
  for (std::size_t i : order) {
    const dot& d = dots[i];
    placed_label l;
    l.text = d.label + (d.executed_flops ? " (executed FLOP)" : "") +
             (d.measured && !d.binding.empty() ? " [bound by " + d.binding + "]" : "");
    l.case_name = d.label;
    l.status = d.status;
    std::tie(l.dot_x, l.dot_y) = anchor(d);
    const double w = char_w * static_cast<double>(l.text.size());
    l.anchor_end = l.dot_x + 9 + w > left + plot_w;
    const double x0 = l.anchor_end ? l.dot_x - 9 - w : l.dot_x + 9;
    double best_dy = 0;
    for (int k = 0; k <= 24; ++k) {
      const double dy = (k % 2 == 1 ? 1 : -1) * std::ceil(k / 2.0) * line_h;  // 0, +1, -1, +2, -2 lines
      const box b{x0, l.dot_y + dy - line_h / 2, x0 + w, l.dot_y + dy + line_h / 2};
      if (b.y0 < top || b.y1 > top + plot_h) continue;
      if (std::none_of(taken.begin(), taken.end(), [&](const box& t) { return t.overlaps(b); })) {
        best_dy = dy;
        break;
      }
    }
    taken.push_back({x0, l.dot_y + best_dy - line_h / 2, x0 + w, l.dot_y + best_dy + line_h / 2});
    l.x = l.anchor_end ? l.dot_x - 9 : l.dot_x + 9;
    l.y = l.dot_y + best_dy + 4;
    l.leader = std::abs(best_dy) >= line_h;
    labels.push_back(l);
  }
  return labels;
}

/// The canvas: sized from the title, the labels, the legend (long "not drawn" entries wrapped) and the
/// data-movement panel.
struct canvas {
  std::string title, peaks_line;
  std::vector<std::string> not_drawn_lines;
  double legend_x = 0;
  movement_layout panel;
  double width = 0, height = 0;
};

canvas canvas_for(const run_report& run, const chart_content& content, const std::vector<placed_label>& labels) {
  canvas k;
  for (const auto& n : content.not_drawn)
    for (const auto& line : wrap(n, 40)) k.not_drawn_lines.push_back(line);
  double legend_w = char_w * 40;  // "measured at the binding level (bytes, time)"
  for (const auto& line : k.not_drawn_lines) legend_w = std::max(legend_w, small_char_w * static_cast<double>(line.size()));
  k.legend_x = left + plot_w + 20;
  double width = k.legend_x + 18 + legend_w + 16;
  k.title = "Roofline: " + (run.device.empty() ? std::string("no device") : run.device);
  k.peaks_line = "peaks: " + run.peaks_label;
  width = std::max({width, left + 16 + 8.5 * static_cast<double>(k.title.size()), left + 16 + char_w * static_cast<double>(k.peaks_line.size())});
  for (const auto& l : labels)
    if (!l.anchor_end) width = std::max(width, l.x + char_w * static_cast<double>(l.text.size()) + 8);
  k.panel = layout_movement(content.movers);
  if (!content.movers.empty()) width = std::max({width, k.panel.note_x + k.panel.note_w + 16, 16 + char_w * 62});
  k.height = content.movers.empty() ? main_h : k.panel.rows_bottom + 50;
  k.width = std::ceil(width);
  return k;
}

/// The XML prolog, the arrow marker, the plot's clip, the title and the peaks line.
std::string svg_head(const canvas& k) {
  std::string s = fmt::format(R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<title>rooflint roofline</title>
<defs>
  <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#444"/></marker>
  <clipPath id="plot"><rect x="{2}" y="{3}" width="{4}" height="{5}"/></clipPath>
</defs>
<rect width="100%" height="100%" fill="white"/>
)",
                              k.width, k.height, left, top, plot_w, plot_h);
  s += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{}</text>\n", left, xml_escape(k.title));
  s += fmt::format("<text x=\"{}\" y=\"42\" fill=\"#555\">{}</text>\n", left, xml_escape(k.peaks_line));
  return s;
}

/// One kernel's dots: predicted (hollow) -> measured (filled), the per-level dots between.
std::string kernel_dots(const dot& d, const axes& a) {
  std::string s;
  const std::string c = color(d.status);
  s += fmt::format("  <g class=\"kernel\" data-case=\"{}\">\n", xml_escape(d.label));
  const double xp = a.px(d.x_pred), yp = a.py(d.y_pred);
  s += fmt::format("    <circle class=\"predicted\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"white\" stroke=\"{}\" stroke-width=\"2\"/>\n", xp, yp, c);
  // Beside the compulsory-traffic dot: where the analyzer's predicted DRAM traffic (with the access
  // pattern) puts the kernel, hollow and dashed; drawn only where the prediction differs visibly.
  if (d.x_access > 0 && std::hypot(a.px(d.x_access) - xp, a.py(d.y_access) - yp) > 1)
    s += fmt::format("    <circle class=\"predicted-access\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"white\" stroke=\"{}\" "
                     "stroke-width=\"2\" stroke-dasharray=\"3 2\"/>\n",
                     a.px(d.x_access), a.py(d.y_access), c);
  if (d.measured) {
    // One dot per level at the same achieved FLOP/s, joined by a thin line: where the kernel ran at
    // each level of the hierarchy.
    double lo = 0, hi = 0;
    for (double x : d.x_level)
      if (x > 0) lo = lo > 0 ? std::min(lo, x) : x, hi = std::max(hi, x);
    if (hi > lo && lo > 0)
      s += fmt::format("    <line class=\"level-span\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"1\" stroke-opacity=\"0.5\"/>\n",
                       a.px(lo), a.py(d.y_meas), a.px(hi), a.py(d.y_meas), c);
    for (const model::memory_level l : model::memory_levels) {
      const double x = d.x_level[static_cast<std::size_t>(l)];
      if (x <= 0) continue;
      s += "    " + level_marker(l, a.px(x), a.py(d.y_meas), 4, c,
                                 fmt::format("class=\"level-dot\" data-level=\"{}\" stroke=\"{}\" stroke-width=\"1.5\" fill-opacity=\"0.35\"",
                                             model::name(l), level_color(l))) + "\n";
    }
    const double xm = a.px(d.x_meas), ym = a.py(d.y_meas);
    const double len = std::hypot(xm - xp, ym - yp);
    if (len > 14) {  // stop the arrow at the circles' edges
      const double ux = (xm - xp) / len, uy = (ym - yp) / len;
      s += fmt::format("    <line class=\"arrow\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#444\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n",
                       xp + 7 * ux, yp + 7 * uy, xm - 7 * ux, ym - 7 * uy);
    }
    s += fmt::format("    <circle class=\"measured\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/>\n", xm, ym, c);
  }
  s += "  </g>\n";
  return s;
}

/// Labels above the dots, with a white halo; a thin leader line where a label moved off its dot.
std::string dot_labels(const std::vector<placed_label>& labels) {
  std::string s = "<g id=\"labels\" paint-order=\"stroke\" stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\">\n";
  for (const placed_label& l : labels) {
    const std::string c = color(l.status);
    if (l.leader) {
      const double ex = l.anchor_end ? l.x + 2 : l.x - 2;
      const double sx = l.dot_x + (l.anchor_end ? -6 : 6);
      s += fmt::format("  <line class=\"leader\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"0.8\" stroke-opacity=\"0.7\"/>\n",
                       sx, l.dot_y, ex, l.y - 4, c);
    }
    s += fmt::format("  <text data-case=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\"{}>{}</text>\n", xml_escape(l.case_name), l.x, l.y,
                     c, l.anchor_end ? " text-anchor=\"end\"" : "", xml_escape(l.text));
  }
  s += "</g>\n";
  return s;
}

/// The legend: each marker and roof drawn, the panel below, what is not drawn.
std::string legend(const chart_content& content, const canvas& k, const model::peaks& peaks) {
  std::string s;
  const double lx = k.legend_x;
  double ly = top + 10;
  s += "<g id=\"legend\">\n";
  s += fmt::format("  <text x=\"{}\" y=\"{}\" font-weight=\"bold\">legend</text>\n", lx, ly);
  ly += 20;
  s += fmt::format("  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"white\" stroke=\"#444\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\">predicted (compulsory bytes, t_min)</text>\n",
                   lx + 6, ly, lx + 18, ly + 4);
  ly += 20;
  if (std::any_of(content.dots.begin(), content.dots.end(), [](const dot& d) { return d.x_access > 0; })) {
    s += fmt::format("  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"white\" stroke=\"#444\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>"
                     "<text x=\"{}\" y=\"{}\">predicted with the access pattern (DRAM)</text>\n",
                     lx + 6, ly, lx + 18, ly + 4);
    ly += 20;
  }
  s += fmt::format("  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"#444\"/><text x=\"{}\" y=\"{}\">measured at the binding level (bytes, time)</text>\n",
                   lx + 6, ly, lx + 18, ly + 4);
  ly += 20;
  for (const model::memory_level l : model::memory_levels) {
    s += "  " + level_marker(l, lx + 6, ly, 4, "white", fmt::format("stroke=\"{}\" stroke-width=\"1.5\"", level_color(l)));
    s += fmt::format("<text x=\"{}\" y=\"{}\">{} dot: ideal FLOP / {} bytes</text>\n", lx + 18, ly + 4, model::label(l), model::label(l));
    ly += 20;
  }
  for (auto st : {case_status::passed, case_status::failed}) {
    s += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n", lx,
                     ly - 6, color(st), lx + 18, ly + 4, st == case_status::passed ? "passed" : "failed");
    ly += 20;
  }
  s += fmt::format("  <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#0969da\" stroke-width=\"2.5\"/><text x=\"{}\" y=\"{}\">DRAM roof</text>\n",
                   lx, ly, lx + 12, ly, lx + 18, ly + 4);
  ly += 20;
  for (const model::memory_level l : {model::memory_level::l2, model::memory_level::l1}) {
    if (level_bandwidth(peaks, l) <= 0) continue;
    s += fmt::format("  <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\">{} roof (best probe)</text>\n",
                     lx, ly, lx + 12, ly, level_color(l), lx + 18, ly + 4, model::label(l));
    ly += 20;
  }
  s += fmt::format("  <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#8250df\" stroke-width=\"2.5\"/><text x=\"{}\" y=\"{}\">compute roof, ridge dashed</text>\n",
                   lx, ly, lx + 12, ly, lx + 18, ly + 4);
  ly += 20;
  if (!content.movers.empty()) {
    s += fmt::format("  <text x=\"{}\" y=\"{}\" fill=\"#555\">{} without FLOPs: panel below</text>\n", lx, ly + 4,
                     content.movers.size() == 1 ? std::string("1 kernel") : fmt::format("{} kernels", content.movers.size()));
    ly += 20;
  }
  ly += 8;
  if (!k.not_drawn_lines.empty()) {
    s += fmt::format("  <text x=\"{}\" y=\"{}\" font-weight=\"bold\">not drawn</text>\n", lx, ly);
    for (const auto& n : k.not_drawn_lines) {
      ly += 16;
      s += fmt::format("  <text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", lx, ly, xml_escape(n));
    }
  }
  s += "</g>\n";

  return s;
}

}  // namespace

std::string to_svg(const run_report& run) {
  const chart_content content = collect(run);
  const axes a = axes_for(content, run.peaks);
  const std::vector<placed_label> labels = place_labels(content.dots, a);
  const canvas k = canvas_for(run, content, labels);
  std::string s = svg_head(k);
  s += grid_and_axes(a);
  s += roofs(run.peaks, content.modes, a);
  s += "<g id=\"kernels\">\n";
  for (const dot& d : content.dots) s += kernel_dots(d, a);
  s += "</g>\n";
  s += dot_labels(labels);
  s += legend(content, k, run.peaks);
  s += data_movement(content.movers, k.panel, k.width);
  s += "</svg>\n";
  return s;
}

}  // namespace rooflint::runtime
