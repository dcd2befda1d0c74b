#pragma once
/// @file runtime.h
/// rooflint's runtime, the public API in one include: register verification cases
/// (ROOFLINT_VERIFY_CASE, runtime/verify_case.h), run them (verify(), verify_main(); runtime/verify.h),
/// the comparison of a measurement with its spec (runtime/comparison.h, runtime/measurement.h), the
/// reports of a run (runtime/report.h), the device and the ceilings file that applies to it
/// (runtime/device.h, runtime/ceilings_check.h), and rooflint::result (runtime/result.h).
/// GoogleTest helpers are separate (runtime/gtest.h: it needs <gtest/gtest.h>).
/// Headers under runtime/src are internal and may change without notice.

#include "rooflint/runtime/ceilings_check.h"
#include "rooflint/runtime/comparison.h"
#include "rooflint/runtime/device.h"
#include "rooflint/runtime/measurement.h"
#include "rooflint/runtime/report.h"
#include "rooflint/runtime/result.h"
#include "rooflint/runtime/verify.h"
#include "rooflint/runtime/verify_case.h"
