// The verifier against bad data without a GPU: a run status the parent does not know, infinities in
// a measurement or a report (JSON has none), and case_context failures that must not end the process.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "io_limits.h"
#include "rooflint/runtime/report.h"
#include "rooflint/runtime/verify.h"
#include "rooflint/runtime/verify_case.h"
#include "report/measurement_json.h"
#include "verify_recorded.h"

using namespace rooflint::runtime;

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST(MeasurementJson, AnUnknownRunStatusIsAnErrorNotMeasured) {
  const std::string text = measurement_to_json(rooflint::verify_test::recorded_saxpy());
  const auto back = measurement_from_json(replaced(text, "\"run_status\":\"measured\"", "\"run_status\":\"exploded\""));
  ASSERT_FALSE(back) << "read as " << name(back->status);
  EXPECT_EQ(back.err().message, "malformed measurement from a case process: unknown run_status 'exploded'");
}

TEST(MeasurementJson, AnInfinityMakesTheCaseAnErrorNamingTheField) {
  measurement m = rooflint::verify_test::recorded_saxpy();
  m.timing.median_s = std::numeric_limits<double>::infinity();
  const auto back = measurement_from_json(measurement_to_json(m));
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->status, run_status::faulted);
  EXPECT_EQ(back->error, "the measurement of case 'saxpy_n64M' holds an infinity at '/timing/median_s'");
}

TEST(MeasurementJson, NotMeasuredFiguresStayNaN) {
  measurement m = rooflint::verify_test::recorded_saxpy();
  m.timing.median_s = std::numeric_limits<double>::quiet_NaN();
  const auto back = measurement_from_json(measurement_to_json(m));
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->status, run_status::measured);
  EXPECT_TRUE(std::isnan(back->timing.median_s));
}

TEST(ReportJson, AnInfinityIsRefusedWithItsPointer) {
  run_report run;
  run.peaks.dram_bytes_per_s = std::numeric_limits<double>::infinity();
  const auto text = to_json_checked(run);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.err().message, "'/peaks/dram_bytes_per_s' is not a finite number");
  run.peaks.dram_bytes_per_s = 4.8e12;
  EXPECT_TRUE(to_json_checked(run));
}

TEST(CaseContext, AnUnknownDimensionThrowsInsteadOfExiting) {
  const auto bound = rooflint::verify_test::saxpy_spec.bind(rooflint::verify_test::N(1024));
  case_context ctx(rooflint::verify_test::saxpy_spec, bound.bound);
  EXPECT_EQ(ctx.size(rooflint::verify_test::N), 1024);
  try {
    ctx.size(rooflint::verify_test::S);
    FAIL() << "no case_error";
  } catch (const case_error& e) {
    EXPECT_FALSE(e.cuda_failed());
    EXPECT_STREQ(e.what(), "ctx.size(): spec 'saxpy' has no dimension 'S'");
  }
}

TEST(CaseContext, AnEmptyOrTooWideIntegerRangeIsABadCaseNotACudaFailure) {
  // Checked before any CUDA call, so this runs without a device.
  const auto bound = rooflint::verify_test::saxpy_spec.bind(rooflint::verify_test::N(1024));
  case_context ctx(rooflint::verify_test::saxpy_spec, bound.bound);
  for (const auto& [lo, hi] : {std::pair<std::int64_t, std::int64_t>{5, 5}, {0, 129}}) {
    try {
      ctx.random_integers<std::int8_t>(16, lo, hi);  // [5, 5) is empty; 128 does not fit an int8_t
      FAIL() << "no case_error for [" << lo << ", " << hi << ")";
    } catch (const case_error& e) {
      EXPECT_FALSE(e.cuda_failed());
      EXPECT_EQ(std::string(e.what()), "ctx.random_integers(): the range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                           ") is empty or does not fit the element type [-128, 127] (spec 'saxpy')");
    }
  }
}

// In a child, so that this process's CUDA stays uninitialised (the verifier forks before CUDA).
TEST(CaseContext, AFailedAllocationThrowsInsteadOfExiting) {
  const auto [status, message] = rooflint::test::in_child([] {
    const auto bound = rooflint::verify_test::saxpy_spec.bind(rooflint::verify_test::N(1024));
    case_context ctx(rooflint::verify_test::saxpy_spec, bound.bound);
    try {
      ctx.random<float>(std::size_t{1} << 60);  // 4 EiB: no device has it; without a device cudaMalloc fails too
    } catch (const case_error& e) {
      return std::string(e.cuda_failed() ? "cuda: " : "other: ") + e.what();
    }
    return std::string("no case_error");
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child ended with status " << status;
  EXPECT_EQ(message.rfind("cuda: cudaMalloc of 4611686018427387904 bytes failed: cuda", 0), 0u) << message;
}
