// rooflint-spec-evaluation: a spec whose value is not a constant.
#include "cuda_mock.h"
#include "rooflint/dsl.h"
using namespace rooflint::dsl;

rooflint::dsl::spec make_spec_at_run_time();

// expected-error@+1:27 {{cannot evaluate spec 'runtime_spec'; its initializer is not a constant expression (declare it 'constexpr') [rooflint-spec-evaluation]}}
const rooflint::dsl::spec runtime_spec = make_spec_at_run_time();

// No diagnostic: a spec parameter of a function is not a spec declaration.
inline double flops_of(const rooflint::dsl::spec& s) { return s.flops.term_count; }

// No diagnostic: a run-time copy of a spec inside a function is not a spec declaration.
inline double copy_flops(const rooflint::dsl::spec& s) {
  rooflint::dsl::spec copy = s;
  return copy.flops.term_count;
}
