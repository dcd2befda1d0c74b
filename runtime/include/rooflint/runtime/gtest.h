#pragma once
/// @file gtest.h
/// GoogleTest helpers: assert a registered verification case's verdicts in a project's own GPU tests.
///
///     ROOFLINT_VERIFY_CASE(saxpy_n64M, saxpy_spec, N(1 << 26)) { ... }
///     TEST(Saxpy, MovesOnlyItsCompulsoryBytes) { ROOFLINT_EXPECT_VERIFIED(saxpy_n64M); }
///
/// The case runs in the test's process (counters, timing, comparison). Without a CUDA device the test
/// is skipped with the reason. Peaks: the ceilings file named by the environment variable
/// ROOFLINT_CEILINGS, else the datasheet. Include after <gtest/gtest.h>.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "rooflint/runtime/report.h"
#include "rooflint/runtime/verify.h"

namespace rooflint::runtime::test_support {

/// @return Options for the helpers: ROOFLINT_CEILINGS as the ceilings file, quiet.
inline verify_options options_from_environment() {
  verify_options o;
  o.isolate = false;
  o.progress = false;
  if (const char* path = std::getenv("ROOFLINT_CEILINGS")) o.ceilings_paths.push_back(path);
  return o;
}

/// @return The case's findings as text, one per line, for a failure message.
inline std::string findings_text(const case_report& r) {
  std::string s;
  for (const auto& f : r.findings) s += std::string(name(f.level)) + ": " + f.message + " [" + f.id + "]\n";
  return s;
}

}  // namespace rooflint::runtime::test_support

/// Runs the registered case @p case_name and expects every verdict to pass; skips without a device.
#define ROOFLINT_EXPECT_VERIFIED(case_name) ROOFLINT_DETAIL_VERIFIED(case_name, EXPECT_EQ)
/// As ROOFLINT_EXPECT_VERIFIED, but fatal.
#define ROOFLINT_ASSERT_VERIFIED(case_name) ROOFLINT_DETAIL_VERIFIED(case_name, ASSERT_EQ)

#define ROOFLINT_DETAIL_VERIFIED(case_name, check)                                                        \
  do {                                                                                                    \
    const auto rooflint_run_ = ::rooflint::runtime::verify_in_process(                                   \
        #case_name, ::rooflint::runtime::test_support::options_from_environment());                           \
    ASSERT_TRUE(rooflint_run_.ok()) << rooflint_run_.err().message;                                     \
    const auto& rooflint_case_ = rooflint_run_->cases.at(0);                                             \
    if (rooflint_case_.status == ::rooflint::runtime::case_status::skipped)                              \
      GTEST_SKIP() << "no CUDA device: " << rooflint_case_.measured.error;                               \
    check(::rooflint::runtime::name(rooflint_case_.status), "passed")                                   \
        << "case '" #case_name "':\n" << ::rooflint::runtime::test_support::findings_text(rooflint_case_);     \
  } while (0)
