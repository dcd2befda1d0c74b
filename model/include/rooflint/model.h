#pragma once
/// @file model.h
/// rooflint's roofline model: plain constexpr C++20, no CUDA, no LLVM, no I/O.
///
/// Glossary (docs, diagnostics and test names use exactly these words):
///  - ideal FLOPs: the floating-point operations the operation needs, by the FLOP rules of the DSL
///    (torch.utils.flop_counter conventions by default). Unit: FLOP.
///  - compulsory bytes: every read tensor read once and every written tensor written once, at its
///    dtype's size. A lower bound on DRAM traffic for a cold cache. Unit: bytes.
///  - arithmetic intensity: ideal FLOPs / compulsory bytes. Unit: FLOP/byte.
///  - ceiling: a peak rate of the device, bandwidth (bytes/s, read + write) or compute (FLOP/s per math mode).
///  - ridge: peak FLOP/s / peak bytes/s. Unit: FLOP/byte.
///  - bound: memory-bound below the ridge, compute-bound at or above it.
///  - t_min: the floor, max(ideal FLOPs / peak FLOP/s, compulsory bytes / peak bytes/s). Unit: s.
///  - roofline fraction: t_min / measured time, 0..1.
///  - peak source: datasheet, measured or user.
///
/// The one-sentence description of a result and number formatting (model/describe.h, <string>) are not
/// included here: the DSL includes this header in every kernel file nvcc compiles, and only host code
/// that writes text needs them.

#include "rooflint/model/dtype.h"
#include "rooflint/model/peaks.h"
#include "rooflint/model/peaks_table.h"
#include "rooflint/model/roofline.h"
