#pragma once
/// @file DslSpellings.h
/// Every spelling of the spec language (dsl/include/rooflint/dsl) that the analyzer matches: the
/// namespace, the record names and the field names it reads from a spec's constant value.
/// A rename in the DSL must change this file, and the contract test (tests/analyzer) fails until it does.

#include "llvm/ADT/StringRef.h"

namespace rooflint::analyzer::spelling {

/// The record every spec derives from (dsl/spec.h).
inline constexpr llvm::StringLiteral SpecRecord = "rooflint::dsl::spec";
/// The record that binds a spec to its kernel (dsl/kernel.h); derives from SpecRecord.
inline constexpr llvm::StringLiteral KernelSpecRecord = "rooflint::dsl::kernel_spec";
/// kernel_spec's member holding the bound __global__ function.
inline constexpr llvm::StringLiteral KernelMember = "kernel";
/// The record of a region of kernels (dsl/region.h); its template arguments are the kernels.
inline constexpr llvm::StringLiteral RegionSpecRecord = "rooflint::dsl::region_spec";

// struct spec
inline constexpr llvm::StringLiteral KernelName = "kernel_name";
inline constexpr llvm::StringLiteral Op = "op";
inline constexpr llvm::StringLiteral Dims = "dims";
inline constexpr llvm::StringLiteral DimCount = "dim_count";
inline constexpr llvm::StringLiteral Tensors = "tensors";
inline constexpr llvm::StringLiteral TensorCount = "tensor_count";
inline constexpr llvm::StringLiteral Convention = "convention";
inline constexpr llvm::StringLiteral Mode = "mode";
inline constexpr llvm::StringLiteral Expected = "expected";
inline constexpr llvm::StringLiteral Flops = "flops";
inline constexpr llvm::StringLiteral ReadBytes = "read_bytes";
inline constexpr llvm::StringLiteral WrittenBytes = "written_bytes";
inline constexpr llvm::StringLiteral Launch = "launch";
inline constexpr llvm::StringLiteral SizeTerms = "size_terms";
inline constexpr llvm::StringLiteral Shape = "shape";

// struct launch_shape / launch_extent (dsl/launch.h)
inline constexpr llvm::StringLiteral ShapeGrid = "grid";
inline constexpr llvm::StringLiteral ShapeBlock = "block";
inline constexpr llvm::StringLiteral ShapeGridStated = "grid_stated";
inline constexpr llvm::StringLiteral ShapeBlockStated = "block_stated";
inline constexpr llvm::StringLiteral ShapeShared = "shared";
inline constexpr llvm::StringLiteral ShapeSharedStated = "shared_stated";
inline constexpr llvm::StringLiteral ShapeRegisters = "registers";
inline constexpr llvm::StringLiteral ExtentNumerator = "numerator";
inline constexpr llvm::StringLiteral ExtentDivisor = "divisor";

// struct size_table / size_term (dsl/poly.h)
inline constexpr llvm::StringLiteral SizeTableTerms = "terms";
inline constexpr llvm::StringLiteral SizeTableCount = "count";
inline constexpr llvm::StringLiteral SizeTermName = "name";
inline constexpr llvm::StringLiteral SizeTermOp = "op";
inline constexpr llvm::StringLiteral SizeTermLhs = "lhs";
inline constexpr llvm::StringLiteral SizeTermRhs = "rhs";

inline constexpr llvm::StringLiteral Region = "region";

// struct region_info / region_kernel (dsl/spec.h)
inline constexpr llvm::StringLiteral RegionKernels = "kernels";
inline constexpr llvm::StringLiteral RegionKernelCount = "kernel_count";
inline constexpr llvm::StringLiteral RegionMatch = "match";
inline constexpr llvm::StringLiteral RegionPattern = "pattern";

// struct launch_binding / launch_size (dsl/launch.h)
inline constexpr llvm::StringLiteral LaunchKind = "kind";
inline constexpr llvm::StringLiteral LaunchSizes = "sizes";
inline constexpr llvm::StringLiteral LaunchSizeCount = "size_count";
inline constexpr llvm::StringLiteral LaunchDim = "dim";
inline constexpr llvm::StringLiteral LaunchSource = "source";
inline constexpr llvm::StringLiteral LaunchIndex = "index";
inline constexpr llvm::StringLiteral LaunchMultiplier = "multiplier";
inline constexpr llvm::StringLiteral LaunchDivisor = "divisor";
inline constexpr llvm::StringLiteral LaunchSite = "site";
inline constexpr llvm::StringLiteral LaunchPowerOfTwo = "power_of_two";

// struct name_t
inline constexpr llvm::StringLiteral NameChars = "chars";

// struct poly / monomial
inline constexpr llvm::StringLiteral PolyDims = "dims";
inline constexpr llvm::StringLiteral PolyDimCount = "dim_count";
inline constexpr llvm::StringLiteral PolyTerms = "terms";
inline constexpr llvm::StringLiteral PolyTermCount = "term_count";
inline constexpr llvm::StringLiteral Coefficient = "coefficient";
inline constexpr llvm::StringLiteral Exponents = "exponents";
inline constexpr llvm::StringLiteral Packed = "packed";

// struct op_info
inline constexpr llvm::StringLiteral OpKind = "kind";
inline constexpr llvm::StringLiteral OpName = "name";
inline constexpr llvm::StringLiteral OpFlops = "flops";
inline constexpr llvm::StringLiteral OpZeroUnderTorch = "zero_under_torch";
inline constexpr llvm::StringLiteral OpCausal = "causal";
inline constexpr llvm::StringLiteral OpDerived = "derived";
inline constexpr llvm::StringLiteral OpDerivedCount = "derived_count";
inline constexpr llvm::StringLiteral OpConstraints = "constraints";
inline constexpr llvm::StringLiteral OpConstraintCount = "constraint_count";
inline constexpr llvm::StringLiteral OpPrecisionStated = "precision_stated";
inline constexpr llvm::StringLiteral OpCompute = "compute";
inline constexpr llvm::StringLiteral OpAccumulate = "accumulate";

// struct derived_dim
inline constexpr llvm::StringLiteral DerivedName = "name";
inline constexpr llvm::StringLiteral DerivedSource = "source";
inline constexpr llvm::StringLiteral DerivedWindow = "window";
inline constexpr llvm::StringLiteral DerivedStride = "stride";
inline constexpr llvm::StringLiteral DerivedPadding = "padding";
inline constexpr llvm::StringLiteral DerivedDilation = "dilation";

// struct size_constraint
inline constexpr llvm::StringLiteral ConstraintLhs = "lhs";
inline constexpr llvm::StringLiteral ConstraintFactor = "factor";
inline constexpr llvm::StringLiteral ConstraintRhs = "rhs";

// struct dim_info
inline constexpr llvm::StringLiteral DimName = "name";
inline constexpr llvm::StringLiteral DimStaticSize = "static_size";
inline constexpr llvm::StringLiteral DimDeclaredSize = "declared_size";

// struct tensor_info
inline constexpr llvm::StringLiteral TensorName = "name";
inline constexpr llvm::StringLiteral TensorDtype = "dtype";
inline constexpr llvm::StringLiteral TensorAccess = "access";
inline constexpr llvm::StringLiteral TensorArg = "arg";
inline constexpr llvm::StringLiteral TensorRank = "rank";
inline constexpr llvm::StringLiteral TensorShape = "shape";
inline constexpr llvm::StringLiteral TensorElements = "elements";
inline constexpr llvm::StringLiteral TensorPartial = "partial";
inline constexpr llvm::StringLiteral TensorIndices = "indices";
inline constexpr llvm::StringLiteral TensorIndexBound = "index_bound";
inline constexpr llvm::StringLiteral TensorExtra = "extra";
inline constexpr llvm::StringLiteral TensorOffset = "offset";
inline constexpr llvm::StringLiteral TensorSliced = "sliced";

// struct flop_convention
inline constexpr llvm::StringLiteral CountElementwise = "count_elementwise";
inline constexpr llvm::StringLiteral HalveCausal = "halve_causal";

// struct expectations
inline constexpr llvm::StringLiteral ExpectedBound = "bound";
inline constexpr llvm::StringLiteral MaxTrafficRatio = "max_traffic_ratio";
inline constexpr llvm::StringLiteral MinRooflineFraction = "min_roofline_fraction";

// CUDA built-in variables the body checks follow (threadIdx.x).
inline constexpr llvm::StringLiteral ThreadIdx = "threadIdx";
inline constexpr llvm::StringLiteral LaneX = "x";

}  // namespace rooflint::analyzer::spelling
