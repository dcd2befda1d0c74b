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
#include "llvm/Support/FileSystem.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/analyzer/PchCache.h"

namespace rooflint::analyzer {

/// What the locator's diagnostics and consumers share: the errors of the parse running, then where they are.
class HostBodyLocator::State {
public:
  struct Error {
    clang::SourceLocation Loc;
    std::string Message;
  };
  explicit State(clang::DiagnosticConsumer &Next) : Next(Next) {}
  clang::DiagnosticConsumer &Next;
  std::vector<Error> Errors;
  bool Unplaced = false;  ///< an error without a place in the file (past clang's limit, the command line's)
  bool Located = false;   ///< the parse reached its end, where its errors were placed
  HostBodyErrors Result;

  /// A run of the file begins (again, after a PCH clang refused): its errors. An error without a place
  /// before any run (the driver's, of the command line) stays.
  void beginParse() {
    Errors.clear();
    Located = false;
    Result = HostBodyErrors();
  }
};

namespace {

/// Notes clang's errors of the parse and passes every diagnostic on. Its counts, which say whether the
/// action succeeded, are the next consumer's: that one decides what counts.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  explicit ErrorCollector(HostBodyLocator::State &S) : S(S) {}
  void BeginSourceFile(const clang::LangOptions &LangOpts, const clang::Preprocessor *PP) override {
    S.beginParse();
    S.Next.BeginSourceFile(LangOpts, PP);
    mirror();
  }
  void EndSourceFile() override { S.Next.EndSourceFile(); }
  void finish() override { S.Next.finish(); }
  void clear() override {
    S.Next.clear();
    mirror();
  }
  bool IncludeInDiagnosticCounts() const override { return S.Next.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    S.Next.HandleDiagnostic(Level, Info);
    mirror();
    if (Level < clang::DiagnosticsEngine::Error) return;
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid()) {
      S.Unplaced = true;
      return;
    }
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    S.Errors.push_back({Info.getLocation(), Message.str().str()});
  }

private:
  void mirror() {
    NumErrors = S.Next.getNumErrors();
    NumWarnings = S.Next.getNumWarnings();
  }
  HostBodyLocator::State &S;
};

/// A device function's attribute written in the code, not one clang gives a lambda by default.
template <class A>
bool explicitly(const clang::FunctionDecl &F) {
  const A *Attr = F.getAttr<A>();
  return Attr && !Attr->isImplicit();
}

/// Finds, for each error, the outermost host-only function whose body holds it, and whether a device
/// function holds it too (a `__device__` lambda in host code: its errors are the device side's). It
/// walks the declarations this parse made or instantiated, not those a PCH holds (which parsed
/// without errors: a PCH's template reaches it as this parse's instantiations).
class Locator : public clang::ASTConsumer, public clang::RecursiveASTVisitor<Locator> {
public:
  explicit Locator(HostBodyLocator::State &S) : S(S) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override {
    TopLevel.insert(TopLevel.end(), Group.begin(), Group.end());
    return true;
  }
  void HandleInterestingDecl(clang::DeclGroupRef) override {}  // a PCH's, read on demand

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    S.Located = true;
    if (S.Errors.empty() && !S.Unplaced) return;
    if (S.Unplaced) {
      S.Result.What = HostBodyErrors::Kind::Unplaced;
      return;
    }
    SM = &Ctx.getSourceManager();
    Holder.assign(S.Errors.size(), nullptr);
    InDevice.assign(S.Errors.size(), false);
    for (clang::Decl *D : TopLevel) TraverseDecl(D);
    S.Result = placed();
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
  /// The host-only functions that hold the errors, once each, or Elsewhere.
  HostBodyErrors placed() const {
    HostBodyErrors Out;
    Out.What = HostBodyErrors::Kind::Elsewhere;
    llvm::StringSet<> Seen;
    for (std::size_t I = 0; I < Holder.size(); ++I) {
      if (!Holder[I] || InDevice[I]) return Out;  // not a host body's error: not ours to excuse
      // An instantiation's errors are its template's, whose body the next parse skips (a PCH's
      // template reaches the walk as the instantiations this parse made).
      const clang::FunctionDecl &F = patternOf(*Holder[I]);
      const std::string Key = hostBodyKey(*SM, F);
      if (Seen.insert(Key).second)
        Out.Bodies.push_back({Key, presumedPosition(*SM, F.getLocation()), F.getQualifiedNameAsString(),
                              presumedPosition(*SM, S.Errors[I].Loc) + ": " + S.Errors[I].Message, realFile(F.getLocation())});
    }
    Out.What = HostBodyErrors::Kind::InHostBodies;
    return Out;
  }

