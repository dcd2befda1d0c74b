#pragma once
/// @file LaunchManifest.h
/// What a verifier needs to find and bind a kernel's launches in a program it did not build
/// (rooflint-verify -- ./program): the kernel's parameters as Clang lays them out. The spec's launch
/// binding and the spec's value travel in the manifest's record (rooflint/files/manifest.h) as they are.

#include <vector>

#include "clang/AST/Decl.h"
#include "rooflint/files/manifest.h"

namespace rooflint::analyzer {

/// @return The parameters of @p F with sizes, alignments and offsets from @p F's ASTContext: each at the
/// next offset that is a multiple of its alignment, as a launch's argument buffer holds them.
std::vector<manifest::parameter> kernelParams(const clang::FunctionDecl &F);

}  // namespace rooflint::analyzer
