// The verifier's report as rooflint::files reads it (rooflint/files/verify_report.h), on a report the
// verifier wrote on the H200 (docs/measurements/h200-2026-12-02/processes/gate-worse.json: the 10-launch
// program against a baseline whose saxpy [N=65536] bytes were halved) and on hostile variants of it.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "rooflint/files/verify_report.h"

using namespace rooflint;

namespace {

std::string recorded() {
  std::ifstream in(std::string(ROOFLINT_MEASUREMENTS_DIR) + "/h200-2026-12-02/processes/gate-worse.json");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

}  // namespace

TEST(VerifyReport, ReadsARecordedReportWithItsLevelsAndTheGatesVerdicts) {
  std::string error;
  const auto r = verify_report::from_json(recorded(), "gate-worse.json", error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->version, 2);
  EXPECT_EQ(r->device, "NVIDIA H200");
  EXPECT_EQ(r->exit_code, 1);  // the WORSE case fails the run
  ASSERT_EQ(r->cases.size(), 5u);
  const auto saxpy = std::find_if(r->cases.begin(), r->cases.end(), [](const auto& c) { return c.name == "saxpy [N=65536]"; });
  ASSERT_NE(saxpy, r->cases.end());
  EXPECT_EQ(saxpy->kernel, "saxpy");
  EXPECT_EQ(saxpy->status, "failed");
  ASSERT_EQ(saxpy->compared.levels.size(), 3u);
  EXPECT_EQ(saxpy->compared.levels[0].level, model::memory_level::dram);
  EXPECT_GT(saxpy->compared.levels[1].bytes, 0);
  ASSERT_EQ(r->baseline.size(), 5u);
  const auto gate = std::find_if(r->baseline.begin(), r->baseline.end(), [](const auto& b) { return b.name == "saxpy [N=65536]"; });
  ASSERT_NE(gate, r->baseline.end());
  EXPECT_EQ(gate->verdict, "WORSE");
}

TEST(VerifyReport, RefusesAnotherSchemaAVersionItDoesNotKnowAndAFieldOfAnotherType) {
  std::string error;
  EXPECT_FALSE(verify_report::from_json(R"({"schema": "rooflint-manifest", "version": 4})", "m.json", error));
  EXPECT_NE(error.find("not a rooflint-verify report"), std::string::npos) << error;
  EXPECT_FALSE(verify_report::from_json(replaced(recorded(), R"("version": 2)", R"("version": 3)"), "r.json", error));
  EXPECT_NE(error.find("'version'"), std::string::npos) << error;
  EXPECT_FALSE(verify_report::from_json(replaced(recorded(), R"("status": "failed")", R"("status": 1)"), "r.json", error));
  EXPECT_NE(error.find("/status' must be a string, not an integer"), std::string::npos) << error;
  EXPECT_FALSE(verify_report::from_json("[1, 2]", "r.json", error));
  EXPECT_FALSE(verify_report::is_verify_report("not json"));
}
