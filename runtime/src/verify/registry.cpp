// The registry of verification cases (ROOFLINT_VERIFY_CASE, verify_case.h).

#include <utility>
#include <vector>

#include "rooflint/runtime/verify_case.h"

namespace rooflint::runtime {

namespace {
std::vector<case_definition>& registry() {
  static std::vector<case_definition> cases;  // function-local: safe during static initialisation
  return cases;
}
}  // namespace

int register_case(case_definition c) {
  registry().push_back(std::move(c));
  return static_cast<int>(registry().size()) - 1;
}

const std::vector<case_definition>& registered_cases() { return registry(); }

namespace {
std::vector<reference_pair>& references() {
  static std::vector<reference_pair> pairs;
  return pairs;
}
}  // namespace

int register_reference(reference_pair pair) {
  references().push_back(std::move(pair));
  return static_cast<int>(references().size()) - 1;
}

const std::vector<reference_pair>& registered_references() { return references(); }

}  // namespace rooflint::runtime
