#pragma once
// Per-line traffic in the reports (rooflint/runtime/line_traffic.h): the text rows under a case, the
// case's "lines" JSON object, SARIF results at the line, and the manifest's predicted accesses. Host only.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rooflint/files/diagnostics.h"
#include "rooflint/files/manifest.h"
#include "rooflint/runtime/line_traffic.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime::detail {

/// The SARIF rule id of the per-line results (also the text's and JSON's name for them).
inline constexpr std::string_view line_traffic_rule = diagnostics::line_traffic.name;

/// @return The manifest's `predicted_traffic.accesses` of one kernel, as the per-line join takes them
/// (the manifest's reader checked their types and ranges: rooflint/files/manifest.h).
std::vector<predicted_access> predicted_accesses_of(const std::vector<manifest::access>& accesses);

/// @return The lines printed under a case in the table: a header with the collection's cost, then one line
/// per row ("k.cu:43 load A: predicted 8x, observed 8.0x (...)"), then the lines not predicted; or one
/// line saying why per-line figures are not available. Each line starts with @p indent.
std::string lines_text(const line_report& report, const std::string& indent = "  ");

/// @return The case's "lines" object: collected, not_available, line_info, cost_s, rows, unpredicted,
/// unmapped_instructions, unplaced_accesses. Numbers are null where not known (NaN).
nlohmann::json lines_json(const line_report& report);

/// @return SARIF 2.1.0 result objects, one per row and per line not predicted, at the line (and the
/// predicted access's column), rule line_traffic_rule: "warning" where the observed amplification
/// differs from the prediction, "note" otherwise. @p kernel names the kernel in the messages.
std::vector<nlohmann::json> lines_sarif_results(const line_report& report, const std::string& kernel);

/// @return The one-sentence text of @p row, without location ("load A: predicted 8x, observed 8.0x (...)").
std::string line_row_text(const line_row& row);

}  // namespace rooflint::runtime::detail
