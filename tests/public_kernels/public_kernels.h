#pragma once
/// @file public_kernels.h
/// What every wrapper of tests/public_kernels/ shares: the traffic corpus's host helpers (a Case per
/// launch: zeroed or uploaded buffers, the launch checked, the outcome printed; corpus::wanted() for a
/// filter) and the DSL. Include it before the public source, so that the public file's macros cannot
/// change what the standard headers declare.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "../analyzer/traffic_corpus/program.h"
#include "rooflint/dsl.h"

namespace public_kernels {

/// The wrapper's main: `WRAPPER [filter]` runs the cases whose name contains the filter ('|' between
/// alternatives, "=name" for a whole name), each once; exit status 1 when a case failed.
inline int run_cases(int argc, char** argv, void (*cases)()) {
  if (argc > 1) corpus::filter = argv[1];
  cases();
  return corpus::failures == 0 ? 0 : 1;
}

}  // namespace public_kernels
