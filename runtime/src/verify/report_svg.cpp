// The SVG roofline chart (report.h): log-log, the bandwidth roof and the compute roof of each math mode
// the cases use, the ridge marked, per case the predicted dot (hollow, on the roof at t_min) and the
// measured dot (filled: true intensity, achieved FLOP/s) joined by an arrow.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "rooflint/model/describe.h"
#include "rooflint/runtime/report.h"
#include "verify/format.h"

namespace rooflint::runtime {

namespace {

constexpr double width = 1000, height = 640;
constexpr double left = 112, right = 260, top = 56, bottom = 64;
constexpr double plot_w = width - left - right, plot_h = height - top - bottom;

struct dot {
  std::string label;
  double x_pred = 0, y_pred = 0;  // FLOP/byte, FLOP/s
  double x_meas = 0, y_meas = 0;
  bool measured = false;
  bool executed_flops = false;   // drawn with the counters' FLOPs (the spec counts 0)
  case_status status = case_status::passed;
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

}  // namespace

std::string to_svg(const run_report& run) {
  const model::peaks& peaks = run.peaks;
  std::vector<dot> dots;
  std::vector<std::string> not_drawn;
  std::set<model::math_mode> modes;
  for (const case_report& r : run.cases) {
    const prediction& p = r.predicted;
    const comparison& c = r.compared;
    dot d;
    d.label = r.name;
    d.status = r.status;
    double flops = p.flops;
    if (flops <= 0 && c.observed_flops > 0) {
      flops = c.observed_flops;
      d.executed_flops = true;
    }
    if (flops <= 0 || p.bytes() <= 0 || peaks.dram_bytes_per_s <= 0) {
      not_drawn.push_back(r.name + " (0 FLOP: no intensity to draw)");
      continue;
    }
    const model::workload w{flops, p.bytes(), p.mode};
    d.x_pred = model::intensity(w);
    d.y_pred = model::attainable_flops_per_s(peaks, p.mode, d.x_pred);
    if (d.y_pred <= 0) d.y_pred = peaks.dram_bytes_per_s * d.x_pred;  // no compute roof known for the mode
    if (c.t_measured_s > 0) {
      d.measured = true;
      const double bytes = c.traffic_measured && c.observed_bytes > 0 ? c.observed_bytes : p.bytes();
      d.x_meas = flops / bytes;
      d.y_meas = flops / c.t_measured_s;
    }
    if (peaks.has(p.mode)) modes.insert(p.mode);
    dots.push_back(d);
  }
  if (modes.empty() && peaks.has(model::math_mode::fp32_simt)) modes.insert(model::math_mode::fp32_simt);

  // Axis ranges: every dot and every ridge, padded by half a decade, at least 5 decades wide.
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  const auto include = [&](double x, double y) {
    if (x > 0) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    if (y > 0) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  };
  for (const dot& d : dots) {
    include(d.x_pred, d.y_pred);
    if (d.measured) include(d.x_meas, d.y_meas);
  }
  for (auto m : modes) include(model::ridge(peaks, m), peaks.flops_per_s[m]);
  if (xmax <= 0) xmin = 0.01, xmax = 100;
  if (ymax <= 0) ymin = 1e11, ymax = 1e14;
  axes a{std::floor(std::log10(xmin) - 0.5), std::ceil(std::log10(xmax) + 0.5), std::floor(std::log10(ymin) - 0.5),
         std::ceil(std::log10(ymax) + 0.3)};
  if (a.x1 - a.x0 < 5) a.x0 = a.x1 - 5;
  if (a.y1 - a.y0 < 4) a.y0 = a.y1 - 4;
  const double x_lo = std::pow(10.0, a.x0), x_hi = std::pow(10.0, a.x1), y_lo = std::pow(10.0, a.y0);

  std::string s;
  s += fmt::format(R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<title>rooflint roofline</title>
<defs>
  <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#444"/></marker>
  <clipPath id="plot"><rect x="{2}" y="{3}" width="{4}" height="{5}"/></clipPath>
</defs>
<rect width="100%" height="100%" fill="white"/>
)",
                   width, height, left, top, plot_w, plot_h);
  s += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Roofline: {}</text>\n", left,
                   xml_escape(run.device.empty() ? std::string("no device") : run.device));
  s += fmt::format("<text x=\"{}\" y=\"42\" fill=\"#555\">peaks: {}</text>\n", left, xml_escape(run.peaks_label));

