// The registries of verification cases and of their references (ROOFLINT_VERIFY_CASE,
// ROOFLINT_VERIFY_REFERENCE, verify_case.h).

#include <utility>
#include <vector>

#include "rooflint/runtime/verify_case.h"

namespace rooflint::runtime {

namespace {
/// The registry of T: function-local, so safe to fill during static initialisation.
template <class T>
std::vector<T>& registry() {
  static std::vector<T> entries;
  return entries;
}

/// Appends @p entry. @return Its index.
template <class T>
int add(T entry) {
  registry<T>().push_back(std::move(entry));
  return static_cast<int>(registry<T>().size()) - 1;
}
}  // namespace

int register_case(case_definition c) { return add(std::move(c)); }
const std::vector<case_definition>& registered_cases() { return registry<case_definition>(); }

int register_reference(reference_pair pair) { return add(std::move(pair)); }
const std::vector<reference_pair>& registered_references() { return registry<reference_pair>(); }

}  // namespace rooflint::runtime
