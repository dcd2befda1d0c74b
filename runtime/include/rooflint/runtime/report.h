#pragma once
/// @file report.h
/// The verifier's reports of a run: a terminal table, JSON (every figure with its unit in the key),
/// JUnit XML for CI systems, SARIF for code scanning, and an SVG roofline chart. Pure functions of a run_report: tested on
/// recorded data without a GPU.

#include <string>

#include "rooflint/runtime/verify.h"

namespace rooflint::runtime {

/// @return The terminal table: one row per case, then each case's findings as diagnostics.
std::string to_table(const run_report& run);

/// @return The JSON report (schema "rooflint-verify", version 1), 2-space indent.
std::string to_json(const run_report& run);

/// @return The JSON report, or an error naming the first figure that is an infinity (JSON has none;
/// nlohmann-json would write null, which reads as "not measured"). A NaN is a figure not measured and
/// is written as null.
result<std::string> to_json_checked(const run_report& run);

/// @return JUnit XML: one testsuite, one testcase per case; failed verdicts are <failure>, cases that
/// could not be measured <error>, skipped ones <skipped>.
std::string to_junit(const run_report& run);

/// @return A SARIF 2.1.0 log for code scanning, the driver named @p tool: each case's findings at its
/// spec's line (rule: the diagnostic's name), and each per-line traffic row at its access
/// (rooflint-line-traffic: a warning where the observed amplification differs from the predicted).
std::string to_sarif(const run_report& run, const std::string& tool);

/// @return An SVG roofline: log-log axes, the bandwidth roof and each math mode's compute roof used by
/// the cases, the ridge marked, per case the predicted dot and the measured dot joined by an arrow.
std::string to_svg(const run_report& run);

/// @return @p text with &, <, >, " and ' escaped for XML.
std::string xml_escape(const std::string& text);

}  // namespace rooflint::runtime
