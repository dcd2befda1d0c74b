#include "test_harness.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "rooflint/analyzer/CudaSetup.h"
#include "rooflint/model/peaks_table.h"

namespace rooflint::analyzer::testing {

std::string readInput(const std::string &Name) {
  std::ifstream In(std::string(ROOFLINT_ANALYZER_INPUTS) + "/" + Name);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

AnalysisRun analyze(const std::string &Code, const std::string &FileName, const RunOptions &Options) {
  AnalysisRun R;
  AnalyzerOptions A;
  A.Peaks = *model::find_peaks(Options.Gpu);
  A.Diagnostics.setWarningsAsErrors(Options.WarningsAsErrors);
  for (const std::string &F : Options.Flags) llvm::cantFail(A.Diagnostics.applyWarningFlag(F));

  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  const std::string Path = "/rooflint-test/" + FileName;
  Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  for (const auto &[File, Contents] : virtualFiles()) Memory->addFile(File, 0, llvm::MemoryBuffer::getMemBufferCopy(Contents));
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), Overlay);

  CudaEnvironment Env = detectEnvironment();
  std::vector<std::string> Args{"clang++", "-std=c++20", "-fsyntax-only", "-I" ROOFLINT_DSL_INCLUDE,
                                "-I" ROOFLINT_ANALYZER_INPUTS};
  if (!Options.RealToolkit) {
    Env.ToolkitPath.clear();
    Args.push_back("-nocudainc");
    Args.push_back("-nocudalib");
  }
  Args.insert(Args.end(), Options.CompilerArgs.begin(), Options.CompilerArgs.end());
  Args.push_back(Path);
  std::vector<std::string> Notes;
  Args = adjustCommandLine(Args, "/rooflint-test", Path, Env, Notes);

  llvm::raw_string_ostream OS(R.Output);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  clang::TextDiagnosticPrinter Printer(OS, DiagOpts.get());
  auto Factory = makeActionFactory(A, R.Results);
  clang::tooling::ToolInvocation Invocation(Args, Factory->create(), Files.get());
  Invocation.setDiagnosticConsumer(&Printer);
  R.Parsed = Invocation.run();
  OS.flush();
  return R;
}

std::vector<DiagRecord> named(const AnalysisRun &R, const std::string &Name) {
  std::vector<DiagRecord> Out;
  for (const DiagRecord &D : R.Results.Diagnostics)
    if (D.Name == Name) Out.push_back(D);
  return Out;
}

const DiagRecord *diagnosticContaining(const AnalysisRun &R, llvm::StringRef Name, llvm::StringRef Containing) {
  for (const DiagRecord &D : R.Results.Diagnostics)
    if (D.Name == Name && llvm::StringRef(D.Message).contains(Containing)) return &D;
  return nullptr;
}

const llvm::json::Object &manifestKernel(const llvm::json::Value &Manifest, llvm::StringRef Name) {
  if (const llvm::json::Array *Kernels = Manifest.getAsObject() ? Manifest.getAsObject()->getArray("kernels") : nullptr)
    for (const llvm::json::Value &K : *Kernels)
      if (K.getAsObject() && K.getAsObject()->getString("name") == Name) return *K.getAsObject();
  ADD_FAILURE() << "no kernel " << Name.str() << " in the manifest";
  static const llvm::json::Object None;
  return None;
}

}  // namespace rooflint::analyzer::testing
