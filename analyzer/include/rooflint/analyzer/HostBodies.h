#pragma once
/// @file HostBodies.h
/// Host code that clang 19 does not parse but nvcc may (`kernel << <grid, block >> > (args)`, with
/// spaces in the launch's chevrons, say). The device side needs no host-only function's body, so
/// where every error clang reports lies in such bodies, the file is parsed again with those bodies
/// skipped and its specs are analysed after all.

#include <optional>
#include <string>
#include <vector>

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"

namespace rooflint::analyzer {

/// A host-only function whose body holds clang's errors.
struct UnparsedHostBody {
  std::string Key;         ///< where its name is, "file:line:column" (presumed): what skipsBody matches
  std::string Function;    ///< its qualified name
  std::string FirstError;  ///< "file:line:column: message", the first error in its body
};

/// Parses @p File (device side, as the analysis does) and finds the host-only functions whose bodies
/// hold clang's errors. @return Them; nothing when the file parses, or when an error lies anywhere else
/// (a declaration, a device function, a spec, the command line).
std::optional<std::vector<UnparsedHostBody>> findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database,
                                                                   const std::string &File);

/// From now on, in this process, device-side parses skip the bodies at @p Keys too (skipsBody). A
/// worker analyses one file.
void skipHostBodies(const std::vector<UnparsedHostBody> &Bodies);

/// Whether the function whose name is at @p NameLoc is one skipHostBodies() was given.
bool isSkippedHostBody(const clang::SourceManager &SM, clang::SourceLocation NameLoc);

}  // namespace rooflint::analyzer
