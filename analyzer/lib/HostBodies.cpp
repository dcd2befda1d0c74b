#include "rooflint/analyzer/HostBodies.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/analyzer/PchCache.h"

namespace rooflint::analyzer {
namespace {

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

/// A device function's attribute written in the code, not one clang gives a lambda by default.
template <class A>
bool explicitly(const clang::FunctionDecl &F) {
  const A *Attr = F.getAttr<A>();
  return Attr && !Attr->isImplicit();
}

/// Finds, for each error, the outermost host-only function whose body holds it, and whether a device
/// function holds it too (a `__device__` lambda in host code: its errors are the device side's).
class Locator : public clang::ASTConsumer, public clang::RecursiveASTVisitor<Locator> {
public:
  Locator(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (Collected.Errors.empty() || Collected.Elsewhere) return;
    SM = &Ctx.getSourceManager();
    Holder.assign(Collected.Errors.size(), nullptr);
    InDevice.assign(Collected.Errors.size(), false);
    TraverseDecl(Ctx.getTranslationUnitDecl());
    std::vector<UnparsedHostBody> Bodies;
    llvm::StringSet<> Seen;
    for (std::size_t I = 0; I < Holder.size(); ++I) {
      if (!Holder[I] || InDevice[I]) return;  // not a host body's error: not ours to excuse
      const std::string Key = hostBodyKey(*SM, Holder[I]->getLocation());
      if (Seen.insert(Key).second)
        Bodies.push_back({Key, presumedPosition(*SM, Holder[I]->getLocation()), Holder[I]->getQualifiedNameAsString(),
                          presumedPosition(*SM, Collected.Errors[I].Loc) + ": " + Collected.Errors[I].Message});
    }
    Out = std::move(Bodies);
  }

  bool VisitFunctionDecl(clang::FunctionDecl *F) {
    // The definition only: a prototype's getBody() is its definition's, and its name is elsewhere.
    if (F->doesThisDeclarationHaveABody()) note(*F);
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr *L) {  // the visitor walks a lambda's body, not its operator
    if (const clang::CXXMethodDecl *Call = L->getCallOperator()) note(*Call);
    return true;
  }

private:
  /// Notes the errors @p F's body holds: a device function's, or a host-only one's.
  void note(const clang::FunctionDecl &F) {
    if (!F.getBody()) return;
    const bool Device = explicitly<clang::CUDADeviceAttr>(F) || explicitly<clang::CUDAGlobalAttr>(F);
    const bool Skippable = isHostOnly(F) && !F.getReturnType()->getContainedDeducedType();
    if (!Device && !Skippable) return;
    // Locations as they are, not their expansions: the functions one macro call defines all expand at
    // the call, and only their places in the macro's text tell whose body an error is in.
    const clang::SourceLocation Begin = F.getBody()->getBeginLoc(), End = F.getBody()->getEndLoc();
    for (std::size_t I = 0; I < Holder.size(); ++I) {
      if (!SM->isPointWithin(Collected.Errors[I].Loc, Begin, End)) continue;
      if (Device) {
        InDevice[I] = true;
        continue;
      }
      // The outermost: a lambda's or a local class's function lies within its enclosing function.
      if (!Holder[I] || SM->isBeforeInTranslationUnit(Begin, Holder[I]->getBody()->getBeginLoc())) Holder[I] = &F;
    }
  }


  const ErrorCollector &Collected;
  std::optional<std::vector<UnparsedHostBody>> &Out;
  const clang::SourceManager *SM = nullptr;
  std::vector<const clang::FunctionDecl *> Holder;  ///< per error
  std::vector<bool> InDevice;                       ///< per error
};

class LocateFactory : public clang::tooling::FrontendActionFactory {
public:
  LocateFactory(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<Action>(Collected, Out); }

private:
  class Action : public clang::ASTFrontendAction {
  public:
    Action(const ErrorCollector &Collected, std::optional<std::vector<UnparsedHostBody>> &Out) : Collected(Collected), Out(Out) {}
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
  const ErrorCollector &Collected;
  std::optional<std::vector<UnparsedHostBody>> &Out;
};

}  // namespace

std::string hostBodyKey(const clang::SourceManager &SM, clang::SourceLocation NameLoc) {
  return presumedPosition(SM, NameLoc) + "|" + presumedPosition(SM, SM.getSpellingLoc(NameLoc));
}

std::optional<std::vector<UnparsedHostBody>> findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database,
                                                                   const std::string &File) {
  std::optional<std::vector<UnparsedHostBody>> Out;
  ErrorCollector Collected;
  clang::tooling::ClangTool Tool(Database, {File});
  prepareTool(Tool, Collected);
  // Every error placed: past clang's limit (20) the last is "too many errors", which is nowhere.
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster("-ferror-limit=0"));
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

}  // namespace rooflint::analyzer
