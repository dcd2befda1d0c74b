/// @file main.cu
/// rooflint-examples: every example's kernels in one binary.
///   rooflint-examples --self-check [substring]  runs the examples' correctness checks (exit 77: no GPU)
///   rooflint-examples [verifier options]        rooflint::verify_main over every ROOFLINT_VERIFY_CASE

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "example_check.h"

#if ROOFLINT_EXAMPLES_WITH_RUNTIME
#include "rooflint/runtime.h"
#endif

namespace {

/// Exit code CTest reads as "skipped" (SKIP_RETURN_CODE).
constexpr int exit_skipped = 77;

int run_self_checks(const std::string& filter) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: the examples' self-checks are skipped\n");
    return exit_skipped;
  }
  int failed = 0, run = 0;
  for (const auto& check : rooflint::examples::self_checks()) {
    if (check.name.find(filter) == std::string::npos) continue;
    std::printf("[ RUN  ] %s\n", check.name.c_str());
    const bool ok = check.run();
    std::printf("[ %s ] %s\n", ok ? " OK " : "FAIL", check.name.c_str());
    failed += ok ? 0 : 1;
    ++run;
  }
  std::printf("%d of %d self-checks passed\n", run - failed, run);
  return failed == 0 && run > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--self-check") return run_self_checks(argc > 2 ? argv[2] : "");
#if ROOFLINT_EXAMPLES_WITH_RUNTIME
  return rooflint::verify_main(argc, argv);
#else
  std::printf("rooflint-examples was built without the verifier (rooflint::runtime has no verify_main yet).\n"
              "self-checks (run them with --self-check):\n");
  for (const auto& check : rooflint::examples::self_checks()) std::printf("  %s\n", check.name.c_str());
  return 0;
#endif
}
