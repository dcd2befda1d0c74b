#pragma once
/// @file HostBodies.h
/// Host code that clang 19 does not parse but nvcc may (`kernel << <grid, block >> > (args)`, with
/// spaces in the launch's chevrons, say). The device side needs no host-only function's body, so
/// where every error clang reports lies in such bodies, the file is parsed again with those bodies
/// skipped (AnalyzerOptions::UnparsedHostBodies) and its specs are analysed after all. The analysis's
/// own parse places its errors as it runs (HostBodyLocator); a parse of its own is needed only when
/// clang stopped placing them (past its limit of 20 errors).

#include <memory>
#include <string>
#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

namespace rooflint::analyzer {

/// A host-only function whose body holds clang's errors.
struct UnparsedHostBody {
  std::string Key;         ///< its hostBodyKey: what skipsBody matches in the next parse
  std::string Where;       ///< "file:line:column" of its name
  std::string Function;    ///< its qualified name
  std::string FirstError;  ///< "file:line:column: message", the first error in its body
  /// The file its name expands in (its real path): a cached PCH that entered it may hold the body (a
  /// header's template, say, whose errors come only from the main file's instantiations).
  std::string File;
};

/// Where a parse's errors are.
struct HostBodyErrors {
  enum class Kind {
    None,          ///< it reported no error
    InHostBodies,  ///< every one in the bodies of host-only functions: Bodies
    Elsewhere,     ///< one in a declaration, a device function or a `__device__` lambda however deep in host code
    Unplaced,      ///< one without a place (clang's "too many errors", the command line's)
  } What = Kind::None;
  std::vector<UnparsedHostBody> Bodies;
};

/// Function @p F as any parse of the same file names it again, with or without a PCH: where its name
/// expands (presumed), its qualified name and its type (functions one macro call defines share the
/// first). Not the name's spelling: a pasted name's is in clang's scratch space, whose lines count the
/// pastes before it, the headers' too, which a PCH's parse made apart.
std::string hostBodyKey(const clang::SourceManager &SM, const clang::FunctionDecl &F);

/// Places the errors of the parses it watches in host-only bodies while they run: the parse's
/// diagnostics go through diagnostics() (which passes each on), its actions are made by wrap()'s
/// factory (which adds a consumer to each). Only a parse with errors costs it anything.
class HostBodyLocator {
public:
  explicit HostBodyLocator(clang::DiagnosticConsumer &Next);
  ~HostBodyLocator();
  clang::DiagnosticConsumer &diagnostics();
  std::unique_ptr<clang::tooling::FrontendActionFactory> wrap(clang::tooling::FrontendActionFactory &Inner);
  /// The errors of the latest parse, placed.
  HostBodyErrors errors() const;

  class State;  ///< what its parts share (HostBodies.cpp)

private:
  std::unique_ptr<State> S;
  std::unique_ptr<clang::DiagnosticConsumer> Collector;
};

/// Parses @p File (device side, as the analysis does, without the PCH cache and without clang's limit
/// on errors) and places each error (HostBodyLocator; an error without a place is Elsewhere here).
HostBodyErrors findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database, const std::string &File);

}  // namespace rooflint::analyzer
