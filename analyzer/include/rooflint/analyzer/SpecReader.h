#pragma once
/// @file SpecReader.h
/// Reads a spec's constant value (Clang's APValue of a rooflint::dsl::spec) into a plain
/// rooflint::dsl::spec, so the analyzer computes with the model's own functions.

#include <string>
#include <vector>

#include "clang/AST/APValue.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/Support/Error.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::analyzer {

/// @return Whether @p T is rooflint::dsl::spec or a record derived from it (kernel_spec<...>).
bool isSpecType(clang::QualType T);

/// A spec read from the AST: the value, and the bound kernel when the spec has one.
struct ReadSpec {
  dsl::spec Spec;
  const clang::FunctionDecl *Kernel = nullptr;  ///< null when the value names no function
  bool HasKernelMember = false;                 ///< the record has kernel_spec's `kernel` member
  /// A region's kernels (region_spec's template arguments), in launch order: the function for a kernel
  /// given by its function, null for a library kernel (matched by Spec.region's pattern).
  std::vector<const clang::FunctionDecl *> RegionKernels;
};

/// Reads @p Value of type @p T. Fails with the first field it cannot find or read
/// ("field 'dims' of 'rooflint::dsl::spec' not found").
llvm::Expected<ReadSpec> readSpec(const clang::APValue &Value, clang::QualType T, const clang::ASTContext &Ctx);

}  // namespace rooflint::analyzer