  // Grid and axes.
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
  s += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte, DRAM)</text>\n",
                   left + plot_w / 2, height - 20);
  s += fmt::format("  <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">performance (FLOP/s)</text>\n",
                   top + plot_h / 2);
  s += "</g>\n";

  // Roofs: bandwidth diagonal up to the highest ridge, each compute roof from its ridge on.
  s += "<g id=\"roofs\" clip-path=\"url(#plot)\" fill=\"none\">\n";
  if (peaks.dram_bytes_per_s > 0) {
    double top_ridge = x_lo;
    for (auto m : modes) top_ridge = std::max(top_ridge, model::ridge(peaks, m));
    const double x_start = std::max(x_lo, y_lo / peaks.dram_bytes_per_s);
    s += fmt::format("  <line id=\"bandwidth-roof\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#0969da\" stroke-width=\"2.5\"/>\n",
                     a.px(x_start), a.py(peaks.dram_bytes_per_s * x_start), a.px(std::min(top_ridge, x_hi)),
                     a.py(peaks.dram_bytes_per_s * std::min(top_ridge, x_hi)));
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
  }
  for (auto m : modes) {
    const double ridge = model::ridge(peaks, m), peak = peaks.flops_per_s[m];
    s += fmt::format("  <text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#8250df\" text-anchor=\"end\">{} {}</text>\n", left + plot_w - 4,
                     a.py(peak) - 5, model::label(m), detail::rate_text(peak, "FLOP"));
    s += fmt::format("  <text class=\"ridge-label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#8250df\" text-anchor=\"middle\">ridge {} FLOP/B</text>\n",
                     a.px(ridge), top + plot_h - 6, model::format_significant(ridge));
  }
  s += "</g>\n";

  // Dots: predicted (hollow) -> measured (filled).
  s += "<g id=\"kernels\">\n";
  for (const dot& d : dots) {
    const std::string c = color(d.status);
    s += fmt::format("  <g class=\"kernel\" data-case=\"{}\">\n", xml_escape(d.label));
    const double xp = a.px(d.x_pred), yp = a.py(d.y_pred);
    s += fmt::format("    <circle class=\"predicted\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"white\" stroke=\"{}\" stroke-width=\"2\"/>\n", xp, yp, c);
    double lx = xp, ly = yp;
    if (d.measured) {
      const double xm = a.px(d.x_meas), ym = a.py(d.y_meas);
      const double len = std::hypot(xm - xp, ym - yp);
      if (len > 14) {  // stop the arrow at the circles' edges
        const double ux = (xm - xp) / len, uy = (ym - yp) / len;
        s += fmt::format("    <line class=\"arrow\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#444\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n",
                         xp + 7 * ux, yp + 7 * uy, xm - 7 * ux, ym - 7 * uy);
      }
      s += fmt::format("    <circle class=\"measured\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/>\n", xm, ym, c);
      lx = xm, ly = ym;
    }
    s += fmt::format("    <text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}{}</text>\n", lx + 9, ly + 4, c, xml_escape(d.label),
                     d.executed_flops ? " (executed FLOP)" : "");
    s += "  </g>\n";
  }
  s += "</g>\n";

  // Legend.
  const double lx = left + plot_w + 20;
  double ly = top + 10;
  s += "<g id=\"legend\">\n";
  s += fmt::format("  <text x=\"{}\" y=\"{}\" font-weight=\"bold\">legend</text>\n", lx, ly);
  ly += 20;
  s += fmt::format("  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"white\" stroke=\"#444\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\">predicted (compulsory bytes, t_min)</text>\n",
                   lx + 6, ly, lx + 18, ly + 4);
  ly += 20;
  s += fmt::format("  <circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"#444\"/><text x=\"{}\" y=\"{}\">measured (observed bytes, time)</text>\n",
                   lx + 6, ly, lx + 18, ly + 4);
  ly += 20;
  for (auto st : {case_status::passed, case_status::failed}) {
    s += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n", lx,
                     ly - 6, color(st), lx + 18, ly + 4, st == case_status::passed ? "passed" : "failed");
    ly += 20;
  }
  s += fmt::format("  <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#0969da\" stroke-width=\"2.5\"/><text x=\"{}\" y=\"{}\">bandwidth roof</text>\n",
                   lx, ly, lx + 12, ly, lx + 18, ly + 4);
  ly += 20;
  s += fmt::format("  <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#8250df\" stroke-width=\"2.5\"/><text x=\"{}\" y=\"{}\">compute roof, ridge dashed</text>\n",
                   lx, ly, lx + 12, ly, lx + 18, ly + 4);
  ly += 28;
  if (!not_drawn.empty()) {
    s += fmt::format("  <text x=\"{}\" y=\"{}\" font-weight=\"bold\">not drawn</text>\n", lx, ly);
    for (const auto& n : not_drawn) {
      ly += 16;
      s += fmt::format("  <text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", lx, ly, xml_escape(n));
    }
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace rooflint::runtime
