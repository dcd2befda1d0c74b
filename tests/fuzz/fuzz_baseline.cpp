// libFuzzer target: the baseline report reader of rooflint-verify (read_baseline and compare_baseline,
// runtime/src/inject/baseline.cpp) on arbitrary bytes as a --baseline file. It must return the cases or
// an error, never crash, throw, hang or leak; both entries must agree on what they accept; and a
// baseline it accepts gives every compared case a finite noise band of at least the 2% floor.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rooflint/runtime/inject.h"

using namespace rooflint::runtime;
using namespace rooflint::runtime::inject;

namespace {

/// A run of one measured case, named as the seed's first case, so that the comparison has something to
/// compare (the seed is a rooflint-verify report of the example GoogleTest binary).
run_report current_run() {
  run_report run;
  case_report c;
  c.name = "saxpy [N=1048576]";
  c.compared.roofline_fraction = 0.5;
  c.measured.timing.available = true;
  c.measured.timing.repetitions = 3;
  c.measured.timing.median_s = 1e-3;
  c.measured.timing.min_s = 0.9e-3;
  c.measured.timing.max_s = 1.1e-3;
  run.cases.push_back(c);
  return run;
}

void fail(const char* what) {
  std::fprintf(stderr, "fuzz_baseline: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto read = read_baseline(text);
  static const run_report run = current_run();
  const auto compared = compare_baseline(run, text);
  if (read.ok() != compared.ok()) fail("read_baseline and compare_baseline disagree on the same text");
  if (!compared) return 0;
  for (const baseline_case& b : *compared) {
    const bool judged = b.outcome == baseline_case::verdict::no_change || b.outcome == baseline_case::verdict::regression ||
                        b.outcome == baseline_case::verdict::improvement;
    if (judged && !(std::isfinite(b.band) && b.band >= 0.02 && std::isfinite(b.change))) fail("a judged case has no finite band or change");
  }
  baseline_findings(*compared);
  return 0;
}
