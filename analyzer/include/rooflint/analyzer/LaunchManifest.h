#pragma once
/// @file LaunchManifest.h
/// What a verifier needs to find and bind a kernel's launches in a program it did not build
/// (rooflint-verify -- ./program): the kernel's parameters as Clang lays them out, the spec's
/// launch binding (how each size is read from a launch), and the spec's value as data, from which the
/// runtime rebuilds the same rooflint::dsl::spec. Schema: docs/manifest-schema.md.

#include <string>
#include <vector>

#include "clang/AST/Decl.h"
#include "llvm/Support/JSON.h"
#include "rooflint/dsl/spec.h"

namespace rooflint::analyzer {

/// One parameter of a kernel: what a launch's argument buffer holds for it.
struct ParamRecord {
  std::string Name;         ///< empty for an unnamed parameter
  std::string Type;         ///< as written after desugaring ("int", "const float *")
  unsigned SizeBytes = 0;   ///< sizeof, bytes
  unsigned AlignBytes = 0;  ///< alignof, bytes
  unsigned OffsetBytes = 0; ///< in the launch's argument buffer: each parameter at its alignment, in order
  std::string Kind;         ///< "integer", "bool", "pointer", "floating", "enum", "record", "other"
  bool Signed = false;      ///< integer and enum kinds
};

/// @return The parameters of @p F with sizes, alignments and offsets from @p F's ASTContext.
std::vector<ParamRecord> kernelParams(const clang::FunctionDecl &F);

/// @return The "parameters" array of the manifest.
llvm::json::Array paramsJson(const std::vector<ParamRecord> &Params);

/// @return The "launch" object (kind, sizes with the parameter each is read from), or null when the
/// spec reads no size from launches.
llvm::json::Value launchJson(const dsl::spec &S, const std::vector<ParamRecord> &Params);

/// @return The "spec_value" object: every field of @p S, polynomials as dimension names and terms.
llvm::json::Object specValueJson(const dsl::spec &S);

}  // namespace rooflint::analyzer
