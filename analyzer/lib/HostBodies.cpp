#include "rooflint/analyzer/HostBodies.h"

#include <atomic>
#include <mutex>
#include <set>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/analyzer/PchCache.h"

namespace rooflint::analyzer {
namespace {

std::mutex SkippedMutex;
std::atomic<bool> AnySkipped{false};  // checked first: every function body of every parse asks
std::set<std::string> &skipped() {
  static std::set<std::string> Keys;
  return Keys;
}

std::string where(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  const clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid()) return "";
  return presumedFileName(SM, P) + ":" + std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
}

/// clang's errors of one parse, where they are.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  struct Error {
    clang::SourceLocation Loc;
    std::string Message;
  };
  std::vector<Error> Errors;
  bool Elsewhere = false;  ///< an error without a place in the file (the command line's, say)

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error) return;
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid()) {
      Elsewhere = true;
      return;
    }
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Errors.push_back({Info.getLocation(), Message.str().str()});
  }
};

/// Whether the device side may skip @p F's body: host-only, and clang would skip it (not constexpr,
/// whose body constant evaluation needs, nor of a deduced return type).
bool hostOnly(const clang::FunctionDecl &F) {
  return !F.isConstexpr() && !F.hasAttr<clang::CUDADeviceAttr>() && !F.hasAttr<clang::CUDAGlobalAttr>() &&
         !F.getReturnType()->getContainedDeducedType();
}

/// Finds, for each error, the outermost host-only function whose body holds it.
class Locator : public clang::ASTConsumer, public clang::RecursiveASTVisitor<Locator> {
public:
  Locator(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (Collected.Errors.empty() || Collected.Elsewhere) return;
    SM = &Ctx.getSourceManager();
    Holder.assign(Collected.Errors.size(), nullptr);
    TraverseDecl(Ctx.getTranslationUnitDecl());
    std::vector<UnparsedHostBody> Bodies;
    llvm::StringSet<> Seen;
    for (std::size_t I = 0; I < Holder.size(); ++I) {
      if (!Holder[I]) return;  // an error outside every host-only body: not ours to excuse
      const std::string Key = where(*SM, Holder[I]->getLocation());
      if (Key.empty()) return;
      if (Seen.insert(Key).second)
        Bodies.push_back({Key, Holder[I]->getQualifiedNameAsString(),
                          where(*SM, Collected.Errors[I].Loc) + ": " + Collected.Errors[I].Message});
    }
    Out = std::move(Bodies);
  }

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    const clang::Stmt *Body = F->getBody();
    if (!Body || !hostOnly(*F)) return true;
    const clang::SourceRange R(SM->getExpansionLoc(Body->getBeginLoc()), SM->getExpansionLoc(Body->getEndLoc()));
    for (std::size_t I = 0; I < Holder.size(); ++I) {
      const clang::SourceLocation Loc = SM->getExpansionLoc(Collected.Errors[I].Loc);
      if (!SM->isPointWithin(Loc, R.getBegin(), R.getEnd())) continue;
      // The outermost: a lambda's or a local class's function lies within its enclosing function.
      if (!Holder[I] || SM->isBeforeInTranslationUnit(R.getBegin(), SM->getExpansionLoc(Holder[I]->getBody()->getBeginLoc())))
        Holder[I] = F;
    }
    return true;
  }

private:
  const ErrorCollector &Collected;
  std::optional<std::vector<UnparsedHostBody>> &Out;
  const clang::SourceManager *SM = nullptr;
  std::vector<const clang::FunctionDecl *> Holder;  ///< per error
};

class LocateAction : public clang::ASTFrontendAction {
public:
  LocateAction(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> List;
    List.push_back(std::make_unique<BodySkipper>());  // as the analysis's parse: system headers' host bodies
    List.push_back(std::make_unique<Locator>(Collected, Out));
    return std::make_unique<clang::MultiplexConsumer>(std::move(List));
  }

private:
  const ErrorCollector &Collected;
  std::optional<std::vector<UnparsedHostBody>> &Out;
};

class LocateFactory : public clang::tooling::FrontendActionFactory {
public:
  LocateFactory(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<LocateAction>(Collected, Out); }

private:
  const ErrorCollector &Collected;
  std::optional<std::vector<UnparsedHostBody>> &Out;
};

}  // namespace

std::optional<std::vector<UnparsedHostBody>> findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database,
                                                                   const std::string &File) {
  std::optional<std::vector<UnparsedHostBody>> Out;
  ErrorCollector Collected;
  clang::tooling::ClangTool Tool(Database, {File});
  Tool.setDiagnosticConsumer(&Collected);
  Tool.setPrintErrorMessage(false);
  for (const auto &[Path, Contents] : virtualFiles()) Tool.mapVirtualFile(Path, Contents);
  LocateFactory Factory(Collected, Out);
  llvm::StringSet<> Dependencies;
  PchUse Use;
  PchCacheSettings NoCache;
  NoCache.Enabled = false;  // the device-side settings of the analysis's parse, without the cache
  auto Action = makePrefixPchAction(Factory, NoCache, Dependencies, Use);
  Tool.run(Action.get());
  if (Out && Out->empty()) Out.reset();
  return Out;
}

void skipHostBodies(const std::vector<UnparsedHostBody> &Bodies) {
  const std::lock_guard<std::mutex> Lock(SkippedMutex);
  for (const UnparsedHostBody &B : Bodies) skipped().insert(B.Key);
  AnySkipped = !skipped().empty();
}

bool isSkippedHostBody(const clang::SourceManager &SM, clang::SourceLocation NameLoc) {
  if (!AnySkipped) return false;
  const std::string Key = where(SM, NameLoc);
  const std::lock_guard<std::mutex> Lock(SkippedMutex);
  return skipped().count(Key) > 0;
}

}  // namespace rooflint::analyzer