  static const clang::FunctionDecl &patternOf(const clang::FunctionDecl &F) {
    const clang::FunctionDecl *Pattern = F.getTemplateInstantiationPattern();
    return Pattern ? *Pattern : F;
  }

  std::string realFile(clang::SourceLocation Loc) const {
    const clang::OptionalFileEntryRef F = SM->getFileEntryRefForID(SM->getFileID(SM->getExpansionLoc(Loc)));
    if (!F) return "";
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(F->getName(), Real)) return F->getName().str();
    return Real.str().str();
  }

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
      if (!SM->isPointWithin(S.Errors[I].Loc, Begin, End)) continue;
      if (Device) {
        InDevice[I] = true;
        continue;
      }
      // The outermost: a lambda's or a local class's function lies within its enclosing function.
      if (!Holder[I] || SM->isBeforeInTranslationUnit(Begin, Holder[I]->getBody()->getBeginLoc())) Holder[I] = &F;
    }
  }

  HostBodyLocator::State &S;
  std::vector<clang::Decl *> TopLevel;
  const clang::SourceManager *SM = nullptr;
  std::vector<const clang::FunctionDecl *> Holder;  ///< per error
  std::vector<bool> InDevice;                       ///< per error
};

/// An action of the parse, with the locator's consumer beside its own.
class LocatingAction : public clang::WrapperFrontendAction {
public:
  LocatingAction(std::unique_ptr<clang::FrontendAction> Inner, HostBodyLocator::State &S)
      : clang::WrapperFrontendAction(std::move(Inner)), S(S) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> List;
    List.push_back(clang::WrapperFrontendAction::CreateASTConsumer(CI, InFile));
    if (!List.front()) return nullptr;
    List.push_back(std::make_unique<Locator>(S));
    return std::make_unique<clang::MultiplexConsumer>(std::move(List));
  }

private:
  HostBodyLocator::State &S;
};

class LocatingFactory : public clang::tooling::FrontendActionFactory {
public:
  LocatingFactory(clang::tooling::FrontendActionFactory &Inner, HostBodyLocator::State &S) : Inner(Inner), S(S) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<LocatingAction>(Inner.create(), S); }

private:
  clang::tooling::FrontendActionFactory &Inner;
  HostBodyLocator::State &S;
};

/// The device-side parse alone: the bodies the analysis skips, skipped.
class ParseFactory : public clang::tooling::FrontendActionFactory {
  class Action : public clang::ASTFrontendAction {
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
      return std::make_unique<BodySkipper>();
    }
  };

public:
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<Action>(); }
};

}  // namespace

HostBodyLocator::HostBodyLocator(clang::DiagnosticConsumer &Next)
    : S(std::make_unique<State>(Next)), Collector(std::make_unique<ErrorCollector>(*S)) {}
HostBodyLocator::~HostBodyLocator() = default;
clang::DiagnosticConsumer &HostBodyLocator::diagnostics() { return *Collector; }
std::unique_ptr<clang::tooling::FrontendActionFactory> HostBodyLocator::wrap(clang::tooling::FrontendActionFactory &Inner) {
  return std::make_unique<LocatingFactory>(Inner, *S);
}
HostBodyErrors HostBodyLocator::errors() const {
  // A parse that ended early (a file it could not read) placed nothing.
  if (!S->Located && (!S->Errors.empty() || S->Unplaced)) return {HostBodyErrors::Kind::Unplaced, {}};
  return S->Result;
}

std::string hostBodyKey(const clang::SourceManager &SM, const clang::FunctionDecl &F) {
  return presumedPosition(SM, F.getLocation()) + "|" + F.getQualifiedNameAsString() + "|" + F.getType().getAsString();
}

HostBodyErrors findUnparsedHostBodies(const clang::tooling::CompilationDatabase &Database, const std::string &File) {
  clang::IgnoringDiagConsumer Quiet;
  HostBodyLocator Locate(Quiet);
  clang::tooling::ClangTool Tool(Database, {File});
  prepareTool(Tool, Locate.diagnostics());
  // Every error placed: past clang's limit (20) the last is "too many errors", which is nowhere.
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster("-ferror-limit=0"));
  ParseFactory Parse;
  const auto Factory = Locate.wrap(Parse);
  llvm::StringSet<> Dependencies;
  PchUse Use;
  PchCacheSettings NoCache;
  NoCache.Enabled = false;  // the device-side settings of the analysis's parse, without the cache
  auto Action = makePrefixPchAction(*Factory, NoCache, Dependencies, Use);
  Tool.run(Action.get());
  HostBodyErrors Out = Locate.errors();
  if (Out.What == HostBodyErrors::Kind::Unplaced) Out.What = HostBodyErrors::Kind::Elsewhere;  // the command line's
  return Out;
}

}  // namespace rooflint::analyzer
