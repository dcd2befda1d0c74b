#pragma once
/// @file HostBodies.h
/// Host code that clang 19 does not parse but nvcc may (`kernel << <grid, block >> > (args)`, with
/// spaces in the launch's chevrons, say). The device side needs no host-only function's body, so
/// where every error clang reports lies in such bodies, the file is parsed again with those bodies
/// skipped (AnalyzerOptions::UnparsedHostBodies) and its specs are analysed after all.

#include <optional>
#include <string>
#include <vector>

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"

namespace rooflint::analyzer {

/// A host-only function whose body holds clang's errors.
struct UnparsedHostBody {
  std::string Key;         ///< hostBodyKey of its name: what skipsBody matches in the next parse
  std::string Where;       ///< "file:line:column" of its name
  std::string Function;    ///< its qualified name
  std::string FirstError;  ///< "file:line:column: message", the first error in its body
};

/// Where a function's name at @p NameLoc is, as the same parse of the same file gives it again: the
/// presumed expansion position, and the spelling's (functions one macro call defines share the first).
std::string hostBodyKey(const clang::SourceManager &SM, clang::SourceLocation NameLoc);

/// Parses @p File (device side, as the analysis does, without the PCH cache) and finds, for each of
/// clang's errors, the outermost host-only function whose body holds it. @return Those functions;
/// nothing when the file parses, or when an error lies anywhere else (a declaration, the command line,
/// a device function or a `__device__` lambda, however deep in host code).
std::optional<std::vector<UnparsedHostBody>> findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database,
                                                                   const std::string &File);

}  // namespace rooflint::analyzer
