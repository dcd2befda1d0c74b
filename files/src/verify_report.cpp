#include "rooflint/files/verify_report.h"

#include <set>

#include "json_codec.h"
#include "rooflint/files/input_file.h"
#include "rooflint/files/model_names.h"

namespace rooflint::files {
// clang-format off
template <> struct table<verify_report::level> {
  static constexpr auto fields = std::tuple{
      field{"level", &verify_report::level::level},
      field{"bytes", &verify_report::level::bytes, {.optional = true, .min = 0}},
      field{"traffic_ratio", &verify_report::level::traffic_ratio, {.optional = true, .min = 0}}};
};
template <> struct table<verify_report::comparison> {
  static constexpr auto fields = std::tuple{
      field{"roofline_fraction", &verify_report::comparison::roofline_fraction, {.optional = true, .min = 0}},
      field{"t_measured_s", &verify_report::comparison::t_measured_s, {.optional = true, .min = 0}},
      field{"levels", &verify_report::comparison::levels, {.since = 2, .optional = true}}};
};
template <> struct table<verify_report::timed_runs> {
  static constexpr auto fields = std::tuple{
      field{"available", &verify_report::timed_runs::available, {.optional = true}},
      field{"repetitions", &verify_report::timed_runs::repetitions, {.optional = true, .min = 0}},
      field{"median_s", &verify_report::timed_runs::median_s, {.optional = true, .min = 0}},
      field{"min_s", &verify_report::timed_runs::min_s, {.optional = true, .min = 0}},
      field{"max_s", &verify_report::timed_runs::max_s, {.optional = true, .min = 0}}};
};
template <> struct table<verify_report::measurement> {
  static constexpr auto fields = std::tuple{
      field{"timing", &verify_report::measurement::timing, {.optional = true}}};
};
template <> struct table<verify_report::reference_entry> {
  static constexpr auto fields = std::tuple{
      field{"name", &verify_report::reference_entry::name},
      field{"roofline_fraction", &verify_report::reference_entry::roofline_fraction, {.optional = true, .min = 0}}};
};
template <> struct table<verify_report::case_entry> {
  static constexpr auto fields = std::tuple{
      field{"name", &verify_report::case_entry::name},
      field{"kernel", &verify_report::case_entry::kernel, {.optional = true}},
      field{"sizes", &verify_report::case_entry::sizes, {.optional = true}},
      field{"status", &verify_report::case_entry::status},
      field{"compared", &verify_report::case_entry::compared},
      field{"measured", &verify_report::case_entry::measured, {.optional = true}},
      field{"reference", &verify_report::case_entry::reference, {.optional = true}}};
};
template <> struct table<verify_report::baseline_entry> {
  static constexpr auto fields = std::tuple{
      field{"name", &verify_report::baseline_entry::name},
      field{"verdict", &verify_report::baseline_entry::verdict, {.optional = true}}};
};
template <> struct table<verify_report::report> {
  static constexpr auto fields = std::tuple{
      field{"version", &verify_report::report::version},
      field{"device", &verify_report::report::device, {.optional = true}},
      field{"exit_code", &verify_report::report::exit_code, {.optional = true}},
      field{"warnings", &verify_report::report::warnings, {.optional = true}},
      field{"cases", &verify_report::report::cases},
      field{"baseline", &verify_report::report::baseline, {.optional = true}}};
};
// clang-format on
}  // namespace rooflint::files

namespace rooflint::verify_report {

using files::json_codec::json;

namespace {
bool has_report_schema(const json& doc) {
  if (!doc.is_object()) return false;
  const auto schema = doc.find("schema");
  return schema != doc.end() && schema->is_string() && schema->get<std::string>() == "rooflint-verify";
}

/// What the types cannot say: each case named once, each timing's figures in order. Empty: none.
std::string inconsistency(const report& r) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const case_entry& c = r.cases[i];
    const std::string at = "'/cases/" + std::to_string(i);
    if (!names.insert(c.name).second) return at + "/name' repeats the case '" + c.name + "'";
    const timed_runs& t = c.measured.timing;
    if (t.available && !(t.min_s <= t.median_s && t.median_s <= t.max_s))
      return at + "/measured/timing' has min_s, median_s and max_s out of order";
  }
  return {};
}
}  // namespace

bool is_verify_report(const std::string& text) {
  return has_report_schema(json::parse(text, nullptr, /*allow_exceptions=*/false));
}

std::optional<report> from_json(const std::string& text, const std::string& source, std::string& error) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const std::string& where = source;
  if (doc.is_discarded() || !doc.is_object()) {
    error = where + " is not a JSON object";
    return std::nullopt;
  }
  if (!has_report_schema(doc)) {
    error = where + " is not a rooflint-verify report: its 'schema' is not \"rooflint-verify\"";
    return std::nullopt;
  }
  const auto v = doc.find("version");
  if (v == doc.end() || !v->is_number_integer() || *v < oldest_version || *v > version) {
    error = where + ": 'version' is not one this reader knows (" + std::to_string(oldest_version) + " to " +
            std::to_string(version) + ")";
    return std::nullopt;
  }
  report r;
  files::json_codec::reader reader{v->get<int>(), {}};
  files::json_codec::read(doc, r, reader, "", {});
  if (!reader.ok()) {
    error = where + ": " + reader.error;
    return std::nullopt;
  }
  if (std::string why = inconsistency(r); !why.empty()) {
    error = where + ": " + why;
    return std::nullopt;
  }
  return r;
}

std::optional<report> load(const std::string& path, std::string& error) {
  std::string text;
  if (auto why = io::read_regular_file(path, text)) {
    error = *why;
    return std::nullopt;
  }
  return from_json(text, "report '" + path + "'", error);
}

}  // namespace rooflint::verify_report
